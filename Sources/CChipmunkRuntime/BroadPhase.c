// The history of the engine's default broad phase, read and written for snapshots.
//
// The engine finds candidate pairs in an order set by the whole history of its two
// `cpBBTree` indexes (the static and the dynamic shapes): the tree's shape, each node's
// box, each leaf's stamp and its list of cached pairs (each with the collision id the
// narrow phase starts from), the hash set of leaves (its table size and the order of each
// bin's chain: the order leaves are updated in), and the tree's stamp. The solver's result
// depends on that order, so a restored space continues with the uninterrupted run's bits
// only if all of it comes back (docs/snapshots.md).
//
// `cpBBTree`, its nodes and pairs, and `cpHashSet` are private to cpBBTree.c and
// cpHashSet.c; their layout is fixed for the engine version the binding links (7.0.3). The
// structs below mirror that layout. `CChipmunkBroadPhaseLayoutIsKnown` checks it once, on a
// probe tree built through the engine's own functions (its version string, then counts,
// pointers and values read through the mirror against what the engine's functions report),
// and every other function here refuses to run when it fails. No engine code is copied:
// nodes and pairs come from the engine's structures (or a buffer handed to the tree, which
// frees it with its own), and the hash sets keep their own bins.
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>
#include "BroadPhaseMirror.h"
#include "PointerMap.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// MARK: The layout check

static cpSpatialIndexClass *treeClass;
static int layoutIsKnown;
static pthread_once_t layoutOnce = PTHREAD_ONCE_INIT;

static cpBB probeBB(void *obj) { return *(const cpBB *)obj; }

static int probeLeafIsConsistent(MirrorTree *tree, void *obj, cpHashValue hash) {
    MirrorNode *leaf = (MirrorNode *)cpHashSetFind((cpHashSet *)tree->leaves, hash, obj);
    if (!leaf || leaf->obj != obj || leaf->parent == NULL) return 0;
    cpBB bb = *(const cpBB *)obj;
    if (memcmp(&leaf->bb, &bb, sizeof bb) != 0) return 0;
    MirrorNode *parent = leaf->parent;
    return parent->obj == NULL && (parent->node.children.a == leaf || parent->node.children.b == leaf);
}

static void checkLayout(void) {
    if (strcmp(cpVersionString, "7.0.3") != 0) return;
    // For the tests of what happens with another engine build: the check fails as it would.
    if (getenv("CHIPMUNK_TEST_UNKNOWN_ENGINE_LAYOUT")) return;
    // Three boxes with known ids: the first two overlap, the third is apart.
    static cpBB boxes[3] = {{0, 0, 2, 2}, {1, 1, 3, 3}, {10, 10, 11, 11}};
    cpSpatialIndex *index = cpBBTreeNew(probeBB, NULL);
    if (!index) return;
    for (int i = 0; i < 3; i++) cpSpatialIndexInsert(index, &boxes[i], (cpHashValue)(101 + i));
    MirrorTree *tree = (MirrorTree *)index;
    MirrorSet *set = tree->leaves;
    int ok = tree->velocityFunc == NULL && set != NULL && (int)set->entries == cpHashSetCount((cpHashSet *)set) &&
             set->entries == 3 && set->size == 5 && set->table != NULL && tree->stamp == 3 && tree->root != NULL &&
             tree->root->obj == NULL && tree->root->parent == NULL;
    for (int i = 0; ok && i < 3; i++) ok = probeLeafIsConsistent(tree, &boxes[i], (cpHashValue)(101 + i));
    // The set's bins hold the three leaves under their hashes (101 % 5 = 1, 102 % 5 = 2, 103 % 5 = 3).
    for (unsigned int i = 0; ok && i < set->size; i++) {
        for (MirrorBin *bin = set->table[i]; ok && bin; bin = bin->next) {
            ok = bin->hash % set->size == i && ((MirrorNode *)bin->elt)->obj == &boxes[bin->hash - 101];
        }
    }
    if (ok) {
        // The overlapping pair, cached in both leaves' lists: the second box's leaf is its a.
        MirrorNode *first = (MirrorNode *)cpHashSetFind((cpHashSet *)set, 101, &boxes[0]);
        MirrorNode *second = (MirrorNode *)cpHashSetFind((cpHashSet *)set, 102, &boxes[1]);
        MirrorNode *third = (MirrorNode *)cpHashSetFind((cpHashSet *)set, 103, &boxes[2]);
        MirrorPair *pair = second->node.leaf.pairs;
        ok = pair != NULL && pair == first->node.leaf.pairs && third->node.leaf.pairs == NULL &&
             pair->a.leaf == second && pair->b.leaf == first && pair->a.prev == NULL && pair->a.next == NULL &&
             pair->b.prev == NULL && pair->b.next == NULL && pair->id == 0 && second->node.leaf.stamp == 1 &&
             first->node.leaf.stamp == 0 && third->node.leaf.stamp == 2;
    }
    treeClass = index->klass;
    cpSpatialIndexFree(index);
    layoutIsKnown = ok;
}

int CChipmunkBroadPhaseLayoutIsKnown(void) {
    pthread_once(&layoutOnce, checkLayout);
    return layoutIsKnown;
}

MirrorTree *CChipmunkMirrorTree(void *index) {
    if (!CChipmunkBroadPhaseLayoutIsKnown() || !index) return NULL;
    cpSpatialIndex *spatialIndex = (cpSpatialIndex *)index;
    return spatialIndex->klass == treeClass ? (MirrorTree *)index : NULL;
}

// MARK: Stamps

// The tree's stamp counts up once a step (and once an insertion) in 32 bits. A leaf whose
// stamp equals it counts as moved in this step and is paired afresh; one below it keeps its
// pairs. When the count wraps (after 2^32 steps, or at once from a crafted snapshot), old
// leaves meet their stamps again, are paired beside the pairs they still have, and the
// engine aborts ("Dangling contact graph pointers detected"). Only "equal to the tree's" or
// "below it" matters between steps, so every leaf can go to 0 and the tree to 1.
static void rebaseLeaves(MirrorTree *tree) {
    MirrorSet *set = tree->leaves;
    for (unsigned int i = 0; set && i < set->size; i++) {
        for (MirrorBin *bin = set->table[i]; bin; bin = bin->next) ((MirrorNode *)bin->elt)->node.leaf.stamp = 0;
    }
}

int CChipmunkBroadPhaseRebaseStamps(void *staticIndex, void *dynamicIndex) {
    MirrorTree *tree = CChipmunkMirrorTree(dynamicIndex);
    if (!tree || tree->stamp < (1u << 31)) return 0;
    rebaseLeaves(tree);
    MirrorTree *fixed = CChipmunkMirrorTree(staticIndex);
    if (fixed) rebaseLeaves(fixed);
    tree->stamp = 1;
    return 1;
}

// MARK: Counting overlaps

int64_t CChipmunkTreeOverlapCount(void *index, double l, double b, double r, double t, int64_t limit) {
    MirrorTree *tree = CChipmunkMirrorTree(index);
    if (!tree) return -1;
    if (!tree->root) return 0;
    cpBB bb = cpBBNew(l, b, r, t);
    // A stack of its own: a pile's tree can be as deep as it has leaves.
    size_t capacity = 64, depth = 0;
    MirrorNode **stack = malloc(capacity * sizeof *stack);
    if (!stack) return -1;
    int64_t found = 0;
    stack[depth++] = tree->root;
    while (depth > 0 && found <= limit) {
        MirrorNode *node = stack[--depth];
        if (!cpBBIntersects(bb, node->bb)) continue;
        if (node->obj) {
            found += 1;
            continue;
        }
        if (depth + 2 > capacity) {
            MirrorNode **grown = realloc(stack, 2 * capacity * sizeof *stack);
            if (!grown) break;
            stack = grown;
            capacity *= 2;
        }
        stack[depth++] = node->node.children.a;
        stack[depth++] = node->node.children.b;
    }
    free(stack);
    return found;
}

// MARK: Shapes by index

/// Each shape's index in `shapes`, by its address.
static int makeShapeIndex(PointerMap *index, void *const *shapes, int32_t count) {
    if (!pointerMapInit(index, (size_t)(count > 0 ? count : 0))) return 0;
    for (int32_t i = 0; i < count; i++) pointerMapPut(index, shapes[i], (uintptr_t)i);
    return 1;
}

/// The index of `shape`, or -1 for a shape not in the index.
static int32_t lookupShape(const PointerMap *index, const void *shape) {
    uintptr_t found;
    return pointerMapFind(index, shape, &found) ? (int32_t)found : -1;
}

// MARK: Measuring and capturing

/// The pairs in the dynamic tree's pool that leaves of `tree` hold as their a.
static uint32_t countPairs(MirrorTree *tree) {
    uint32_t count = 0;
    for (unsigned int i = 0; i < tree->leaves->size; i++) {
        for (MirrorBin *bin = tree->leaves->table[i]; bin; bin = bin->next) {
            MirrorNode *leaf = bin->elt;
            for (MirrorPair *pair = leaf->node.leaf.pairs; pair;) {
                if (pair->a.leaf == leaf) count++;
                pair = pair->a.leaf == leaf ? pair->a.next : pair->b.next;
            }
        }
    }
    return count;
}

int CChipmunkBroadPhaseMeasure(void *staticIndex, void *dynamicIndex, CChipmunkBroadPhaseCounts *counts) {
    MirrorTree *trees[2] = {CChipmunkMirrorTree(staticIndex), CChipmunkMirrorTree(dynamicIndex)};
    if (!trees[0] || !trees[1] || trees[0]->spatialIndex.dynamicIndex != (cpSpatialIndex *)trees[1]) return 0;
    counts->pairs = 0;
    for (int t = 0; t < 2; t++) {
        counts->leaves[t] = trees[t]->leaves->entries;
        counts->pairs += countPairs(trees[t]);
    }
    return 1;
}

/// Writes the tree's nodes in preorder (a node, then its a subtree, then its b subtree),
/// without recursion: a tree of shapes in a row is as deep as it has leaves.
static int captureNodes(MirrorTree *tree, const PointerMap *shapes, CChipmunkTreeNode *out, uint32_t capacity) {
    if (!tree->root) return capacity == 0;
    MirrorNode **stack = malloc(sizeof(MirrorNode *) * capacity);
    if (!stack) return 0;
    uint32_t depth = 0, written = 0;
    stack[depth++] = tree->root;
    int ok = 1;
    while (depth > 0 && ok) {
        MirrorNode *node = stack[--depth];
        if (written == capacity) {
            ok = 0;
            break;
        }
        CChipmunkTreeNode *record = &out[written++];
        record->bb[0] = node->bb.l;
        record->bb[1] = node->bb.b;
        record->bb[2] = node->bb.r;
        record->bb[3] = node->bb.t;
        if (node->obj) {
            record->shape = lookupShape(shapes, node->obj);
            record->stamp = node->node.leaf.stamp;
            ok = record->shape >= 0;
        } else {
            record->shape = -1;
            record->stamp = 0;
            if (depth + 2 > capacity) {
                ok = 0;
                break;
            }
            stack[depth++] = node->node.children.b;
            stack[depth++] = node->node.children.a;
        }
    }
    free(stack);
    return ok && written == capacity;
}

int CChipmunkBroadPhaseCapture(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                               CChipmunkBroadPhaseState *state) {
    MirrorTree *trees[2] = {CChipmunkMirrorTree(staticIndex), CChipmunkMirrorTree(dynamicIndex)};
    if (!trees[0] || !trees[1] || trees[0]->spatialIndex.dynamicIndex != (cpSpatialIndex *)trees[1]) return 0;
    // The state was sized by CChipmunkBroadPhaseMeasure: every count is checked against it.
    uint32_t pairCount = state->pairCount;
    PointerMap index, numbers;
    int ok = makeShapeIndex(&index, shapes, shapeCount);
    ok = pointerMapInit(&numbers, pairCount) && ok;
    for (int t = 0; t < 2 && ok; t++) {
        MirrorTree *tree = trees[t];
        CChipmunkTreeState *out = &state->trees[t];
        uint32_t leaves = out->leafCount;
        ok = tree->leaves->entries == leaves;
        if (!ok) break;
        out->stamp = tree->stamp;
        out->setSize = tree->leaves->size;
        ok = captureNodes(tree, &index, out->nodes, leaves ? 2 * leaves - 1 : 0);
        uint32_t k = 0;
        for (unsigned int i = 0; ok && i < tree->leaves->size; i++) {
            for (MirrorBin *bin = tree->leaves->table[i]; ok && bin; bin = bin->next) {
                MirrorNode *leaf = bin->elt;
                ok = k < leaves && (out->setOrder[k++] = lookupShape(&index, leaf->obj)) >= 0;
            }
        }
        ok = ok && k == leaves;
    }
    // Pairs are numbered as each shape's list (in shape order) first meets them, so that
    // the numbers do not depend on where the pairs happen to be in memory. Each pair is in
    // two lists, so the lists hold each number twice.
    uint32_t written = 0, numbered = 0;
    for (int32_t s = 0; s < shapeCount && ok; s++) {
        state->pairListStart[s] = written;
        MirrorNode *leaf = NULL;
        for (int t = 0; t < 2 && !leaf; t++) {
            const cpShape *shape = shapes[s];
            leaf = (MirrorNode *)cpHashSetFind((cpHashSet *)trees[t]->leaves, shape->hashid, shape);
        }
        for (MirrorPair *pair = leaf ? leaf->node.leaf.pairs : NULL; ok && pair;) {
            // The bound also ends a list that, misread, would loop.
            ok = written < 2 * pairCount;
            if (!ok) break;
            uintptr_t number;
            if (!pointerMapFind(&numbers, pair, &number)) {
                ok = numbered < pairCount;
                if (!ok) break;
                number = numbered++;
                pointerMapPut(&numbers, pair, number);
                CChipmunkTreePair *out = &state->pairs[number];
                out->a = lookupShape(&index, pair->a.leaf->obj);
                out->b = lookupShape(&index, pair->b.leaf->obj);
                out->id = pair->id;
                ok = out->a >= 0 && out->b >= 0;
            }
            state->pairLists[written++] = (int32_t)number;
            pair = pair->a.leaf == leaf ? pair->a.next : pair->b.next;
        }
    }
    if (ok) state->pairListStart[shapeCount] = written;
    ok = ok && written == 2 * pairCount && numbered == pairCount;
    pointerMapFree(&index);
    pointerMapFree(&numbers);
    return ok;
}

// MARK: Restoring

static int compareBinElements(const void *x, const void *y) {
    uintptr_t a = (uintptr_t)(*(MirrorBin *const *)x)->elt, b = (uintptr_t)(*(MirrorBin *const *)y)->elt;
    return a < b ? -1 : a > b;
}

/// What reordering one hash set needs, allocated before anything changes.
typedef struct SetPlan {
    MirrorSet *set;
    uint32_t size;
    MirrorBin **ordered;  // the set's bins in the order to visit them
    MirrorBin **table;    // the new table (the set's own when the size is kept)
    MirrorBin **tails;
} SetPlan;

static void freeSetPlan(SetPlan *plan) {
    free(plan->ordered);
    if (plan->set && plan->table != plan->set->table) free(plan->table);
    free(plan->tails);
    *plan = (SetPlan){0};
}

/// Finds the bin of each element of `order` (every element of the set, each once).
static int planSet(SetPlan *plan, MirrorSet *set, void *const *order, uint32_t count, uint32_t size) {
    *plan = (SetPlan){set, size, NULL, NULL, NULL};
    if (set->entries != count || size <= count) return 0;
    size_t slots = count ? count : 1;
    MirrorBin **bins = malloc(sizeof(MirrorBin *) * slots);
    uint8_t *taken = calloc(slots, 1);
    plan->ordered = malloc(sizeof(MirrorBin *) * slots);
    plan->table = size == set->size ? set->table : calloc(size, sizeof(MirrorBin *));
    plan->tails = calloc(size, sizeof(MirrorBin *));
    int ok = bins && taken && plan->ordered && plan->table && plan->tails;
    uint32_t k = 0;
    for (unsigned int i = 0; ok && i < set->size; i++) {
        for (MirrorBin *bin = set->table[i]; ok && bin; bin = bin->next) {
            ok = k < count;
            if (ok) bins[k++] = bin;
        }
    }
    ok = ok && k == count;
    if (ok) qsort(bins, count, sizeof *bins, compareBinElements);
    for (uint32_t i = 0; ok && i < count; i++) {
        MirrorBin key = {order[i], 0, NULL}, *keyPointer = &key;
        MirrorBin **found = bsearch(&keyPointer, bins, count, sizeof *bins, compareBinElements);
        ok = found != NULL && !taken[found - bins];
        if (ok) {
            taken[found - bins] = 1;
            plan->ordered[i] = *found;
        }
    }
    free(bins);
    free(taken);
    if (!ok) freeSetPlan(plan);
    return ok;
}

static void applySetPlan(SetPlan *plan) {
    MirrorSet *set = plan->set;
    memset(plan->table, 0, sizeof(MirrorBin *) * plan->size);
    for (uint32_t i = 0; i < set->entries; i++) {
        MirrorBin *bin = plan->ordered[i];
        cpHashValue slot = bin->hash % plan->size;
        bin->next = NULL;
        if (plan->tails[slot]) {
            plan->tails[slot]->next = bin;
        } else {
            plan->table[slot] = bin;
        }
        plan->tails[slot] = bin;
    }
    if (plan->table != set->table) {
        free(set->table);
        set->table = plan->table;
        set->size = plan->size;
    }
    freeSetPlan(plan);  // the table is the set's own now: it stays
}

/// The internal nodes of a tree, in any order (they are all rewired); UINT32_MAX when
/// there are more than `capacity` or memory ran out.
static uint32_t collectInternalNodes(MirrorTree *tree, MirrorNode **out, uint32_t capacity) {
    if (!tree->root) return 0;
    uint32_t count = 0, depth = 0;
    MirrorNode **stack = malloc(sizeof(MirrorNode *) * (2 * (size_t)capacity + 2));
    if (!stack) return UINT32_MAX;
    stack[depth++] = tree->root;
    while (depth > 0) {
        MirrorNode *node = stack[--depth];
        if (node->obj) continue;
        if (count == capacity) {
            count = UINT32_MAX;
            break;
        }
        out[count++] = node;
        stack[depth++] = node->node.children.b;
        stack[depth++] = node->node.children.a;
    }
    free(stack);
    return count;
}

/// Whether `nodes` (`count` of them) is a full binary tree in preorder: each internal node
/// opens two places for children, each node fills one.
static int isPreorderTree(const CChipmunkTreeNode *nodes, uint32_t count) {
    uint32_t places = 1;
    for (uint32_t i = 0; i < count; i++) {
        if (places == 0) return 0;
        places = nodes[i].shape < 0 ? places + 1 : places - 1;
    }
    return count == 0 || places == 0;
}

static void pushPair(MirrorTree *master, MirrorPair *pair) {
    pair->a.next = master->pooledPairs;
    master->pooledPairs = pair;
}

/// Everything a restore needs, gathered and allocated before anything changes.
typedef struct RestorePlan {
    MirrorNode **leafOf;        // by shape index
    void **leafOrder[2];        // each tree's leaves, in the set's order
    MirrorNode **internals[2];  // each tree's internal nodes, to be rewired
    MirrorNode **open[2];       // scratch for building each tree
    uint8_t *filled[2];
    MirrorPair **pairs;  // the snapshot's pairs: the trees' own, the pool's, new ones
    MirrorPair **spare;  // the trees' pairs the snapshot does not need
    uint32_t spareCount;
    MirrorPair *pool;   // the pool after taking from it
    cpArray *buffers;   // new buffers of pairs, handed to the tree
    uint32_t lastBufferUsed;
    SetPlan sets[2];
} RestorePlan;

static void freeRestorePlan(RestorePlan *plan, int keepBuffers) {
    for (int t = 0; t < 2; t++) {
        free(plan->leafOrder[t]);
        free(plan->internals[t]);
        free(plan->open[t]);
        free(plan->filled[t]);
        if (plan->sets[t].set) freeSetPlan(&plan->sets[t]);
    }
    if (plan->buffers) {
        for (int i = 0; !keepBuffers && i < plan->buffers->num; i++) free(plan->buffers->arr[i]);
        cpArrayFree(plan->buffers);
    }
    free(plan->leafOf);
    free(plan->pairs);
    free(plan->spare);
}

/// Checks the state against the trees (the same leaves, a valid tree, consistent pair
/// lists) and gathers what the restore needs. Changes nothing.
static int planRestore(RestorePlan *plan, MirrorTree *trees[2], uint32_t heldPairs, void *const *shapes,
                       int32_t shapeCount, const CChipmunkBroadPhaseState *state) {
    size_t n = (size_t)(shapeCount > 0 ? shapeCount : 1);
    uint32_t pairCount = state->pairCount;
    plan->leafOf = calloc(n, sizeof(MirrorNode *));
    plan->pairs = malloc(sizeof(MirrorPair *) * (pairCount ? pairCount : 1));
    plan->spare = malloc(sizeof(MirrorPair *) * (heldPairs ? heldPairs : 1));
    plan->buffers = cpArrayNew(0);
    uint8_t *seen = calloc(pairCount ? pairCount : 1, 2);
    uint8_t *inTree = calloc(n, 1);
    int ok = plan->leafOf && plan->pairs && plan->spare && plan->buffers && seen && inTree;

    // Each tree's leaves by shape: the set order names each exactly once, and the preorder
    // holds the same leaves, each once.
    for (int t = 0; ok && t < 2; t++) {
        const CChipmunkTreeState *tree = &state->trees[t];
        uint32_t leaves = tree->leafCount, nodes = leaves ? 2 * leaves - 1 : 0;
        ok = leaves == trees[t]->leaves->entries && isPreorderTree(tree->nodes, nodes);
        size_t slots = leaves + 1;
        plan->leafOrder[t] = malloc(sizeof(void *) * slots);
        plan->internals[t] = malloc(sizeof(MirrorNode *) * slots);
        plan->open[t] = malloc(sizeof(MirrorNode *) * slots);
        plan->filled[t] = malloc(slots);
        ok = ok && plan->leafOrder[t] && plan->internals[t] && plan->open[t] && plan->filled[t];
        for (uint32_t i = 0; ok && i < leaves; i++) {
            int32_t s = tree->setOrder[i];
            ok = s >= 0 && s < shapeCount && plan->leafOf[s] == NULL;
            if (!ok) break;
            const cpShape *shape = shapes[s];
            MirrorNode *leaf = (MirrorNode *)cpHashSetFind((cpHashSet *)trees[t]->leaves, shape->hashid, shape);
            ok = leaf != NULL && leaf->obj == shape;
            plan->leafOf[s] = leaf;
            plan->leafOrder[t][i] = leaf;
            inTree[s] = (uint8_t)(t + 1);
        }
        uint32_t leafNodes = 0;
        for (uint32_t i = 0; ok && i < nodes; i++) {
            int32_t s = tree->nodes[i].shape;
            if (s < 0) continue;
            ok = s < shapeCount && inTree[s] == (uint8_t)(t + 1);
            inTree[s] = 0;
            leafNodes++;
        }
        ok = ok && leafNodes == leaves;
        ok = ok && collectInternalNodes(trees[t], plan->internals[t], leaves ? leaves - 1 : 0) ==
                       (leaves ? leaves - 1 : 0);
    }
    // Pairs: both shapes have leaves; each pair is in its a's list and its b's list, once each.
    for (uint32_t k = 0; ok && k < pairCount; k++) {
        CChipmunkTreePair p = state->pairs[k];
        ok = p.a >= 0 && p.b >= 0 && p.a < shapeCount && p.b < shapeCount && p.a != p.b && plan->leafOf[p.a] &&
             plan->leafOf[p.b];
    }
    ok = ok && state->pairListStart[0] == 0 && state->pairListStart[shapeCount] == 2 * pairCount;
    for (int32_t s = 0; ok && s < shapeCount; s++) {
        uint32_t start = state->pairListStart[s], end = state->pairListStart[s + 1];
        ok = start <= end && end <= 2 * pairCount && (start == end || plan->leafOf[s]);
        for (uint32_t j = start; ok && j < end; j++) {
            int32_t k = state->pairLists[j];
            ok = k >= 0 && (uint32_t)k < pairCount;
            if (!ok) break;
            CChipmunkTreePair p = state->pairs[k];
            int side = p.a == s ? 0 : p.b == s ? 1 : -1;
            ok = side >= 0 && seen[2 * k + side] == 0;
            if (ok) seen[2 * k + side] = 1;
        }
    }
    for (uint32_t k = 0; ok && k < 2 * pairCount; k++) ok = seen[k] == 1;
    free(seen);
    free(inTree);

    // Pair structs: the trees' own, then the pool's, then new buffers the tree will free.
    uint32_t have = 0;
    for (int t = 0; ok && t < 2; t++) {
        for (unsigned int i = 0; i < trees[t]->leaves->size; i++) {
            for (MirrorBin *bin = trees[t]->leaves->table[i]; bin; bin = bin->next) {
                MirrorNode *leaf = bin->elt;
                for (MirrorPair *pair = leaf->node.leaf.pairs; ok && pair;) {
                    if (pair->a.leaf == leaf) {
                        if (have < pairCount) {
                            plan->pairs[have++] = pair;
                        } else {
                            ok = plan->spareCount < heldPairs;
                            if (ok) plan->spare[plan->spareCount++] = pair;
                        }
                    }
                    pair = pair->a.leaf == leaf ? pair->a.next : pair->b.next;
                }
            }
        }
    }
    plan->pool = trees[1]->pooledPairs;
    while (ok && have < pairCount && plan->pool) {
        plan->pairs[have++] = plan->pool;
        plan->pool = plan->pool->a.next;
    }
    uint32_t perBuffer = CP_BUFFER_BYTES / sizeof(MirrorPair);
    while (ok && have < pairCount) {
        MirrorPair *buffer = calloc(1, CP_BUFFER_BYTES);
        ok = buffer != NULL;
        if (!ok) break;
        cpArrayPush(plan->buffers, buffer);
        plan->lastBufferUsed = 0;
        for (uint32_t i = 0; i < perBuffer && have < pairCount; i++, plan->lastBufferUsed++) {
            plan->pairs[have++] = buffer + i;
        }
    }
    for (int t = 0; ok && t < 2; t++) {
        ok = planSet(&plan->sets[t], trees[t]->leaves, plan->leafOrder[t], state->trees[t].leafCount,
                     state->trees[t].setSize);
    }
    return ok;
}

/// Builds a tree's nodes from its preorder: each node is the next child of the newest
/// internal node that still lacks one.
static void rebuildTree(MirrorTree *tree, const CChipmunkTreeState *state, RestorePlan *plan, int t) {
    uint32_t count = state->leafCount ? 2 * state->leafCount - 1 : 0, nextInternal = 0, depth = 0;
    MirrorNode **open = plan->open[t];
    uint8_t *filled = plan->filled[t];
    tree->root = NULL;
    tree->stamp = state->stamp;
    for (uint32_t i = 0; i < count; i++) {
        const CChipmunkTreeNode *record = &state->nodes[i];
        int isLeaf = record->shape >= 0;
        MirrorNode *node = isLeaf ? plan->leafOf[record->shape] : plan->internals[t][nextInternal++];
        node->bb = (cpBB){record->bb[0], record->bb[1], record->bb[2], record->bb[3]};
        if (isLeaf) {
            node->node.leaf.stamp = record->stamp;
            node->node.leaf.pairs = NULL;
        } else {
            node->obj = NULL;
        }
        node->parent = NULL;
        if (depth == 0) {
            tree->root = node;
        } else {
            MirrorNode *parent = open[depth - 1];
            if (filled[depth - 1]++ == 0) {
                parent->node.children.a = node;
            } else {
                parent->node.children.b = node;
                depth--;
            }
            node->parent = parent;
        }
        if (!isLeaf) {
            open[depth] = node;
            filled[depth++] = 0;
        }
    }
}

int CChipmunkBroadPhaseRestore(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                               const CChipmunkBroadPhaseState *state) {
    CChipmunkBroadPhaseCounts counts;
    if (!CChipmunkBroadPhaseMeasure(staticIndex, dynamicIndex, &counts)) return 0;
    MirrorTree *trees[2] = {staticIndex, dynamicIndex};
    MirrorTree *master = trees[1];
    RestorePlan plan = {0};
    if (!planRestore(&plan, trees, counts.pairs, shapes, shapeCount, state)) {
        freeRestorePlan(&plan, 0);
        return 0;
    }
    // Nothing below can fail. The pool first: what was taken from it, new buffers, spares.
    uint32_t perBuffer = CP_BUFFER_BYTES / sizeof(MirrorPair);
    master->pooledPairs = plan.pool;
    for (int i = 0; i < plan.buffers->num; i++) {
        MirrorPair *buffer = plan.buffers->arr[i];
        cpArrayPush(master->allocatedBuffers, buffer);
        uint32_t used = i + 1 < plan.buffers->num ? perBuffer : plan.lastBufferUsed;
        for (uint32_t j = used; j < perBuffer; j++) pushPair(master, buffer + j);
    }
    for (uint32_t j = 0; j < plan.spareCount; j++) pushPair(master, plan.spare[j]);
    for (int t = 0; t < 2; t++) {
        applySetPlan(&plan.sets[t]);
        rebuildTree(trees[t], &state->trees[t], &plan, t);
    }
    for (uint32_t k = 0; k < state->pairCount; k++) {
        MirrorNode *a = plan.leafOf[state->pairs[k].a], *b = plan.leafOf[state->pairs[k].b];
        *plan.pairs[k] = (MirrorPair){{NULL, a, NULL}, {NULL, b, NULL}, state->pairs[k].id};
    }
    for (int32_t s = 0; s < shapeCount; s++) {
        uint32_t start = state->pairListStart[s], end = state->pairListStart[s + 1];
        MirrorNode *leaf = plan.leafOf[s];
        if (!leaf || start == end) continue;
        leaf->node.leaf.pairs = plan.pairs[state->pairLists[start]];
        for (uint32_t j = start; j < end; j++) {
            MirrorPair *pair = plan.pairs[state->pairLists[j]];
            MirrorThread *thread = pair->a.leaf == leaf ? &pair->a : &pair->b;
            thread->prev = j > start ? plan.pairs[state->pairLists[j - 1]] : NULL;
            thread->next = j + 1 < end ? plan.pairs[state->pairLists[j + 1]] : NULL;
        }
    }
    freeRestorePlan(&plan, 1);
    return 1;
}

// MARK: The spatial hash

// `cpSpaceHash` (cpSpaceHash.c), used instead of the trees after `cpSpaceUseSpatialHash`.
// Its history: the order its handle set visits its shapes (the dynamic hash hashes them in
// that order at every step, and the static hash's shapes are found in that order), and
// the chain of handles in each cell of its table (the static hash's cells are built as
// shapes are added; each chain is newest first). Handle stamps only keep one query from
// reporting a shape twice, and every stamp left in a handle is below the hash's own.

typedef struct MirrorHandle {
    void *obj;
    int retain;
    cpTimestamp stamp;
} MirrorHandle;

typedef struct MirrorCell {
    MirrorHandle *handle;
    struct MirrorCell *next;
} MirrorCell;

typedef struct MirrorHash {
    cpSpatialIndex spatialIndex;
    int numcells;
    cpFloat celldim;
    MirrorCell **table;
    MirrorSet *handleSet;
    MirrorCell *pooledBins;
    cpArray *pooledHandles;
    cpArray *allocatedBuffers;
    cpTimestamp stamp;
} MirrorHash;

// The engine's table sizes for hash tables (prime.h, data): a spatial hash of `count` cells
// has the first of these at least `count`.
static const int primes[] = {5,        13,       23,       47,        97,        193,       389,       769,
                             1543,     3079,     6151,     12289,     24593,     49157,     98317,     196613,
                             393241,   786433,   1572869,  3145739,   6291469,   12582917,  25165843,  50331653,
                             100663319, 201326611, 402653189, 805306457, 1610612741};

int CChipmunkSpatialHashCellCount(int count) {
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++) {
        if (count <= primes[i]) return primes[i];
    }
    return 0;
}

static cpSpatialIndexClass *hashClass;
static int hashLayoutIsKnown;
static pthread_once_t hashLayoutOnce = PTHREAD_ONCE_INIT;

static void checkHashLayout(void) {
    if (!CChipmunkBroadPhaseLayoutIsKnown()) return;
    // Two boxes inside cell (0, 0) of a hash of 10-unit cells: next_prime(7) = 13 cells, and
    // cell (0, 0) is slot 0.
    static cpBB boxes[2] = {{1, 1, 2, 2}, {3, 3, 4, 4}};
    cpSpatialIndex *index = cpSpaceHashNew(10, 7, probeBB, NULL);
    if (!index) return;
    for (int i = 0; i < 2; i++) cpSpatialIndexInsert(index, &boxes[i], (cpHashValue)(201 + i));
    MirrorHash *hash = (MirrorHash *)index;
    MirrorSet *set = hash->handleSet;
    int ok = hash->numcells == 13 && CChipmunkSpatialHashCellCount(7) == 13 && hash->celldim == 10 && hash->stamp == 1 && set != NULL &&
             (int)set->entries == cpHashSetCount((cpHashSet *)set) && set->entries == 2 && hash->table != NULL;
    // The second box's handle heads cell 0's chain, the first's follows; each retained by
    // the set and by its bin.
    MirrorCell *cell = ok ? hash->table[0] : NULL;
    ok = ok && cell && cell->next && !cell->next->next && cell->handle->obj == &boxes[1] &&
         cell->next->handle->obj == &boxes[0] && cell->handle->retain == 2 && cell->next->handle->retain == 2 &&
         cpHashSetFind((cpHashSet *)set, 202, &boxes[1]) == cell->handle;
    for (int i = 1; ok && i < 13; i++) ok = hash->table[i] == NULL;
    hashClass = index->klass;
    cpSpatialIndexFree(index);
    hashLayoutIsKnown = ok;
}

int CChipmunkSpatialHashLayoutIsKnown(void) {
    pthread_once(&hashLayoutOnce, checkHashLayout);
    return hashLayoutIsKnown;
}

static MirrorHash *asHash(void *index) {
    if (!CChipmunkSpatialHashLayoutIsKnown() || !index) return NULL;
    return ((cpSpatialIndex *)index)->klass == hashClass ? (MirrorHash *)index : NULL;
}

int CChipmunkSpatialHashMeasure(void *staticIndex, void *dynamicIndex, CChipmunkSpatialHashCounts *counts) {
    MirrorHash *hashes[2] = {asHash(staticIndex), asHash(dynamicIndex)};
    if (!hashes[0] || !hashes[1] || hashes[0]->spatialIndex.dynamicIndex != (cpSpatialIndex *)hashes[1]) return 0;
    for (int t = 0; t < 2; t++) {
        MirrorHash *hash = hashes[t];
        counts->shapes[t] = hash->handleSet->entries;
        counts->cells[t] = 0;
        counts->entries[t] = 0;
        for (int i = 0; i < hash->numcells; i++) {
            uint32_t live = 0;
            for (MirrorCell *cell = hash->table[i]; cell; cell = cell->next) live += cell->handle->obj != NULL;
            counts->cells[t] += live > 0;
            counts->entries[t] += live;
        }
    }
    return 1;
}

int CChipmunkSpatialHashCapture(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                                CChipmunkSpatialHashState *state) {
    CChipmunkSpatialHashCounts counts;
    if (!CChipmunkSpatialHashMeasure(staticIndex, dynamicIndex, &counts)) return 0;
    MirrorHash *hashes[2] = {staticIndex, dynamicIndex};
    PointerMap index;
    int ok = makeShapeIndex(&index, shapes, shapeCount);
    for (int t = 0; ok && t < 2; t++) {
        MirrorHash *hash = hashes[t];
        CChipmunkHashIndexState *out = &state->indexes[t];
        ok = out->shapeCount == counts.shapes[t] && out->cellCount == counts.cells[t] &&
             out->entryCount == counts.entries[t];
        out->stamp = hash->stamp;
        out->setSize = hash->handleSet->size;
        uint32_t k = 0;
        for (unsigned int i = 0; ok && i < hash->handleSet->size; i++) {
            for (MirrorBin *bin = hash->handleSet->table[i]; ok && bin; bin = bin->next) {
                MirrorHandle *handle = bin->elt;
                ok = k < out->shapeCount && (out->setOrder[k++] = lookupShape(&index, handle->obj)) >= 0;
            }
        }
        ok = ok && k == out->shapeCount;
        uint32_t cells = 0, entries = 0;
        for (int i = 0; ok && i < hash->numcells; i++) {
            uint32_t start = entries;
            for (MirrorCell *cell = hash->table[i]; ok && cell; cell = cell->next) {
                if (!cell->handle->obj) continue;  // a removed shape's, dropped at the next query
                ok = entries < out->entryCount;
                if (ok) ok = (out->cellShapes[entries++] = lookupShape(&index, cell->handle->obj)) >= 0;
            }
            if (ok && entries > start) {
                ok = cells < out->cellCount;
                if (ok) {
                    out->cellIndex[cells] = (uint32_t)i;
                    out->cellStart[cells++] = start;
                }
            }
        }
        ok = ok && cells == out->cellCount && entries == out->entryCount;
        if (ok) out->cellStart[cells] = entries;
    }
    pointerMapFree(&index);
    return ok;
}

static void pushCell(MirrorHash *hash, MirrorCell *cell) {
    cell->next = hash->pooledBins;
    hash->pooledBins = cell;
}

int CChipmunkSpatialHashRestore(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                                const CChipmunkSpatialHashState *state) {
    CChipmunkSpatialHashCounts counts;
    if (!CChipmunkSpatialHashMeasure(staticIndex, dynamicIndex, &counts)) return 0;
    MirrorHash *hashes[2] = {staticIndex, dynamicIndex};
    SetPlan plans[2] = {{0}, {0}};
    void **orders[2] = {NULL, NULL};
    MirrorHandle **handles[2] = {NULL, NULL};  // by position in cellShapes
    cpArray *buffers[2] = {cpArrayNew(0), cpArrayNew(0)};
    MirrorCell **fresh[2] = {NULL, NULL};  // the bins each hash's cells will use
    int ok = buffers[0] && buffers[1];
    uint32_t perBuffer = CP_BUFFER_BYTES / sizeof(MirrorCell);
    for (int t = 0; ok && t < 2; t++) {
        MirrorHash *hash = hashes[t];
        const CChipmunkHashIndexState *in = &state->indexes[t];
        ok = in->shapeCount == hash->handleSet->entries;
        orders[t] = malloc(sizeof(void *) * (in->shapeCount + 1));
        handles[t] = malloc(sizeof(MirrorHandle *) * (in->entryCount + 1));
        fresh[t] = malloc(sizeof(MirrorCell *) * (in->entryCount + 1));
        ok = ok && orders[t] && handles[t] && fresh[t];
        // The set's order: each shape of this hash, once.
        for (uint32_t i = 0; ok && i < in->shapeCount; i++) {
            int32_t s = in->setOrder[i];
            ok = s >= 0 && s < shapeCount;
            if (!ok) break;
            const cpShape *shape = shapes[s];
            MirrorHandle *handle = (MirrorHandle *)cpHashSetFind((cpHashSet *)hash->handleSet, shape->hashid, shape);
            ok = handle != NULL && handle->obj == shape;
            orders[t][i] = handle;
        }
        ok = ok && planSet(&plans[t], hash->handleSet, orders[t], in->shapeCount, in->setSize);
        // The cells: in range, increasing, each listing shapes of this hash, none twice.
        for (uint32_t c = 0; ok && c < in->cellCount; c++) {
            uint32_t start = in->cellStart[c], end = in->cellStart[c + 1];
            ok = in->cellIndex[c] < (uint32_t)hash->numcells && (c == 0 || in->cellIndex[c] > in->cellIndex[c - 1]) &&
                 start < end && end <= in->entryCount && (c > 0 || start == 0);
            for (uint32_t e = start; ok && e < end; e++) {
                int32_t s = in->cellShapes[e];
                ok = s >= 0 && s < shapeCount;
                if (!ok) break;
                const cpShape *shape = shapes[s];
                MirrorHandle *handle =
                    (MirrorHandle *)cpHashSetFind((cpHashSet *)hash->handleSet, shape->hashid, shape);
                ok = handle != NULL && handle->obj == shape;
                for (uint32_t f = start; ok && f < e; f++) ok = handles[t][f] != handle;
                handles[t][e] = handle;
            }
        }
        ok = ok && (in->cellCount == 0 ? in->entryCount == 0 : in->cellStart[in->cellCount] == in->entryCount);
        // Bins: the table's own (every one is emptied), then the pool's, then new buffers.
        uint32_t have = 0;
        for (int i = 0; ok && i < hash->numcells; i++) {
            for (MirrorCell *cell = hash->table[i]; cell && have < in->entryCount; cell = cell->next) {
                fresh[t][have++] = cell;
            }
        }
        for (MirrorCell *cell = hash->pooledBins; ok && cell && have < in->entryCount; cell = cell->next) {
            fresh[t][have++] = cell;
        }
        while (ok && have < in->entryCount) {
            MirrorCell *buffer = calloc(1, CP_BUFFER_BYTES);
            ok = buffer != NULL;
            if (!ok) break;
            cpArrayPush(buffers[t], buffer);
            for (uint32_t i = 0; i < perBuffer; i++) {
                if (have < in->entryCount) {
                    fresh[t][have++] = buffer + i;
                }
            }
        }
    }
    if (ok) {
        // Nothing below can fail but cpArrayPush growing an array, which the engine does too.
        for (int t = 0; t < 2; t++) {
            MirrorHash *hash = hashes[t];
            const CChipmunkHashIndexState *in = &state->indexes[t];
            applySetPlan(&plans[t]);
            hash->stamp = in->stamp;
            // Empty every cell: bins back to the pool, handles released (a removed shape's
            // handle goes back to its pool when its last bin does).
            for (int i = 0; i < hash->numcells; i++) {
                MirrorCell *cell = hash->table[i];
                while (cell) {
                    MirrorCell *next = cell->next;
                    MirrorHandle *handle = cell->handle;
                    if (--handle->retain == 0) cpArrayPush(hash->pooledHandles, handle);
                    pushCell(hash, cell);
                    cell = next;
                }
                hash->table[i] = NULL;
            }
            // Every planned bin is now in the pool or in a new buffer. Mark them (a pooled
            // bin's handle is unused), pool the rest, and hand the new buffers to the hash.
            MirrorHandle *planned = (MirrorHandle *)fresh[t];
            for (uint32_t e = 0; e < in->entryCount; e++) fresh[t][e]->handle = planned;
            MirrorCell *pool = hash->pooledBins;
            hash->pooledBins = NULL;
            while (pool) {
                MirrorCell *next = pool->next;
                if (pool->handle != planned) pushCell(hash, pool);
                pool = next;
            }
            for (int i = 0; i < buffers[t]->num; i++) {
                MirrorCell *buffer = buffers[t]->arr[i];
                cpArrayPush(hash->allocatedBuffers, buffer);
                for (uint32_t j = 0; j < perBuffer; j++) {
                    if (buffer[j].handle != planned) pushCell(hash, &buffer[j]);
                }
            }
            // Each cell's chain, first to last.
            for (uint32_t c = 0; c < in->cellCount; c++) {
                uint32_t start = in->cellStart[c], end = in->cellStart[c + 1];
                MirrorCell **link = &hash->table[in->cellIndex[c]];
                for (uint32_t e = start; e < end; e++) {
                    MirrorCell *cell = fresh[t][e];
                    cell->handle = handles[t][e];
                    cell->handle->retain++;
                    cell->next = NULL;
                    *link = cell;
                    link = &cell->next;
                }
            }
        }
    } else {
        for (int t = 0; t < 2; t++) {
            if (plans[t].set) freeSetPlan(&plans[t]);
            for (int i = 0; buffers[t] && i < buffers[t]->num; i++) free(buffers[t]->arr[i]);
        }
    }
    for (int t = 0; t < 2; t++) {
        if (buffers[t]) cpArrayFree(buffers[t]);
        free(orders[t]);
        free(handles[t]);
        free(fresh[t]);
    }
    return ok;
}
