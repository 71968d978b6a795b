// The binding's C code that runs beside the engine: the replacements for two engine
// functions (EngineGuard.cpp), the engine library's build id (EngineBuild.c), and the
// history of the default broad phase for snapshots (BroadPhase.c).
#ifndef CCHIPMUNK_RUNTIME_H
#define CCHIPMUNK_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when the engine's own calls reach the replacements (the program exports them, so the
/// dynamic linker binds libchipmunk's calls to them); 0 when they do not.
int ChipmunkEngineGuardIsActive(void);

/// How many narrow-phase tests on this thread the engine could not finish (its GJK/EPA
/// stopped on a degenerate pair) and the guard answered instead.
uint64_t ChipmunkEngineGuardDegenerateCollisions(void);

/// How many warnings the engine gave on this thread (not printed unless CHIPMUNK_WARNINGS
/// is set), and the text of the last one ("" if none).
uint64_t ChipmunkEngineGuardWarnings(void);
const char *ChipmunkEngineGuardLastWarning(void);

/// Runs `cpSpaceStep` with a bound on the pairs its broad phase makes (`maxPairs`, counted
/// before it makes them) and on the engine's pools, which hold the broad phase's pairs and
/// nodes, the arbiters and the contact buffers, and only grow: at most `maxBuffers`
/// buffers of `CChipmunkPoolBufferBytes()` bytes between them. Returns 0 when
/// the step ran within it; 1 when the step ran but left the pools past it; 2 when the
/// pools passed it in the broad phase and the step was stopped there: the space is then
/// whole enough to read and to free (every pair linked, no arbiter half made, the lock
/// lifted) but is not the space a whole step would have left. `groupsFellAsleep` is set to
/// 1 when the step put a group to sleep (the engine pushed its root onto the space's
/// sleeping groups), else 0; `guardedCollisions` to the narrow-phase tests of this step the
/// guard answered. A callback may step another space inside it: neither counts its step.
int CChipmunkSpaceStepWithinBudget(void *space, double dt, int64_t maxPairs, int32_t maxBuffers,
                                   int *groupsFellAsleep, uint64_t *guardedCollisions);

/// `cpHastySpaceStep`, watched as `CChipmunkSpaceStepWithinBudget` is for sleeping groups.
void CChipmunkHastySpaceStep(void *space, double dt, int *groupsFellAsleep, uint64_t *guardedCollisions);

/// Contacts of pairs the engine leaves cached beside sleeping bodies, copied out of its
/// ring of contact buffers into blocks of their own (KeptContacts.c): one per space.
typedef struct CChipmunkKeptContacts CChipmunkKeptContacts;
CChipmunkKeptContacts *CChipmunkKeptContactsCreate(void);
/// Frees every block; after the space is freed.
void CChipmunkKeptContactsDestroy(CChipmunkKeptContacts *kept);
/// How many blocks are kept.
size_t CChipmunkKeptContactsCount(const CChipmunkKeptContacts *kept);

/// Copies the contacts every cached arbiter between two sleeping (or static) bodies holds
/// in the ring into a kept block, after freeing the blocks arbiters have left: after a
/// restore, a copy, or anything else that may leave such a pair. Nothing when locked.
void CChipmunkKeepSleepingPairContacts(void *space, CChipmunkKeptContacts *kept);

/// After a step: `CChipmunkKeepSleepingPairContacts` if a group fell asleep in it, and
/// otherwise the blocks arbiters have left freed.
void CChipmunkKeptContactsAfterStep(void *space, CChipmunkKeptContacts *kept, int groupsFellAsleep);

/// The bytes one contact pair can hold in the engine's pools (its tree pair, arbiter and
/// contacts), and the bytes of one pool buffer.
size_t CChipmunkContactPairBytes(void);
size_t CChipmunkPoolBufferBytes(void);

/// The bytes of the space's pools (its own, and its default broad phase's), which only
/// grow: the most its pairs, arbiters and contacts have ever needed at once.
size_t CChipmunkSpacePoolBytes(void *space);

/// Copies the GNU build id of the loaded libchipmunk.so.7 (its NT_GNU_BUILD_ID note) into
/// `out`, at most `capacity` bytes, and returns its length: 0 if it cannot be found.
size_t CChipmunkEngineBuildID(unsigned char *out, size_t capacity);

/// 1 when the loaded engine is 7.0.3 and its private `cpBBTree` and `cpHashSet` have the
/// layout BroadPhase.c mirrors (checked once, on a probe tree); the functions below do
/// nothing and return 0 otherwise.
int CChipmunkBroadPhaseLayoutIsKnown(void);

/// Sets every leaf's stamp to 0 and the dynamic tree's to 1 when the tree's stamp has
/// reached 2^31, so that it never wraps (which the engine cannot survive); 1 if it did.
/// Between steps only whether a leaf's stamp equals the tree's matters, so the simulation
/// is unchanged.
int CChipmunkBroadPhaseRebaseStamps(void *staticIndex, void *dynamicIndex);

/// How many leaves of the `cpBBTree` behind `index` have a box (the tree's own, widened by
/// the shape's velocity) that overlaps l, b, r, t: the pairs the tree would make for a leaf
/// with that box. Stops counting past `limit`; -1 when the index is not a tree whose
/// layout is known.
int64_t CChipmunkTreeOverlapCount(void *index, double l, double b, double r, double t, int64_t limit);

/// One node of a `cpBBTree`, in preorder: a leaf names its shape (an index into the
/// caller's array of shapes) and carries its stamp; an internal node has shape -1.
typedef struct CChipmunkTreeNode {
    int32_t shape;
    uint32_t stamp;
    double bb[4];  // l, b, r, t
} CChipmunkTreeNode;

/// A cached pair of leaves: the shapes of its a and b leaves, and the collision id the
/// narrow phase starts from.
typedef struct CChipmunkTreePair {
    int32_t a, b;
    uint32_t id;
} CChipmunkTreePair;

/// One tree: its stamp, its leaf set's table size and visiting order, and its nodes
/// (`2 * leafCount - 1` of them, none when empty).
typedef struct CChipmunkTreeState {
    uint32_t stamp, setSize, leafCount;
    CChipmunkTreeNode *nodes;
    int32_t *setOrder;
} CChipmunkTreeState;

/// Both trees (0 static, 1 dynamic), their cached pairs, and each shape's list of pairs:
/// shape `s`'s are `pairLists[pairListStart[s] ..< pairListStart[s + 1]]`, indices into
/// `pairs`; `pairListStart` has one entry more than there are shapes.
typedef struct CChipmunkBroadPhaseState {
    CChipmunkTreeState trees[2];
    uint32_t pairCount;
    CChipmunkTreePair *pairs;
    int32_t *pairLists;
    uint32_t *pairListStart;
} CChipmunkBroadPhaseState;

typedef struct CChipmunkBroadPhaseCounts {
    uint32_t leaves[2];
    uint32_t pairs;
} CChipmunkBroadPhaseCounts;

/// The sizes to allocate for a capture of a space's two indexes (`cpSpace.staticShapes`,
/// `.dynamicShapes`); 0 unless both are the engine's trees and the layout is known.
int CChipmunkBroadPhaseMeasure(void *staticIndex, void *dynamicIndex, CChipmunkBroadPhaseCounts *counts);

/// Fills `state` (its arrays allocated to the measured sizes, its counts set to them)
/// from the two trees; `shapes` are the space's shapes, whose indices the state uses.
/// Returns 0 if a leaf's shape is not among them or the trees changed since measuring.
int CChipmunkBroadPhaseCapture(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                               CChipmunkBroadPhaseState *state);

/// Makes the two trees, which hold the same shapes as `state` describes, exactly that
/// state: the nodes, boxes and stamps, the leaf sets' sizes and orders, the pairs and
/// their lists. Checks everything first and changes nothing when it returns 0.
int CChipmunkBroadPhaseRestore(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                               const CChipmunkBroadPhaseState *state);

/// 1 when the broad-phase layout is known (above) and the engine's private `cpSpaceHash`
/// has the layout BroadPhase.c mirrors; the spatial-hash functions return 0 otherwise.
int CChipmunkSpatialHashLayoutIsKnown(void);

/// The number of cells the engine gives a spatial hash made for `count` cells (a prime at
/// least `count`, from the engine's table), or 0 past the table.
int CChipmunkSpatialHashCellCount(int count);

/// One spatial hash: its stamp, its handle set's table size and visiting order (shape
/// indices), and its table's non-empty cells: cell `cellIndex[c]` holds
/// `cellShapes[cellStart[c] ..< cellStart[c + 1]]`, first to last (`cellStart` has one
/// entry more than there are cells).
typedef struct CChipmunkHashIndexState {
    uint32_t stamp, setSize, shapeCount, cellCount, entryCount;
    int32_t *setOrder;
    uint32_t *cellIndex;
    uint32_t *cellStart;
    int32_t *cellShapes;
} CChipmunkHashIndexState;

/// Both spatial hashes: 0 static, 1 dynamic.
typedef struct CChipmunkSpatialHashState {
    CChipmunkHashIndexState indexes[2];
} CChipmunkSpatialHashState;

typedef struct CChipmunkSpatialHashCounts {
    uint32_t shapes[2], cells[2], entries[2];
} CChipmunkSpatialHashCounts;

/// The sizes to allocate for a capture of a space's two spatial hashes; 0 unless both are
/// the engine's spatial hashes and their layout is known.
int CChipmunkSpatialHashMeasure(void *staticIndex, void *dynamicIndex, CChipmunkSpatialHashCounts *counts);

/// Fills `state` (arrays allocated and counts set to the measured sizes) from the two
/// hashes; a removed shape's entries, which the next query drops, are left out.
int CChipmunkSpatialHashCapture(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                                CChipmunkSpatialHashState *state);

/// Makes the two hashes, which hold the same shapes as `state` describes, exactly that
/// state. Checks everything first and changes nothing when it returns 0.
int CChipmunkSpatialHashRestore(void *staticIndex, void *dynamicIndex, void *const *shapes, int32_t shapeCount,
                                const CChipmunkSpatialHashState *state);

/// Unthreads every arbiter of a space about to be freed, cached or sleeping (its piles
/// woken), and pools it, in one pass: the shapes then taken out of it one by one have
/// none to filter (SpaceTeardown.c). Nothing when the space is locked.
void CChipmunkSpaceDropArbiters(void *space);

/// A space's state saved for a fast restore into the same space (SpaceState.c): opaque,
/// its buffers kept and grown from one save to the next.
typedef struct CChipmunkSpaceState CChipmunkSpaceState;

/// A new, empty state; NULL when out of memory.
CChipmunkSpaceState *CChipmunkSpaceStateCreate(void);
void CChipmunkSpaceStateDestroy(CChipmunkSpaceState *state);

/// Saves `space` (a `cpSpace *` between steps, on the default broad phase with a known
/// layout): `bodies` are its static body and then its bodies, `shapes` and `constraints`
/// all of its own. Returns 0, and holds no state, when the space uses the spatial hash,
/// the layout is unknown, a constraint is of no known kind, or memory ran out.
int CChipmunkSpaceStateSave(CChipmunkSpaceState *state, void *space, void *const *bodies, int32_t bodyCount,
                            void *const *shapes, int32_t shapeCount, void *const *constraints,
                            int32_t constraintCount);

/// Restores a saved state into the space it was saved from, which must hold the same
/// objects and the same two index structs. Returns 0, changing nothing, when the state is
/// empty or for another space, or those differ; otherwise 1 (out of memory aborts).
int CChipmunkSpaceStateRestore(CChipmunkSpaceState *state, void *space);

/// Whether the state holds a save.
int CChipmunkSpaceStateIsSaved(const CChipmunkSpaceState *state);

/// The bytes the state holds for its save (not its spare capacity).
size_t CChipmunkSpaceStateByteCount(const CChipmunkSpaceState *state);
/// The heap memory a state holds: its buffers' capacities (they grow by doubling and are
/// reused by later saves), scratch included.
size_t CChipmunkSpaceStateHeapBytes(const CChipmunkSpaceState *state);

/// Whether the state's save copied the dynamic tree buffer by buffer, rather than node by
/// node and pair by pair (see SpaceState.c).
int CChipmunkSpaceStateSavedTreeWhole(const CChipmunkSpaceState *state);

/// The buffers of nodes and pairs a `cpBBTree` index has allocated; -1 for any other index.
int CChipmunkTreeBufferCount(void *index);

/// With every arbiter of `space` pooled, recycles its ring of contact buffers and makes
/// the next one the newest, stamped with the space's stamp (ContactRing.c): what a
/// snapshot's restore does before it places the contacts, without growing the ring.
void CChipmunkSpaceRecycleContactRing(void *space);

/// Sets an arbiter's handler, `swapped` flag and wildcard handlers from its shapes'
/// collision types, as `cpArbiterUpdate` does (a snapshot's restore, for the arbiters it makes).
void CChipmunkArbiterSetHandlers(void *space, void *arbiter);

/// Gives every cached and sleeping arbiter that has none its wildcard handlers, as its next
/// update would, once the space uses wildcards: call it when adding a wildcard or default
/// handler turns `usesWildcards` on (CollisionHandlers.c).
void CChipmunkFillWildcardHandlers(void *space);

/// Gives every cached and sleeping arbiter its handler, `swapped` flag and wildcard
/// handlers from the space's handlers as they are now (`CChipmunkArbiterSetHandlers`):
/// call it between steps when a handler has been added (CollisionHandlers.c).
void CChipmunkRefreshArbiterHandlers(void *space);

/// Empties the contacts of the cached arbiters between `body`, just turned static, and
/// other static bodies: the engine keeps them forever, in contact buffers it reuses
/// (KindChange.c). Nothing when the space is locked.
void CChipmunkForgetStaticPairContacts(void *space, void *body);

/// Brings the world-space data of `body`'s shapes, just turned static, up to its transform,
/// and reindexes them when that changed them: the engine moves them to the static index
/// as they were at the last step (KindChange.c). Nothing when the space is locked.
void CChipmunkUpdateStaticShapes(void *space, void *body);

/// Whether `CChipmunkSpaceClone` can copy `space` (a `cpSpace *`): the default broad phase
/// with a known layout, between steps.
int CChipmunkSpaceCanClone(void *space);

/// Makes `shape` (memory for a struct of `original`'s class) a blank shape of that class, a
/// polygon with room for as many vertices, for `CChipmunkSpaceClone` to fill. Returns
/// `shape`, or NULL when out of memory.
void *CChipmunkShapeSkeleton(void *shape, const void *original);

/// Clones `original`'s engine state into `copy`, a new space with no objects added, for
/// `Space.copy()` (SpaceClone.c). `fromBodies` are the original's static body and then its
/// bodies, `fromShapes` and `fromConstraints` all of its own; the `to` lists are the copy's
/// counterparts, of the same kinds and geometry, in the same order and added to nothing;
/// the copy's collision handlers are those of the original; `copyKept` takes the copy's
/// kept contacts (KeptContacts.c). Returns 0 when either space
/// cannot be cloned (changing nothing), or when memory ran out or a pointer had no
/// counterpart (the copy is then unusable).
int CChipmunkSpaceClone(void *original, void *copy, CChipmunkKeptContacts *copyKept, void *const *fromBodies,
                        void *const *toBodies, int32_t bodyCount, void *const *fromShapes, void *const *toShapes,
                        int32_t shapeCount, void *const *fromConstraints, void *const *toConstraints,
                        int32_t constraintCount);

#ifdef __cplusplus
}
#endif

#endif
