// A body turned static (`Body.kind`): the contacts it leaves behind, and where its shapes lie.
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
//
// The engine moves a body's shapes to the static index as it turns static, without
// updating them: they keep the world-space data (a circle's centre, a polygon's planes)
// of the last step, and a body moved since (its position, angle, or centre of gravity
// when a shape's mass changed) left its shapes where it was before. A snapshot does not
// record that data, and a restore computes it from the body's transform, so the restored
// static shape lay elsewhere, by an ulp after a change of mass (a helper's fuzz, seed 75).
// They are updated, and reindexed, when that changes them.
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>
#include <string.h>

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

/// The bytes of the largest shape struct: the shape updated in place is compared with them.
typedef union ShapeBytes {
    cpCircleShape circle;
    cpSegmentShape segment;
    cpPolyShape poly;
} ShapeBytes;

static size_t shapeSize(const cpShape *shape) {
    switch (shape->klass->type) {
    case CP_CIRCLE_SHAPE: return sizeof(cpCircleShape);
    case CP_SEGMENT_SHAPE: return sizeof(cpSegmentShape);
    default: return sizeof(cpPolyShape);
    }
}

void CChipmunkUpdateStaticShapes(void *space, void *body) {
    cpSpace *s = space;
    cpBody *b = body;
    if (s->locked || cpBodyGetType(b) != CP_BODY_TYPE_STATIC) return;
    int moved = 0;
    CP_BODY_FOREACH_SHAPE(b, shape) {
        // A polygon's vertices past the struct's own (more than CP_POLY_SHAPE_INLINE_ALLOC)
        // lie elsewhere; its bounding box changes with them, and is in the struct.
        ShapeBytes before;
        size_t size = shapeSize(shape);
        memcpy(&before, shape, size);
        cpShapeUpdate(shape, b->transform);
        if (memcmp(&before, shape, size) != 0) moved = 1;
    }
    if (moved) cpSpaceReindexShapesForBody(s, b);
}
