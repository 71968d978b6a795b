// `Space.copy()`: a space's engine state cloned into a new space, struct by struct, with
// every pointer moved to its counterpart.
//
// The Swift side makes the new space's bodies, shapes and constraints (of the same kinds
// and geometry, not added to it) and its collision handlers, and hands both lists here, in
// the same order. This copies each struct whole and keeps the new object's own callbacks
// and user data; copies the engine's arrays, every cached or sleeping arbiter with its
// contacts, and both trees of the broad phase: their buffers of nodes and pairs whole (each
// pointer inside moved to the same offset of the new buffer), and their leaf sets bin by
// bin, so the new trees visit their leaves in the same order. Nothing is rebuilt or looked
// up by geometry, so the copy continues with the bits of the original.
//
// Arbiters are hashed in the cache by their shapes' addresses, which differ: they go into
// the new cache afresh (as a snapshot's restore puts them), so only the order in which
// `separate` callbacks of expiring contacts run may differ from the original's.
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "BroadPhaseMirror.h"
#include "ContactRing.h"
#include "KeptContacts.h"
#include "EngineStructs.h"
#include "PointerMap.h"

// MARK: Where each object went

/// The copy of `key` in a map of originals to their copies (bodies, shapes, constraints
/// and arbiters, by address); NULL for NULL, and for an object the map lacks.
static void *mapGet(const PointerMap *map, const void *key) {
    uintptr_t value;
    return pointerMapFind(map, key, &value) ? (void *)value : NULL;
}

// MARK: Where each tree buffer went

typedef struct BufferPair {
    uintptr_t from;
    unsigned char *to;
} BufferPair;

/// The trees' buffers, found by the 32 KB block of address space a pointer lies in: a
/// buffer is 32 KB, so it touches at most two blocks, and a block at most two buffers.
/// (jointgrid50 has 1,100 buffers and 3.4 million pointers to move: a binary search over
/// the buffers took 100 ms of its copy.)
typedef struct BufferSlot {
    uintptr_t block;     // the block's number + 1; 0 for an empty slot
    int32_t buffers[2];  // indices into `pairs`; -1 for none
} BufferSlot;

typedef struct BufferMap {
    BufferPair *pairs;
    size_t count;
    BufferSlot *slots;
    size_t mask;
    int missed;  // a pointer into no buffer: the clone is refused
} BufferMap;

#define BLOCK_SHIFT 15
_Static_assert((1 << BLOCK_SHIFT) == CP_BUFFER_BYTES, "a block is one buffer long");

static BufferSlot *blockSlot(BufferMap *map, uintptr_t block, int insert) {
    size_t i = (size_t)(((uint64_t)block * 0x9E3779B97F4A7C15ull) >> 32) & map->mask;
    while (map->slots[i].block && map->slots[i].block != block + 1) i = (i + 1) & map->mask;
    if (!map->slots[i].block) {
        if (!insert) return NULL;
        map->slots[i] = (BufferSlot){block + 1, {-1, -1}};
    }
    return &map->slots[i];
}

/// Indexes the buffers in `pairs` by the blocks they touch.
static int indexBuffers(BufferMap *map) {
    size_t size = 64;
    while (size < map->count * 4) size <<= 1;
    map->slots = (BufferSlot *)calloc(size, sizeof(BufferSlot));
    if (!map->slots) return 0;
    map->mask = size - 1;
    for (size_t k = 0; k < map->count; k++) {
        uintptr_t from = map->pairs[k].from;
        for (uintptr_t block = from >> BLOCK_SHIFT; block <= (from + CP_BUFFER_BYTES - 1) >> BLOCK_SHIFT; block++) {
            BufferSlot *slot = blockSlot(map, block, 1);
            slot->buffers[slot->buffers[0] < 0 ? 0 : 1] = (int32_t)k;
        }
    }
    return 1;
}

/// The index of the buffer `pointer` lies in; -1 for none.
static int32_t bufferOf(BufferMap *map, uintptr_t p) {
    const BufferSlot *slot = blockSlot(map, p >> BLOCK_SHIFT, 0);
    for (int j = 0; slot && j < 2; j++) {
        int32_t k = slot->buffers[j];
        if (k >= 0 && p - map->pairs[k].from < CP_BUFFER_BYTES) return k;
    }
    return -1;
}

/// The copy's counterpart of a node or pair of the original's trees.
static void *moved(BufferMap *map, const void *pointer) {
    if (!pointer) return NULL;
    int32_t k = bufferOf(map, (uintptr_t)pointer);
    if (k < 0) {
        map->missed = 1;
        return NULL;
    }
    return map->pairs[k].to + ((uintptr_t)pointer - map->pairs[k].from);
}

/// Like `moved`, for a pointer that may lie in no buffer (a pair slot never used, a contact
/// array outside the ring): NULL then, and the clone goes on.
static void *movedIfAny(BufferMap *map, const void *pointer) {
    int32_t k = pointer ? bufferOf(map, (uintptr_t)pointer) : -1;
    return k < 0 ? NULL : map->pairs[k].to + ((uintptr_t)pointer - map->pairs[k].from);
}

// MARK: Clone

typedef struct Clone {
    cpSpace *from, *to;
    PointerMap objects;  // each original object → its copy
    BufferMap buffers;   // the trees' buffers
    BufferMap contacts;  // the contact buffers, once their ring is cloned
    int ringCloned;
    int failed;
    CChipmunkKeptContacts *kept;  // the copy's blocks of kept contacts
} Clone;

/// The copy of an object the map must hold.
static void *counterpart(Clone *clone, const void *object) {
    void *copy = mapGet(&clone->objects, object);
    if (object && !copy) clone->failed = 1;
    return copy;
}

#define COPY_OF(clone, p) ((__typeof__(p))counterpart((clone), (p)))
#define MOVED(clone, p) ((__typeof__(p))moved(&(clone)->buffers, (p)))

static void cloneBody(Clone *clone, cpBody *to, const cpBody *from) {
    cpBodyVelocityFunc velocity = to->velocity_func;
    cpBodyPositionFunc position = to->position_func;
    cpDataPointer userData = to->userData;
    *to = *from;
    to->velocity_func = velocity;
    to->position_func = position;
    to->userData = userData;
    to->space = clone->to;
    to->shapeList = COPY_OF(clone, from->shapeList);
    to->arbiterList = COPY_OF(clone, from->arbiterList);
    to->constraintList = COPY_OF(clone, from->constraintList);
    to->sleeping.root = COPY_OF(clone, from->sleeping.root);
    to->sleeping.next = COPY_OF(clone, from->sleeping.next);
}

static void cloneShape(Clone *clone, cpShape *to, const cpShape *from) {
    if (to->klass != from->klass) {
        clone->failed = 1;
        return;
    }
    cpDataPointer userData = to->userData;
    switch (from->klass->type) {
    case CP_CIRCLE_SHAPE: *(cpCircleShape *)to = *(const cpCircleShape *)from; break;
    case CP_SEGMENT_SHAPE: *(cpSegmentShape *)to = *(const cpSegmentShape *)from; break;
    case CP_POLY_SHAPE: {
        cpPolyShape *poly = (cpPolyShape *)to;
        const cpPolyShape *original = (const cpPolyShape *)from;
        if (poly->count != original->count) {
            clone->failed = 1;
            return;
        }
        // The planes lie inside the struct or in a block of the shape's own: kept where they are.
        *to = *from;
        poly->r = original->r;
        memcpy(poly->planes, original->planes, 2 * (size_t)original->count * sizeof(struct cpSplittingPlane));
        break;
    }
    default: clone->failed = 1; return;
    }
    to->userData = userData;
    to->space = clone->to;
    to->body = COPY_OF(clone, from->body);
    to->next = COPY_OF(clone, from->next);
    to->prev = COPY_OF(clone, from->prev);
}

static void cloneConstraint(Clone *clone, cpConstraint *to, const cpConstraint *from) {
    size_t size = CChipmunkConstraintStructSize(from);
    if (to->klass != from->klass || size == 0) {
        clone->failed = 1;
        return;
    }
    // The copy's callbacks (the binding's guarded spring laws among them) stay its own.
    cpConstraintPreSolveFunc preSolve = to->preSolve;
    cpConstraintPostSolveFunc postSolve = to->postSolve;
    cpDataPointer userData = to->userData;
    cpDampedSpringForceFunc force = cpConstraintIsDampedSpring(to) ? ((cpDampedSpring *)to)->springForceFunc : NULL;
    cpDampedRotarySpringTorqueFunc torque =
        cpConstraintIsDampedRotarySpring(to) ? ((cpDampedRotarySpring *)to)->springTorqueFunc : NULL;
    memcpy(to, from, size);
    to->preSolve = preSolve;
    to->postSolve = postSolve;
    to->userData = userData;
    if (force) ((cpDampedSpring *)to)->springForceFunc = force;
    if (torque) ((cpDampedRotarySpring *)to)->springTorqueFunc = torque;
    to->space = clone->to;
    to->a = COPY_OF(clone, from->a);
    to->b = COPY_OF(clone, from->b);
    to->next_a = COPY_OF(clone, from->next_a);
    to->next_b = COPY_OF(clone, from->next_b);
}

/// Makes room for `count` pointers in an engine array, in one allocation.
static int reserveArray(cpArray *array, int count) {
    if (array->max >= count) return 1;
    void **items = (void **)realloc(array->arr, (size_t)count * sizeof(void *));
    if (!items) return 0;
    array->arr = items;
    array->max = count;
    return 1;
}

// MARK: Contact buffers

/// Copies the original's ring of contact buffers, each whole (with what its free slots
/// still hold: a contact an arbiter no longer owns can be read again, see below), in the
/// same order from the same head, and indexes them in `clone->contacts`.
///
/// Cached contacts lie where the original's do, and the copy's ring fills as the original's
/// does. (The engine expires no arbiter between two static or sleeping bodies, and such an
/// arbiter's contacts stayed where they were while the ring reused their buffer; when the
/// pair touched again, `cpArbiterUpdate` took the impulses of whatever contact lay there
/// then, and a copy packed anew drifted from the original: a helper's attack, a ball made
/// static, then dynamic again. Such contacts are forgotten or kept out of the ring now:
/// KindChange.c, KeptContacts.c. A contact no step has prestepped still reads four fields
/// from where it lies: docs/snapshots.md.)
static int cloneContactRing(Clone *clone) {
    MirrorContactBuffer *head = (MirrorContactBuffer *)clone->from->contactBuffersHead;
    if (!CChipmunkContactRingLayoutIsKnown() || !head) return 0;
    size_t count = 0;
    MirrorContactBuffer *buffer = head;
    do {
        count++;
        buffer = buffer->next;
    } while (buffer != head && count <= (size_t)clone->from->allocatedBuffers->num);
    BufferMap *map = &clone->contacts;
    map->pairs = (BufferPair *)malloc(count * sizeof(BufferPair));
    if (!map->pairs || buffer != head || !reserveArray(clone->to->allocatedBuffers,
                                                      clone->to->allocatedBuffers->num + (int)count)) {
        return 0;
    }
    MirrorContactBuffer *previous = NULL, *first = NULL;
    buffer = head;
    do {
        MirrorContactBuffer *copy = (MirrorContactBuffer *)malloc(MIRROR_CONTACT_BUFFER_BYTES);
        if (!copy) return 0;
        memcpy(copy, buffer, MIRROR_CONTACT_BUFFER_BYTES);
        cpArrayPush(clone->to->allocatedBuffers, copy);
        map->pairs[map->count++] = (BufferPair){(uintptr_t)buffer, (unsigned char *)copy};
        if (previous) previous->next = copy; else first = copy;
        previous = copy;
        buffer = buffer->next;
    } while (buffer != head);
    previous->next = first;
    clone->to->contactBuffersHead = (cpContactBufferHeader *)first;
    return indexBuffers(map);
}

// MARK: Arbiters

typedef struct ArbiterPair {
    const cpArbiter *from;
    cpArbiter *to;
    int cached;
} ArbiterPair;

typedef struct ArbiterList {
    ArbiterPair *items;
    size_t count, capacity;
} ArbiterList;


/// A pooled arbiter of the copy, its pool filled as the engine fills it when empty.
static cpArbiter *takeArbiter(cpSpace *space) {
    if (space->pooledArbiters->num == 0) {
        int count = CP_BUFFER_BYTES / sizeof(cpArbiter);
        cpArbiter *buffer = (cpArbiter *)calloc(1, CP_BUFFER_BYTES);
        if (!buffer || !reserveArray(space->pooledArbiters, count)) {
            free(buffer);
            return NULL;
        }
        cpArrayPush(space->allocatedBuffers, buffer);
        for (int i = 0; i < count; i++) cpArrayPush(space->pooledArbiters, buffer + i);
    }
    return (cpArbiter *)cpArrayPop(space->pooledArbiters);
}

static void noteArbiter(Clone *clone, ArbiterList *list, const cpArbiter *arbiter, int cached) {
    if (mapGet(&clone->objects, arbiter)) return;
    cpArbiter *copy = takeArbiter(clone->to);
    if (!copy || list->count == list->capacity) {
        clone->failed = 1;
        return;
    }
    pointerMapPut(&clone->objects, arbiter, (uintptr_t)copy);
    list->items[list->count++] = (ArbiterPair){arbiter, copy, cached};
}

static void noteCachedArbiter(void *arbiter, void *data) {
    void **context = (void **)data;
    noteArbiter((Clone *)context[0], (ArbiterList *)context[1], (const cpArbiter *)arbiter, 1);
}

static int noteSleepingArbiter(cpArbiter *arbiter, void *data) {
    void **context = (void **)data;
    Clone *clone = (Clone *)context[0];
    noteArbiter(clone, (ArbiterList *)context[1], arbiter, 0);
    return !clone->failed;
}

static void cloneArbiter(Clone *clone, const ArbiterPair *pair) {
    cpArbiter *to = pair->to;
    const cpArbiter *from = pair->from;
    *to = *from;
    to->data = NULL;
    to->a = COPY_OF(clone, from->a);
    to->b = COPY_OF(clone, from->b);
    to->body_a = COPY_OF(clone, from->body_a);
    to->body_b = COPY_OF(clone, from->body_b);
    to->thread_a.next = COPY_OF(clone, from->thread_a.next);
    to->thread_a.prev = COPY_OF(clone, from->thread_a.prev);
    to->thread_b.next = COPY_OF(clone, from->thread_b.next);
    to->thread_b.prev = COPY_OF(clone, from->thread_b.prev);
    if (clone->failed) return;
    to->contacts = NULL;
    if (from->count > 0 && from->contacts) {
        struct cpContact *inRing =
            pair->cached && clone->ringCloned ? (struct cpContact *)movedIfAny(&clone->contacts, from->contacts) : NULL;
        if (inRing) {
            // At the same offset of the copy's buffer, which holds them already.
            to->contacts = inRing;
        } else if (pair->cached && clone->ringCloned) {
            // Kept out of the ring beside sleeping bodies (KeptContacts.c): kept in the copy
            // too, the copy's ring left as the original's.
            to->contacts = CChipmunkKeptContactsAdd(clone->kept, to);
            if (!to->contacts) {
                clone->failed = 1;
                return;
            }
        } else if (pair->cached) {
            // The copy's newest contact buffer, stamped now: recycled only after these
            // arbiters have expired or found new contacts (as a snapshot's restore does).
            to->contacts = cpContactBufferGetArray(clone->to);
            cpSpacePushContacts(clone->to, from->count);
        } else {
            // A sleeping arbiter's contacts are a block of their own, freed when it wakes.
            to->contacts = (struct cpContact *)calloc((size_t)from->count, sizeof(struct cpContact));
            if (!to->contacts) {
                clone->failed = 1;
                return;
            }
        }
        if (!inRing) memcpy(to->contacts, from->contacts, (size_t)from->count * sizeof(struct cpContact));
    }
    // The copy's handlers, looked up by type as `cpArbiterUpdate` does.
    setHandlers(clone->to, to);
    if (pair->cached) {
        const cpShape *shapes[2] = {to->a, to->b};
        cpHashSetInsert(clone->to->cachedArbiters, CP_HASH_PAIR((cpHashValue)to->a, (cpHashValue)to->b), shapes, NULL,
                        to);
    }
}

// MARK: Trees

/// A bin of the copy's set, from its pool, which is filled as the engine fills it.
static MirrorBin *takeBin(MirrorSet *set) {
    if (!set->pooledBins) {
        size_t count = CP_BUFFER_BYTES / sizeof(MirrorBin);
        MirrorBin *buffer = (MirrorBin *)calloc(1, CP_BUFFER_BYTES);
        if (!buffer) return NULL;
        cpArrayPush(set->allocatedBuffers, buffer);
        for (size_t i = 1; i < count; i++) {
            buffer[i].next = set->pooledBins;
            set->pooledBins = &buffer[i];
        }
        return buffer;
    }
    MirrorBin *bin = set->pooledBins;
    set->pooledBins = bin->next;
    return bin;
}

/// The copy's leaf set: the same size, and each bin's chain in the same order.
static int cloneLeafSet(Clone *clone, MirrorSet *to, const MirrorSet *from) {
    if (to->entries != 0) return 0;
    MirrorBin **table = (MirrorBin **)calloc(from->size, sizeof(MirrorBin *));
    if (!table) return 0;
    free(to->table);
    to->table = table;
    to->size = from->size;
    for (unsigned int i = 0; i < from->size; i++) {
        MirrorBin **link = &table[i];
        for (const MirrorBin *bin = from->table[i]; bin; bin = bin->next) {
            MirrorBin *copy = takeBin(to);
            if (!copy) return 0;
            copy->elt = MOVED(clone, (MirrorNode *)bin->elt);
            copy->hash = bin->hash;
            copy->next = NULL;
            *link = copy;
            link = &copy->next;
            to->entries++;
        }
    }
    return 1;
}

typedef struct NodeStack {
    const MirrorNode **items;
    size_t count, capacity;
} NodeStack;

static int push(NodeStack *stack, const MirrorNode *node) {
    if (stack->count == stack->capacity) {
        size_t capacity = stack->capacity ? stack->capacity * 2 : 256;
        const MirrorNode **items = realloc(stack->items, capacity * sizeof(*items));
        if (!items) return 0;
        stack->items = items;
        stack->capacity = capacity;
    }
    stack->items[stack->count++] = node;
    return 1;
}

/// Marks the buffer a node of the original lies in as a buffer of nodes.
static void markNodes(Clone *clone, const MirrorNode *node, uint8_t *holdsNodes) {
    int32_t k = bufferOf(&clone->buffers, (uintptr_t)node);
    if (k >= 0) holdsNodes[k] = 1;
}

/// Moves the pointers of every node in use under `root` (pairs are moved buffer by buffer:
/// see `movePairBuffers`), and marks their buffers.
static int moveTree(Clone *clone, const MirrorNode *root, NodeStack *stack, uint8_t *holdsNodes) {
    stack->count = 0;
    if (root && !push(stack, root)) return 0;
    while (stack->count > 0) {
        const MirrorNode *node = stack->items[--stack->count];
        MirrorNode *copy = MOVED(clone, (MirrorNode *)node);
        if (!copy) return 0;
        markNodes(clone, node, holdsNodes);
        copy->parent = MOVED(clone, node->parent);
        if (node->obj) {
            copy->obj = counterpart(clone, node->obj);
            copy->node.leaf.pairs = MOVED(clone, node->node.leaf.pairs);
        } else {
            copy->node.children.a = MOVED(clone, node->node.children.a);
            copy->node.children.b = MOVED(clone, node->node.children.b);
            if (!push(stack, node->node.children.a) || !push(stack, node->node.children.b)) return 0;
        }
    }
    return !clone->buffers.missed;
}


/// Moves the pointers of every slot of every buffer that holds no node: a tree carves each
/// buffer into nodes or into pairs, and every node is in use or pooled, so these hold
/// pairs (the classification `SpaceState.c` makes too). A pair in use or pooled holds
/// pointers to the trees' nodes and pairs, or none; a slot never used is zeroed. So a walk
/// in address order moves them all, at memory speed: jointgrid50 has 560,000 pairs, which a
/// walk from their leaves reached in no order (97 ms of its copy).
static void movePairBuffers(Clone *clone, const uint8_t *holdsNodes) {
    BufferMap *map = &clone->buffers;
    size_t perBuffer = CP_BUFFER_BYTES / sizeof(MirrorPair);
    for (size_t k = 0; k < map->count; k++) {
        if (holdsNodes[k]) continue;
        MirrorPair *pairs = (MirrorPair *)map->pairs[k].to;
        for (size_t i = 0; i < perBuffer; i++) {
            MirrorThread *threads[2] = {&pairs[i].a, &pairs[i].b};
            for (int t = 0; t < 2; t++) {
                threads[t]->prev = (MirrorPair *)movedIfAny(map, threads[t]->prev);
                threads[t]->leaf = (MirrorNode *)movedIfAny(map, threads[t]->leaf);
                threads[t]->next = (MirrorPair *)movedIfAny(map, threads[t]->next);
            }
        }
    }
}

/// Copies both trees: buffers, then every pointer in use or in a pool moved.
static int cloneTrees(Clone *clone, MirrorTree *const from[2], MirrorTree *const to[2]) {
    size_t total = 0;
    for (int t = 0; t < 2; t++) {
        if (to[t]->root || to[t]->allocatedBuffers->num != 0) return 0;
        total += (size_t)from[t]->allocatedBuffers->num;
    }
    BufferMap *map = &clone->buffers;
    map->pairs = (BufferPair *)malloc((total ? total : 1) * sizeof(BufferPair));
    if (!map->pairs) return 0;
    for (int t = 0; t < 2; t++) {
        cpArray *buffers = from[t]->allocatedBuffers;
        for (int i = 0; i < buffers->num; i++) {
            unsigned char *copy = (unsigned char *)malloc(CP_BUFFER_BYTES);
            if (!copy) return 0;
            memcpy(copy, buffers->arr[i], CP_BUFFER_BYTES);
            cpArrayPush(to[t]->allocatedBuffers, copy);
            map->pairs[map->count++] = (BufferPair){(uintptr_t)buffers->arr[i], copy};
        }
    }
    if (!indexBuffers(map)) return 0;

    NodeStack stack = {0};
    uint8_t *holdsNodes = (uint8_t *)calloc(map->count ? map->count : 1, 1);
    int ok = holdsNodes != NULL;
    for (int t = 0; t < 2 && ok; t++) {
        const MirrorTree *tree = from[t];
        MirrorTree *copy = to[t];
        copy->root = MOVED(clone, tree->root);
        copy->pooledNodes = MOVED(clone, tree->pooledNodes);
        copy->pooledPairs = MOVED(clone, tree->pooledPairs);
        copy->stamp = tree->stamp;
        ok = moveTree(clone, tree->root, &stack, holdsNodes);
        for (const MirrorNode *node = tree->pooledNodes; ok && node; node = node->parent) {
            MirrorNode *nodeCopy = MOVED(clone, (MirrorNode *)node);
            if (nodeCopy) nodeCopy->parent = MOVED(clone, node->parent);
            markNodes(clone, node, holdsNodes);
        }
        ok = ok && !clone->buffers.missed && cloneLeafSet(clone, copy->leaves, tree->leaves) && !clone->buffers.missed;
    }
    if (ok) movePairBuffers(clone, holdsNodes);
    ok = ok && !clone->buffers.missed;
    free(holdsNodes);
    free(stack.items);
    return ok;
}

// MARK: Shapes for the copy

void *CChipmunkShapeSkeleton(void *shape, const void *original) {
    const cpShape *from = (const cpShape *)original;
    size_t size = from->klass->type == CP_CIRCLE_SHAPE    ? sizeof(cpCircleShape)
                  : from->klass->type == CP_SEGMENT_SHAPE ? sizeof(cpSegmentShape)
                                                          : sizeof(cpPolyShape);
    memset(shape, 0, size);
    cpShape *to = (cpShape *)shape;
    to->klass = from->klass;
    if (from->klass->type == CP_POLY_SHAPE) {
        cpPolyShape *poly = (cpPolyShape *)shape;
        int count = ((const cpPolyShape *)from)->count;
        poly->count = count;
        // As `cpPolyShapeInit` keeps them: inside the struct when they fit, which
        // `cpPolyShapeDestroy` leaves, or in a block of their own, which it frees.
        if (count <= CP_POLY_SHAPE_INLINE_ALLOC) {
            poly->planes = poly->_planes;
        } else {
            poly->planes = (struct cpSplittingPlane *)calloc(2 * (size_t)count, sizeof(struct cpSplittingPlane));
            if (!poly->planes) return NULL;
        }
    }
    return shape;
}

// MARK: The space

static void fillArray(Clone *clone, cpArray *to, const cpArray *from) {
    if (!reserveArray(to, from->num)) {
        clone->failed = 1;
        return;
    }
    for (int i = 0; i < from->num; i++) to->arr[i] = counterpart(clone, from->arr[i]);
    to->num = from->num;
}

static int countArbiter(cpArbiter *arbiter, void *count) {
    (void)arbiter;
    (*(size_t *)count)++;
    return 1;
}

int CChipmunkSpaceCanClone(void *space) {
    cpSpace *s = (cpSpace *)space;
    return CChipmunkMirrorTree(s->staticShapes) && CChipmunkMirrorTree(s->dynamicShapes) && !s->locked &&
           s->rousedBodies->num == 0;
}

int CChipmunkSpaceClone(void *original, void *copy, CChipmunkKeptContacts *copyKept, void *const *fromBodies,
                        void *const *toBodies, int32_t bodyCount, void *const *fromShapes, void *const *toShapes,
                        int32_t shapeCount, void *const *fromConstraints, void *const *toConstraints,
                        int32_t constraintCount) {
    cpSpace *from = (cpSpace *)original, *to = (cpSpace *)copy;
    if (!CChipmunkSpaceCanClone(from) || !CChipmunkSpaceCanClone(to)) return 0;
    MirrorTree *fromTrees[2] = {CChipmunkMirrorTree(from->staticShapes), CChipmunkMirrorTree(from->dynamicShapes)};
    MirrorTree *toTrees[2] = {CChipmunkMirrorTree(to->staticShapes), CChipmunkMirrorTree(to->dynamicShapes)};

    Clone clone = {from, to, {0}, {0}, {0}, 0, 0, copyKept};
    // Every arbiter is in the cache or held only by sleeping bodies, found as a save finds
    // them (every body's list, walked here before, held each awake pair twice more).
    size_t arbiterBound = (size_t)cpHashSetCount(from->cachedArbiters);
    forEachSleepingArbiter(from, countArbiter, &arbiterBound);
    ArbiterList arbiters = {NULL, 0, arbiterBound};
    arbiters.items = (ArbiterPair *)malloc((arbiterBound ? arbiterBound : 1) * sizeof(ArbiterPair));
    int ok = arbiters.items != NULL &&
             pointerMapInit(&clone.objects, (size_t)bodyCount + (size_t)shapeCount + (size_t)constraintCount + arbiterBound);
    if (ok) {
        for (int32_t i = 0; i < bodyCount; i++) pointerMapPut(&clone.objects, fromBodies[i], (uintptr_t)toBodies[i]);
        for (int32_t i = 0; i < shapeCount; i++) pointerMapPut(&clone.objects, fromShapes[i], (uintptr_t)toShapes[i]);
        for (int32_t i = 0; i < constraintCount; i++) pointerMapPut(&clone.objects, fromConstraints[i], (uintptr_t)toConstraints[i]);

        // The space's parameters and counters; then a contact buffer stamped now.
        to->iterations = from->iterations;
        to->gravity = from->gravity;
        to->damping = from->damping;
        to->idleSpeedThreshold = from->idleSpeedThreshold;
        to->sleepTimeThreshold = from->sleepTimeThreshold;
        to->collisionSlop = from->collisionSlop;
        to->collisionBias = from->collisionBias;
        to->collisionPersistence = from->collisionPersistence;
        to->stamp = from->stamp;
        to->curr_dt = from->curr_dt;
        to->shapeIDCounter = from->shapeIDCounter;
        to->usesWildcards = from->usesWildcards || to->usesWildcards;
        clone.ringCloned = cloneContactRing(&clone);
        if (!clone.ringCloned) cpSpacePushFreshContactBuffer(to);

        // Arbiters: the cached ones, then those only sleeping bodies' lists hold.
        void *context[2] = {&clone, &arbiters};
        cpHashSetEach(from->cachedArbiters, noteCachedArbiter, context);
        if (!clone.failed) forEachSleepingArbiter(from, noteSleepingArbiter, context);

        for (int32_t i = 0; i < bodyCount; i++) cloneBody(&clone, toBodies[i], fromBodies[i]);
        for (int32_t i = 0; i < shapeCount; i++) cloneShape(&clone, toShapes[i], fromShapes[i]);
        for (int32_t i = 0; i < constraintCount; i++) cloneConstraint(&clone, toConstraints[i], fromConstraints[i]);
        for (size_t i = 0; i < arbiters.count && !clone.failed; i++) cloneArbiter(&clone, &arbiters.items[i]);

        fillArray(&clone, to->dynamicBodies, from->dynamicBodies);
        fillArray(&clone, to->staticBodies, from->staticBodies);
        fillArray(&clone, to->sleepingComponents, from->sleepingComponents);
        fillArray(&clone, to->constraints, from->constraints);
        fillArray(&clone, to->arbiters, from->arbiters);
        ok = !clone.failed && cloneTrees(&clone, fromTrees, toTrees) && !clone.failed;
    }
    free(arbiters.items);
    pointerMapFree(&clone.objects);
    free(clone.buffers.pairs);
    free(clone.buffers.slots);
    free(clone.contacts.pairs);
    free(clone.contacts.slots);
    return ok;
}
