// The contacts of pairs the engine leaves cached beside sleeping bodies, kept in memory of
// their own.
//
// The engine never expires a cached arbiter whose two bodies are asleep (or static), and
// leaves its contacts where they were: in its ring of contact buffers, which later steps
// reuse. A group falls asleep by itself with such a pair when one of its bodies left a
// contact fewer than `collisionPersistence` steps before (a ball that hopped off the
// floor and came to rest in the air). Woken touching again, the pair matches its old
// contacts by hash and carries over their impulses: in the ring, those of whatever contact
// lies there then. That depends on how the ring was filled, which a restored snapshot or
// state lays out anew: the original and a restore drifted apart at the first step of the
// new touch (docs/snapshots.md).
//
// So, in every step where a group falls asleep (the engine pushes its root onto
// `sleepingComponents` through `cpArrayPush`, which EngineGuard.cpp sees), and after a
// restore or a copy, the contacts of such pairs are copied out of the ring into blocks
// kept here, as the engine itself does for the contacts of a sleeping group's touching
// pairs. The pair then reads the contacts it had when it slept: what the engine reads too
// as long as the ring has not reused them, and the same in the original, a restore and a
// copy after that. A block is freed once its arbiter holds other contacts (it touched again,
// expired, was forgotten or restored), checked after each step, and with the space.
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>
#include <stdlib.h>
#include <string.h>

#include "ContactRing.h"
#include "KeptContacts.h"

typedef struct KeptBlock {
    cpArbiter *arbiter;
    struct cpContact *contacts;
} KeptBlock;

struct CChipmunkKeptContacts {
    KeptBlock *blocks;
    size_t count, capacity;
};

CChipmunkKeptContacts *CChipmunkKeptContactsCreate(void) {
    CChipmunkKeptContacts *kept = calloc(1, sizeof *kept);
    if (!kept) abort();
    return kept;
}

void CChipmunkKeptContactsDestroy(CChipmunkKeptContacts *kept) {
    if (!kept) return;
    for (size_t i = 0; i < kept->count; i++) free(kept->blocks[i].contacts);
    free(kept->blocks);
    free(kept);
}

size_t CChipmunkKeptContactsCount(const CChipmunkKeptContacts *kept) { return kept ? kept->count : 0; }

/// Frees the blocks whose arbiters no longer point at them. The engine sets an arbiter's
/// contacts only to the ring or to a block of its own, so a block its arbiter has left is
/// read by nothing.
static void sweep(CChipmunkKeptContacts *kept) {
    size_t live = 0;
    for (size_t i = 0; i < kept->count; i++) {
        KeptBlock block = kept->blocks[i];
        if (block.arbiter->contacts == block.contacts) {
            kept->blocks[live++] = block;
        } else {
            free(block.contacts);
        }
    }
    kept->count = live;
}

static int restsWithoutTicking(cpBody *body) {
    return cpBodyGetType(body) == CP_BODY_TYPE_STATIC || cpBodyIsSleeping(body);
}

/// Whether `contacts` lies in one of the space's contact buffers.
static int inRing(cpSpace *space, const struct cpContact *contacts) {
    MirrorContactBuffer *head = (MirrorContactBuffer *)space->contactBuffersHead;
    if (!head) return 0;
    const unsigned char *address = (const unsigned char *)contacts;
    MirrorContactBuffer *buffer = head;
    do {
        const unsigned char *start = (const unsigned char *)buffer;
        if (address >= start && address < start + MIRROR_CONTACT_BUFFER_BYTES) return 1;
        buffer = buffer->next;
    } while (buffer != head);
    return 0;
}

/// A new block of `arbiter->count` contacts, kept for `arbiter`; NULL when out of memory.
static struct cpContact *add(CChipmunkKeptContacts *kept, cpArbiter *arbiter) {
    if (kept->count == kept->capacity) {
        size_t capacity = kept->capacity ? kept->capacity * 2 : 16;
        KeptBlock *blocks = realloc(kept->blocks, capacity * sizeof *blocks);
        if (!blocks) return NULL;
        kept->blocks = blocks;
        kept->capacity = capacity;
    }
    struct cpContact *contacts = malloc(sizeof(struct cpContact) * (size_t)arbiter->count);
    if (!contacts) return NULL;
    kept->blocks[kept->count++] = (KeptBlock){arbiter, contacts};
    return contacts;
}

struct cpContact *CChipmunkKeptContactsAdd(CChipmunkKeptContacts *kept, cpArbiter *arbiter) {
    return kept ? add(kept, arbiter) : NULL;
}

typedef struct KeepContext {
    cpSpace *space;
    CChipmunkKeptContacts *kept;
} KeepContext;

static void keep(void *element, void *data) {
    cpArbiter *arbiter = element;
    KeepContext *context = data;
    if (arbiter->count <= 0 || !arbiter->contacts) return;
    if (!restsWithoutTicking(arbiter->body_a) || !restsWithoutTicking(arbiter->body_b)) return;
    if (!inRing(context->space, arbiter->contacts)) return;
    struct cpContact *contacts = add(context->kept, arbiter);
    if (!contacts) abort();  // as the engine's own cpcalloc would
    memcpy(contacts, arbiter->contacts, sizeof(struct cpContact) * (size_t)arbiter->count);
    arbiter->contacts = contacts;
}

void CChipmunkKeepSleepingPairContacts(void *space, CChipmunkKeptContacts *kept) {
    cpSpace *s = space;
    if (!kept || s->locked) return;
    if (kept->count > 0) sweep(kept);
    // Only a sleeping body's pairs stay cached without ticking (a static body's with
    // another static body forget their contacts as it turns static: KindChange.c).
    if (s->sleepingComponents->num == 0 || !CChipmunkContactRingLayoutIsKnown()) return;
    KeepContext context = {s, kept};
    cpHashSetEach(s->cachedArbiters, keep, &context);
}

void CChipmunkKeptContactsAfterStep(void *space, CChipmunkKeptContacts *kept, int groupsFellAsleep) {
    if (groupsFellAsleep) {
        CChipmunkKeepSleepingPairContacts(space, kept);
    } else if (kept && kept->count > 0) {
        sweep(kept);
    }
}
