internal import CChipmunk
internal import CChipmunkRuntime

extension Space {
    /// Advances the simulation by `dt` seconds (rule: ``Parameter/spaceTimeStep``).
    ///
    /// What would make the engine abort is refused instead. Before the step, a dynamic
    /// body without mass stops it. During the step, the divergence guard checks each body
    /// as it is integrated: every body runs the engine's own integrators, recomputed with
    /// the same arithmetic, which refuse a position, velocity, angle, angular velocity,
    /// force or torque that is, or would become, non-finite, and a position past
    /// ``Parameter/maxCoordinate``. Such a body keeps its state for the step, and so does
    /// one that a damped spring would push to an infinite velocity (a diverging
    /// simulation: a spring too stiff for the time step, forces summed past the largest
    /// double). After the solver, every awake body's velocities are checked once more (a
    /// joint's impulse can overflow against spins near the largest double), and a
    /// ratchet's angle. The step then throws, naming the step, the body and the quantity; that body,
    /// and any the solver left with a non-finite velocity, are stopped where they are (zero
    /// velocity, spin, force and torque), so the space stays finite, readable and safe to
    /// drop, and steps again once the cause is removed.
    ///
    /// Changes made by callbacks are applied, then post-step callbacks run, before it
    /// returns; the first error a callback threw is rethrown then. A callback may step
    /// another space (not this one): each step keeps its own guard, budget and counts.
    ///
    /// - Throws: ``ChipmunkError/massless(step:body:)`` or
    ///   ``ChipmunkError/unsolvable(step:constraint:)`` (nothing was simulated),
    ///   ``ChipmunkError/diverged(step:body:quantity:value:)`` (the step ran without the
    ///   refused updates), or the first error thrown by a callback (the step did complete).
    ///
    /// The corresponding C function is `cpSpaceStep` (`cpHastySpaceStep` for the threaded solver).
    public func step(_ dt: Double) throws {
        Parameter.spaceTimeStep.require(dt)
        ensure(!isDeferringChanges, "Space.step cannot run inside a step, a query or a callback")
        ensure(!isRunningPostStepCallbacks, "Space.step cannot run inside a post-step callback")
        if !leavingBodies.isEmpty { requireNoBodyLeaving("Space.step") }
        if !bodiesToCheckForMass.isEmpty { try checkMasses() }
        if jointsMayBeUnsolvable { try checkJointsAreSolvable() }
        if isStoppedByContactPairs {
            throw ChipmunkError.tooManyContactPairs(step: stepsTaken, limit: contactPairLimit)
        }
        // A tree stamp near 2^32 (after 2^31 steps, or from a crafted snapshot) is rebased
        // before the step could wrap it: a load and a compare.
        _ = CChipmunkBroadPhaseRebaseStamps(handle.pointee.staticShapes, handle.pointee.dynamicShapes)
        var withinBudget = true
        var groupsFellAsleep: Int32 = 0
        var guarded: UInt64 = 0
        if cSpace.isHasty {
            CChipmunkHastySpaceStep(handle, dt, &groupsFellAsleep, &guarded)
        } else {
            withinBudget =
                CChipmunkSpaceStepWithinBudget(
                    handle, dt, Int64(contactPairLimit), contactPoolBuffers, &groupsFellAsleep, &guarded) == 0
        }
        // Only this step's own: not those of a step taken in one of its callbacks.
        guardedCollisions += Int(guarded)
        // A group that fell asleep may leave pairs whose contacts the engine's ring reuses.
        CChipmunkKeptContactsAfterStep(handle, cSpace.keptContacts, groupsFellAsleep)
        stepsTaken += 1
        if !withinBudget {
            isStoppedByContactPairs = true
            throw ChipmunkError.tooManyContactPairs(step: stepsTaken, limit: contactPairLimit)
        }
        // What the solver left, unless the integrators or a spring refused something already.
        if cSpace.stepReport.pointee.body == nil && cSpace.stepReport.pointee.spring == nil {
            CChipmunkReportSolverDivergence(handle)
        }
        let divergence =
            cSpace.stepReport.pointee.body == nil && cSpace.stepReport.pointee.spring == nil
            ? nil : takeDivergence()
        applyPendingChangesIfIdle()
        if !postStepCallbacks.isEmpty { runPostStepCallbacks() }
        if let divergence { throw divergence }
        try rethrowCallbackError()
    }

    /// Stops a program that saves, restores into or copies a space a step stopped inside
    /// its broad phase (``isStoppedByContactPairs``): the engine's structures are whole
    /// enough to read and free, not to carry on from.
    func requireNotStopped(_ call: String) {
        ensure(
            !isStoppedByContactPairs,
            "\(call): step \(stepsTaken) passed Space.maxContactPairs and was stopped inside the engine; "
                + "the space can be read and dropped, not saved, restored into or copied")
    }

    /// Moves the contacts of pairs cached between sleeping (or static) bodies out of the
    /// engine's reused contact memory (KeptContacts.c): after a restore, a copy, or a change
    /// that may leave such a pair.
    func keepSleepingPairContacts() {
        CChipmunkKeepSleepingPairContacts(UnsafeMutableRawPointer(handle), cSpace.keptContacts)
    }

    /// ``maxContactPairs``, or its default for the shapes the space has.
    var contactPairLimit: Int { maxContactPairs ?? Self.defaultContactPairLimit(shapes: shapes.count) }

    /// The bytes of the engine's pools for this space (pairs and nodes of its default
    /// broad phase, arbiters, contact buffers): they only grow, so this is the most they
    /// ever needed at once.
    package var enginePoolBytes: Int { CChipmunkSpacePoolBytes(handle) }

    /// The default ``maxContactPairs`` for a space of `shapes` shapes: 128 a shape, at
    /// least 1,000,000. A collapsing grid of jointed boxes (the jointgrid50 benchmark,
    /// 2,500 shapes) makes 100,000 pairs in one step, 40 a shape, between the boxes the
    /// broad phase widens by each body's velocity.
    static func defaultContactPairLimit(shapes: Int) -> Int { max(1_000_000, 128 * shapes) }

    /// The engine pool buffers the contact pair budget allows: the pairs' bytes, the
    /// broad phase's nodes (two a shape) and a few buffers the emptiest space starts with.
    private var contactPoolBuffers: Int32 {
        let bufferBytes = CChipmunkPoolBufferBytes()
        let pairBytes = Double(contactPairLimit) * Double(CChipmunkContactPairBytes())
        let nodeBytes = Double(shapes.count) * 2 * 64
        return Int32(min((pairBytes + nodeBytes) / Double(bufferBytes), Double(Int32.max - 64)).rounded(.up)) + 16
    }

    /// Notes that a body's mass may have changed; the next step checks it.
    func massMayHaveChanged(for body: Body) {
        bodiesToCheckForMass.append(body)
        jointsMayBeUnsolvable = true
    }

    /// "Unsolvable constraint.": a pivot or groove joint whose anchor is far from its body's
    /// centre of gravity, against the body's mass and moment, gives the engine's 2×2 solve a
    /// zero determinant, and the engine aborts. What decides it changes only when an anchor,
    /// a mass, a moment or a centre of gravity does, so the joints are checked before the
    /// first step after such a change (`jointsMayBeUnsolvable`), not every step.
    ///
    /// A rotary constraint whose two bodies cannot turn (`.cannotTurn`) is found by the same
    /// pass: what decides it changes with a moment, a kind or a gear's ratio.
    private func checkJointsAreSolvable() throws(ChipmunkError) {
        for (index, constraint) in constraints.enumerated() {
            if CChipmunkMatrixJointIsSolvable(constraint.handle) == 0 {
                throw .unsolvable(step: stepsTaken + 1, constraint: index)
            }
            if CChipmunkRotaryConstraintCanTurn(constraint.handle) == 0 {
                throw .cannotTurn(step: stepsTaken + 1, constraint: index)
            }
        }
        jointsMayBeUnsolvable = false
    }

    /// "Body's mass and moment must be positive to simulate": a dynamic body's mass can
    /// come from its shapes, and drop to zero when they go, so the bodies whose mass may
    /// have changed are checked before stepping. A failed check leaves them to be checked
    /// again at the next step.
    private func checkMasses() throws(ChipmunkError) {
        for body in bodiesToCheckForMass where body.space === self && body.kind == .dynamic {
            let mass = body.mass
            let moment = body.moment
            guard Parameter.bodyMass.accepts(mass), Parameter.bodyMoment.accepts(moment) else {
                throw .massless(step: stepsTaken + 1, body: body.indexInSpace)
            }
        }
        bodiesToCheckForMass.removeAll(keepingCapacity: true)
    }

    /// What the guarded integrators and spring laws refused in the step just taken, as an
    /// error, with the report cleared for the next step.
    private func takeDivergence() -> ChipmunkError {
        let report = cSpace.stepReport.pointee
        cSpace.stepReport.pointee = CChipmunkStepReport()
        cSpace.stepReport.pointee.bound = report.bound
        stopDivergedBodies(reported: report.body)
        if let body = report.body {
            return .diverged(
                step: stepsTaken, body: Body.from(UnsafeMutablePointer(mutating: body)).indexInSpace,
                quantity: Body.Quantity.allCases[Int(report.quantity)], value: report.value)
        }
        // A spring whose impulse would overflow: name its dynamic body.
        let spring = Constraint.from(UnsafeMutablePointer(mutating: report.spring!))
        let body = spring.bodyB.kind == .dynamic ? spring.bodyB : spring.bodyA
        return .diverged(
            step: stepsTaken, body: body.indexInSpace,
            quantity: spring is DampedRotarySpring ? .angularVelocity : .velocity, value: .infinity)
    }

    /// After a divergence, stops the body the step refused, and any body (of any kind) whose
    /// motion the solver left non-finite: their velocity, spin, force and torque (and the solver's bias
    /// velocities) become 0, where they are. A refused body kept the velocity that carried
    /// it past ``Parameter/maxCoordinate`` and was refused at every later step, even with
    /// the spring that caused it removed; one the solver had pushed to NaN stayed NaN. A
    /// joint's or a contact's accumulated impulse left at infinity or NaN is zeroed too.
    private func stopDivergedBodies(reported: UnsafePointer<cpBody>?) {
        // Static and kinematic bodies too: the solver multiplies an infinite impulse by their
        // inverse mass of 0, which gives NaN, and nothing integrates a static body to refuse
        // it; the space's own static body, left with a NaN velocity, made every later contact
        // with it diverge (a helper's attack, a time step of 5e-324).
        func stop(_ body: Body) {
            CChipmunkStopDivergedBody(body.handle, UnsafePointer(body.handle) == reported ? 1 : 0)
        }
        stop(staticBody)
        for body in bodies { stop(body) }
        // Their joints' and contacts' accumulated impulses too: the next step applies them
        // again first.
        for constraint in constraints { _ = CChipmunkResetNonFiniteImpulse(constraint.handle) }
        CChipmunkResetNonFiniteContactImpulses(handle)
    }

    // MARK: Post-step callbacks

    /// Runs `callback` once after the current step, or after the next one when no step is
    /// running; a second callback with the same key before then is ignored, as in
    /// Chipmunk. Inside it the space is unlocked: add, remove and query freely, but do not
    /// step. A callback added by a callback runs in the same step, in the next round; more
    /// than ``maxPostStepRounds`` rounds in one step is a programming error (a callback
    /// that re-adds itself every time).
    ///
    /// - Returns: `false` if a callback with this key was already waiting.
    ///
    /// The corresponding C function is `cpSpaceAddPostStepCallback`.
    @discardableResult
    public func addPostStepCallback(forKey key: PostStepKey, _ callback: @escaping (Space) throws -> Void) -> Bool {
        guard !postStepCallbacks.contains(where: { $0.key == key }) else { return false }
        postStepCallbacks.append((key, callback))
        return true
    }

    /// The most rounds of post-step callbacks one step runs: callbacks that add callbacks
    /// run in the next round, and one that re-adds itself every time never ended.
    public static let maxPostStepRounds = 10_000

    private func runPostStepCallbacks() {
        isRunningPostStepCallbacks = true
        defer { isRunningPostStepCallbacks = false }
        var rounds = 0
        while !postStepCallbacks.isEmpty {
            rounds += 1
            ensure(
                rounds <= Self.maxPostStepRounds,
                "Space.addPostStepCallback: post-step callbacks kept adding post-step callbacks for "
                    + "\(Self.maxPostStepRounds) rounds in one step; a callback that re-adds itself every time never ends"
            )
            let waiting = postStepCallbacks
            postStepCallbacks.removeAll()
            for callback in waiting {
                do { try callback.run(self) } catch { callbacks.record(error) }
            }
        }
    }

    func rethrowCallbackError() throws {
        if let error = callbacks.error {
            callbacks.error = nil
            throw error
        }
    }

    // MARK: Reindexing

    /// Updates the spatial index of every static shape, after moving static bodies.
    /// Deferred while changes are deferred.
    ///
    /// The corresponding C function is `cpSpaceReindexStatic`.
    public func reindexStatic() {
        if isDeferringChanges {
            pending.append(.reindex(staticBody))
            return
        }
        cpSpaceReindexStatic(handle)
    }

    /// Updates the spatial index of one shape in this space (a programming error for a
    /// shape elsewhere). Deferred while changes are deferred.
    ///
    /// The corresponding C function is `cpSpaceReindexShape`.
    public func reindex(_ shape: Shape) {
        ensure(shape.space === self, "Space.reindex: this shape is not in this space")
        if isDeferringChanges {
            pending.append(.reindex(shape.body))
            return
        }
        cpSpaceReindexShape(handle, shape.handle)
    }

    /// Updates the spatial index of a body's shapes (a programming error for a body elsewhere).
    ///
    /// The corresponding C function is `cpSpaceReindexShapesForBody`.
    public func reindexShapes(of body: Body) {
        ensure(body.space === self, "Space.reindexShapes: this body is not in this space")
        if isDeferringChanges {
            pending.append(.reindex(body))
            return
        }
        cpSpaceReindexShapesForBody(handle, body.handle)
    }

    /// A static body's shapes are indexed where they were; moving it needs a reindex.
    func reindexIfStatic(_ body: Body) {
        guard body.kind == .static else { return }
        if isDeferringChanges {
            pending.append(.reindex(body))
        } else {
            cpSpaceReindexShapesForBody(handle, body.handle)
        }
    }
}
