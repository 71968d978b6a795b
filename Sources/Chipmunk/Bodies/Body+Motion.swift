internal import CChipmunk

extension Body {
    // MARK: Forces and impulses

    /// Adds a force at a point in world coordinates; off-centre forces add torque.
    ///
    /// Forces add up until the step clears them; a sum that overflows makes the next
    /// ``Space/step(_:)`` throw ``ChipmunkError/diverged(step:body:quantity:value:)``.
    ///
    /// The corresponding C function is `cpBodyApplyForceAtWorldPoint`.
    public func applyForce(_ force: Vector, at point: Vector) {
        Parameter.appliedForce.require(force)
        Parameter.applicationPoint.require(point)
        cpBodyApplyForceAtWorldPoint(handle, force.cp, point.cp)
    }

    /// Adds a force at a point in body coordinates.
    ///
    /// The corresponding C function is `cpBodyApplyForceAtLocalPoint`.
    public func applyForce(_ force: Vector, atLocalPoint point: Vector) {
        Parameter.appliedForce.require(force)
        Parameter.applicationPoint.require(point)
        cpBodyApplyForceAtLocalPoint(handle, force.cp, point.cp)
    }

    /// Applies an impulse at a point in world coordinates, changing velocity at once.
    ///
    /// The corresponding C function is `cpBodyApplyImpulseAtWorldPoint`.
    ///
    /// An impulse that would make the velocity or angular velocity infinite (two of 1e308
    /// in a row) is a programming error, as setting that velocity would be.
    public func applyImpulse(_ impulse: Vector, at point: Vector) {
        Parameter.appliedImpulse.require(impulse)
        Parameter.applicationPoint.require(point)
        requireFiniteVelocity(after: impulse, at: point)
        cpBodyApplyImpulseAtWorldPoint(handle, impulse.cp, point.cp)
    }

    /// Applies an impulse at a point in body coordinates.
    ///
    /// The corresponding C function is `cpBodyApplyImpulseAtLocalPoint`.
    ///
    /// An impulse that would make the velocity or angular velocity infinite is a
    /// programming error, as setting that velocity would be.
    public func applyImpulse(_ impulse: Vector, atLocalPoint point: Vector) {
        Parameter.appliedImpulse.require(impulse)
        Parameter.applicationPoint.require(point)
        requireFiniteVelocity(
            after: Vector(cpTransformVect(handle.pointee.transform, impulse.cp)), at: localToWorld(point))
        cpBodyApplyImpulseAtLocalPoint(handle, impulse.cp, point.cp)
    }

    /// Whether applying `impulse` at the world point `point` leaves the velocity and angular
    /// velocity finite: the check for impulses that arrive as data, which
    /// ``applyImpulse(_:at:)`` would stop on. The same arithmetic as the engine's, so an
    /// impulse that passes cannot overflow.
    public func velocityStaysFinite(afterImpulse impulse: Vector, at point: Vector) -> Bool {
        guard impulse.isFinite, point.isFinite else { return false }
        let r = point - localToWorld(centerOfGravity)
        return CChipmunkVelocityStaysFinite(handle, impulse.cp, r.cp) != 0
    }

    /// Stops unless the impulse leaves the velocity and angular velocity finite.
    private func requireFiniteVelocity(after impulse: Vector, at worldPoint: Vector) {
        ensure(
            velocityStaysFinite(afterImpulse: impulse, at: worldPoint),
            "Body.applyImpulse: the impulse \(impulse) would make the body's velocity or angular velocity infinite")
    }

    // MARK: Coordinates

    /// Converts a point from body to world coordinates.
    ///
    /// The corresponding C function is `cpBodyLocalToWorld`.
    public func localToWorld(_ point: Vector) -> Vector {
        Vector(cpBodyLocalToWorld(handle, point.cp))
    }

    /// Converts a point from world to body coordinates.
    ///
    /// The corresponding C function is `cpBodyWorldToLocal`.
    public func worldToLocal(_ point: Vector) -> Vector {
        Vector(cpBodyWorldToLocal(handle, point.cp))
    }

    // MARK: Derived quantities

    /// The velocity of a point given in world coordinates, as if fixed to the body.
    ///
    /// The corresponding C function is `cpBodyGetVelocityAtWorldPoint`.
    public func velocity(at point: Vector) -> Vector {
        Vector(cpBodyGetVelocityAtWorldPoint(handle, point.cp))
    }

    /// The velocity of a point given in body coordinates.
    ///
    /// The corresponding C function is `cpBodyGetVelocityAtLocalPoint`.
    public func velocity(atLocalPoint point: Vector) -> Vector {
        Vector(cpBodyGetVelocityAtLocalPoint(handle, point.cp))
    }

    /// The kinetic energy as the engine computes it, mv² + Iω² (no halves: twice the
    /// physical ½mv² + ½Iω²); 0 for static and kinematic bodies, whose mass is infinite. A
    /// term whose velocity is 0 counts 0, so a body of infinite moment that does not spin
    /// has a finite energy.
    ///
    /// The corresponding C function is `cpBodyKineticEnergy`.
    public var kineticEnergy: Double {
        kind == .dynamic ? cpBodyKineticEnergy(handle) : 0
    }
}
