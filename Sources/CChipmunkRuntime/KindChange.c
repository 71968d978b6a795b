// A body turned static (`Body.kind`), and the contacts it leaves behind.
//
// The engine never expires a cached arbiter whose two bodies are static (or asleep), and
// keeps such an arbiter's contacts where they were: in its ring of contact buffers, which
// it reuses as it steps, so other pairs' contacts soon lie there. Turned dynamic again,
// the body meets its old arbiter in the cache, and `cpArbiterUpdate` carries over the
// impulses of whatever contact now lies there with the same hash (every circle's is 0):
// values no snapshot holds, which depend on how the ring was filled. A snapshot restored
// then, or a copy, drifted from the original (found by a helper's attack on `copy()`: 8 of
// 120 revivals). The arbiters between the body and static bodies forget their contacts
// when it turns static instead: revived, the pair starts from no impulse, as a new one.
//
// A group put to sleep, by `Body.sleep` or by itself, keeps the same kind of arbiter; its
// contacts are copied out of the ring instead (KeptContacts.c), since the pair may wake
// and touch again while the engine's own would still be intact.
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>

static void forget(void *element, void *data) {
    cpArbiter *arbiter = element;
    const cpBody *body = data;
    if (arbiter->body_a != body && arbiter->body_b != body) return;
    if (cpBodyGetType(arbiter->body_a) != CP_BODY_TYPE_STATIC || cpBodyGetType(arbiter->body_b) != CP_BODY_TYPE_STATIC) {
        return;
    }
    arbiter->count = 0;
    arbiter->contacts = NULL;
}

void CChipmunkForgetStaticPairContacts(void *space, void *body) {
    cpSpace *s = space;
    if (s->locked) return;
    cpHashSetEach(s->cachedArbiters, forget, body);
}
