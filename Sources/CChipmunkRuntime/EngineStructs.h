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

/// The handler the space keeps for types `a` and `b`, or `fallback` when it has none: the
/// engine's own lookup (`cpSpaceLookupHandler`) is private to it.
static inline cpCollisionHandler *lookupHandler(cpSpace *space, cpCollisionType a, cpCollisionType b,
                                                cpCollisionHandler *fallback) {
    cpCollisionType types[2] = {a, b};
    cpCollisionHandler *handler = (cpCollisionHandler *)cpHashSetFind(space->collisionHandlers, CP_HASH_PAIR(a, b), types);
    return handler ? handler : fallback;
}

/// Sets an arbiter's handler, `swapped` flag and wildcard handlers from its shapes'
/// collision types, as `cpArbiterUpdate` does.
static inline void setHandlers(cpSpace *space, cpArbiter *arbiter) {
    cpCollisionType typeA = arbiter->a->type, typeB = arbiter->b->type;
    cpCollisionHandler *defaultHandler = &space->defaultHandler;
    cpCollisionHandler *handler = arbiter->handler = lookupHandler(space, typeA, typeB, defaultHandler);
    cpBool swapped = arbiter->swapped = (typeA != handler->typeA && handler->typeA != CP_WILDCARD_COLLISION_TYPE);
    arbiter->handlerA = arbiter->handlerB = NULL;
    if (handler != defaultHandler || space->usesWildcards) {
        arbiter->handlerA =
            lookupHandler(space, swapped ? typeB : typeA, CP_WILDCARD_COLLISION_TYPE, &cpCollisionHandlerDoNothing);
        arbiter->handlerB =
            lookupHandler(space, swapped ? typeA : typeB, CP_WILDCARD_COLLISION_TYPE, &cpCollisionHandlerDoNothing);
    }
}

/// Fills in an arbiter's wildcard handlers (`handlerA`, `handlerB`) as `cpArbiterUpdate`
/// would, when the space uses wildcards and the arbiter has none (CollisionHandlers.c).
static inline void fillWildcardHandlers(cpSpace *space, cpArbiter *arbiter) {
    if (!space->usesWildcards || (arbiter->handlerA && arbiter->handlerB)) return;
    cpCollisionType typeA = arbiter->a->type, typeB = arbiter->b->type;
    arbiter->handlerA = lookupHandler(space, arbiter->swapped ? typeB : typeA, CP_WILDCARD_COLLISION_TYPE,
                                      &cpCollisionHandlerDoNothing);
    arbiter->handlerB = lookupHandler(space, arbiter->swapped ? typeA : typeB, CP_WILDCARD_COLLISION_TYPE,
                                      &cpCollisionHandlerDoNothing);
}

#endif
