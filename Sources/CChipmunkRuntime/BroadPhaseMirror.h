// The engine's private broad-phase structs (cpBBTree.c, cpHashSet.c), mirrored for
// Chipmunk 7.0.3; BroadPhase.c checks the layout once (CChipmunkBroadPhaseLayoutIsKnown)
// before anything reads through these. Private to CChipmunkRuntime: BroadPhase.c (the
// snapshot's records) and SpaceState.c (the fast save and restore) share them.
#ifndef CCHIPMUNK_BROAD_PHASE_MIRROR_H
#define CCHIPMUNK_BROAD_PHASE_MIRROR_H

#include <chipmunk/chipmunk_private.h>

typedef struct MirrorNode MirrorNode;
typedef struct MirrorPair MirrorPair;

typedef struct MirrorThread {
    MirrorPair *prev;
    MirrorNode *leaf;
    MirrorPair *next;
} MirrorThread;

struct MirrorPair {
    MirrorThread a, b;
    cpCollisionID id;
};

struct MirrorNode {
    void *obj;
    cpBB bb;
    MirrorNode *parent;
    union {
        struct {
            MirrorNode *a, *b;
        } children;
        struct {
            cpTimestamp stamp;
            MirrorPair *pairs;
        } leaf;
    } node;
};

typedef struct MirrorBin {
    void *elt;
    cpHashValue hash;
    struct MirrorBin *next;
} MirrorBin;

typedef struct MirrorSet {
    unsigned int entries, size;
    cpHashSetEqlFunc eql;
    void *default_value;
    MirrorBin **table;
    MirrorBin *pooledBins;
    cpArray *allocatedBuffers;
} MirrorSet;

typedef struct MirrorTree {
    cpSpatialIndex spatialIndex;
    cpBBTreeVelocityFunc velocityFunc;
    MirrorSet *leaves;
    MirrorNode *root;
    MirrorNode *pooledNodes;
    MirrorPair *pooledPairs;
    cpArray *allocatedBuffers;
    cpTimestamp stamp;
} MirrorTree;

/// The tree behind a space's spatial index, or NULL when the layout is unknown or the
/// index is not a `cpBBTree` (the spatial hash).
MirrorTree *CChipmunkMirrorTree(void *index);

#endif
