internal import CChipmunk

/// A rigid body: mass, moment, position, velocity and the forces on it.
///
/// A body holds no reference to its shapes or its space; a shape holds its body and a
/// space holds what was added to it, as in Objective-Chipmunk. The C body is freed in
/// `deinit`, except the space's own static body, which lives inside its space.
///
/// ```swift
/// let crate = try Body(mass: 100, moment: Moment.box(mass: 100, width: 100, height: 100))
/// try crate.setPosition([150, 250])
/// try space.add(crate)
/// ```
///
/// Values that Debian's engine checks on assignment (and aborts on) are set through
/// throwing `set…` methods, which check first. The corresponding C type is `cpBody`.
public final class Body {
    /// How the engine moves a body.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// Moved by forces, gravity and collisions; needs a positive mass and moment.
        case dynamic
        /// Moved only by its velocity, which you set; pushes dynamic bodies, is never pushed.
        case kinematic
        /// Never moves unless you move it, such as ground and walls.
        case `static`
    }

    /// A custom velocity integrator: the body, gravity, damping and the time step.
    public typealias VelocityUpdate = (_ body: Body, _ gravity: Vector, _ damping: Double, _ dt: Double) throws -> Void
    /// A custom position integrator: the body and the time step.
    public typealias PositionUpdate = (_ body: Body, _ dt: Double) throws -> Void

    let handle: UnsafeMutablePointer<cpBody>
    /// Set only on a space's own static body: keeps the C space, whose memory holds this body, alive.
    private let enclosingSpace: SpaceStorage?

    /// The space the body is in, if any. Weak: the space holds the body, not the reverse.
    public internal(set) weak var space: Space?

    /// The C space the engine has this body in (it can lag ``space`` during a step).
    var engineSpace: SpaceStorage?

    /// Creates a dynamic body.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless both are positive and finite.
    /// The corresponding C function is `cpBodyNew`.
    public init(mass: Double, moment: Double) throws(ChipmunkError) {
        try requirePositiveFinite(mass, "mass")
        try requirePositiveFinite(moment, "moment")
        handle = cpBodyNew(mass, moment)
        enclosingSpace = nil
        cpBodySetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Creates a body of the given kind with no mass of its own.
    ///
    /// A `.dynamic` body made this way must be given a mass and moment with
    /// ``setMass(_:)`` and ``setMoment(_:)`` before it is added to a space.
    /// The corresponding C functions are `cpBodyNew`, `cpBodyNewKinematic` and `cpBodyNewStatic`.
    public init(kind: Kind) {
        switch kind {
        case .dynamic: handle = cpBodyNew(0, 0)
        case .kinematic: handle = cpBodyNewKinematic()
        case .static: handle = cpBodyNewStatic()
        }
        enclosingSpace = nil
        cpBodySetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Wraps the static body embedded in a space. Never freed by this wrapper.
    init(staticBodyOf storage: SpaceStorage) {
        handle = cpSpaceGetStaticBody(storage.handle)
        enclosingSpace = storage
        cpBodySetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        guard enclosingSpace == nil else { return }  // lives inside its C space
        if let engineSpace { engineSpace.adopt(handle) } else { cpBodyFree(handle) }
    }

    /// Whether this is a space's own static body (``Space/staticBody``).
    public var isSpaceStaticBody: Bool { enclosingSpace != nil }

    /// The body's kind. The corresponding C function is `cpBodyGetType`.
    public var kind: Kind {
        switch cpBodyGetType(handle) {
        case CP_BODY_TYPE_KINEMATIC: return .kinematic
        case CP_BODY_TYPE_STATIC: return .static
        default: return .dynamic
        }
    }

    // MARK: Mass

    /// The mass. The corresponding C function is `cpBodyGetMass`.
    public var mass: Double {
        cpBodyGetMass(handle)
    }

    /// Sets the mass of a dynamic body.
    /// - Throws: ``ChipmunkError/notDynamic(property:)`` for other kinds; ``ChipmunkError/invalidValue(property:value:rule:)``
    ///   unless positive and finite. The corresponding C function is `cpBodySetMass`.
    public func setMass(_ mass: Double) throws(ChipmunkError) {
        guard kind == .dynamic else { throw .notDynamic(property: "mass") }
        try requirePositiveFinite(mass, "mass")
        cpBodySetMass(handle, mass)
    }

    /// The moment of inertia. The corresponding C function is `cpBodyGetMoment`.
    public var moment: Double {
        cpBodyGetMoment(handle)
    }

    /// Sets the moment of inertia of a dynamic body.
    /// - Throws: as ``setMass(_:)``. The corresponding C function is `cpBodySetMoment`.
    public func setMoment(_ moment: Double) throws(ChipmunkError) {
        guard kind == .dynamic else { throw .notDynamic(property: "moment") }
        try requirePositiveFinite(moment, "moment")
        cpBodySetMoment(handle, moment)
    }

    /// The centre of gravity, in body coordinates. The corresponding C function is `cpBodyGetCenterOfGravity`.
    public var centerOfGravity: Vector {
        Vector(cpBodyGetCenterOfGravity(handle))
    }

    /// Sets the centre of gravity, in body coordinates. The corresponding C function is `cpBodySetCenterOfGravity`.
    public func setCenterOfGravity(_ cog: Vector) throws(ChipmunkError) {
        try requireFinite(cog, "centre of gravity")
        cpBodySetCenterOfGravity(handle, cog.cp)
    }

    // MARK: State

    // The hot getters read the C struct's fields directly, as `cpBodyGetPosition` and the
    // others do, saving a call through the PLT on every per-body read.

    /// The position of the body's origin, in world coordinates. The corresponding C function is `cpBodyGetPosition`.
    public var position: Vector { Vector(handle.pointee.p) }

    /// Moves the body. A static body in a space has its shapes reindexed.
    /// The corresponding C function is `cpBodySetPosition`.
    public func setPosition(_ position: Vector) throws(ChipmunkError) {
        try requireFinite(position, "position")
        cpBodySetPosition(handle, position.cp)
        space?.reindexIfStatic(self)
    }

    /// The linear velocity. The corresponding C function is `cpBodyGetVelocity`.
    public var velocity: Vector { Vector(handle.pointee.v) }

    /// Sets the linear velocity. The corresponding C function is `cpBodySetVelocity`.
    public func setVelocity(_ velocity: Vector) throws(ChipmunkError) {
        try requireFinite(velocity, "velocity")
        cpBodySetVelocity(handle, velocity.cp)
    }

    /// The rotation, in radians, counter-clockwise. The corresponding C function is `cpBodyGetAngle`.
    public var angle: Double { handle.pointee.a }

    /// Sets the rotation. The corresponding C function is `cpBodySetAngle`.
    public func setAngle(_ angle: Double) throws(ChipmunkError) {
        try requireFinite(angle, "angle")
        cpBodySetAngle(handle, angle)
        space?.reindexIfStatic(self)
    }

    /// The angular velocity, in radians per second. The corresponding C function is `cpBodyGetAngularVelocity`.
    public var angularVelocity: Double { handle.pointee.w }

    /// Sets the angular velocity. The corresponding C function is `cpBodySetAngularVelocity`.
    public func setAngularVelocity(_ angularVelocity: Double) throws(ChipmunkError) {
        try requireFinite(angularVelocity, "angular velocity")
        cpBodySetAngularVelocity(handle, angularVelocity)
    }

    /// The force applied this step; the engine clears it after each step. The corresponding C function is `cpBodyGetForce`.
    public var force: Vector {
        Vector(cpBodyGetForce(handle))
    }

    /// Replaces the force for the next step. The corresponding C function is `cpBodySetForce`.
    public func setForce(_ force: Vector) throws(ChipmunkError) {
        try requireFinite(force, "force")
        cpBodySetForce(handle, force.cp)
    }

    /// The torque applied this step; cleared after each step. The corresponding C function is `cpBodyGetTorque`.
    public var torque: Double {
        cpBodyGetTorque(handle)
    }

    /// Replaces the torque for the next step. The corresponding C function is `cpBodySetTorque`.
    public func setTorque(_ torque: Double) throws(ChipmunkError) {
        try requireFinite(torque, "torque")
        cpBodySetTorque(handle, torque)
    }

    /// The rotation as a unit vector (cos, sin). The corresponding C function is `cpBodyGetRotation`.
    public var rotation: Vector {
        Vector(cpBodyGetRotation(handle))
    }

    // MARK: Forces and impulses

    /// Adds a force at a point in world coordinates; off-centre forces add torque.
    /// The corresponding C function is `cpBodyApplyForceAtWorldPoint`.
    public func applyForce(_ force: Vector, atWorldPoint point: Vector) throws(ChipmunkError) {
        try requireFinite(force, "force")
        try requireFinite(point, "point")
        cpBodyApplyForceAtWorldPoint(handle, force.cp, point.cp)
    }

    /// Adds a force at a point in body coordinates. The corresponding C function is `cpBodyApplyForceAtLocalPoint`.
    public func applyForce(_ force: Vector, atLocalPoint point: Vector) throws(ChipmunkError) {
        try requireFinite(force, "force")
        try requireFinite(point, "point")
        cpBodyApplyForceAtLocalPoint(handle, force.cp, point.cp)
    }

    /// Applies an impulse at a point in world coordinates, changing velocity at once.
    /// The corresponding C function is `cpBodyApplyImpulseAtWorldPoint`.
    public func applyImpulse(_ impulse: Vector, atWorldPoint point: Vector) throws(ChipmunkError) {
        try requireFinite(impulse, "impulse")
        try requireFinite(point, "point")
        cpBodyApplyImpulseAtWorldPoint(handle, impulse.cp, point.cp)
    }

    /// Applies an impulse at a point in body coordinates. The corresponding C function is `cpBodyApplyImpulseAtLocalPoint`.
    public func applyImpulse(_ impulse: Vector, atLocalPoint point: Vector) throws(ChipmunkError) {
        try requireFinite(impulse, "impulse")
        try requireFinite(point, "point")
        cpBodyApplyImpulseAtLocalPoint(handle, impulse.cp, point.cp)
    }

    // MARK: Coordinates

    /// Converts a point from body to world coordinates. The corresponding C function is `cpBodyLocalToWorld`.
    public func localToWorld(_ point: Vector) -> Vector {
        Vector(cpBodyLocalToWorld(handle, point.cp))
    }

    /// Converts a point from world to body coordinates. The corresponding C function is `cpBodyWorldToLocal`.
    public func worldToLocal(_ point: Vector) -> Vector {
        Vector(cpBodyWorldToLocal(handle, point.cp))
    }

    // MARK: Custom integration

    /// Replaces the engine's velocity integration for this body, or restores it with `nil`.
    ///
    /// The closure runs inside ``Space/step(_:)``; call ``updateVelocity(gravity:damping:dt:)``
    /// from it to run the engine's own integration with values of your choosing. An error it
    /// throws is rethrown by `step` once the step has finished. Objects added to or removed
    /// from the space inside it take effect after the step.
    /// The corresponding C function is `cpBodySetVelocityUpdateFunc`.
    public var velocityUpdate: VelocityUpdate? {
        didSet {
            if velocityUpdate == nil {
                cpBodySetVelocityUpdateFunc(handle, cpBodyUpdateVelocity)
            } else {
                cpBodySetVelocityUpdateFunc(handle) { body, gravity, damping, dt in
                    let this = Body.from(body!)
                    guard let state = this.engineSpace?.callbacks, !state.isTearingDown else { return }
                    state.run(orOnError: ()) { try this.velocityUpdate?(this, Vector(gravity), damping, dt) }
                }
            }
        }
    }

    /// Replaces the engine's position integration for this body, or restores it with `nil`.
    /// Runs inside ``Space/step(_:)`` under the same rules as ``velocityUpdate``.
    /// The corresponding C function is `cpBodySetPositionUpdateFunc`.
    public var positionUpdate: PositionUpdate? {
        didSet {
            if positionUpdate == nil {
                cpBodySetPositionUpdateFunc(handle, cpBodyUpdatePosition)
            } else {
                cpBodySetPositionUpdateFunc(handle) { body, dt in
                    let this = Body.from(body!)
                    guard let state = this.engineSpace?.callbacks, !state.isTearingDown else { return }
                    state.run(orOnError: ()) { try this.positionUpdate?(this, dt) }
                }
            }
        }
    }

    /// The engine's own velocity integration (gravity, damping, force), for use inside
    /// ``velocityUpdate``. The corresponding C function is `cpBodyUpdateVelocity`.
    public func updateVelocity(gravity: Vector, damping: Double, dt: Double) throws(ChipmunkError) {
        try requireFinite(gravity, "gravity")
        try requireNonNegativeFinite(damping, "damping")
        try requireNonNegativeFinite(dt, "time step")
        if kind == .dynamic, !(mass > 0 && moment > 0) { throw .massless }
        try requireFinite(velocity * damping + (gravity + force / mass) * dt, "velocity")
        try requireFinite(angularVelocity * damping + torque / moment * dt, "angular velocity")
        cpBodyUpdateVelocity(handle, gravity.cp, damping, dt)
    }

    /// The engine's own position integration, for use inside ``positionUpdate``.
    /// The corresponding C function is `cpBodyUpdatePosition`.
    public func updatePosition(dt: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(dt, "time step")
        // The engine asserts on the result, so check what it would compute first.
        let v = velocity, w = angularVelocity
        try requireFinite(position + v * dt, "position")
        try requireFinite(angle + w * dt, "angle")
        cpBodyUpdatePosition(handle, dt)
    }


    /// The C shapes the engine has attached to this body. The corresponding C function is `cpBodyEachShape`.
    func engineShapes() -> [UnsafeMutablePointer<cpShape>] {
        var shapes: [UnsafeMutablePointer<cpShape>] = []
        withUnsafeMutablePointer(to: &shapes) { list in
            cpBodyEachShape(handle, { _, shape, list in
                list!.assumingMemoryBound(to: [UnsafeMutablePointer<cpShape>].self).pointee.append(shape!)
            }, list)
        }
        return shapes
    }

    /// The C constraints the engine has attached to this body. The corresponding C function is `cpBodyEachConstraint`.
    func engineConstraints() -> [UnsafeMutablePointer<cpConstraint>] {
        var constraints: [UnsafeMutablePointer<cpConstraint>] = []
        withUnsafeMutablePointer(to: &constraints) { list in
            cpBodyEachConstraint(handle, { _, constraint, list in
                list!.assumingMemoryBound(to: [UnsafeMutablePointer<cpConstraint>].self).pointee.append(constraint!)
            }, list)
        }
        return constraints
    }

    @inline(__always)
    static func from(_ handle: UnsafeMutablePointer<cpBody>) -> Body {
        Unmanaged<Body>.fromOpaque(cpBodyGetUserData(handle)!).takeUnretainedValue()
    }
}

@available(*, unavailable, message: "A Body wraps a C object; use it from one task at a time, one space per task")
extension Body: Sendable {}
