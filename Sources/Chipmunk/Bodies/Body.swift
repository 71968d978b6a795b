internal import CChipmunk

/// A rigid body: mass, moment, position, velocity and the forces on it.
///
/// Every tunable is a property. A value that breaks its ``Parameter`` rule (NaN, a
/// negative mass) stops the program with a message before it reaches the engine; check
/// untrusted numbers first with ``Parameter/check(_:)-(Double)``.
///
/// ```swift
/// let crate = Body(mass: 100, moment: Moment.box(mass: 100, width: 100, height: 100))
/// crate.position = [150, 250]
/// space.add(crate)
/// ```
///
/// A body holds no reference to its shapes or its space; a shape holds its body and a
/// space holds what was added to it, as in Objective-Chipmunk. The C body is freed in
/// `deinit`, except the space's own static body, which lives inside its space.
///
/// The corresponding C type is `cpBody`.
public final class Body: SpaceObject, CObjectOwner {
    /// `body`: a body is one of the three kinds of ``SpaceObject``.
    public var spaceObjectKind: SpaceObjectKind { SpaceObjectKind(.body) }

    /// How the engine moves a body.
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// Moved by forces, gravity and collisions; needs a positive mass and moment.
        case dynamic
        /// Moved only by its velocity, which you set; pushes dynamic bodies, is never pushed.
        case kinematic
        /// Never moves unless you move it, such as ground and walls.
        case `static`
    }

    /// A quantity of a body's state, as a diverging simulation names it.
    public enum Quantity: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``Body/position``.
        case position
        /// ``Body/velocity``.
        case velocity
        /// ``Body/angle``.
        case angle
        /// ``Body/angularVelocity``.
        case angularVelocity
        /// ``Body/force``.
        case force
        /// ``Body/torque``.
        case torque

        /// The quantity as the API spells it.
        public var description: String { rawValue }
    }

    /// A custom velocity integrator: the body, gravity, damping and the time step.
    public typealias VelocityUpdate = (_ body: Body, _ gravity: Vector, _ damping: Double, _ dt: Double) throws -> Void
    /// A custom position integrator: the body and the time step.
    public typealias PositionUpdate = (_ body: Body, _ dt: Double) throws -> Void

    let handle: UnsafeMutablePointer<cpBody>
    /// Set only on a space's own static body: keeps the C space, whose memory holds this body, alive.
    private let enclosingSpace: OwnedCSpace?

    /// The space the body is in, if any. Weak: the space holds the body, not the reverse.
    public internal(set) weak var space: Space?

    var cSpace: OwnedCSpace?

    /// How many of this body's shapes and constraints are in its space: a body can leave
    /// its space only once they have left.
    var attachmentCount = 0

    /// The number the space gave this object when it was added (0, 1, 2, … in add order,
    /// shared by bodies, shapes and constraints); snapshots match objects by it. -1 outside a space.
    var serial = -1

    /// Creates a dynamic body.
    ///
    /// Both values must keep the rule of ``Parameter/bodyMass`` and ``Parameter/bodyMoment``
    /// (within ``Parameter/massRange``). A moment of `.infinity` makes a body that never
    /// turns, as in pymunk: contacts and joints move it but never turn it.
    ///
    /// The corresponding C function is `cpBodyNew`.
    public init(mass: Double, moment: Double) {
        Parameter.bodyMass.require(mass)
        Parameter.bodyMoment.require(moment)
        handle = SlabArena.current.bodies.allocate(cpBody.self)
        cpBodyInit(handle, mass, moment)
        enclosingSpace = nil
        cpBodySetUserData(handle, unretainedPointer)
        installGuardedIntegrators()
    }

    /// Creates a body of the given kind with no mass of its own.
    ///
    /// A dynamic body made this way takes its mass from shapes with a mass or density, or
    /// from ``mass`` and ``moment`` set before the next step: until then ``Space/step(_:)``
    /// throws ``ChipmunkError/massless(step:body:)``.
    ///
    /// The corresponding C functions are `cpBodyNew`, `cpBodyNewKinematic` and `cpBodyNewStatic`.
    public init(kind: Kind = .dynamic) {
        handle = SlabArena.current.bodies.allocate(cpBody.self)
        cpBodyInit(handle, 0, 0)
        if kind != .dynamic { cpBodySetType(handle, kind.cp) }
        enclosingSpace = nil
        cpBodySetUserData(handle, unretainedPointer)
        installGuardedIntegrators()
    }

    /// A blank body for ``Space/copy()``, whose engine clone then sets every field but the
    /// integrators and the user data set here (`cpBodyInit`, which the clone would overwrite,
    /// was a fifth of copying a pyramid).
    init(blankForCopy: Void) {
        handle = SlabArena.current.bodies.allocate(cpBody.self)
        UnsafeMutableRawPointer(handle).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<cpBody>.size)
        enclosingSpace = nil
        cpBodySetUserData(handle, unretainedPointer)
        installGuardedIntegrators()
    }

    /// Wraps the static body embedded in a space. Never freed by this wrapper.
    init(staticBodyOf cSpace: OwnedCSpace) {
        handle = cpSpaceGetStaticBody(cSpace.handle)
        enclosingSpace = cSpace
        cpBodySetUserData(handle, unretainedPointer)
    }

    deinit {
        if enclosingSpace == nil { releaseCObject() }  // a space's static body lives inside its C space
    }

    static func freeCObject(_ object: UnsafeMutablePointer<cpBody>) {
        cpBodyDestroy(object)
        StructSlab.release(object)
    }

    /// The divergence guard: the engine's own integrators, recomputed in the C bridge with
    /// the same arithmetic (so the same bits), refusing what would make the engine abort
    /// (`CChipmunkGuardedUpdatePosition` and `…Velocity`).
    private func installGuardedIntegrators() {
        cpBodySetPositionUpdateFunc(handle, CChipmunkGuardedUpdatePosition)
        cpBodySetVelocityUpdateFunc(handle, CChipmunkGuardedUpdateVelocity)
    }

    /// Whether this is a space's own static body (``Space/staticBody``).
    var isSpaceStaticBody: Bool { enclosingSpace != nil }

    // MARK: Mass

    /// The mass.
    ///
    /// Only a dynamic body's mass can be set, and it must keep the rule of
    /// ``Parameter/bodyMass``. Once a shape with a mass or density is in a space, the
    /// body's mass, moment and centre of gravity are summed from its shapes instead.
    ///
    /// The corresponding C functions are `cpBodyGetMass` and `cpBodySetMass`.
    public var mass: Double {
        get { cpBodyGetMass(handle) }
        set {
            requireDynamic("mass")
            Parameter.bodyMass.require(newValue)
            cpBodySetMass(handle, newValue)
            space?.jointsMayBeUnsolvable = true
        }
    }

    /// The moment of inertia; set it as ``mass`` is set (rule: ``Parameter/bodyMoment``).
    ///
    /// `.infinity` (pymunk's `float("inf")`) makes a body that contacts, joints and torques
    /// move but never turn: its inverse moment is 0, so its ``angularVelocity`` stays as set
    /// (but for the space's ``Space/damping``, which slows every spin). A rotary constraint
    /// between two bodies of which neither can turn makes the next step throw
    /// ``ChipmunkError/cannotTurn(step:constraint:)``. A shape with a mass or density added
    /// to the body sums the moment from its shapes again.
    ///
    /// The corresponding C functions are `cpBodyGetMoment` and `cpBodySetMoment`.
    public var moment: Double {
        get { cpBodyGetMoment(handle) }
        set {
            requireDynamic("moment")
            Parameter.bodyMoment.require(newValue)
            let previous = cpBodyGetMoment(handle)
            cpBodySetMoment(handle, newValue)
            space?.jointsMayBeUnsolvable = true
            if newValue == .infinity { requireRotaryConstraintsSolvable(restoring: previous) }
        }
    }

    /// The centre of gravity, in body coordinates.
    ///
    /// The corresponding C functions are `cpBodyGetCenterOfGravity` and `cpBodySetCenterOfGravity`.
    public var centerOfGravity: Vector {
        get { Vector(cpBodyGetCenterOfGravity(handle)) }
        set {
            Parameter.bodyCenterOfGravity.require(newValue)
            cpBodySetCenterOfGravity(handle, newValue.cp)
            space?.jointsMayBeUnsolvable = true
        }
    }

    /// Inside a step the solvability pass has run, and the engine solves the constraints
    /// after the callbacks: a moment made infinite there, with a rotary constraint to a body
    /// that cannot turn either, reached the engine's "Unsolvable spring." abort (a helper's
    /// attack, from a collision handler and from the spring's own preSolve). Between steps
    /// the next step throws ``ChipmunkError/cannotTurn(step:constraint:)`` instead.
    private func requireRotaryConstraintsSolvable(restoring previous: Double) {
        let engineSpace = cpBodyGetSpace(handle)
        guard (space?.isDeferringChanges ?? false) || (engineSpace.map { cpSpaceIsLocked($0) != 0 } ?? false) else {
            return
        }
        for constraint in engineConstraints() where CChipmunkRotaryConstraintCanTurn(constraint) == 0 {
            cpBodySetMoment(handle, previous)
            stop(
                "Body.moment cannot become infinity during a step, a query or a callback while a rotary constraint "
                    + "joins the body to one that cannot turn either (the engine would abort); set it between steps "
                    + "or in a post-step callback, where the next step throws ChipmunkError.cannotTurn")
        }
    }

    private func requireDynamic(_ property: String) {
        ensure(kind == .dynamic, "Body.\(property) can be set only on a dynamic body (this one is \(kind))")
    }

    // MARK: State

    // The hot getters read the C struct's fields directly, as `cpBodyGetPosition` and the
    // others do, saving a call through the PLT on every per-body read.

    /// The position of the body's origin, in world coordinates. Moving a static body in a
    /// space reindexes its shapes.
    ///
    /// The corresponding C functions are `cpBodyGetPosition` and `cpBodySetPosition`.
    public var position: Vector {
        get { Vector(handle.pointee.p) }
        set {
            Parameter.bodyPosition.require(newValue)
            cpBodySetPosition(handle, newValue.cp)
            space?.reindexIfStatic(self)
        }
    }

    /// The linear velocity.
    ///
    /// The corresponding C functions are `cpBodyGetVelocity` and `cpBodySetVelocity`.
    public var velocity: Vector {
        get { Vector(handle.pointee.v) }
        set {
            Parameter.bodyVelocity.require(newValue)
            cpBodySetVelocity(handle, newValue.cp)
        }
    }

    /// The rotation, in radians, counter-clockwise.
    ///
    /// The corresponding C functions are `cpBodyGetAngle` and `cpBodySetAngle`.
    public var angle: Double {
        get { handle.pointee.a }
        set {
            Parameter.bodyAngle.require(newValue)
            cpBodySetAngle(handle, newValue)
            space?.reindexIfStatic(self)
        }
    }

    /// The angular velocity, in radians per second.
    ///
    /// The corresponding C functions are `cpBodyGetAngularVelocity` and `cpBodySetAngularVelocity`.
    public var angularVelocity: Double {
        get { handle.pointee.w }
        set {
            Parameter.bodyAngularVelocity.require(newValue)
            cpBodySetAngularVelocity(handle, newValue)
        }
    }

    /// The force applied this step; the engine clears it after each step.
    ///
    /// The corresponding C functions are `cpBodyGetForce` and `cpBodySetForce`.
    public var force: Vector {
        get { Vector(handle.pointee.f) }
        set {
            Parameter.bodyForce.require(newValue)
            cpBodySetForce(handle, newValue.cp)
        }
    }

    /// The torque applied this step; cleared after each step.
    ///
    /// The corresponding C functions are `cpBodyGetTorque` and `cpBodySetTorque`.
    public var torque: Double {
        get { handle.pointee.t }
        set {
            Parameter.bodyTorque.require(newValue)
            cpBodySetTorque(handle, newValue)
        }
    }

    /// The rotation as a unit vector (cos, sin).
    ///
    /// The corresponding C function is `cpBodyGetRotation`.
    public var rotation: Vector {
        Vector(cpBodyGetRotation(handle))
    }

    // MARK: Custom integration (stored here; the engine's own integrators are in Body+Integration.swift)

    /// Replaces the engine's velocity integration for this body, or restores it with `nil`.
    ///
    /// The closure runs inside ``Space/step(_:)``; call ``updateVelocity(gravity:damping:dt:)``
    /// from it to run the engine's own integration with values of your choosing. An error it
    /// throws is rethrown by `step` once the step has finished. Objects added to or removed
    /// from the space inside it take effect after the step.
    ///
    /// The corresponding C function is `cpBodySetVelocityUpdateFunc`.
    public var velocityUpdate: VelocityUpdate? {
        didSet {
            if velocityUpdate == nil {
                cpBodySetVelocityUpdateFunc(handle, CChipmunkGuardedUpdateVelocity)
            } else {
                cpBodySetVelocityUpdateFunc(handle) { body, gravity, damping, dt in
                    let this = Body.from(body!)
                    guard let state = this.cSpace?.callbacks, !state.isTearingDown else { return }
                    state.run(orOnError: ()) { try this.velocityUpdate?(this, Vector(gravity), damping, dt) }
                }
            }
        }
    }

    /// Replaces the engine's position integration for this body, or restores it with `nil`.
    /// Runs inside ``Space/step(_:)`` under the same rules as ``velocityUpdate``.
    ///
    /// The corresponding C function is `cpBodySetPositionUpdateFunc`.
    public var positionUpdate: PositionUpdate? {
        didSet {
            if positionUpdate == nil {
                cpBodySetPositionUpdateFunc(handle, CChipmunkGuardedUpdatePosition)
            } else {
                cpBodySetPositionUpdateFunc(handle) { body, dt in
                    let this = Body.from(body!)
                    guard let state = this.cSpace?.callbacks, !state.isTearingDown else { return }
                    state.run(orOnError: ()) { try this.positionUpdate?(this, dt) }
                }
            }
        }
    }

    @inline(__always)
    static func from(_ handle: UnsafeMutablePointer<cpBody>) -> Body {
        owner(of: cpBodyGetUserData(handle))
    }
}

@available(*, unavailable, message: "A Body wraps a C object; use it from one task at a time, one space per task")
extension Body: Sendable {}
