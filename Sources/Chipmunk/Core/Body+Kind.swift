internal import CChipmunk

extension Body {
    /// Changes the body's kind, also while it is in a space.
    ///
    /// Becoming dynamic, a body takes its mass from its shapes (zero if none have mass or
    /// density): give it a mass and moment before the next step, or ``Space/step(_:)``
    /// throws ``ChipmunkError/massless``. Becoming static or kinematic, it stops.
    ///
    /// - Throws: ``ChipmunkError/spaceStaticBody`` for a space's own static body;
    ///   ``ChipmunkError/spaceLocked(operation:)`` during a step or callback;
    ///   ``ChipmunkError/unsolvableConstraint`` if a constraint would then join two
    ///   non-dynamic bodies. The corresponding C function is `cpBodySetType`.
    public func setKind(_ newKind: Kind) throws(ChipmunkError) {
        guard !isSpaceStaticBody else { throw .spaceStaticBody }
        guard newKind != kind else { return }
        if let space, space.isDeferringChanges { throw .spaceLocked(operation: "change a body's kind") }
        if newKind != .dynamic {
            for constraint in constraints {
                let other = constraint.bodyA === self ? constraint.bodyB : constraint.bodyA
                if other.kind != .dynamic { throw .unsolvableConstraint }
            }
        }
        let type: cpBodyType
        switch newKind {
        case .dynamic: type = CP_BODY_TYPE_DYNAMIC
        case .kinematic: type = CP_BODY_TYPE_KINEMATIC
        case .static: type = CP_BODY_TYPE_STATIC
        }
        cpBodySetType(handle, type)
        space?.massMayHaveChanged(for: self)
    }

    // MARK: Sleeping

    /// Whether the body is asleep. The corresponding C function is `cpBodyIsSleeping`.
    public var isSleeping: Bool {
        cpBodyIsSleeping(handle) != 0
    }

    /// Wakes the body (and the bodies it touches). Harmless on bodies that are awake; for a
    /// static body, wakes the bodies touching it. The corresponding C functions are
    /// `cpBodyActivate` and `cpBodyActivateStatic`.
    public func activate() {
        switch kind {
        case .dynamic: cpBodyActivate(handle)
        case .static: cpBodyActivateStatic(handle, nil)
        case .kinematic: break
        }
    }

    /// Puts the body to sleep now, alone or in `group` (a sleeping body whose group it joins).
    ///
    /// - Throws: ``ChipmunkError/cannotSleep(reason:)`` unless the body is dynamic, in a
    ///   space with sleeping enabled (a finite ``Space/sleepTimeThreshold``), not already
    ///   asleep in another group, and `group` (if given) is asleep in the same space;
    ///   ``ChipmunkError/spaceLocked(operation:)`` during a step or callback.
    /// The corresponding C functions are `cpBodySleep` and `cpBodySleepWithGroup`.
    public func sleep(group: Body? = nil) throws(ChipmunkError) {
        guard kind == .dynamic else { throw .cannotSleep(reason: "only dynamic bodies sleep") }
        guard let space else { throw .notInASpace(.body) }
        guard !space.isDeferringChanges else { throw .spaceLocked(operation: "put a body to sleep") }
        guard space.sleepTimeThreshold < .infinity else {
            throw .cannotSleep(reason: "sleeping is not enabled; set the space's sleepTimeThreshold to a finite value")
        }
        if let group {
            guard group.space === space, group.isSleeping else {
                throw .cannotSleep(reason: "the group must be a sleeping body in the same space")
            }
        }
        if isSleeping {
            // The engine allows this only when the groups already match; it never needs doing.
            guard let group, group.sleepingRoot == sleepingRoot else {
                throw .cannotSleep(reason: "it is already asleep in another group")
            }
            return
        }
        cpBodySleepWithGroup(handle, group?.handle)
    }

    /// The root of the sleeping group the body is in, if it sleeps.
    private var sleepingRoot: UnsafeMutablePointer<cpBody>? { handle.pointee.sleeping.root }

    // MARK: Derived quantities

    /// The velocity of a point given in world coordinates, as if fixed to the body.
    /// The corresponding C function is `cpBodyGetVelocityAtWorldPoint`.
    public func velocity(atWorldPoint point: Vector) -> Vector {
        Vector(cpBodyGetVelocityAtWorldPoint(handle, point.cp))
    }

    /// The velocity of a point given in body coordinates. The corresponding C function is `cpBodyGetVelocityAtLocalPoint`.
    public func velocity(atLocalPoint point: Vector) -> Vector {
        Vector(cpBodyGetVelocityAtLocalPoint(handle, point.cp))
    }

    /// The kinetic energy, ½mv² + ½Iω² (0 for static and kinematic bodies, whose mass is infinite).
    /// The corresponding C function is `cpBodyKineticEnergy`.
    public var kineticEnergy: Double {
        kind == .dynamic ? cpBodyKineticEnergy(handle) : 0
    }

    // MARK: Attached objects

    /// The shapes attached to this body that are in a space, newest first as the engine
    /// keeps them. The corresponding C function is `cpBodyEachShape`.
    public var shapes: [Shape] { engineShapes().map(Shape.from) }

    /// The constraints on this body that are in a space. The corresponding C function is `cpBodyEachConstraint`.
    public var constraints: [Constraint] { engineConstraints().map(Constraint.from) }

    /// Calls `body` with each arbiter (contact) the body is in, valid only during the call.
    /// Changes to the space made inside are deferred until it returns.
    /// - Throws: what `body` throws (the first error; the iteration completes).
    /// The corresponding C function is `cpBodyEachArbiter`.
    public func eachArbiter(_ body: (Arbiter) throws -> Void) throws {
        guard let space else { return }
        try withoutActuallyEscaping(body) { body in
            var context = (space, body)
            withUnsafeMutablePointer(to: &context) { pointer in
                cpBodyEachArbiter(handle, { _, arbiter, data in
                    let (space, body) = data!.assumingMemoryBound(to: (Space, (Arbiter) throws -> Void).self).pointee
                    let arbiter = Arbiter(arbiter!, state: space.callbacks)
                    space.callbacks.run(orOnError: ()) { try body(arbiter) }
                }, pointer)
            }
        }
        space.applyPendingChangesIfIdle()
        try space.rethrowCallbackError()
    }
}
