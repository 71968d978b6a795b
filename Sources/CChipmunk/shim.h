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

/// The largest coordinate a body's position may reach; `Parameter.maxCoordinate` in Swift.
/// Past about 1e19 the engine's polygon collision loses the precision it needs and aborts.
static inline cpFloat CChipmunkMaxCoordinate(void) { return 1e15; }

/// What went wrong in the current step, if anything: the first body or spring whose update
/// the guarded functions below refused. The binding keeps one per space, in the space's
/// user data, which it uses for nothing else (a static variable in this header would
/// exist once per Swift file that imports it). `quantity`: 0 position, 1 velocity,
/// 2 angle, 3 angular velocity, 4 force, 5 torque. `bound` is the largest coordinate a
/// body may reach in this space (0: `CChipmunkMaxCoordinate()`); with the spatial hash it is
/// smaller, since the hash turns coordinates over its cell size into `int` cell indices.
typedef struct {
    const cpBody *body;
    const cpConstraint *spring;
    int quantity;
    cpFloat value;
    cpFloat bound;
} CChipmunkStepReport;

/// The largest coordinate a body of `space` may reach (see `CChipmunkStepReport.bound`).
static inline cpFloat CChipmunkPositionBound(const cpSpace *space) {
    const CChipmunkStepReport *report = space ? (const CChipmunkStepReport *)space->userData : NULL;
    return report && report->bound > 0 ? report->bound : CChipmunkMaxCoordinate();
}

static inline void CChipmunkReport(cpSpace *space, const cpBody *body, const cpConstraint *spring, int quantity,
                                   cpFloat value) {
    CChipmunkStepReport *report = (CChipmunkStepReport *)space->userData;
    if (!report || report->body || report->spring) return;  // the first one is reported
    report->body = body;
    report->spring = spring;
    report->quantity = quantity;
    report->value = value;
}

/// Reports the first of `values` that is not finite, or that is a position past the bound
/// or an angle past `CChipmunkMaxCoordinate()`.
static inline void CChipmunkReportBody(const cpBody *body, const cpFloat *values, const int *quantities, int count) {
    for (int i = 0; i < count; i++) {
        const cpFloat bound = quantities[i] == 0   ? CChipmunkPositionBound(body->space)
                              : quantities[i] == 2 ? CChipmunkMaxCoordinate()
                                                   : INFINITY;
        if (!isfinite(values[i]) || !(fabs(values[i]) <= bound)) {
            CChipmunkReport(body->space, body, NULL, quantities[i], values[i]);
            return;
        }
    }
}

/// The divergence guard, part one: the engine's position integration, `cpBodyUpdatePosition`
/// of Chipmunk 7.0.3, computed the same way (so giving the same bits), with the debug
/// build's sanity check (which aborts) replaced by a test before anything is written. If
/// the new position or angle, or the velocity, angular velocity, force or torque, is not
/// finite, or the position would pass the coordinate bound, the body keeps its state for
/// this step and the step reports it. The binding installs it on every body; since it
/// replaces the engine's function rather than wrapping it, the guard costs no call and no
/// pass of its own. `x - x` is 0 for a finite `x` and NaN otherwise, and a NaN survives
/// the sum.
static inline void CChipmunkGuardedUpdatePosition(cpBody *body, cpFloat dt) {
    const cpVect p = cpvadd(body->p, cpvmult(cpvadd(body->v, body->v_bias), dt));
    const cpFloat a = body->a + (body->w + body->w_bias) * dt;
    const cpFloat zero = (a - a) + (body->v.x - body->v.x) + (body->v.y - body->v.y) + (body->w - body->w)
        + (body->f.x - body->f.x) + (body->f.y - body->f.y) + (body->t - body->t);
    const cpFloat bound = CChipmunkPositionBound(body->space);
    if (!(zero == 0 && fabs(p.x) <= bound && fabs(p.y) <= bound && fabs(a) <= CChipmunkMaxCoordinate())) {
        const cpFloat values[] = {p.x, p.y, a, body->v.x, body->v.y, body->w, body->f.x, body->f.y, body->t};
        const int quantities[] = {0, 0, 2, 1, 1, 3, 4, 4, 5};
        CChipmunkReportBody(body, values, quantities, 9);
        return;
    }
    body->p = p;
    body->a = a;
    // SetTransform in cpBody.c.
    const cpVect rot = cpvforangle(a);
    const cpVect c = body->cog;
    body->transform = cpTransformNewTranspose(
        rot.x, -rot.y, p.x - (c.x * rot.x - c.y * rot.y),
        rot.y, rot.x, p.y - (c.x * rot.y + c.y * rot.x));
    body->v_bias = cpvzero;
    body->w_bias = 0.0f;
}

/// The divergence guard, part two: the engine's velocity integration, `cpBodyUpdateVelocity`
/// of Chipmunk 7.0.3 (`damping` is `pow(space damping, dt)`, as the step passes it),
/// computed the same way, refusing a result that is not finite. Kinematic bodies (infinite
/// mass; static ones are never integrated) are skipped, as the engine skips them; a
/// dynamic body's positive mass and moment are checked by `Space.step` before it begins.
static inline void CChipmunkGuardedUpdateVelocity(cpBody *body, cpVect gravity, cpFloat damping, cpFloat dt) {
    if (body->m == INFINITY) return;
    const cpVect v = cpvadd(cpvmult(body->v, damping), cpvmult(cpvadd(gravity, cpvmult(body->f, body->m_inv)), dt));
    const cpFloat w = body->w * damping + body->t * body->i_inv * dt;
    if (!((v.x - v.x) + (v.y - v.y) + (w - w) == 0)) {
        const cpFloat values[] = {v.x, v.y, w};
        const int quantities[] = {1, 1, 3};
        CChipmunkReportBody(body, values, quantities, 3);
        return;
    }
    body->v = v;
    body->w = w;
    body->f = cpvzero;
    body->t = 0.0f;
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
/// the spring in the space's step report.
static inline cpFloat CChipmunkGuardedSpringForce(cpConstraint *constraint, cpFloat dist) {
    const cpDampedSpring *spring = (const cpDampedSpring *)constraint;
    const cpFloat force = (spring->restLength - dist) * spring->stiffness;
    const cpVect j = cpvmult(spring->n, force * constraint->space->curr_dt);
    if (!CChipmunkVelocityStaysFinite(constraint->a, cpvneg(j), spring->r1) ||
        !CChipmunkVelocityStaysFinite(constraint->b, j, spring->r2)) {
        CChipmunkReport(constraint->space, NULL, constraint, 0, INFINITY);
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
        CChipmunkReport(constraint->space, NULL, constraint, 0, INFINITY);
        return 0;
    }
    return torque;
}


/// Whether the engine can solve a pivot or groove joint (1), or its 2×2 solve would find a
/// zero determinant and abort ("Unsolvable constraint.", 0). Other constraints answer 1.
///
/// The joints solve K·j = v with K = (mA⁻¹ + mB⁻¹)·I + iA⁻¹·S(rA) + iB⁻¹·S(rB), where r is an
/// anchor less its body's centre of gravity and S(r) has rank one. With M the inverse masses'
/// sum and X = iA⁻¹|rA|² + iB⁻¹|rB|², det K ≥ M·(M + X) while rounding errs by a few ulps of
/// (M + X)²: det K stays positive while X/M is well below 2^52. The bound 2^40 keeps twelve
/// bits of margin. |r| does not change as the bodies turn, so neither does the answer.
static inline int CChipmunkMatrixJointIsSolvable(const cpConstraint *constraint) {
    const cpBody *a = constraint->a, *b = constraint->b;
    cpFloat ra2, rb2;
    if (cpConstraintIsPivotJoint(constraint)) {
        const cpPivotJoint *joint = (const cpPivotJoint *)constraint;
        ra2 = cpvlengthsq(cpvsub(joint->anchorA, a->cog));
        rb2 = cpvlengthsq(cpvsub(joint->anchorB, b->cog));
    } else if (cpConstraintIsGrooveJoint(constraint)) {
        // The groove's point is clamped between its ends: the farther end bounds it.
        const cpGrooveJoint *joint = (const cpGrooveJoint *)constraint;
        ra2 = cpfmax(cpvlengthsq(cpvsub(joint->grv_a, a->cog)), cpvlengthsq(cpvsub(joint->grv_b, a->cog)));
        rb2 = cpvlengthsq(cpvsub(joint->anchorB, b->cog));
    } else {
        return 1;
    }
    const cpFloat m = a->m_inv + b->m_inv;
    const cpFloat x = a->i_inv * ra2 + b->i_inv * rb2;
    return x <= m * 0x1p40;
}

/// Whether a rotary constraint (a rotary spring or limit, a ratchet, a gear or a motor) has
/// a body that can turn: the engine divides by its bodies' inverse moments summed (a gear's
/// weighted by its ratio), which are both 0 for two bodies of which neither can turn
/// (static, kinematic, or of infinite moment). Then a rotary spring aborts ("Unsolvable
/// spring.") and the others make both spins NaN (0 × infinity). Other kinds: 1.
static inline int CChipmunkRotaryConstraintCanTurn(const cpConstraint *constraint) {
    const cpBody *a = constraint->a, *b = constraint->b;
    if (cpConstraintIsGearJoint(constraint)) {
        // The engine's own sum (gear.c's preStep), whose inverse must be finite: a subnormal
        // one (a ratio of 1e-170 against a moment of 1e150) is not 0, and its inverse is.
        const cpGearJoint *gear = (const cpGearJoint *)constraint;
        return isfinite(1.0 / (a->i_inv * gear->ratio_inv + gear->ratio * b->i_inv));
    }
    if (cpConstraintIsDampedRotarySpring(constraint) || cpConstraintIsRotaryLimitJoint(constraint) ||
        cpConstraintIsRatchetJoint(constraint) || cpConstraintIsSimpleMotor(constraint)) {
        return a->i_inv + b->i_inv != 0.0;
    }
    return 1;
}

/// `cpConstraintGetImpulse`, except that a pivot's or a groove's impulse whose components
/// are finite is their length without overflow (`hypot`) where the engine's `cpvlength`
/// overflows: components of 1e300 (a body pulled towards a static body moving at 1e300)
/// read as infinite while the joint held a finite impulse. The same bits otherwise.
static inline cpFloat CChipmunkConstraintImpulse(cpConstraint *c) {
    const cpFloat impulse = cpConstraintGetImpulse(c);
    if (!isinf(impulse)) return impulse;
    cpVect j;
    if (cpConstraintIsPivotJoint(c)) {
        j = ((const cpPivotJoint *)c)->jAcc;
    } else if (cpConstraintIsGrooveJoint(c)) {
        j = ((const cpGrooveJoint *)c)->jAcc;
    } else {
        return impulse;
    }
    return isfinite(j.x) && isfinite(j.y) ? hypot(j.x, j.y) : impulse;
}

/// Zeroes a constraint's accumulated impulse if it is not finite, and says whether it did;
/// a ratchet's angle that is not finite becomes its bodies' relative angle, as
/// `cpRatchetJointInit` starts it. A diverging step can leave an impulse at infinity (a
/// gear phase of 1.8e308); the next step applies it again as a warm start, so the space
/// kept diverging after the cause was fixed.
static inline int CChipmunkResetNonFiniteImpulse(cpConstraint *c) {
#define CCHIPMUNK_RESET(type, field) { type *j = (type *)c; if (!isfinite(j->field)) { j->field = 0; return 1; } return 0; }
    if (cpConstraintIsRatchetJoint(c)) {
        cpRatchetJoint *ratchet = (cpRatchetJoint *)c;
        if (!isfinite(ratchet->angle)) ratchet->angle = c->b->a - c->a->a;
    }
#define CCHIPMUNK_RESET_VECT(type, field) { type *j = (type *)c; \
    if (!isfinite(j->field.x) || !isfinite(j->field.y)) { j->field = cpvzero; return 1; } return 0; }
    if (cpConstraintIsPinJoint(c)) CCHIPMUNK_RESET(cpPinJoint, jnAcc)
    if (cpConstraintIsSlideJoint(c)) CCHIPMUNK_RESET(cpSlideJoint, jnAcc)
    if (cpConstraintIsPivotJoint(c)) CCHIPMUNK_RESET_VECT(cpPivotJoint, jAcc)
    if (cpConstraintIsGrooveJoint(c)) CCHIPMUNK_RESET_VECT(cpGrooveJoint, jAcc)
    if (cpConstraintIsDampedSpring(c)) CCHIPMUNK_RESET(cpDampedSpring, jAcc)
    if (cpConstraintIsDampedRotarySpring(c)) CCHIPMUNK_RESET(cpDampedRotarySpring, jAcc)
    if (cpConstraintIsRotaryLimitJoint(c)) CCHIPMUNK_RESET(cpRotaryLimitJoint, jAcc)
    if (cpConstraintIsRatchetJoint(c)) CCHIPMUNK_RESET(cpRatchetJoint, jAcc)
    if (cpConstraintIsGearJoint(c)) CCHIPMUNK_RESET(cpGearJoint, jAcc)
    if (cpConstraintIsSimpleMotor(c)) CCHIPMUNK_RESET(cpSimpleMotor, jAcc)
#undef CCHIPMUNK_RESET
#undef CCHIPMUNK_RESET_VECT
    return 0;
}

/// Zeroes the accumulated impulses of the solved contacts that are not finite: the next
/// step applies them first, as a warm start (shapes' frictions of 1e300 each made an
/// infinite friction, which times a normal impulse of 0 left a tangent impulse of NaN).
static inline void CChipmunkResetNonFiniteContactImpulses(cpSpace *space) {
    const cpArray *arbiters = space->arbiters;
    for (int i = 0; i < arbiters->num; i++) {
        cpArbiter *arb = (cpArbiter *)arbiters->arr[i];
        for (int j = 0; j < arb->count; j++) {
            struct cpContact *contact = &arb->contacts[j];
            if (!isfinite(contact->jnAcc)) contact->jnAcc = 0;
            if (!isfinite(contact->jtAcc)) contact->jtAcc = 0;
        }
    }
}

/// The divergence guard, part three: what the solver left. The integrators check each
/// body before the solver runs, but the solver's impulses can still carry a velocity to
/// infinity or NaN: a motor's rate, a gear's ratio or a ratchet's phase whose terms
/// overflow against spins near the largest double. After the step, each awake body's
/// velocities, and the bias velocities the next step integrates, are summed as `x - x`
/// (0 for finite values, NaN otherwise: no branch per body), and the first body that is
/// not finite is reported; then the static bodies' (the space's own first); so is a ratchet whose angle overflowed (`(delta - phase) /
/// ratchet`), by its dynamic body's angle, though its bodies stayed finite. Joints'
/// accumulated impulses need no pass: the solver applies them, so one that is not finite
/// leaves a body that is not.
static inline cpFloat CChipmunkMotionZero(const cpBody *b) {
    return (b->v.x - b->v.x) + (b->v.y - b->v.y) + (b->w - b->w) + (b->v_bias.x - b->v_bias.x) +
           (b->v_bias.y - b->v_bias.y) + (b->w_bias - b->w_bias);
}

static inline int CChipmunkReportMotion(const cpBody *b) {
    if (CChipmunkMotionZero(b) == 0) return 0;
    const cpFloat values[] = {b->v.x, b->v.y, b->v_bias.x, b->v_bias.y, b->w, b->w_bias};
    const int quantities[] = {1, 1, 1, 1, 3, 3};
    CChipmunkReportBody(b, values, quantities, 6);
    return 1;
}

/// After a divergence: stops `b` where it is (its velocity, spin, force, torque and the
/// solver's bias velocities become 0) when `always`, or when any of them is not finite.
static inline void CChipmunkStopDivergedBody(cpBody *b, int always) {
    const cpFloat zero = CChipmunkMotionZero(b) + (b->f.x - b->f.x) + (b->f.y - b->f.y) + (b->t - b->t);
    if (!always && zero == 0) return;
    b->v = cpvzero;
    b->w = 0;
    b->f = cpvzero;
    b->t = 0;
    b->v_bias = cpvzero;
    b->w_bias = 0;
}

static inline void CChipmunkReportSolverDivergence(cpSpace *space) {
    const cpArray *bodies = space->dynamicBodies;
    cpFloat zero = 0;
    for (int i = 0; i < bodies->num; i++) zero += CChipmunkMotionZero((const cpBody *)bodies->arr[i]);
    if (zero != 0) {
        for (int i = 0; i < bodies->num; i++) {
            if (CChipmunkReportMotion((const cpBody *)bodies->arr[i])) return;
        }
    }
    // Static bodies: the solver gives them an impulse times their inverse mass of 0, which
    // is NaN for an infinite impulse, and no integrator would ever refuse it.
    if (CChipmunkReportMotion(space->staticBody)) return;
    const cpArray *statics = space->staticBodies;
    for (int i = 0; i < statics->num; i++) {
        if (CChipmunkReportMotion((const cpBody *)statics->arr[i])) return;
    }
    const cpArray *constraints = space->constraints;
    for (int i = 0; i < constraints->num; i++) {
        const cpConstraint *c = (const cpConstraint *)constraints->arr[i];
        if (cpConstraintIsRatchetJoint(c) && !isfinite(((const cpRatchetJoint *)c)->angle)) {
            const cpBody *body = cpBodyGetType(c->b) == CP_BODY_TYPE_DYNAMIC ? c->b : c->a;
            CChipmunkReport(space, body, NULL, 2, ((const cpRatchetJoint *)c)->angle);
            return;
        }
    }
}

// MARK: Snapshots (Space+Snapshot.swift)

/// The broad-phase velocity the engine gives its dynamic tree (`ShapeVelocityFunc`, static
/// in cpSpace.c): the shape's body's velocity. A rebuilt tree uses this twin.
static inline cpVect CChipmunkShapeVelocity(cpShape *shape) { return shape->body->v; }

/// Replaces both spatial indexes of a space with new, empty ones of the same kind (the
/// engine's tree, or its spatial hash when `cellSize` > 0), then inserts `shapes` in the
/// order given: a shape of a static or sleeping body into the static index, any other into
/// the dynamic one, as the engine keeps them. A new index has no history, so the order in
/// which it finds pairs depends only on the shapes and their order here.
static inline void CChipmunkRebuildSpatialIndexes(cpSpace *space, cpShape *const *shapes, int count,
                                                  cpFloat cellSize, int cells) {
    cpSpatialIndex *staticIndex, *dynamicIndex;
    if (cellSize > 0) {
        staticIndex = cpSpaceHashNew(cellSize, cells, (cpSpatialIndexBBFunc)cpShapeGetBB, NULL);
        dynamicIndex = cpSpaceHashNew(cellSize, cells, (cpSpatialIndexBBFunc)cpShapeGetBB, staticIndex);
    } else {
        staticIndex = cpBBTreeNew((cpSpatialIndexBBFunc)cpShapeGetBB, NULL);
        dynamicIndex = cpBBTreeNew((cpSpatialIndexBBFunc)cpShapeGetBB, staticIndex);
        cpBBTreeSetVelocityFunc(dynamicIndex, (cpBBTreeVelocityFunc)CChipmunkShapeVelocity);
    }
    for (int i = 0; i < count; i++) {
        cpShape *shape = shapes[i];
        cpBody *body = shape->body;
        int isStatic = cpBodyGetType(body) == CP_BODY_TYPE_STATIC || cpBodyIsSleeping(body);
        cpSpatialIndexInsert(isStatic ? staticIndex : dynamicIndex, shape, shape->hashid);
    }
    cpSpatialIndexFree(space->staticShapes);
    cpSpatialIndexFree(space->dynamicShapes);
    space->staticShapes = staticIndex;
    space->dynamicShapes = dynamicIndex;
}

static inline cpBool CChipmunkReturnFalse(void *element, void *data) { return cpFalse; }
static inline void CChipmunkPushInto(void *element, void *array) { cpArrayPush((cpArray *)array, element); }

/// Empties a space's arbiter cache and its list of active arbiters. Call it with every body
/// awake (sleeping arbiters are not in the cache). The arbiters go to the space's pool, as
/// expired ones do; no callback runs. Bodies' arbiter lists are left for the caller to relink.
static inline void CChipmunkDropArbiters(cpSpace *space) {
    cpArray *all = cpArrayNew(0);
    cpHashSetEach(space->cachedArbiters, CChipmunkPushInto, all);
    cpHashSetFilter(space->cachedArbiters, (cpHashSetFilterFunc)CChipmunkReturnFalse, NULL);
    for (int i = 0; i < all->num; i++) {
        cpArbiter *arb = (cpArbiter *)all->arr[i];
        arb->contacts = NULL;
        arb->count = 0;
        cpArrayPush(space->pooledArbiters, arb);
    }
    cpArrayFree(all);
    space->arbiters->num = 0;
}

/// A pooled arbiter of the space, or NULL when the pool is empty.
static inline cpArbiter *CChipmunkPopPooledArbiter(cpSpace *space) {
    return space->pooledArbiters->num > 0 ? (cpArbiter *)cpArrayPop(space->pooledArbiters) : NULL;
}

/// Puts an arbiter into the space's arbiter cache, under the key the engine uses.
static inline void CChipmunkCacheArbiter(cpSpace *space, cpArbiter *arb) {
    const cpShape *pair[] = {arb->a, arb->b};
    cpHashSetInsert(space->cachedArbiters, CP_HASH_PAIR((cpHashValue)arb->a, (cpHashValue)arb->b), pair, NULL, arb);
}

static inline void CChipmunkArrayPush(cpArray *array, void *object) { cpArrayPush(array, object); }

#endif
