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

/// The divergence guard: the first body whose next `cpSpaceStep` would fail one of the
/// engine's sanity checks (`Body's position/velocity/... is invalid`), which abort.
///
/// For each awake dynamic or kinematic body it checks the state the step starts from
/// (velocity, angular velocity, force, torque), then computes, with the engine's own
/// arithmetic, what the engine's default position and velocity integration would make of
/// it (`cpBodyUpdatePosition`, `cpBodyUpdateVelocity` with `pow(damping, dt)`); positions
/// must also stay within `maxCoordinate`, past which collisions lose precision. Bodies with
/// a custom integrator are checked by the Swift functions it calls. Returns NULL when every
/// body is sound; otherwise sets `quantity` (0 position, 1 velocity, 2 angle, 3 angular
/// velocity, 4 force, 5 torque) and the offending `value`.
static inline cpBody *CChipmunkFindDivergence(const cpSpace *space, cpFloat dt, cpFloat maxCoordinate, int *quantity,
                                              cpFloat *value) {
    const cpArray *bodies = space->dynamicBodies;
    const cpFloat damping = cpfpow(space->damping, dt);
    const cpVect gravity = space->gravity;
#define CCHIPMUNK_CHECK(q, x) if (!isfinite(x)) { *quantity = (q); *value = (x); return body; }
#define CCHIPMUNK_CHECK_COORDINATE(x) if (!(fabs(x) <= maxCoordinate)) { *quantity = 0; *value = (x); return body; }
    for (int i = 0; i < bodies->num; i++) {
        cpBody *body = (cpBody *)bodies->arr[i];
        CCHIPMUNK_CHECK(1, body->v.x) CCHIPMUNK_CHECK(1, body->v.y)
        CCHIPMUNK_CHECK(3, body->w)
        CCHIPMUNK_CHECK(4, body->f.x) CCHIPMUNK_CHECK(4, body->f.y)
        CCHIPMUNK_CHECK(5, body->t)
        CCHIPMUNK_CHECK_COORDINATE(body->p.x) CCHIPMUNK_CHECK_COORDINATE(body->p.y)
        if (body->position_func == cpBodyUpdatePosition) {
            const cpVect p = cpvadd(body->p, cpvmult(cpvadd(body->v, body->v_bias), dt));
            CCHIPMUNK_CHECK_COORDINATE(p.x) CCHIPMUNK_CHECK_COORDINATE(p.y)
            const cpFloat a = body->a + (body->w + body->w_bias) * dt;
            CCHIPMUNK_CHECK(2, a)
        }
        if (body->velocity_func == cpBodyUpdateVelocity && cpBodyGetType(body) == CP_BODY_TYPE_DYNAMIC) {
            const cpVect v = cpvadd(cpvmult(body->v, damping), cpvmult(cpvadd(gravity, cpvmult(body->f, body->m_inv)), dt));
            CCHIPMUNK_CHECK(1, v.x) CCHIPMUNK_CHECK(1, v.y)
            const cpFloat w = body->w * damping + body->t * body->i_inv * dt;
            CCHIPMUNK_CHECK(3, w)
        }
    }
#undef CCHIPMUNK_CHECK
#undef CCHIPMUNK_CHECK_COORDINATE
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
