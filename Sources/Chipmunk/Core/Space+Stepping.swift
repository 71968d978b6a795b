internal import CChipmunk

extension Space {
    /// Advances the simulation by `dt` seconds (rule: ``Parameter/spaceTimeStep``).
    ///
    /// Before the engine runs, the step is checked for what would make the engine abort:
    /// a dynamic body without mass, or a body whose position, velocity, angle, angular
    /// velocity, force or torque is, or would become, non-finite (a diverging
    /// simulation: a spring too stiff for the time step, forces summed past the largest
    /// double). Then the step is refused with an error naming the step and the body, and
    /// the space is left as it was, readable and safe to drop.
    ///
    /// Changes made by callbacks are applied, then post-step callbacks run, before it
    /// returns; the first error a callback threw is rethrown then.
    ///
    /// A damped spring whose impulse would overflow a velocity applies none; the step then
    /// completes and throws the divergence, naming the spring's dynamic body.
    ///
    /// - Throws: ``ChipmunkError/massless(step:body:)`` or
    ///   ``ChipmunkError/diverged(step:body:quantity:value:)`` (nothing was simulated, but for
    ///   a diverging spring), or the first error thrown by a callback (the step did complete).
    ///
    /// The corresponding C function is `cpSpaceStep` (`cpHastySpaceStep` for the threaded solver).
    public func step(_ dt: Double) throws {
        Parameter.spaceTimeStep.require(dt)
        precondition(!isDeferringChanges, "Space.step cannot run inside a step, a query or a callback")
        precondition(!isRunningPostStepCallbacks, "Space.step cannot run inside a post-step callback")
        if !bodiesToCheckForMass.isEmpty { try checkMasses() }
        try checkForDivergence(dt)
        if cSpace.isHasty { cpHastySpaceStep(handle, dt) } else { cpSpaceStep(handle, dt) }
        stepsTaken += 1
        if let spring = CChipmunkTakeRefusedSpring(handle) { try reportRefusedSpring(spring) }
        applyPendingChangesIfIdle()
        if !postStepCallbacks.isEmpty { runPostStepCallbacks() }
        try rethrowCallbackError()
    }

    /// Notes that a body's mass may have changed; the next step checks it.
    func massMayHaveChanged(for body: Body) {
        bodiesToCheckForMass.append(body)
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

    /// The divergence guard (`CChipmunkFindDivergence` in the C bridge): one pass over the
    /// awake bodies, allocating nothing.
    private func checkForDivergence(_ dt: Double) throws(ChipmunkError) {
        var quantity: Int32 = 0
        var value = 0.0
        guard let culprit = CChipmunkFindDivergence(handle, dt, Parameter.maxCoordinate, &quantity, &value) else {
            return
        }
        throw .diverged(
            step: stepsTaken + 1, body: Body.from(culprit).indexInSpace,
            quantity: Body.Quantity.allCases[Int(quantity)], value: value)
    }

    /// A spring whose impulse would have made a body's velocity overflow applied none this
    /// step (see `CChipmunkGuardedSpringForce`): the simulation has diverged.
    private func reportRefusedSpring(_ handle: UnsafeMutablePointer<cpConstraint>) throws(ChipmunkError) {
        let spring = Constraint.from(handle)
        let body = spring.bodyB.kind == .dynamic ? spring.bodyB : spring.bodyA
        let rotary = spring is DampedRotarySpring
        throw .diverged(
            step: stepsTaken, body: body.indexInSpace, quantity: rotary ? .angularVelocity : .velocity,
            value: .infinity)
    }

    // MARK: Post-step callbacks

    /// Runs `callback` once after the current step, or after the next one when no step is
    /// running; a second callback with the same key before then is ignored, as in
    /// Chipmunk. Inside it the space is unlocked: add, remove and query freely, but do not
    /// step.
    ///
    /// - Returns: `false` if a callback with this key was already waiting.
    ///
    /// The corresponding C function is `cpSpaceAddPostStepCallback`.
    @discardableResult
    public func addPostStepCallback(forKey key: AnyHashable, _ callback: @escaping (Space) throws -> Void) -> Bool {
        guard !postStepCallbacks.contains(where: { $0.key == key }) else { return false }
        postStepCallbacks.append((key, callback))
        return true
    }

    private func runPostStepCallbacks() {
        isRunningPostStepCallbacks = true
        defer { isRunningPostStepCallbacks = false }
        while !postStepCallbacks.isEmpty {
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
        precondition(shape.space === self, "Space.reindex: this shape is not in this space")
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
        precondition(body.space === self, "Space.reindexShapes: this body is not in this space")
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
