internal import CChipmunk

extension Body {
    /// The engine's own velocity integration (gravity, damping, force), for use inside
    /// ``velocityUpdate``.
    ///
    /// - Throws: ``ChipmunkError/diverged(step:body:quantity:value:)`` if the result would
    ///   not be finite, or ``ChipmunkError/massless(step:body:)``; the body is unchanged.
    ///   `step` then rethrows it.
    ///
    /// The corresponding C function is `cpBodyUpdateVelocity`.
    public func updateVelocity(gravity: Vector, damping: Double, dt: Double) throws(ChipmunkError) {
        Parameter.integrationGravity.require(gravity)
        Parameter.integrationDamping.require(damping)
        Parameter.integrationTimeStep.require(dt)
        if kind == .dynamic {
            guard mass > 0, moment > 0 else { throw .massless(step: stepNumber, body: indexInSpace) }
            // The engine asserts on the result, so compute it first, with the engine's arithmetic.
            let body = handle.pointee
            let v = velocity * damping + (gravity + Vector(body.f) * body.m_inv) * dt
            if !v.isFinite { throw diverged(.velocity, v.x.isFinite ? v.y : v.x) }
            let w = body.w * damping + body.t * body.i_inv * dt
            if !w.isFinite { throw diverged(.angularVelocity, w) }
        }
        cpBodyUpdateVelocity(handle, gravity.cp, damping, dt)
    }

    /// ``updateVelocity(gravity:damping:dt:)`` with the spin damped by a factor of its own
    /// and an angular acceleration added: `w · angularDamping + (torque / moment +
    /// angularAcceleration) · dt` (the engine has one damping for both, as UIKit Dynamics'
    /// `resistance` and `angularResistance` are two). Forces that depend on where the body
    /// is belong here, as `gravity` and `angularAcceleration`: the engine has moved the body
    /// already, so the integration stays symplectic and springs do not gain energy.
    public func updateVelocity(
        gravity: Vector, damping: Double, angularDamping: Double, angularAcceleration: Double = 0, dt: Double
    ) throws(ChipmunkError) {
        Parameter.integrationDamping.require(angularDamping)
        let spin = handle.pointee.w
        try updateVelocity(gravity: gravity, damping: damping, dt: dt)
        guard kind == .dynamic else { return }
        // Written to the struct: the setter would wake the body and restart its idle time.
        let w = handle.pointee.w + spin * (angularDamping - damping) + angularAcceleration * dt
        if !w.isFinite {
            throw .diverged(
                step: (space?.stepsTaken ?? 0) + 1, body: indexInSpace, quantity: .angularVelocity, value: w)
        }
        handle.pointee.w = w
    }

    /// ``updatePosition(dt:)`` for a body that must not turn (UIKit's `allowsRotation =
    /// false`): its spin, and the solver's spin correction, are set to zero first, so its
    /// angle stays exactly what it was. Give such a body a very large moment as well, so
    /// the solver treats it as one that cannot turn.
    public func updatePositionWithoutTurning(dt: Double) throws(ChipmunkError) {
        handle.pointee.w = 0
        handle.pointee.w_bias = 0
        try updatePosition(dt: dt)
    }

    /// The engine's own position integration, for use inside ``positionUpdate``.
    ///
    /// - Throws: ``ChipmunkError/diverged(step:body:quantity:value:)`` if the result would
    ///   not be finite; the body is unchanged.
    ///
    /// The corresponding C function is `cpBodyUpdatePosition`.
    public func updatePosition(dt: Double) throws(ChipmunkError) {
        Parameter.integrationTimeStep.require(dt)
        let body = handle.pointee
        let p = position + (velocity + Vector(body.v_bias)) * dt
        if !Parameter.bodyPosition.accepts(p) {
            throw diverged(.position, Parameter.bodyPosition.accepts(p.x) ? p.y : p.x)
        }
        let a = angle + (body.w + body.w_bias) * dt
        if !a.isFinite { throw diverged(.angle, a) }
        cpBodyUpdatePosition(handle, dt)
    }

    /// The number of the step running now, counting from 1, for errors.
    private var stepNumber: Int { (space?.stepsTaken ?? 0) + 1 }

    /// The body's index in its space's ``Space/bodies``, for errors and output names; -1
    /// outside a space. The first read after a body is added or removed indexes them all.
    package var indexInSpace: Int {
        guard let space else { return -1 }
        if space.bodyPositions == nil {
            space.bodyPositions = Dictionary(
                uniqueKeysWithValues: space.bodies.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
        }
        return space.bodyPositions?[ObjectIdentifier(self)] ?? -1
    }

    private func diverged(_ quantity: Quantity, _ value: Double) -> ChipmunkError {
        .diverged(step: stepNumber, body: indexInSpace, quantity: quantity, value: value)
    }
}
