// What CChipmunkRuntime's files share about the engine's public structs (chipmunk_structs.h).
// Private to CChipmunkRuntime.
#ifndef CCHIPMUNK_ENGINE_STRUCTS_H
#define CCHIPMUNK_ENGINE_STRUCTS_H

#include <chipmunk/chipmunk_private.h>

/// The size of a constraint's whole struct, by its class; 0 for a class the engine lacks.
size_t CChipmunkConstraintStructSize(const cpConstraint *c);

/// Calls `visit` with each arbiter only sleeping bodies hold (not in the cache): once, from
/// its body_a, or from its other body when body_a is not asleep (static, or awake). Stops
/// at the first call that returns 0, and returns 0 then. Every other arbiter a body's list
/// holds is in `cachedArbiters`: a space's snapshot and its copy find them there.
static inline int forEachSleepingArbiter(cpSpace *space, int (*visit)(cpArbiter *, void *), void *context) {
    cpArray *components = space->sleepingComponents;
    for (int i = 0; i < components->num; i++) {
        for (cpBody *body = components->arr[i]; body; body = body->sleeping.next) {
            for (cpArbiter *arbiter = body->arbiterList; arbiter;) {
                cpArbiter *next = arbiter->body_a == body ? arbiter->thread_a.next : arbiter->thread_b.next;
                if (arbiter->body_a == body || arbiter->body_a->sleeping.root == NULL) {
                    if (!visit(arbiter, context)) return 0;
                }
                arbiter = next;
            }
        }
    }
    return 1;
}

#endif
