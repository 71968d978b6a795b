// The one place SwiftChipmunk touches C: Debian's libchipmunk-dev (Chipmunk 7.0.3).
// Debian ships no pkg-config file, so module.modulemap names the library itself.
#ifndef CCHIPMUNK_SHIM_H
#define CCHIPMUNK_SHIM_H

#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>

// chipmunk_private.h includes chipmunk.h and makes the structs complete, so that
// handles import as typed pointers. Use its fields only where the public API has no way.
#include <chipmunk/chipmunk_private.h>
#include <chipmunk/cpHastySpace.h>
#include <chipmunk/cpMarch.h>
#include <chipmunk/cpPolyline.h>

/// `cpVersionString` is a mutable global, which Swift 6 refuses to read; this reads it.
static inline const char *CChipmunkVersionString(void) { return cpVersionString; }

/// `cpSpaceNew`, with the debug build's two-line banner kept off standard output.
///
/// Debian's build prints "Initializing cpSpace - Chipmunk v7.0.3 (Debug Enabled)" and a
/// hint on stdout from the first `cpSpaceNew` in a process. Tools that write data to
/// stdout must not see it, so the first space is made with stdout pointed at /dev/null.
/// Another thread writing to stdout in that instant would lose its output too, which is
/// why the Swift layer calls this once, before any space exists.
static inline cpSpace *CChipmunkSpaceNewQuietly(void) {
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int devnull = open("/dev/null", O_WRONLY);
    if (saved >= 0 && devnull >= 0) dup2(devnull, STDOUT_FILENO);
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (saved >= 0) { dup2(saved, STDOUT_FILENO); close(saved); }
    if (devnull >= 0) close(devnull);
    return space;
}

/// The vertices of a polyline (a flexible array member, which Swift does not import).
static inline cpVect *CChipmunkPolylineVerts(cpPolyline *line) { return line->verts; }

/// A new polyline holding a copy of `verts`, allocated as the engine allocates them, so
/// that `cpPolylineFree` frees it.
static inline cpPolyline *CChipmunkPolylineNew(int count, const cpVect *verts) {
    cpPolyline *line = (cpPolyline *)cpcalloc(1, sizeof(cpPolyline) + (size_t)count * sizeof(cpVect));
    line->count = count;
    line->capacity = count;
    for (int i = 0; i < count; i++) line->verts[i] = verts[i];
    return line;
}

/// `cpContactPointSet.points` is an array of an anonymous struct, which Swift does not import.
static inline cpVect CChipmunkContactPointA(const cpContactPointSet *set, int i) { return set->points[i].pointA; }
static inline cpVect CChipmunkContactPointB(const cpContactPointSet *set, int i) { return set->points[i].pointB; }
static inline cpFloat CChipmunkContactDistance(const cpContactPointSet *set, int i) { return set->points[i].distance; }
static inline void CChipmunkSetContactPoint(cpContactPointSet *set, int i, cpVect a, cpVect b, cpFloat distance) {
    set->points[i].pointA = a;
    set->points[i].pointB = b;
    set->points[i].distance = distance;
}

/// Swift cannot import the cast macros; these are their values.
static inline cpBitmask CChipmunkAllCategories(void) { return CP_ALL_CATEGORIES; }
static inline cpCollisionType CChipmunkWildcardCollisionType(void) { return CP_WILDCARD_COLLISION_TYPE; }

#endif
