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
/// **Changes from callbacks.** While the engine is locked (during ``step(_:)`` or a
/// query) or Swift code runs inside an engine callback (collision handlers, including a
/// `separate` fired by a removal; body and constraint callbacks; ``Body/eachArbiter(_:)``),
/// ``add(_:)-(Body)`` and ``remove(_:)-(Body)`` take effect in Swift at once (``bodies``,
/// ``Body/space``) and in the engine as soon as the outermost operation ends, as
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

    /// The constraints added to the space, in the order they were added.
    public private(set) var constraints: [Constraint] = []

    /// Adds and removes made while changes were deferred, applied in order afterwards.
    private var pending: [PendingChange] = []
    private enum PendingChange {
        case addBody(Body), removeBody(Body), addShape(Shape), removeShape(Shape)
        case addConstraint(Constraint), removeConstraint(Constraint), reindex(Body)
    }

    /// Callback nesting, errors, arbiter validity and teardown, shared with the callbacks.
    let callbacks: CallbackState
    /// Set while the space is being dropped: callbacks must not run then.
    var isTearingDown: Bool { callbacks.isTearingDown }
    /// Bodies whose mass may have changed since the last step (added, kind changed,
    /// shapes with mass added or removed); the step checks these, not every body.
    private var bodiesToCheckForMass: [Body] = []

    /// Collision handler boxes by C handler, kept alive for the C handlers that point at them.
    var collisionHandlers: [UnsafeMutablePointer<cpCollisionHandler>: CollisionHandler] = [:]

    /// Callbacks to run once the current (or next) step ends, by key.
    private var postStepCallbacks: [(key: AnyHashable, run: (Space) throws -> Void)] = []

    /// Creates an empty space with the engine's defaults: no gravity, 10 iterations, no damping.
    /// The corresponding C function is `cpSpaceNew`.
    public init() {
        storage = SpaceStorage(hasty: false)
        handle = storage.handle
        callbacks = storage.callbacks
        staticBody = Body(staticBodyOf: storage)
        staticBody.space = self
        callbacks.space = self
    }

    /// Creates a space that runs the engine's threaded solver (`cpHastySpace`) on
    /// `threads` threads, 1 or 2.
    ///
    /// With 2 threads both threads work on the same contacts, so results are **not
    /// deterministic**, and on this project's machines it was no faster (19.5 ms per step
    /// with 1 thread, 20.2 with 2, on a 5,050-box pyramid). Run independent spaces in
    /// parallel instead. With 1 thread it gives the same results as ``init()``.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless 1 or 2.
    /// The corresponding C functions are `cpHastySpaceNew` and `cpHastySpaceSetThreads`.
    public init(threads: Int) throws(ChipmunkError) {
        guard threads == 1 || threads == 2 else {
            throw .invalidValue(property: "threads", value: "\(threads)", rule: "1 or 2")
        }
        storage = SpaceStorage(hasty: true)
        handle = storage.handle
        cpHastySpaceSetThreads(handle, UInt(threads))
        callbacks = storage.callbacks
        staticBody = Body(staticBodyOf: storage)
        staticBody.space = self
        callbacks.space = self
    }

    deinit {
        // Callbacks must not run from here on: separate handlers fire when shapes are
        // removed, and might see objects that are already gone.
        callbacks.isTearingDown = true
        callbacks.space = nil
        // Objects that outlive the space are taken out of the C space, so they point at no
        // freed memory and can join another space. The rest die with it: their C objects
        // go to the storage, which frees them after the C space. Constraints and shapes
        // hold bodies, so they are released first: a body held only by dying ones dies too.
        var survivingConstraints: [Constraint] = []
        for index in constraints.indices where !isKnownUniquelyReferenced(&constraints[index]) {
            survivingConstraints.append(constraints[index])
        }
        constraints = []
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
        for constraint in survivingConstraints { detach(constraint) }
        for shape in survivingShapes { detach(shape) }
        for body in survivingBodies {
            // Shapes and constraints that die with the space are still linked to a
            // surviving body in C; unlink them, or it would keep pointers to freed memory.
            for constraint in body.engineConstraints() { cpSpaceRemoveConstraint(handle, constraint) }
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
    public var damping: Double {
        cpSpaceGetDamping(handle)
    }

    /// Sets the damping.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    /// The corresponding C function is `cpSpaceSetDamping`.
    public func setDamping(_ damping: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(damping, "damping")
        cpSpaceSetDamping(handle, damping)
    }

    /// Solver iterations per step: more is stiffer and slower. The default is 10.
    /// The corresponding C function is `cpSpaceGetIterations`.
    public var iterations: Int {
        Int(cpSpaceGetIterations(handle))
    }

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

    /// The fraction of overlap left uncorrected after one second. The default is
    /// 0.0017970074436457143, `pow(1 - 0.1, 60)` computed from single-precision literals.
    /// Checked by ``step(_:)``. The corresponding C functions are `cpSpaceGetCollisionBias` and `cpSpaceSetCollisionBias`.
    public var collisionBias: Double {
        get { cpSpaceGetCollisionBias(handle) }
        set { cpSpaceSetCollisionBias(handle, newValue) }
    }

    /// Steps for which contact data is kept after shapes separate. Default 3.
    /// The corresponding C functions are `cpSpaceGetCollisionPersistence` and `cpSpaceSetCollisionPersistence`.
    public var collisionPersistence: UInt {
        get { UInt(cpSpaceGetCollisionPersistence(handle)) }
        set { cpSpaceSetCollisionPersistence(handle, cpTimestamp(truncatingIfNeeded: newValue)) }
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

    /// The time step of the current or last call to ``step(_:)``. The corresponding C function is `cpSpaceGetCurrentTimeStep`.
    public var currentTimeStep: Double {
        cpSpaceGetCurrentTimeStep(handle)
    }

    /// Whether the engine is inside a step or a query, when it forbids changes.
    /// The corresponding C function is `cpSpaceIsLocked`.
    public var isLocked: Bool {
        cpSpaceIsLocked(handle) != 0
    }

    /// The threads of the threaded solver: 0 for a space made with ``init()``.
    /// The corresponding C function is `cpHastySpaceGetThreads`.
    public var threads: Int {
        storage.isHasty ? Int(cpHastySpaceGetThreads(handle)) : 0
    }

    /// Whether adds and removes are deferred right now (see the type's documentation).
    public var isDeferringChanges: Bool { callbacks.depth > 0 || isLocked }

    // MARK: Bodies

    /// Adds a body. While changes are deferred, the engine sees it when the operation ends.
    ///
    /// - Throws: ``ChipmunkError/alreadyInThisSpace(_:)``, ``ChipmunkError/inAnotherSpace(_:)``
    ///   or ``ChipmunkError/spaceStaticBody`` for any space's static body.
    /// The corresponding C function is `cpSpaceAddBody`.
    public func add(_ body: Body) throws(ChipmunkError) {
        guard !body.isSpaceStaticBody else { throw .spaceStaticBody }
        if let other = body.space { throw other === self ? .alreadyInThisSpace(.body) : .inAnotherSpace(.body) }
        body.space = self
        bodies.append(body)
        massMayHaveChanged(for: body)
        if isDeferringChanges { pending.append(.addBody(body)) } else { attach(body) }
    }

    /// Removes a body; its shapes and constraints stay in the space until you remove them too.
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
        if isDeferringChanges { pending.append(.removeBody(body)) } else { detach(body) }
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
        if shape.mass > 0 { massMayHaveChanged(for: shape.body) }
        if isDeferringChanges { pending.append(.addShape(shape)) } else { attach(shape) }
    }

    /// Removes a shape. Its contacts end, so `separate` handlers run.
    ///
    /// - Throws: ``ChipmunkError/notInThisSpace(_:)``. The corresponding C function is `cpSpaceRemoveShape`.
    public func remove(_ shape: Shape) throws(ChipmunkError) {
        guard shape.space === self, let index = shapes.firstIndex(where: { $0 === shape }) else {
            throw .notInThisSpace(.shape)
        }
        shape.space = nil
        shapes.remove(at: index)
        if shape.mass > 0 { massMayHaveChanged(for: shape.body) }
        if isDeferringChanges { pending.append(.removeShape(shape)) } else { detach(shape); applyPendingChangesIfIdle() }
    }

    /// Whether the shape is in this space. The corresponding C function is `cpSpaceContainsShape`.
    public func contains(_ shape: Shape) -> Bool { shape.space === self }

    // MARK: Constraints

    /// Adds a constraint. Both its bodies must be in the space (or be ``staticBody``), and
    /// at least one must be dynamic: the engine's solver aborts on a constraint between two
    /// bodies of infinite mass ("Unsolvable constraint").
    ///
    /// - Throws: ``ChipmunkError/alreadyInThisSpace(_:)``, ``ChipmunkError/inAnotherSpace(_:)``,
    ///   ``ChipmunkError/bodyNotInSpace`` or ``ChipmunkError/unsolvableConstraint``.
    /// The corresponding C function is `cpSpaceAddConstraint`.
    public func add(_ constraint: Constraint) throws(ChipmunkError) {
        if let other = constraint.space {
            throw other === self ? .alreadyInThisSpace(.constraint) : .inAnotherSpace(.constraint)
        }
        guard constraint.bodyA.space === self, constraint.bodyB.space === self else { throw .bodyNotInSpace }
        guard constraint.bodyA.kind == .dynamic || constraint.bodyB.kind == .dynamic else { throw .unsolvableConstraint }
        constraint.space = self
        constraints.append(constraint)
        if isDeferringChanges { pending.append(.addConstraint(constraint)) } else { attach(constraint) }
    }

    /// Removes a constraint.
    ///
    /// - Throws: ``ChipmunkError/notInThisSpace(_:)``. The corresponding C function is `cpSpaceRemoveConstraint`.
    public func remove(_ constraint: Constraint) throws(ChipmunkError) {
        guard constraint.space === self, let index = constraints.firstIndex(where: { $0 === constraint }) else {
            throw .notInThisSpace(.constraint)
        }
        constraint.space = nil
        constraints.remove(at: index)
        if isDeferringChanges { pending.append(.removeConstraint(constraint)) } else { detach(constraint) }
    }

    /// Whether the constraint is in this space. The corresponding C function is `cpSpaceContainsConstraint`.
    public func contains(_ constraint: Constraint) -> Bool { constraint.space === self }

    // MARK: Stepping

    /// Advances the simulation by `dt` seconds.
    ///
    /// Checks first what the engine would abort on during the step: the time step must be
    /// positive and finite, gravity finite, slop, bias and thresholds non-negative, and
    /// every dynamic body must have a positive mass and moment. Changes made by callbacks
    /// are applied, then post-step callbacks run, before it returns; the first error a
    /// callback threw is rethrown then.
    ///
    /// - Throws: ``ChipmunkError`` for a bad parameter (nothing is simulated), or the
    ///   first error thrown by a callback (the step did complete).
    /// The corresponding C function is `cpSpaceStep` (`cpHastySpaceStep` for the threaded solver).
    public func step(_ dt: Double) throws {
        try checkStepParameters(dt)
        if !bodiesToCheckForMass.isEmpty { try checkMasses() }
        if storage.isHasty { cpHastySpaceStep(handle, dt) } else { cpSpaceStep(handle, dt) }
        applyPendingChangesIfIdle()
        if !postStepCallbacks.isEmpty { runPostStepCallbacks() }
        try rethrowCallbackError()
    }

    private func checkStepParameters(_ dt: Double) throws(ChipmunkError) {
        guard dt > 0, dt.isFinite else {
            throw .invalidValue(property: "time step", value: "\(dt)", rule: "positive and finite")
        }
        guard !isDeferringChanges else { throw .spaceLocked(operation: "step the space") }
        try requireFinite(gravity, "gravity")
        try requireNonNegativeFinite(collisionSlop, "collision slop")
        try requireNonNegativeFinite(collisionBias, "collision bias")
        try requireNonNegativeFinite(idleSpeedThreshold, "idle speed threshold")
        guard sleepTimeThreshold >= 0 else {
            throw .invalidValue(property: "sleep time threshold", value: "\(sleepTimeThreshold)", rule: "zero or more")
        }
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
            let mass = body.mass, moment = body.moment
            guard mass > 0, mass.isFinite, moment > 0, moment.isFinite else { throw .massless }
        }
        bodiesToCheckForMass.removeAll(keepingCapacity: true)
    }

    // MARK: Post-step callbacks

    /// Runs `callback` once after the current step, or after the next one when no step is
    /// running; a second callback with the same key before then is ignored, as in
    /// Chipmunk. Inside it the space is unlocked: add, remove and query freely.
    ///
    /// - Returns: `false` if a callback with this key was already waiting.
    /// The corresponding C function is `cpSpaceAddPostStepCallback`.
    @discardableResult
    public func addPostStepCallback(forKey key: AnyHashable, _ callback: @escaping (Space) throws -> Void) -> Bool {
        guard !postStepCallbacks.contains(where: { $0.key == key }) else { return false }
        postStepCallbacks.append((key, callback))
        return true
    }

    private func runPostStepCallbacks() {
        while !postStepCallbacks.isEmpty {
            let callbacks = postStepCallbacks
            postStepCallbacks.removeAll()
            for callback in callbacks {
                do { try callback.run(self) } catch { self.callbacks.record(error) }
            }
        }
    }

    // MARK: Reindexing

    /// Updates the spatial index of every static shape, after moving static bodies.
    /// Deferred while changes are deferred. The corresponding C function is `cpSpaceReindexStatic`.
    public func reindexStatic() {
        if isDeferringChanges { pending.append(.reindex(staticBody)); return }
        cpSpaceReindexStatic(handle)
    }

    /// Updates the spatial index of one shape in this space.
    /// - Throws: ``ChipmunkError/notInThisSpace(_:)``. The corresponding C function is `cpSpaceReindexShape`.
    public func reindex(_ shape: Shape) throws(ChipmunkError) {
        guard shape.space === self else { throw .notInThisSpace(.shape) }
        if isDeferringChanges { pending.append(.reindex(shape.body)); return }
        cpSpaceReindexShape(handle, shape.handle)
    }

    /// Updates the spatial index of a body's shapes.
    /// - Throws: ``ChipmunkError/notInThisSpace(_:)``. The corresponding C function is `cpSpaceReindexShapesForBody`.
    public func reindexShapes(of body: Body) throws(ChipmunkError) {
        guard body.space === self else { throw .notInThisSpace(.body) }
        if isDeferringChanges { pending.append(.reindex(body)); return }
        cpSpaceReindexShapesForBody(handle, body.handle)
    }

    /// A static body's shapes are indexed where they were; moving it needs a reindex.
    func reindexIfStatic(_ body: Body) {
        guard body.kind == .static else { return }
        if isDeferringChanges { pending.append(.reindex(body)) } else { cpSpaceReindexShapesForBody(handle, body.handle) }
    }

    // MARK: Callbacks and deferred changes

    func rethrowCallbackError() throws {
        if let error = callbacks.error {
            callbacks.error = nil
            throw error
        }
    }

    /// Applies deferred changes once no engine call or callback is running. Removals can
    /// run `separate` handlers that defer more changes; those are applied too.
    func applyPendingChangesIfIdle() {
        while !pending.isEmpty, !isDeferringChanges {
            let changes = pending
            pending.removeAll()
            for change in changes {
                switch change {
                case .addBody(let body): attach(body)
                case .removeBody(let body): detach(body)
                case .addShape(let shape): attach(shape)
                case .removeShape(let shape): detach(shape)
                case .addConstraint(let constraint): attach(constraint)
                case .removeConstraint(let constraint): detach(constraint)
                case .reindex(let body):
                    if body === staticBody { cpSpaceReindexStatic(handle) }
                    else if body.space === self { cpSpaceReindexShapesForBody(handle, body.handle) }
                }
            }
        }
    }

    // The engine-side add and remove, with the record of which C space holds each object.
    // A removal can run `separate` handlers, hence the callback depth around it.
    private func attach(_ body: Body) { cpSpaceAddBody(handle, body.handle); body.engineSpace = storage }
    private func detach(_ body: Body) { cpSpaceRemoveBody(handle, body.handle); body.engineSpace = nil }
    private func attach(_ shape: Shape) { cpSpaceAddShape(handle, shape.handle); shape.engineSpace = storage }
    private func detach(_ shape: Shape) {
        // A removal runs `separate` handlers; changes they make must wait.
        callbacks.depth += 1
        cpSpaceRemoveShape(handle, shape.handle)
        callbacks.depth -= 1
        shape.engineSpace = nil
    }
    private func attach(_ constraint: Constraint) {
        cpSpaceAddConstraint(handle, constraint.handle)
        constraint.engineSpace = storage
    }
    private func detach(_ constraint: Constraint) {
        cpSpaceRemoveConstraint(handle, constraint.handle)
        constraint.engineSpace = nil
    }
}

@available(*, unavailable, message: "A Space wraps a C object; give each task its own space")
extension Space: Sendable {}
