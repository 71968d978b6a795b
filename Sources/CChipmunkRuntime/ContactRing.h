// The engine's ring of contact buffers (cpSpaceStep.c), mirrored for Chipmunk 7.0.3 and
// checked once on a probe space (`CChipmunkContactRingLayoutIsKnown`). Private to
// CChipmunkRuntime: SpaceState.c and SpaceClone.c share it.
#ifndef CCHIPMUNK_CONTACT_RING_H
#define CCHIPMUNK_CONTACT_RING_H

#include <chipmunk/chipmunk_private.h>

/// A contact buffer's header; its contacts follow it.
typedef struct MirrorContactBuffer MirrorContactBuffer;
struct MirrorContactBuffer {
    cpTimestamp stamp;
    MirrorContactBuffer *next;
    unsigned int numContacts;
};

#define MIRROR_CONTACTS_PER_BUFFER ((CP_BUFFER_BYTES - sizeof(MirrorContactBuffer)) / sizeof(struct cpContact))
/// A whole buffer, as the engine allocates it.
#define MIRROR_CONTACT_BUFFER_BYTES (sizeof(MirrorContactBuffer) + MIRROR_CONTACTS_PER_BUFFER * sizeof(struct cpContact))

/// Whether the mirror matches the engine (checked once).
int CChipmunkContactRingLayoutIsKnown(void);

/// With no contact in use (every arbiter pooled): every buffer of the ring stamped old
/// enough to be recycled, and the next made the newest, stamped `stamp`.
void CChipmunkRecycleContactRing(cpSpace *space, cpTimestamp stamp);

#endif
