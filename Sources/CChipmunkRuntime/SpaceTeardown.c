// Freeing a space whose objects outlive it (`Space.deinit`).
//
// An object something else still holds is taken out of the C space before it is freed, so
// that it can join another space. Taking a shape out filters every cached arbiter for the
// shape's (`cpSpaceFilterArbiters`), and a shape of a sleeping body first wakes its pile:
// so a space whose shapes all outlive it (held by a `SpaceState`, say) took a pass over
// its arbiters per shape: 118 ms to free a copy of pyramid100 (5,050 shapes, 13,720
// arbiters) beside a state saved from it, 4 ms now.
// Dropping every arbiter first, in one pass, leaves nothing for those filters, and a cache
// made one slot long leaves them nothing to walk (a filter walks every slot of the table,
// which never shrinks: 16,000 and more for that pile).
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>

#include "BroadPhaseMirror.h"

static cpBool dropArbiter(void *element, void *data) {
    cpArbiter *arbiter = element;
    cpSpace *space = data;
    cpArbiterUnthread(arbiter);
    cpArrayPush(space->pooledArbiters, arbiter);
    return cpFalse;
}

void CChipmunkSpaceDropArbiters(void *cSpace) {
    cpSpace *space = cSpace;
    if (space->locked) return;
    // A sleeping pile's arbiters are on its bodies, not in the cache: waking it puts them
    // there (and its bodies with the awake ones, as a removal would).
    for (int left = space->sleepingComponents->num; left > 0; left--) {
        int before = space->sleepingComponents->num;
        cpBodyActivate(space->sleepingComponents->arr[before - 1]);
        if (space->sleepingComponents->num >= before) break;  // not a root the engine wakes: left to the removals
    }
    cpHashSetFilter(space->cachedArbiters, dropArbiter, space);
    space->arbiters->num = 0;
    // Empty now, and its table at least one slot long: an insertion grows it again.
    if (CChipmunkBroadPhaseLayoutIsKnown()) ((MirrorSet *)space->cachedArbiters)->size = 1;
}
