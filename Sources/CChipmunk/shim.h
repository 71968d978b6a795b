// The one place SwiftChipmunk touches C: Debian's libchipmunk-dev (Chipmunk 7.0.3).
// Debian ships no pkg-config file, so module.modulemap names the library itself.
#ifndef CCHIPMUNK_SHIM_H
#define CCHIPMUNK_SHIM_H

#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
#include <math.h>

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

/// Wakes every sleeping body of a space, before it is freed.
///
/// When bodies fall asleep the engine copies their contacts to memory of their own, and
/// frees the copies only when they wake; `cpSpaceFree` never frees them (Chipmunk2D issue
/// #227), so every space dropped with sleeping bodies leaked a few hundred bytes. Waking a
/// component moves its contacts back into the space's buffers and frees the copies.
static inline void CChipmunkWakeAllBeforeFree(cpSpace *space) {
    while (space->sleepingComponents->num > 0) {
        cpBodyActivate((cpBody *)space->sleepingComponents->arr[space->sleepingComponents->num - 1]);
    }
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

/// What the next `cpSpaceStep` would make of one body, computed with the engine's own
/// arithmetic: the position and angle of `cpBodyUpdatePosition`, then the velocity and
/// angular velocity of `cpBodyUpdateVelocity` with `pow(damping, dt)`. A body with a
/// custom integrator keeps its current values here (the Swift functions it calls check
/// theirs); a kinematic body (infinite mass) has no velocity integration.
typedef struct { cpVect p, v; cpFloat a, w; } CChipmunkPrediction;

static inline CChipmunkPrediction CChipmunkPredict(const cpBody *body, cpFloat dt, cpFloat damping, cpVect gravity) {
    CChipmunkPrediction next = {body->p, body->v, body->a, body->w};
    if (body->position_func == cpBodyUpdatePosition) {
        next.p = cpvadd(body->p, cpvmult(cpvadd(body->v, body->v_bias), dt));
        next.a = body->a + (body->w + body->w_bias) * dt;
    }
    if (body->velocity_func == cpBodyUpdateVelocity && body->m < INFINITY) {
        next.v = cpvadd(cpvmult(body->v, damping), cpvmult(cpvadd(gravity, cpvmult(body->f, body->m_inv)), dt));
        next.w = body->w * damping + body->t * body->i_inv * dt;
    }
    return next;
}

/// Names what is wrong with a body the fast check refused: `quantity` (0 position,
/// 1 velocity, 2 angle, 3 angular velocity, 4 force, 5 torque) and the offending `value`.
static inline void CChipmunkDescribeDivergence(const cpBody *body, CChipmunkPrediction next, cpFloat maxCoordinate,
                                               int *quantity, cpFloat *value) {
    const cpFloat values[] = {body->v.x, body->v.y, body->w, body->f.x, body->f.y, body->t,
                              next.p.x, next.p.y, next.a, next.v.x, next.v.y, next.w};
    const int quantities[] = {1, 1, 3, 4, 4, 5, 0, 0, 2, 1, 1, 3};
    for (int i = 0; i < 12; i++) {
        const int isCoordinate = quantities[i] == 0;
        if (!isfinite(values[i]) || (isCoordinate && !(fabs(values[i]) <= maxCoordinate))) {
            *quantity = quantities[i];
            *value = values[i];
            return;
        }
    }
}

/// The divergence guard: the first awake body whose next `cpSpaceStep` would fail one of
/// the engine's sanity checks (`Body's position/velocity/... is invalid`, which abort), or
/// carry it past `maxCoordinate`, where collisions lose precision. Returns NULL when every
/// body is sound; otherwise the body, with `quantity` and `value` as
/// `CChipmunkDescribeDivergence` sets them.
///
/// It runs before every step, so the common case, a dynamic body on the engine's own
/// integrators, is one pass with one branch: the predicted velocity is finite only if the
/// velocity, force and damping that make it are (a NaN or an infinity in them survives),
/// likewise the angular velocity, and `x - x` is 0 for a finite `x` and NaN otherwise.
/// Other bodies (kinematic, or with a custom integrator) have every value checked.
static inline cpBody *CChipmunkFindDivergence(const cpSpace *space, cpFloat dt, cpFloat maxCoordinate, int *quantity,
                                              cpFloat *value) {
    const cpArray *bodies = space->dynamicBodies;
    const cpFloat damping = cpfpow(space->damping, dt);
    const cpVect gravity = space->gravity;
    for (int i = 0; i < bodies->num; i++) {
        cpBody *body = (cpBody *)bodies->arr[i];
        const CChipmunkPrediction next = CChipmunkPredict(body, dt, damping, gravity);
        cpFloat zero = (next.v.x - next.v.x) + (next.v.y - next.v.y) + (next.w - next.w) + (next.a - next.a);
        const int predictsAll = body->position_func == cpBodyUpdatePosition
            && body->velocity_func == cpBodyUpdateVelocity && body->m < INFINITY;
        if (!predictsAll) {
            zero += (body->v.x - body->v.x) + (body->v.y - body->v.y) + (body->w - body->w)
                + (body->f.x - body->f.x) + (body->f.y - body->f.y) + (body->t - body->t);
        }
        if (zero == 0 && fabs(next.p.x) <= maxCoordinate && fabs(next.p.y) <= maxCoordinate) continue;
        CChipmunkDescribeDivergence(body, next, maxCoordinate, quantity, value);
        return body;
    }
    return NULL;
}

/// The first spring that the guarded spring laws below refused during a step. It is kept
/// in the space's user data, which the binding uses for nothing else: a static variable in
/// this header would exist once per Swift file that imports it.
static inline void CChipmunkRecordRefusedSpring(cpConstraint *spring) {
    if (!spring->space->userData) spring->space->userData = spring;
}

static inline cpConstraint *CChipmunkTakeRefusedSpring(cpSpace *space) {
    cpConstraint *spring = (cpConstraint *)space->userData;
    space->userData = NULL;
    return spring;
}

static inline int CChipmunkVelocityStaysFinite(const cpBody *body, cpVect j, cpVect r) {
    const cpVect v = cpvadd(body->v, cpvmult(j, body->m_inv));
    const cpFloat w = body->w + body->i_inv * cpvcross(r, j);
    return isfinite(v.x) && isfinite(v.y) && isfinite(w);
}

/// The engine's default damped-spring law, `(restLength - dist) * stiffness`, with the same
/// arithmetic and so the same bits, installed by the binding in place of the engine's own.
/// The spring's step applies its impulse to the bodies' velocities before the engine
/// checks them ("Body's velocity is invalid"), so a spring that has diverged would abort
/// the process. This law refuses such an impulse instead: it applies none, and records
/// the spring for `Space.step` to report as a divergence once the step ends.
static inline cpFloat CChipmunkGuardedSpringForce(cpConstraint *constraint, cpFloat dist) {
    const cpDampedSpring *spring = (const cpDampedSpring *)constraint;
    const cpFloat force = (spring->restLength - dist) * spring->stiffness;
    const cpVect j = cpvmult(spring->n, force * constraint->space->curr_dt);
    if (!CChipmunkVelocityStaysFinite(constraint->a, cpvneg(j), spring->r1) ||
        !CChipmunkVelocityStaysFinite(constraint->b, j, spring->r2)) {
        CChipmunkRecordRefusedSpring(constraint);
        return 0;
    }
    return force;
}

/// The rotary spring's default law, `(relativeAngle - restAngle) * stiffness`, guarded the
/// same way: its impulse goes straight into the bodies' angular velocities.
static inline cpFloat CChipmunkGuardedSpringTorque(cpConstraint *constraint, cpFloat relativeAngle) {
    const cpDampedRotarySpring *spring = (const cpDampedRotarySpring *)constraint;
    const cpFloat torque = (relativeAngle - spring->restAngle) * spring->stiffness;
    const cpFloat j = torque * constraint->space->curr_dt;
    if (!isfinite(constraint->a->w - j * constraint->a->i_inv) || !isfinite(constraint->b->w + j * constraint->b->i_inv)) {
        CChipmunkRecordRefusedSpring(constraint);
        return 0;
    }
    return torque;
}

#endif
