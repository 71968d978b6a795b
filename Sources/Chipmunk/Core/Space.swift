internal import CChipmunk

/// A simulated world: the bodies, shapes and constraints in it, and the rules they share.
///
/// The space holds strongly everything added to it, and frees its C space in `deinit`.
/// Objects still referenced elsewhere when the space goes are first taken out of it, so
/// they can be added to another space.
///
/// ```swift
/// let space = Space()
/// space.gravity = [0, -1000]
/// let body = try Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 5))
/// try space.add(body)
/// try space.add(Circle(body: body, radius: 5))
/// try space.step(1.0 / 120)
/// ```
///
/// **Changes during a step.** While the space is locked (inside a callback that runs
/// during ``step(_:)``), ``add(_:)-(Body)`` and ``remove(_:)-(Body)`` take effect in Swift
/// at once (``bodies``, ``Body/space``) and in the engine as soon as the step ends, as
/// Objective-Chipmunk and pymunk do. The corresponding C type is `cpSpace`.
public final class Space {
    let storage: SpaceStorage
    let handle: UnsafeMutablePointer<cpSpace>

    /// The space's own static body, for ground and walls. It is part of the space: it
    /// cannot be added or removed, and it is not in ``bodies``.
    /// The corresponding C function is `cpSpaceGetStaticBody`.
    public let staticBody: Body

    /// The bodies added to the space, in the order they were added.
    public private(set) var bodies: [Body] = []

    /// The shapes added to the space, in the order they were added.
    public private(set) var shapes: [Shape] = []

    /// Adds and removes made while the space was locked, applied to the engine after the step.
    private var pending: [PendingChange] = []

    /// The first error thrown by a callback during the current step.
    private var callbackError: (any Error)?

    private enum PendingChange {
        case addBody(Body), removeBody(Body), addShape(Shape), removeShape(Shape), reindex(Body)
    }

    /// Creates an empty space with the engine's defaults: no gravity, 10 iterations, no damping.
    /// The corresponding C function is `cpSpaceNew`.
    public init() {
        storage = SpaceStorage()
        handle = storage.handle
        staticBody = Body(staticBodyOf: storage)
        staticBody.space = self
    }

    deinit {
        // Objects that outlive the space are taken out of the C space, so they point at no
        // freed memory and can join another space. The rest die with it: their C objects
        // go to the storage, which frees them after the C space. Shapes are released
        // first, so a body held only by dying shapes counts as dying.
        var survivingShapes: [Shape] = []
        for index in shapes.indices where !isKnownUniquelyReferenced(&shapes[index]) {
            survivingShapes.append(shapes[index])
        }
        shapes = []
        var survivingBodies: [Body] = []
        for index in bodies.indices where !isKnownUniquelyReferenced(&bodies[index]) {
            survivingBodies.append(bodies[index])
        }
        bodies = []
        for shape in survivingShapes { detach(shape) }
        for body in survivingBodies {
            // Shapes that die with the space are still linked to a surviving body in C;
            // unlink them too, or the body would keep pointers to freed shapes.
            for shape in body.engineShapes() { cpSpaceRemoveShape(handle, shape) }
            detach(body)
        }
    }

    // MARK: Parameters

    /// The gravity applied to every dynamic body. Checked by ``step(_:)``: it must be finite.
    /// The corresponding C functions are `cpSpaceGetGravity` and `cpSpaceSetGravity`.
    public var gravity: Vector {
        get { Vector(cpSpaceGetGravity(handle)) }
        set { cpSpaceSetGravity(handle, newValue.cp) }
    }

    /// The fraction of velocity each body keeps per second: 1 (the default) keeps all, 0.9 loses 10 %.
    /// The corresponding C function is `cpSpaceGetDamping`.
    public var damping: Double { cpSpaceGetDamping(handle) }

    /// Sets the damping.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    /// The corresponding C function is `cpSpaceSetDamping`.
    public func setDamping(_ damping: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(damping, "damping")
        cpSpaceSetDamping(handle, damping)
    }

    /// Solver iterations per step: more is stiffer and slower. The default is 10.
    /// The corresponding C function is `cpSpaceGetIterations`.
    public var iterations: Int { Int(cpSpaceGetIterations(handle)) }

    /// Sets the solver iterations.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless 1 or more.
    /// The corresponding C function is `cpSpaceSetIterations`.
    public func setIterations(_ iterations: Int) throws(ChipmunkError) {
        guard iterations > 0, iterations <= Int(Int32.max) else {
            throw .invalidValue(property: "iterations", value: "\(iterations)", rule: "at least 1")
        }
        cpSpaceSetIterations(handle, Int32(iterations))
    }

    /// How far shapes may overlap before the solver pushes them apart. Default 0.1.
    /// Checked by ``step(_:)``. The corresponding C functions are `cpSpaceGetCollisionSlop` and `cpSpaceSetCollisionSlop`.
    public var collisionSlop: Double {
        get { cpSpaceGetCollisionSlop(handle) }
        set { cpSpaceSetCollisionSlop(handle, newValue) }
    }

    /// The fraction of overlap left uncorrected after one second. Default `pow(0.9, 60)`.
    /// Checked by ``step(_:)``. The corresponding C functions are `cpSpaceGetCollisionBias` and `cpSpaceSetCollisionBias`.
    public var collisionBias: Double {
        get { cpSpaceGetCollisionBias(handle) }
        set { cpSpaceSetCollisionBias(handle, newValue) }
    }

    /// Steps for which contact data is kept after shapes separate. Default 3.
    /// The corresponding C functions are `cpSpaceGetCollisionPersistence` and `cpSpaceSetCollisionPersistence`.
    public var collisionPersistence: UInt {
        get { UInt(cpSpaceGetCollisionPersistence(handle)) }
        set { cpSpaceSetCollisionPersistence(handle, cpTimestamp(newValue)) }
    }

    /// The speed below which a body counts as idle, for sleeping; 0 lets the engine choose
    /// from gravity. Checked by ``step(_:)``.
    /// The corresponding C functions are `cpSpaceGetIdleSpeedThreshold` and `cpSpaceSetIdleSpeedThreshold`.
    public var idleSpeedThreshold: Double {
        get { cpSpaceGetIdleSpeedThreshold(handle) }
        set { cpSpaceSetIdleSpeedThreshold(handle, newValue) }
    }

    /// Seconds a group of bodies must be idle before it sleeps; infinity (the default)
    /// turns sleeping off. Checked by ``step(_:)``.
    /// The corresponding C functions are `cpSpaceGetSleepTimeThreshold` and `cpSpaceSetSleepTimeThreshold`.
    public var sleepTimeThreshold: Double {
        get { cpSpaceGetSleepTimeThreshold(handle) }
        set { cpSpaceSetSleepTimeThreshold(handle, newValue) }
    }

    /// Whether the space is inside a step, a query or an iteration, when the engine
    /// forbids changes; adds and removes made now are applied afterwards.
    /// The corresponding C function is `cpSpaceIsLocked`.
    public var isLocked: Bool { cpSpaceIsLocked(handle) != 0 }

    // MARK: Bodies

    /// Adds a body. During a step, the engine sees it once the step ends.
    ///
    /// - Throws: ``ChipmunkError/alreadyInThisSpace(_:)``, ``ChipmunkError/inAnotherSpace(_:)``,
    ///   ``ChipmunkError/spaceStaticBody`` for any space's static body, or
    ///   ``ChipmunkError/massless`` for a dynamic body without positive mass and moment.
    /// The corresponding C function is `cpSpaceAddBody`.
    public func add(_ body: Body) throws(ChipmunkError) {
        guard !body.isSpaceStaticBody else { throw .spaceStaticBody }
        if let other = body.space { throw other === self ? .alreadyInThisSpace(.body) : .inAnotherSpace(.body) }
        if body.kind == .dynamic, !(body.mass > 0 && body.moment > 0) { throw .massless }
        body.space = self
        bodies.append(body)
        if isLocked { pending.append(.addBody(body)) } else { attach(body) }
    }

    /// Removes a body; its shapes stay in the space until you remove them too.
    ///
    /// - Throws: ``ChipmunkError/notInThisSpace(_:)`` or ``ChipmunkError/spaceStaticBody``.
    /// The corresponding C function is `cpSpaceRemoveBody`.
    public func remove(_ body: Body) throws(ChipmunkError) {
        guard !body.isSpaceStaticBody else { throw .spaceStaticBody }
        guard body.space === self, let index = bodies.firstIndex(where: { $0 === body }) else {
            throw .notInThisSpace(.body)
        }
        body.space = nil
        bodies.remove(at: index)
        if isLocked { pending.append(.removeBody(body)) } else { detach(body) }
    }

    /// Whether the body is in this space (its static body counts). The corresponding C function is `cpSpaceContainsBody`.
    public func contains(_ body: Body) -> Bool { body.space === self }

    // MARK: Shapes

    /// Adds a shape. Its body must already be in the space, or be ``staticBody``.
    ///
    /// - Throws: ``ChipmunkError/alreadyInThisSpace(_:)``, ``ChipmunkError/inAnotherSpace(_:)``
    ///   or ``ChipmunkError/bodyNotInSpace``. The corresponding C function is `cpSpaceAddShape`.
    public func add(_ shape: Shape) throws(ChipmunkError) {
        if let other = shape.space { throw other === self ? .alreadyInThisSpace(.shape) : .inAnotherSpace(.shape) }
        guard shape.body.space === self else { throw .bodyNotInSpace }
        shape.space = self
        shapes.append(shape)
        if isLocked { pending.append(.addShape(shape)) } else { attach(shape) }
    }

    /// Removes a shape.
    ///
    /// - Throws: ``ChipmunkError/notInThisSpace(_:)``. The corresponding C function is `cpSpaceRemoveShape`.
    public func remove(_ shape: Shape) throws(ChipmunkError) {
        guard shape.space === self, let index = shapes.firstIndex(where: { $0 === shape }) else {
            throw .notInThisSpace(.shape)
        }
        shape.space = nil
        shapes.remove(at: index)
        if isLocked { pending.append(.removeShape(shape)) } else { detach(shape) }
    }

    /// Whether the shape is in this space. The corresponding C function is `cpSpaceContainsShape`.
    public func contains(_ shape: Shape) -> Bool { shape.space === self }

    // MARK: Stepping

    /// Advances the simulation by `dt` seconds.
    ///
    /// Checks first what the engine would abort on during the step: the time step must be
    /// positive and finite, gravity finite, and slop, bias and thresholds non-negative.
    /// Changes made by callbacks during the step are applied before it returns, and the
    /// first error a callback threw is rethrown then.
    ///
    /// - Throws: ``ChipmunkError`` for a bad parameter (nothing is simulated), or the
    ///   first error thrown by a callback (the step did complete).
    /// The corresponding C function is `cpSpaceStep`.
    public func step(_ dt: Double) throws {
        try checkStepParameters(dt)
        cpSpaceStep(handle, dt)
        if !pending.isEmpty { applyPendingChanges() }
        if let error = callbackError {
            callbackError = nil
            throw error
        }
    }

    private func checkStepParameters(_ dt: Double) throws(ChipmunkError) {
        guard dt > 0, dt.isFinite else {
            throw .invalidValue(property: "time step", value: "\(dt)", rule: "positive and finite")
        }
        guard !isLocked else {
            throw .invalidValue(property: "step", value: "called during a step, query or iteration", rule: "called outside callbacks")
        }
        try requireFinite(gravity, "gravity")
        try requireNonNegativeFinite(collisionSlop, "collision slop")
        try requireNonNegativeFinite(collisionBias, "collision bias")
        try requireNonNegativeFinite(idleSpeedThreshold, "idle speed threshold")
        guard sleepTimeThreshold >= 0 else {
            throw .invalidValue(property: "sleep time threshold", value: "\(sleepTimeThreshold)", rule: "zero or more")
        }
    }

    // MARK: Callbacks and deferred changes

    func recordCallbackError(_ error: any Error) {
        if callbackError == nil { callbackError = error }
    }

    /// A static body's shapes are indexed where they were; moving it needs a reindex.
    func reindexIfStatic(_ body: Body) {
        guard body.kind == .static else { return }
        if isLocked { pending.append(.reindex(body)) } else { cpSpaceReindexShapesForBody(handle, body.handle) }
    }

    // The engine-side add and remove, with the record of which C space holds each object.
    private func attach(_ body: Body) { cpSpaceAddBody(handle, body.handle); body.engineSpace = storage }
    private func detach(_ body: Body) { cpSpaceRemoveBody(handle, body.handle); body.engineSpace = nil }
    private func attach(_ shape: Shape) { cpSpaceAddShape(handle, shape.handle); shape.engineSpace = storage }
    private func detach(_ shape: Shape) { cpSpaceRemoveShape(handle, shape.handle); shape.engineSpace = nil }

    private func applyPendingChanges() {
        let changes = pending
        pending.removeAll(keepingCapacity: true)
        for change in changes {
            switch change {
            case .addBody(let body): attach(body)
            case .removeBody(let body): detach(body)
            case .addShape(let shape): attach(shape)
            case .removeShape(let shape): detach(shape)
            case .reindex(let body): if body.space === self { cpSpaceReindexShapesForBody(handle, body.handle) }
            }
        }
    }
}

@available(*, unavailable, message: "A Space wraps a C object; give each task its own space")
extension Space: Sendable {}
