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
// update would have given it, at once (even inside a step); between steps, every arbiter
// gets all its handlers anew (CChipmunkRefreshArbiterHandlers, below). A SpaceState's
// restore does the same for the arbiters it writes back when handlers were added since the
// save (SpaceState.c), and a copy and a snapshot's restore set the flag and the handlers
// before their arbiters.
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

// An arbiter keeps the handler it was given at its last update. A pair handler added while
// its pair touched was not called for that pair's separate when the shapes parted at the
// next step (the arbiter's handler was the default one), while a wildcard handler was
// (filled in above), and so was the pair handler after a snapshot's restore, which gives
// every arbiter its handlers anew (a helper's attack). Every arbiter now gets the
// handlers of the space as it is, as after a restore.
static void refreshCached(void *element, void *space) { setHandlers(space, element); }

static int refreshSleeping(cpArbiter *arbiter, void *space) {
    setHandlers(space, arbiter);
    return 1;
}

void CChipmunkRefreshArbiterHandlers(void *opaque) {
    cpSpace *space = opaque;
    cpHashSetEach(space->cachedArbiters, refreshCached, space);
    forEachSleepingArbiter(space, refreshSleeping, space);
}
