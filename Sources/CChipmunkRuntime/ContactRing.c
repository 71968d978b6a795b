// The engine's ring of contact buffers: its layout checked, and recycled by a restore.
#include "ContactRing.h"

#include <pthread.h>
#include <stdlib.h>

#include "CChipmunkRuntime.h"

static pthread_once_t layoutOnce = PTHREAD_ONCE_INIT;
static int layoutIsKnown;

/// A probe space's ring read through the mirror against what the engine's functions say:
/// a fresh buffer stamped now, alone in its ring, its contacts right after its header.
static void checkLayout(void) {
    cpSpace *space = cpSpaceNew();
    if (!space) return;
    space->stamp = 77;
    cpSpacePushFreshContactBuffer(space);
    MirrorContactBuffer *head = (MirrorContactBuffer *)space->contactBuffersHead;
    struct cpContact *contacts = cpContactBufferGetArray(space);
    int ok = head && head->stamp == 77 && head->next == head && head->numContacts == 0 &&
             (unsigned char *)contacts == (unsigned char *)head + sizeof(MirrorContactBuffer);
    if (ok) {
        cpSpacePushContacts(space, 2);
        ok = head->numContacts == 2 && cpContactBufferGetArray(space) == contacts + 2;
    }
    cpSpaceFree(space);
    layoutIsKnown = ok;
}

int CChipmunkContactRingLayoutIsKnown(void) {
    pthread_once(&layoutOnce, checkLayout);
    return layoutIsKnown;
}

/// (Pushing a fresh buffer as a step does would allocate a new one at each restore while
/// the ring's oldest is younger than the collision persistence: a snapshot restored again
/// and again into one space grew its ring by 32 KB each time, and a copy of it copied them
/// all: 874 us for pyramid20 after 30 restores, 0.2 ms with the ring recycled.)
void CChipmunkRecycleContactRing(cpSpace *space, cpTimestamp stamp) {
    MirrorContactBuffer *head = (MirrorContactBuffer *)space->contactBuffersHead;
    if (head && CChipmunkContactRingLayoutIsKnown()) {
        MirrorContactBuffer *buffer = head;
        do {
            buffer->stamp = stamp - space->collisionPersistence - 1;
            buffer = buffer->next;
        } while (buffer != head);
    }
    cpSpacePushFreshContactBuffer(space);
}

void CChipmunkSpaceRecycleContactRing(void *space) {
    cpSpace *s = space;
    CChipmunkRecycleContactRing(s, s->stamp);
}
