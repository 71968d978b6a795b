// The fast save and restore of a space's state, for rollback (`Space.save(into:)`,
// `Space.restore(_:)` with a `SpaceState`).
//
// A snapshot records a space by index, so that it can be written to a file and restored
// into any space; that costs several steps' time. Rollback saves every frame and restores
// into the same space, whose objects and engine memory are still there: so a saved state
// here is what changes as the world steps, by the address it lives at. Bodies' motion and
// sleeping, constraints' whole structs, shapes' boxes, every cached or sleeping arbiter
// with its contacts, the engine's arrays, and both trees of the broad phase (each node,
// pair and leaf-set entry by address, with the leaf sets' visiting order; a large or full
// dynamic tree as its buffers of nodes and pairs, whole: see `savesWholeTree`). Restoring writes
// each back where it was, and mends the free lists (arbiters, tree nodes and pairs,
// leaf-set bins): what is in use now and the state lacks joins its pool, and what the
// state uses leaves it. Arbiter, node, pair and bin memory belongs to the space until it
// is freed, so every address in the state is still the engine's: in use now, or pooled. The buffers are kept and grown, never
// shrunk: once warm, neither saving nor restoring allocates (sleeping arbiters' contacts
// excepted, which the engine frees one by one when their bodies wake).
//
// What is not saved: which objects the space holds (the Swift side keeps them, and puts
// back through the engine those removed since and takes out those added, before this
// restore), its two index structs (which must be the same), and shapes' geometry and
// material (the Swift side keeps those in a record shared by the states saved while they
// stay the same).
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>
#include <stdlib.h>
#include <string.h>

#include "BroadPhaseMirror.h"
#include "ContactRing.h"
#include "EngineStructs.h"

// MARK: Growable buffers

typedef struct Buffer {
    unsigned char *data;
    size_t count, capacity;  // bytes
} Buffer;

static int reserve(Buffer *buffer, size_t bytes) {
    if (buffer->count + bytes <= buffer->capacity) return 1;
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity < buffer->count + bytes) capacity *= 2;
    unsigned char *data = realloc(buffer->data, capacity);
    if (!data) return 0;
    buffer->data = data;
    buffer->capacity = capacity;
    return 1;
}

static int append(Buffer *buffer, const void *bytes, size_t size) {
    if (!reserve(buffer, size)) return 0;
    memcpy(buffer->data + buffer->count, bytes, size);
    buffer->count += size;
    return 1;
}

#define ITEMS(buffer, type) ((type *)(buffer).data)
#define COUNT(buffer, type) ((buffer).count / sizeof(type))

// MARK: Records

/// A body's state: from `m` up to `userData` (mass, moment, centre of gravity, position,
/// velocity, force, angle, spin, torque, transform), then the bias velocities, the arbiter
/// list and the sleeping fields.
#define BODY_MOTION_OFFSET offsetof(cpBody, m)
#define BODY_MOTION_BYTES (offsetof(cpBody, userData) - offsetof(cpBody, m))

typedef struct BodyRecord {
    cpBody *body;
    unsigned char motion[BODY_MOTION_BYTES];
    cpVect v_bias;
    cpFloat w_bias;
    cpShape *shapeList;
    cpArbiter *arbiterList;
    cpConstraint *constraintList;
    cpBody *root, *next;
    cpFloat idleTime;
} BodyRecord;

typedef struct ShapeRecord {
    cpShape *shape;
    cpBB bb;
    cpShape *next, *prev;
    cpHashValue hashid;
} ShapeRecord;

/// A constraint's whole struct follows its record in `constraintBytes`.
typedef struct ConstraintRecord {
    cpConstraint *constraint;
    uint32_t size;
    uint32_t spring;  // SPRING_* below: which spring callback the restore keeps
} ConstraintRecord;

enum { SPRING_NONE, SPRING_DAMPED, SPRING_ROTARY };

/// What a constraint class needs saved: its struct's size and its spring kind, found once
/// per class (the engine's class tests are calls into the library, ten for a motor).
typedef struct ConstraintClass {
    const cpConstraintClass *klass;
    uint32_t size, spring;
} ConstraintClass;

typedef struct ArbiterRecord {
    cpArbiter *arbiter;
    struct cpArbiter value;
    int cached;
} ArbiterRecord;

typedef struct NodeRecord {
    MirrorNode *node;
    MirrorNode value;
} NodeRecord;

typedef struct PairRecord {
    MirrorPair *pair;
    MirrorPair value;
} PairRecord;

typedef struct SetEntry {
    void *elt;
    cpHashValue hash;
} SetEntry;

typedef struct TreeRecord {
    MirrorNode *root;
    cpTimestamp stamp;
    unsigned int setSize;
    Buffer nodes;    // NodeRecord
    Buffer entries;  // SetEntry, in the set's visiting order
} TreeRecord;

/// The dynamic tree saved buffer by buffer (see `saveWholeTree`): every buffer of nodes and
/// pairs it has allocated, copied whole, with the heads of its pools.
typedef struct WholeTree {
    int used;
    Buffer buffers;  // void *: the tree's allocated buffers when saved, in its order
    Buffer bytes;    // their contents, CP_BUFFER_BYTES each
    MirrorNode *pooledNodes;
    MirrorPair *pooledPairs;
} WholeTree;

struct CChipmunkSpaceState {
    int saved;
    cpSpace *space;
    cpSpatialIndex *indexes[2];

    int iterations;
    cpVect gravity;
    cpFloat damping, idleSpeedThreshold, sleepTimeThreshold, collisionSlop, collisionBias;
    cpTimestamp collisionPersistence, stamp;
    cpFloat curr_dt;
    cpBool usesWildcards;
    // The space's collision handlers, counted: the engine never removes one, so a count
    // that has grown since the save says the arbiters' handlers must be looked up again.
    int handlerCount;
    cpHashValue shapeIDCounter;

    Buffer bodies;           // BodyRecord
    Buffer shapes;           // ShapeRecord
    Buffer constraintBytes;  // ConstraintRecord, then the struct, padded to 8
    Buffer arbiters;         // ArbiterRecord
    Buffer contacts;         // struct cpContact, each arbiter's `count` in turn
    Buffer arrays[5];        // pointers: dynamic, static, sleeping, active constraints, active arbiters
    TreeRecord trees[2];
    Buffer pairs;  // PairRecord; none when the dynamic tree is saved whole
    WholeTree whole;

    // Scratch for restoring, kept to spare allocations.
    Buffer scratch;
    // The constraint classes met so far: ten at most.
    ConstraintClass classes[10];
    int classCount;
};

/// The class of `c`, from the state's table; NULL for a class the engine does not have.
static const ConstraintClass *constraintClass(CChipmunkSpaceState *state, const cpConstraint *c) {
    for (int i = 0; i < state->classCount; i++) {
        if (state->classes[i].klass == c->klass) return &state->classes[i];
    }
    size_t size = CChipmunkConstraintStructSize(c);
    if (size == 0 || state->classCount == 10) return NULL;
    uint32_t spring = cpConstraintIsDampedSpring(c)         ? SPRING_DAMPED
                      : cpConstraintIsDampedRotarySpring(c) ? SPRING_ROTARY
                                                            : SPRING_NONE;
    state->classes[state->classCount] = (ConstraintClass){c->klass, (uint32_t)size, spring};
    return &state->classes[state->classCount++];
}

size_t CChipmunkConstraintStructSize(const cpConstraint *c) {
    if (cpConstraintIsPinJoint(c)) return sizeof(cpPinJoint);
    if (cpConstraintIsSlideJoint(c)) return sizeof(cpSlideJoint);
    if (cpConstraintIsPivotJoint(c)) return sizeof(cpPivotJoint);
    if (cpConstraintIsGrooveJoint(c)) return sizeof(cpGrooveJoint);
    if (cpConstraintIsDampedSpring(c)) return sizeof(cpDampedSpring);
    if (cpConstraintIsDampedRotarySpring(c)) return sizeof(cpDampedRotarySpring);
    if (cpConstraintIsRotaryLimitJoint(c)) return sizeof(cpRotaryLimitJoint);
    if (cpConstraintIsRatchetJoint(c)) return sizeof(cpRatchetJoint);
    if (cpConstraintIsGearJoint(c)) return sizeof(cpGearJoint);
    if (cpConstraintIsSimpleMotor(c)) return sizeof(cpSimpleMotor);
    return 0;
}

CChipmunkSpaceState *CChipmunkSpaceStateCreate(void) { return calloc(1, sizeof(CChipmunkSpaceState)); }

static void freeBuffer(Buffer *buffer) {
    free(buffer->data);
    *buffer = (Buffer){0};
}

void CChipmunkSpaceStateDestroy(CChipmunkSpaceState *state) {
    if (!state) return;
    freeBuffer(&state->bodies);
    freeBuffer(&state->shapes);
    freeBuffer(&state->constraintBytes);
    freeBuffer(&state->arbiters);
    freeBuffer(&state->contacts);
    for (int i = 0; i < 5; i++) freeBuffer(&state->arrays[i]);
    for (int t = 0; t < 2; t++) {
        freeBuffer(&state->trees[t].nodes);
        freeBuffer(&state->trees[t].entries);
    }
    freeBuffer(&state->pairs);
    freeBuffer(&state->whole.buffers);
    freeBuffer(&state->whole.bytes);
    freeBuffer(&state->scratch);
    free(state);
}

size_t CChipmunkSpaceStateHeapBytes(const CChipmunkSpaceState *state) {
    const Buffer *buffers[] = {&state->bodies, &state->shapes, &state->constraintBytes, &state->arbiters,
                               &state->contacts, &state->pairs, &state->whole.buffers, &state->whole.bytes,
                               &state->scratch, &state->trees[0].nodes, &state->trees[0].entries,
                               &state->trees[1].nodes, &state->trees[1].entries};
    size_t bytes = sizeof *state;
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++) bytes += buffers[i]->capacity;
    for (int i = 0; i < 5; i++) bytes += state->arrays[i].capacity;
    return bytes;
}

size_t CChipmunkSpaceStateByteCount(const CChipmunkSpaceState *state) {
    size_t bytes = sizeof *state + state->bodies.count + state->shapes.count + state->constraintBytes.count +
                   state->arbiters.count + state->contacts.count + state->pairs.count;
    for (int i = 0; i < 5; i++) bytes += state->arrays[i].count;
    for (int t = 0; t < 2; t++) bytes += state->trees[t].nodes.count + state->trees[t].entries.count;
    if (state->whole.used) bytes += state->whole.buffers.count + state->whole.bytes.count;
    return bytes;
}

// MARK: Saving

static int saveArray(Buffer *buffer, cpArray *array) {
    buffer->count = 0;
    return append(buffer, array->arr, sizeof(void *) * (size_t)array->num);
}

static int saveArbiter(CChipmunkSpaceState *state, cpArbiter *arbiter, int cached) {
    ArbiterRecord record = {arbiter, *arbiter, cached};
    return append(&state->arbiters, &record, sizeof record) &&
           append(&state->contacts, arbiter->contacts, sizeof(struct cpContact) * (size_t)arbiter->count);
}

typedef struct SaveContext {
    CChipmunkSpaceState *state;
    int ok;
} SaveContext;

static void saveCachedArbiter(void *element, void *data) {
    SaveContext *context = data;
    if (context->ok) context->ok = saveArbiter(context->state, element, 1);
}

static int saveSleepingArbiter(cpArbiter *arbiter, void *state) { return saveArbiter(state, arbiter, 0); }

/// Saves a tree's root, stamp and leaf set, and its nodes one by one unless `whole` (the
/// dynamic tree saved buffer by buffer, which holds them).
static int saveTree(TreeRecord *record, MirrorTree *tree, int whole) {
    record->root = tree->root;
    record->stamp = tree->stamp;
    record->setSize = tree->leaves->size;
    record->nodes.count = 0;
    record->entries.count = 0;
    // Every node reachable from the root; the node records double as the stack.
    if (tree->root && !whole) {
        NodeRecord root = {tree->root, *tree->root};
        if (!append(&record->nodes, &root, sizeof root)) return 0;
        for (size_t i = 0; i < COUNT(record->nodes, NodeRecord); i++) {
            MirrorNode *node = ITEMS(record->nodes, NodeRecord)[i].node;
            if (node->obj) continue;
            NodeRecord a = {node->node.children.a, *node->node.children.a};
            NodeRecord b = {node->node.children.b, *node->node.children.b};
            if (!append(&record->nodes, &a, sizeof a) || !append(&record->nodes, &b, sizeof b)) return 0;
        }
    }
    MirrorSet *set = tree->leaves;
    for (unsigned int i = 0; i < set->size; i++) {
        for (MirrorBin *bin = set->table[i]; bin; bin = bin->next) {
            SetEntry entry = {bin->elt, bin->hash};
            if (!append(&record->entries, &entry, sizeof entry)) return 0;
        }
    }
    return 1;
}

/// Whether to save the dynamic tree buffer by buffer (`saveWholeTree`) rather than node by
/// node and pair by pair. Following each pair from its leaf goes through memory in no order,
/// and a copy of every buffer runs at the memory's speed, so the copy wins once the
/// buffers are full enough: when the tree's nodes alone (2n - 1 for n leaves) fill a
/// quarter of them, or when there are 64 buffers (2 MB) or more, a tree that held
/// thousands of pairs (jointgrid50: 560,000 pairs, 960 buffers; following them costs more
/// than a step). A small tree is walked: a buffer holds 512 nodes or 585 pairs, and copying
/// a whole one for a world of a few bodies would cost more than they do. The price is
/// that a large tree whose pools emptied after a crowded moment (buffers are never freed)
/// is copied whole while it stays large.
static int savesWholeTree(const MirrorTree *tree) {
    size_t buffers = (size_t)tree->allocatedBuffers->num;
    size_t leaves = tree->leaves->entries;
    size_t nodeBytes = leaves ? (2 * leaves - 1) * sizeof(MirrorNode) : 0;
    return buffers >= 64 || (buffers > 0 && 4 * nodeBytes >= buffers * CP_BUFFER_BYTES);
}

/// Saves every buffer the dynamic tree has allocated (its nodes and every pair, for both
/// trees share its pool of pairs), whole, and the heads of its pools.
static int saveWholeTree(WholeTree *whole, MirrorTree *tree) {
    cpArray *buffers = tree->allocatedBuffers;
    whole->buffers.count = 0;
    whole->bytes.count = 0;
    if (!append(&whole->buffers, buffers->arr, sizeof(void *) * (size_t)buffers->num)) return 0;
    if (!reserve(&whole->bytes, (size_t)CP_BUFFER_BYTES * (size_t)buffers->num)) return 0;
    for (int i = 0; i < buffers->num; i++) {
        memcpy(whole->bytes.data + whole->bytes.count, buffers->arr[i], CP_BUFFER_BYTES);
        whole->bytes.count += CP_BUFFER_BYTES;
    }
    whole->pooledNodes = tree->pooledNodes;
    whole->pooledPairs = tree->pooledPairs;
    return 1;
}

/// Every cached pair, once: from the leaf that is its `a`.
static int savePairs(CChipmunkSpaceState *state) {
    state->pairs.count = 0;
    for (int t = 0; t < 2; t++) {
        TreeRecord *record = &state->trees[t];
        for (size_t i = 0; i < COUNT(record->entries, SetEntry); i++) {
            MirrorNode *leaf = ITEMS(record->entries, SetEntry)[i].elt;
            for (MirrorPair *pair = leaf->node.leaf.pairs; pair;) {
                if (pair->a.leaf == leaf) {
                    PairRecord saved = {pair, *pair};
                    if (!append(&state->pairs, &saved, sizeof saved)) return 0;
                }
                pair = pair->a.leaf == leaf ? pair->a.next : pair->b.next;
            }
        }
    }
    return 1;
}

int CChipmunkSpaceStateSave(CChipmunkSpaceState *state, void *cSpace, void *const *cBodies, int32_t bodyCount,
                            void *const *cShapes, int32_t shapeCount, void *const *cConstraints,
                            int32_t constraintCount) {
    cpSpace *space = cSpace;
    cpBody *const *bodies = (cpBody *const *)cBodies;
    cpShape *const *shapes = (cpShape *const *)cShapes;
    cpConstraint *const *constraints = (cpConstraint *const *)cConstraints;
    state->saved = 0;
    MirrorTree *trees[2] = {CChipmunkMirrorTree(space->staticShapes), CChipmunkMirrorTree(space->dynamicShapes)};
    if (!trees[0] || !trees[1] || space->locked || space->rousedBodies->num != 0) return 0;
    state->space = space;
    state->indexes[0] = space->staticShapes;
    state->indexes[1] = space->dynamicShapes;
    state->iterations = space->iterations;
    state->gravity = space->gravity;
    state->damping = space->damping;
    state->idleSpeedThreshold = space->idleSpeedThreshold;
    state->sleepTimeThreshold = space->sleepTimeThreshold;
    state->collisionSlop = space->collisionSlop;
    state->collisionBias = space->collisionBias;
    state->collisionPersistence = space->collisionPersistence;
    state->stamp = space->stamp;
    state->curr_dt = space->curr_dt;
    state->usesWildcards = space->usesWildcards;
    state->handlerCount = cpHashSetCount(space->collisionHandlers);
    state->shapeIDCounter = space->shapeIDCounter;

    state->bodies.count = 0;
    if (!reserve(&state->bodies, sizeof(BodyRecord) * (size_t)bodyCount)) return 0;
    for (int32_t i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        BodyRecord *record = (BodyRecord *)(state->bodies.data + state->bodies.count);
        record->body = body;
        memcpy(record->motion, (unsigned char *)body + BODY_MOTION_OFFSET, BODY_MOTION_BYTES);
        record->v_bias = body->v_bias;
        record->w_bias = body->w_bias;
        record->shapeList = body->shapeList;
        record->arbiterList = body->arbiterList;
        record->constraintList = body->constraintList;
        record->root = body->sleeping.root;
        record->next = body->sleeping.next;
        record->idleTime = body->sleeping.idleTime;
        state->bodies.count += sizeof(BodyRecord);
    }
    state->shapes.count = 0;
    if (!reserve(&state->shapes, sizeof(ShapeRecord) * (size_t)shapeCount)) return 0;
    for (int32_t i = 0; i < shapeCount; i++) {
        cpShape *shape = shapes[i];
        ShapeRecord record = {shape, shape->bb, shape->next, shape->prev, shape->hashid};
        append(&state->shapes, &record, sizeof record);
    }
    state->constraintBytes.count = 0;
    for (int32_t i = 0; i < constraintCount; i++) {
        const ConstraintClass *klass = constraintClass(state, constraints[i]);
        if (!klass) return 0;
        size_t size = klass->size;
        size_t padded = (size + 7) & ~(size_t)7;
        ConstraintRecord record = {constraints[i], (uint32_t)size, klass->spring};
        if (!append(&state->constraintBytes, &record, sizeof record) || !reserve(&state->constraintBytes, padded)) {
            return 0;
        }
        memcpy(state->constraintBytes.data + state->constraintBytes.count, constraints[i], size);
        state->constraintBytes.count += padded;
    }

    state->arbiters.count = 0;
    state->contacts.count = 0;
    SaveContext context = {state, 1};
    cpHashSetEach(space->cachedArbiters, saveCachedArbiter, &context);
    if (!context.ok || !forEachSleepingArbiter(space, saveSleepingArbiter, state)) return 0;

    cpArray *arrays[5] = {space->dynamicBodies, space->staticBodies, space->sleepingComponents, space->constraints,
                          space->arbiters};
    for (int i = 0; i < 5; i++) {
        if (!saveArray(&state->arrays[i], arrays[i])) return 0;
    }
    state->whole.used = savesWholeTree(trees[1]);
    for (int t = 0; t < 2; t++) {
        if (!saveTree(&state->trees[t], trees[t], t == 1 && state->whole.used)) return 0;
    }
    if (state->whole.used) {
        state->pairs.count = 0;
        if (!saveWholeTree(&state->whole, trees[1])) return 0;
    } else if (!savePairs(state)) {
        return 0;
    }
    state->saved = 1;
    return 1;
}

// MARK: Restoring

/// A value no live arbiter, node or pair holds in the field it marks: the state's own.
static int mark;
#define MARK ((void *)&mark)

/// Scratch room for `count` pointers. Out of memory in the middle of a restore aborts, as
/// the engine's own allocations do: a restore, once begun, always completes.
static void **scratch(CChipmunkSpaceState *state, size_t count) {
    state->scratch.count = 0;
    if (!reserve(&state->scratch, sizeof(void *) * (count ? count : 1))) abort();
    return (void **)state->scratch.data;
}

typedef struct CollectContext {
    void **items;
    size_t count, capacity;
} CollectContext;

static void collectElement(void *element, void *data) {
    CollectContext *context = data;
    if (context->count < context->capacity) context->items[context->count] = element;
    context->count++;
}

static cpBool dropElement(void *element, void *data) { return cpFalse; }

static int countArbiter(cpArbiter *arbiter, void *count) {
    (*(size_t *)count)++;
    return 1;
}

/// Collects a sleeping arbiter, freeing its contacts as the engine would when it woke.
static int dropSleepingArbiter(cpArbiter *arbiter, void *context) {
    CollectContext *collect = context;
    free(arbiter->contacts);
    arbiter->contacts = NULL;
    collect->items[collect->count++] = arbiter;
    return 1;
}

/// Once the arbiters are back in the pool, no contact in the space's buffers is in use:
/// the ring is recycled (ContactRing.c), its next buffer the newest, stamped `stamp`.
static void recycleContactBuffers(cpSpace *space, cpTimestamp stamp) {
    CChipmunkRecycleContactRing(space, stamp);
    MirrorContactBuffer *head = (MirrorContactBuffer *)space->contactBuffersHead;
    if (!head || head->stamp != stamp || head->numContacts != 0) abort();
}

/// Puts every arbiter in use now back in the pool (freeing sleeping ones' contacts, as the
/// engine would when they woke), less those the state uses, which it writes back.
static int restoreArbiters(CChipmunkSpaceState *state, cpSpace *space) {
    const int handlersAdded = cpHashSetCount(space->collisionHandlers) != state->handlerCount;
    size_t cachedCount = (size_t)cpHashSetCount(space->cachedArbiters);
    size_t sleepingCount = 0;
    forEachSleepingArbiter(space, countArbiter, &sleepingCount);
    void **live = scratch(state, cachedCount + sleepingCount);
    if (!live) return 0;
    CollectContext context = {live, 0, cachedCount};
    cpHashSetEach(space->cachedArbiters, collectElement, &context);
    context.capacity = cachedCount + sleepingCount;
    forEachSleepingArbiter(space, dropSleepingArbiter, &context);
    size_t count = context.count;
    // Make room in the pool first, while nothing has changed.
    cpArray *pool = space->pooledArbiters;
    size_t needed = (size_t)pool->num + count;
    if ((size_t)pool->max < needed) {
        void **grown = realloc(pool->arr, sizeof(void *) * needed);
        if (!grown) abort();
        pool->arr = grown;
        pool->max = (int)needed;
    }
    cpHashSetFilter(space->cachedArbiters, dropElement, NULL);

    ArbiterRecord *records = ITEMS(state->arbiters, ArbiterRecord);
    size_t recordCount = COUNT(state->arbiters, ArbiterRecord);
    for (size_t i = 0; i < recordCount; i++) records[i].arbiter->state = (enum cpArbiterState)0x7a11;
    // The state's arbiters not in use now are in the pool: they leave it. The pool is a
    // stack, so those freed since the save are near its top, and it is searched from there
    // only as far as it takes (a pool holds a whole buffer's worth of arbiters, which a
    // restore of a small world would otherwise walk every time).
    size_t pooledInState = recordCount;
    for (size_t i = 0; i < count; i++) {
        if (((cpArbiter *)live[i])->state == (enum cpArbiterState)0x7a11) pooledInState--;
    }
    int lowest = pool->num;
    for (int i = pool->num - 1; i >= 0 && pooledInState > 0; i--) {
        if (((cpArbiter *)pool->arr[i])->state == (enum cpArbiterState)0x7a11) {
            lowest = i;
            pooledInState--;
        }
    }
    if (pooledInState != 0) return 0;  // an arbiter of the state neither in use nor pooled: not this space's
    int kept = lowest;
    for (int i = lowest; i < pool->num; i++) {
        cpArbiter *arbiter = pool->arr[i];
        if (arbiter->state != (enum cpArbiterState)0x7a11) pool->arr[kept++] = arbiter;
    }
    for (size_t i = 0; i < count; i++) {
        cpArbiter *arbiter = live[i];
        if (arbiter->state != (enum cpArbiterState)0x7a11) pool->arr[kept++] = arbiter;
    }
    pool->num = kept;

    // The contacts of cached arbiters go to a buffer stamped now (space->stamp is the
    // state's), which the engine recycles only after these arbiters expired or found new
    // contacts; sleeping arbiters' contacts are their own, as the engine keeps them.
    recycleContactBuffers(space, state->stamp);
    struct cpContact *contacts = (struct cpContact *)state->contacts.data;
    for (size_t i = 0; i < recordCount; i++) {
        ArbiterRecord *record = &records[i];
        cpArbiter *arbiter = record->arbiter;
        *arbiter = record->value;
        // Saved before a handler was added, it has the handlers of then: it gets those of
        // now, as a snapshot's restore gives them (CollisionHandlers.c). Otherwise the
        // saved ones are those of now (a handler added refreshes every arbiter's).
        if (handlersAdded) {
            setHandlers(space, arbiter);
        } else {
            fillWildcardHandlers(space, arbiter);
        }
        size_t bytes = sizeof(struct cpContact) * (size_t)arbiter->count;
        if (arbiter->count == 0) {
            arbiter->contacts = NULL;
        } else if (record->cached) {
            arbiter->contacts = cpContactBufferGetArray(space);
            memcpy(arbiter->contacts, contacts, bytes);
            cpSpacePushContacts(space, arbiter->count);
        } else {
            arbiter->contacts = malloc(bytes);
            if (!arbiter->contacts) abort();  // as the engine's own cpcalloc would
            memcpy(arbiter->contacts, contacts, bytes);
        }
        contacts += arbiter->count;
        if (record->cached) {
            const cpShape *pair[] = {arbiter->a, arbiter->b};
            cpHashSetInsert(space->cachedArbiters, CP_HASH_PAIR((cpHashValue)arbiter->a, (cpHashValue)arbiter->b), pair,
                            NULL, arbiter);
        }
    }
    return 1;
}

static void restoreArray(cpArray *array, const Buffer *saved) {
    size_t count = saved->count / sizeof(void *);
    array->num = 0;
    for (size_t i = 0; i < count; i++) cpArrayPush(array, ((void **)saved->data)[i]);
}

/// Writes the tree's nodes back. The nodes the state holds are either in use now or in
/// the tree's pool: those in the pool leave it, and the nodes in use now that the state
/// lacks join it. The pool is a stack, so the state's nodes freed since the save are near
/// its top, and it is searched only as far as it takes: a pool holds a whole buffer of
/// nodes, which a restore of a small world would otherwise walk every time. (Which free
/// node the engine takes next does not change the simulation: only the tree's shape does.)
static int restoreTree(CChipmunkSpaceState *state, MirrorTree *tree, TreeRecord *record) {
    // The nodes in use now, from the root: at most 2n - 1 for n leaves.
    size_t capacity = 2 * (size_t)tree->leaves->entries + 1;
    void **inUse = scratch(state, capacity);
    size_t count = 0;
    if (tree->root) inUse[count++] = tree->root;
    for (size_t i = 0; i < count; i++) {
        MirrorNode *node = inUse[i];
        if (node->obj) continue;
        if (count + 2 > capacity) abort();  // more nodes than a tree of its leaves has
        inUse[count++] = node->node.children.a;
        inUse[count++] = node->node.children.b;
    }
    // The state's nodes are marked in `obj`: a pooled node does not use it, and the nodes
    // in use have been walked.
    NodeRecord *records = ITEMS(record->nodes, NodeRecord);
    size_t recordCount = COUNT(record->nodes, NodeRecord);
    for (size_t i = 0; i < recordCount; i++) records[i].node->obj = MARK;
    size_t pooledInState = recordCount;
    for (size_t i = 0; i < count; i++) {
        if (((MirrorNode *)inUse[i])->obj == MARK) pooledInState--;
    }
    for (MirrorNode **link = &tree->pooledNodes; pooledInState > 0 && *link;) {
        MirrorNode *node = *link;
        if (node->obj == MARK) {
            *link = node->parent;
            pooledInState--;
        } else {
            link = &node->parent;
        }
    }
    if (pooledInState != 0) return 0;  // a node of the state neither in use nor pooled: not this space's
    for (size_t i = 0; i < count; i++) {
        MirrorNode *node = inUse[i];
        if (node->obj == MARK) continue;
        node->parent = tree->pooledNodes;
        tree->pooledNodes = node;
    }
    for (size_t i = 0; i < recordCount; i++) *records[i].node = records[i].value;
    tree->root = record->root;
    tree->stamp = record->stamp;
    return 1;
}

/// The leaf set's bins: all go to its pool, then each entry takes one, in visiting order.
static int restoreSet(MirrorSet *set, TreeRecord *record) {
    if (set->size != record->setSize) {
        MirrorBin **table = calloc(record->setSize, sizeof(MirrorBin *));
        if (!table) abort();
        for (unsigned int i = 0; i < set->size; i++) {
            for (MirrorBin *bin = set->table[i]; bin;) {
                MirrorBin *next = bin->next;
                bin->next = set->pooledBins;
                set->pooledBins = bin;
                bin = next;
            }
        }
        free(set->table);
        set->table = table;
        set->size = record->setSize;
    } else {
        for (unsigned int i = 0; i < set->size; i++) {
            for (MirrorBin *bin = set->table[i]; bin;) {
                MirrorBin *next = bin->next;
                bin->next = set->pooledBins;
                set->pooledBins = bin;
                bin = next;
            }
            set->table[i] = NULL;
        }
    }
    SetEntry *entries = ITEMS(record->entries, SetEntry);
    size_t count = COUNT(record->entries, SetEntry);
    MirrorBin *tail = NULL;
    cpHashValue tailSlot = 0;
    for (size_t i = 0; i < count; i++) {
        MirrorBin *bin = set->pooledBins;
        if (!bin) {
            // As the engine's getUnusedBin: a buffer of bins, freed with the set.
            size_t perBuffer = CP_BUFFER_BYTES / sizeof(MirrorBin);
            MirrorBin *buffer = calloc(1, CP_BUFFER_BYTES);
            if (!buffer) abort();
            cpArrayPush(set->allocatedBuffers, buffer);
            for (size_t j = 0; j < perBuffer; j++) {
                buffer[j].next = set->pooledBins;
                set->pooledBins = &buffer[j];
            }
            bin = set->pooledBins;
        }
        set->pooledBins = bin->next;
        cpHashValue slot = entries[i].hash % set->size;
        *bin = (MirrorBin){entries[i].elt, entries[i].hash, NULL};
        if (tail && tailSlot == slot) {
            tail->next = bin;
        } else {
            set->table[slot] = bin;
        }
        tail = bin;
        tailSlot = slot;
    }
    set->entries = (unsigned int)count;
    return 1;
}

/// Writes the cached pairs back: as the tree's nodes (see `restoreTree`), the state's
/// pairs leave the pool (the dynamic tree's, which both trees share), searched from its
/// top, and the pairs in use now that the state lacks join it.
static int restorePairs(CChipmunkSpaceState *state, MirrorTree *trees[2]) {
    // The pairs in use now, each once: from the leaf that is its `a`.
    state->scratch.count = 0;
    for (int t = 0; t < 2; t++) {
        MirrorSet *set = trees[t]->leaves;
        for (unsigned int i = 0; i < set->size; i++) {
            for (MirrorBin *bin = set->table[i]; bin; bin = bin->next) {
                MirrorNode *leaf = bin->elt;
                for (MirrorPair *pair = leaf->node.leaf.pairs; pair;) {
                    if (pair->a.leaf == leaf && !append(&state->scratch, &pair, sizeof pair)) abort();
                    pair = pair->a.leaf == leaf ? pair->a.next : pair->b.next;
                }
            }
        }
    }
    MirrorPair **inUse = (MirrorPair **)state->scratch.data;
    size_t count = COUNT(state->scratch, MirrorPair *);
    // Marked in `b.leaf`, which a pooled pair does not use.
    PairRecord *records = ITEMS(state->pairs, PairRecord);
    size_t recordCount = COUNT(state->pairs, PairRecord);
    for (size_t i = 0; i < recordCount; i++) records[i].pair->b.leaf = MARK;
    size_t pooledInState = recordCount;
    for (size_t i = 0; i < count; i++) {
        if (inUse[i]->b.leaf == MARK) pooledInState--;
    }
    for (MirrorPair **link = &trees[1]->pooledPairs; pooledInState > 0 && *link;) {
        MirrorPair *pair = *link;
        if (pair->b.leaf == MARK) {
            *link = pair->a.next;
            pooledInState--;
        } else {
            link = &pair->a.next;
        }
    }
    if (pooledInState != 0) return 0;  // a pair of the state neither in use nor pooled: not this space's
    for (size_t i = 0; i < count; i++) {
        MirrorPair *pair = inUse[i];
        if (pair->b.leaf == MARK) continue;
        pair->a.next = trees[1]->pooledPairs;
        trees[1]->pooledPairs = pair;
    }
    for (size_t i = 0; i < recordCount; i++) *records[i].pair = records[i].value;
    return 1;
}

/// Whether the dynamic tree holds the buffers the state saved whole, first and in order
/// (a tree only ever adds buffers; a rebuilt broad phase, a new tree, is refused before).
static int wholeTreeMatches(const WholeTree *whole, const MirrorTree *tree) {
    size_t count = COUNT(whole->buffers, void *);
    return (size_t)tree->allocatedBuffers->num >= count &&
           (count == 0 || memcmp(tree->allocatedBuffers->arr, whole->buffers.data, sizeof(void *) * count) == 0);
}

/// A buffer the dynamic tree allocated after a whole save, and whether it holds nodes.
typedef struct ExtraBuffer {
    const unsigned char *start;
    int holdsNodes;
} ExtraBuffer;

static int compareExtraBuffers(const void *x, const void *y) {
    const unsigned char *a = ((const ExtraBuffer *)x)->start, *b = ((const ExtraBuffer *)y)->start;
    return a < b ? -1 : a > b;
}

/// The extra buffer `item` lies in, or NULL; `extras` sorted by address.
static ExtraBuffer *extraBufferHolding(ExtraBuffer *extras, size_t count, const void *item) {
    size_t low = 0, high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (extras[middle].start <= (const unsigned char *)item) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    if (low == 0) return NULL;
    ExtraBuffer *extra = &extras[low - 1];
    return (const unsigned char *)item < extra->start + CP_BUFFER_BYTES ? extra : NULL;
}

/// Writes the dynamic tree's buffers back whole, with its root, stamp and pools. Buffers
/// allocated since the save hold nothing the state uses, and their nodes and pairs join
/// the pools. A buffer holds nodes or pairs, not both, and every node in a buffer of nodes
/// is in the tree or in its pool now: so the buffers that the nodes now in use or pooled
/// lie in hold nodes, and the others pairs. (Walked without a stack: a node's `parent` is
/// kept below the root, not at it.)
static void restoreWholeTree(CChipmunkSpaceState *state, MirrorTree *tree, const TreeRecord *record) {
    WholeTree *whole = &state->whole;
    size_t saved = COUNT(whole->buffers, void *);
    size_t extraCount = (size_t)tree->allocatedBuffers->num - saved;
    ExtraBuffer *extras = NULL;
    if (extraCount > 0) {
        state->scratch.count = 0;
        if (!reserve(&state->scratch, sizeof(ExtraBuffer) * extraCount)) abort();
        extras = (ExtraBuffer *)state->scratch.data;
        for (size_t i = 0; i < extraCount; i++) extras[i] = (ExtraBuffer){tree->allocatedBuffers->arr[saved + i], 0};
        qsort(extras, extraCount, sizeof *extras, compareExtraBuffers);
        for (MirrorNode *node = tree->root; node;) {
            ExtraBuffer *extra = extraBufferHolding(extras, extraCount, node);
            if (extra) extra->holdsNodes = 1;
            if (!node->obj) {
                node = node->node.children.a;
                continue;
            }
            while (node != tree->root && node == node->parent->node.children.b) node = node->parent;
            node = node == tree->root ? NULL : node->parent->node.children.b;
        }
        for (MirrorNode *node = tree->pooledNodes; node; node = node->parent) {
            ExtraBuffer *extra = extraBufferHolding(extras, extraCount, node);
            if (extra) extra->holdsNodes = 1;
        }
    }
    for (size_t i = 0; i < saved; i++) {
        memcpy(tree->allocatedBuffers->arr[i], whole->bytes.data + i * CP_BUFFER_BYTES, CP_BUFFER_BYTES);
    }
    tree->root = record->root;
    tree->stamp = record->stamp;
    tree->pooledNodes = whole->pooledNodes;
    tree->pooledPairs = whole->pooledPairs;
    for (size_t i = 0; i < extraCount; i++) {
        if (extras[i].holdsNodes) {
            MirrorNode *nodes = (MirrorNode *)extras[i].start;
            for (size_t j = 0; j < CP_BUFFER_BYTES / sizeof(MirrorNode); j++) {
                nodes[j].parent = tree->pooledNodes;
                tree->pooledNodes = &nodes[j];
            }
        } else {
            MirrorPair *pairs = (MirrorPair *)extras[i].start;
            for (size_t j = 0; j < CP_BUFFER_BYTES / sizeof(MirrorPair); j++) {
                pairs[j].a.next = tree->pooledPairs;
                tree->pooledPairs = &pairs[j];
            }
        }
    }
}

int CChipmunkSpaceStateRestore(CChipmunkSpaceState *state, void *cSpace) {
    cpSpace *space = cSpace;
    if (!state->saved || state->space != space || space->locked || space->rousedBodies->num != 0 ||
        space->staticShapes != state->indexes[0] || space->dynamicShapes != state->indexes[1]) {
        return 0;
    }
    MirrorTree *trees[2] = {CChipmunkMirrorTree(space->staticShapes), CChipmunkMirrorTree(space->dynamicShapes)};
    if (!trees[0] || !trees[1]) return 0;

    int whole = state->whole.used;
    if (whole && !wholeTreeMatches(&state->whole, trees[1])) return 0;
    // The pairs before the trees: they are found through the leaves in use now.
    if (!whole && !restorePairs(state, trees)) return 0;
    for (int t = 0; t < 2; t++) {
        // The tree before its leaf set: the set's count now sizes the tree's scratch.
        if (t == 1 && whole) {
            restoreWholeTree(state, trees[t], &state->trees[t]);
        } else if (!restoreTree(state, trees[t], &state->trees[t])) {
            return 0;
        }
        if (!restoreSet(trees[t]->leaves, &state->trees[t])) return 0;
    }

    // The arbiters before the bodies: the sleeping ones are found through the bodies now.
    space->stamp = state->stamp;
    space->collisionPersistence = state->collisionPersistence;
    // Set if the space has wildcard or default handlers now (added since the save), or had.
    space->usesWildcards = state->usesWildcards || space->usesWildcards;
    if (!restoreArbiters(state, space)) return 0;

    space->iterations = state->iterations;
    space->gravity = state->gravity;
    space->damping = state->damping;
    space->idleSpeedThreshold = state->idleSpeedThreshold;
    space->sleepTimeThreshold = state->sleepTimeThreshold;
    space->collisionSlop = state->collisionSlop;
    space->collisionBias = state->collisionBias;
    space->curr_dt = state->curr_dt;
    space->shapeIDCounter = state->shapeIDCounter;

    BodyRecord *bodies = ITEMS(state->bodies, BodyRecord);
    for (size_t i = 0; i < COUNT(state->bodies, BodyRecord); i++) {
        cpBody *body = bodies[i].body;
        memcpy((unsigned char *)body + BODY_MOTION_OFFSET, bodies[i].motion, BODY_MOTION_BYTES);
        body->v_bias = bodies[i].v_bias;
        body->w_bias = bodies[i].w_bias;
        body->shapeList = bodies[i].shapeList;
        body->arbiterList = bodies[i].arbiterList;
        body->constraintList = bodies[i].constraintList;
        body->sleeping.root = bodies[i].root;
        body->sleeping.next = bodies[i].next;
        body->sleeping.idleTime = bodies[i].idleTime;
    }
    ShapeRecord *shapes = ITEMS(state->shapes, ShapeRecord);
    for (size_t i = 0; i < COUNT(state->shapes, ShapeRecord); i++) {
        cpShape *shape = shapes[i].shape;
        cpShapeUpdate(shape, shape->body->transform);
        shape->bb = shapes[i].bb;
        shape->next = shapes[i].next;
        shape->prev = shapes[i].prev;
        shape->hashid = shapes[i].hashid;
    }
    for (size_t offset = 0; offset < state->constraintBytes.count;) {
        ConstraintRecord *record = (ConstraintRecord *)(state->constraintBytes.data + offset);
        const unsigned char *saved = state->constraintBytes.data + offset + sizeof *record;
        cpConstraint *constraint = record->constraint;
        // Closures stay as they are: the callbacks and the user data.
        cpConstraint base = *constraint;
        cpDampedSpringForceFunc force = NULL;
        cpDampedRotarySpringTorqueFunc torque = NULL;
        if (record->spring == SPRING_DAMPED) force = ((cpDampedSpring *)constraint)->springForceFunc;
        if (record->spring == SPRING_ROTARY) torque = ((cpDampedRotarySpring *)constraint)->springTorqueFunc;
        memcpy(constraint, saved, record->size);
        constraint->klass = base.klass;
        constraint->space = base.space;
        constraint->a = base.a;
        constraint->b = base.b;
        constraint->preSolve = base.preSolve;
        constraint->postSolve = base.postSolve;
        constraint->userData = base.userData;
        if (force) ((cpDampedSpring *)constraint)->springForceFunc = force;
        if (torque) ((cpDampedRotarySpring *)constraint)->springTorqueFunc = torque;
        offset += sizeof *record + ((record->size + 7) & ~(size_t)7);
    }
    cpArray *arrays[5] = {space->dynamicBodies, space->staticBodies, space->sleepingComponents, space->constraints,
                          space->arbiters};
    for (int i = 0; i < 5; i++) restoreArray(arrays[i], &state->arrays[i]);
    return 1;
}

int CChipmunkSpaceStateIsSaved(const CChipmunkSpaceState *state) { return state->saved; }

int CChipmunkSpaceStateSavedTreeWhole(const CChipmunkSpaceState *state) { return state->saved && state->whole.used; }

int CChipmunkTreeBufferCount(void *index) {
    MirrorTree *tree = CChipmunkMirrorTree(index);
    return tree ? tree->allocatedBuffers->num : -1;
}
