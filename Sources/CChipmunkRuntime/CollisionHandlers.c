// An arbiter's collision handlers, and wildcard and default handlers added while contacts
// exist.
//
// The engine fills in an arbiter's wildcard handlers (`handlerA`, `handlerB`) in
// `cpArbiterUpdate` only while the space uses wildcards or the pair has a handler of its
// own; otherwise they stay NULL. Adding a wildcard handler or the default handler sets
// `usesWildcards` and gives the default handler callbacks that call through them. An
// arbiter cached (or asleep) from before, which separates before its next update (its
// shape or body removed, or the pair apart at the next step), called through NULL: the
// engine crashed (a helper's attack, through `onCollision`, `defaultCollisionHandler`,
// `copy()`, and a `SpaceState` saved before the handler was added, then restored).
//
// When the flag turns on, every arbiter then gets its wildcard handlers, as its next
// update would have given it; a restore fills in those of the arbiters it writes back
// (SpaceState.c), and a copy and a snapshot's restore set the flag before their arbiters.
#include "CChipmunkRuntime.h"

#include "EngineStructs.h"

static void fillCached(void *element, void *space) { fillWildcardHandlers(space, element); }

static int fillSleeping(cpArbiter *arbiter, void *space) {
    fillWildcardHandlers(space, arbiter);
    return 1;
}

void CChipmunkFillWildcardHandlers(void *opaque) {
    cpSpace *space = opaque;
    if (!space->usesWildcards) return;
    cpHashSetEach(space->cachedArbiters, fillCached, space);
    forEachSleepingArbiter(space, fillSleeping, space);
}

void CChipmunkArbiterSetHandlers(void *space, void *arbiter) { setHandlers(space, arbiter); }
