internal import CChipmunk
internal import CChipmunkRuntime

/// A simulated world: the bodies, shapes and constraints in it, and the rules they share.
///
/// ```swift
/// let space = Space()
/// space.gravity = [0, -1000]
/// let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 5))
/// space.add(body, Circle(body: body, radius: 5))
/// try space.step(1.0 / 120)
/// ```
///
/// Every parameter is a property; a value that breaks its ``Parameter`` rule stops the
/// program with a message. ``step(_:)`` throws what goes wrong while simulating.
///
/// The space holds strongly everything added to it, and frees its C space in `deinit`.
/// Objects still referenced elsewhere when the space goes are first taken out of it, so
/// they can be added to another space.
///
/// **Changes from callbacks.** While the engine is locked (during ``step(_:)`` or a
/// query) or Swift code runs inside an engine callback (collision handlers, including a
/// `separate` fired by a removal; body and constraint callbacks; ``Body/forEachArbiter(_:)``;
/// debug drawing), `add(_:)` and `remove(_:)` take effect in Swift at once (``bodies``,
/// ``Body/space``) and in the engine as soon as the outermost operation ends, as
/// Objective-Chipmunk and pymunk do.
///
/// The corresponding C type is `cpSpace`.
public final class Space {
    let cSpace: OwnedCSpace
    let handle: UnsafeMutablePointer<cpSpace>

    /// The space's own static body, for ground and walls. It is part of the space: it
    /// cannot be added or removed, and it is not in ``bodies``.
    ///
    /// The corresponding C function is `cpSpaceGetStaticBody`.
    public let staticBody: Body

    /// The bodies added to the space, in the order they were added.
    public internal(set) var bodies: [Body] = [] { didSet { bodyPositions = nil } }

    /// The shapes added to the space, in the order they were added.
    public internal(set) var shapes: [Shape] = [] { didSet { attachmentIndex = nil } }

    /// The constraints added to the space, in the order they were added.
    public internal(set) var constraints: [Constraint] = [] { didSet { attachmentIndex = nil } }

    /// Where each body's shapes and constraints are in ``shapes`` and ``constraints``:
    /// built by ``Body/shapes`` or ``Body/constraints`` when first asked for, dropped at a
    /// change to either array (positions, not objects: it holds no object alive).
    var attachmentIndex: AttachmentIndex?
    /// Where each body is in ``bodies``, built by `Body.indexInSpace` when first asked for
    /// and dropped at a change to it.
    var bodyPositions: [ObjectIdentifier: Int]?

    /// Adds and removes made while changes were deferred, applied in order afterwards.
    var pending: [PendingChange] = []

    /// Bodies removed while some of their shapes or constraints stayed: out of ``bodies``,
    /// still in the engine until the last of those leaves (see `remove(_:)`).
    var leavingBodies: [Body] = []

    /// Callback nesting, errors, arbiter validity and teardown, shared with the callbacks.
    let callbacks: CallbackState

    /// Bodies whose mass may have changed since the last step (added, kind changed,
    /// shapes with mass added or removed); the step checks these, not every body.
    var bodiesToCheckForMass: [Body] = []

    /// Counts the broad phase's rebuilds (``useSpatialHash(cellSize:count:)``, a snapshot's
    /// restore): a ``SpaceState`` restores only into the broad phase it was saved from. (Its
    /// index structs' addresses cannot tell: a new one is often allocated where the old was.)
    var broadPhaseGeneration = 0

    /// Collision handler boxes by C handler, kept alive for the C handlers that point at them.
    var collisionHandlers: [UnsafeMutablePointer<cpCollisionHandler>: CollisionHandler] = [:]

    /// Callbacks to run once the current (or next) step ends, by key.
    var postStepCallbacks: [(key: PostStepKey, run: (Space) throws -> Void)] = []
    /// Set while post-step callbacks run: stepping from one would recurse without end.
    var isRunningPostStepCallbacks = false

    /// The shapes in engine-id order, refilled by ``rebuildBroadPhase()`` before each step.

    /// The spatial hash's cell size and count, once ``useSpatialHash(cellSize:count:)`` is called.
    var spatialHash: (cellSize: Double, count: Int)? {
        // The hash turns coordinates over its cell size into `int` cell indices: past 2^31
        // cells they overflow (a body flung to 1e13 hung the hash's rehash). With the hash,
        // a body may go 2^30 cells from the origin; past that the step counts as diverged.
        didSet {
            cSpace.stepReport.pointee.bound = spatialHash.map { Self.hashPositionBound(cellSize: $0.cellSize) } ?? 0
        }
    }

    /// The largest coordinate a body may reach in a space whose spatial hash has cells of `cellSize`.
    static func hashPositionBound(cellSize: Double) -> Double {
        min(Parameter.maxCoordinate, cellSize * Double(1 << 30))
    }

    /// Whether an anchor, mass, moment or centre of gravity changed since the joints were
    /// last checked for the engine's "Unsolvable constraint." (see `Space.step`).
    var jointsMayBeUnsolvable = false

    /// The serial the next added object gets (see `Body.serial`).
    var nextSerial = 0

    /// Which shapes' settings (material, filter, mass, geometry) the space's shapes have:
    /// a new number from `shapeSettingsCounter` at each change, the saved one after a
    /// restore (see ``SpaceState``).
    var shapeSettingsVersion: UInt64 = 0
    var shapeSettingsCounter: UInt64 = 0
    /// The settings as of `shapeSettingsVersion`, once a state was saved: shared by states.
    var shapeSettings: ShapeSettingsRecord?
    /// The objects' engine pointers and serials, once a state was saved: shared by the
    /// states saved while the space holds the same objects.
    var membershipRecord: MembershipRecord?

    func noteShapeSettingsChanged() {
        shapeSettingsCounter += 1
        shapeSettingsVersion = shapeSettingsCounter
    }

    /// Steps completed so far; errors from ``step(_:)`` name step `stepsTaken + 1`.
    public internal(set) var stepsTaken = 0

    /// Creates an empty space with the engine's defaults: no gravity, 10 iterations, no damping.
    ///
    /// The corresponding C function is `cpSpaceNew`.
    public init() {
        cSpace = OwnedCSpace(hasty: false)
        handle = cSpace.handle
        callbacks = cSpace.callbacks
        staticBody = Body(staticBodyOf: cSpace)
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
    /// The corresponding C functions are `cpHastySpaceNew` and `cpHastySpaceSetThreads`.
    public init(threads: Int) {
        ensure(threads == 1 || threads == 2, "Space(threads:) takes 1 or 2 threads (got \(threads))")
        cSpace = OwnedCSpace(hasty: true)
        handle = cSpace.handle
        cpHastySpaceSetThreads(handle, UInt(threads))
        callbacks = cSpace.callbacks
        staticBody = Body(staticBodyOf: cSpace)
        staticBody.space = self
        callbacks.space = self
    }

    deinit {
        // Callbacks must not run from here on: separate handlers fire when shapes are
        // removed, and might see objects that are already gone.
        callbacks.isTearingDown = true
        callbacks.space = nil
        for handler in collisionHandlers.values { handler.restoreEngineFunctions() }
        // A body still leaving is still in the engine: it goes as the others do.
        bodies += leavingBodies
        leavingBodies = []
        // The space's own records of its objects are no holders: a body in them alone dies
        // with the space. (Counted as held, every object was taken out of the C space one by
        // one: a copy of pyramid100 took 220 ms to free, five times what the copy took.)
        bodiesToCheckForMass = []
        membershipRecord = nil
        // Objects that outlive the space are taken out of the C space, so they point at no
        // freed memory and can join another space. The rest die with it: their C objects
        // go to the OwnedCSpace, which frees them after the C space. Constraints and shapes
        // hold bodies, so they are released first: a body held only by dying ones dies too.
        let survivingConstraints = Self.releaseUniquelyHeld(&constraints)
        let survivingShapes = Self.releaseUniquelyHeld(&shapes)
        let survivingBodies = Self.releaseUniquelyHeld(&bodies)
        if !survivingShapes.isEmpty || !survivingBodies.isEmpty { CChipmunkSpaceDropArbiters(handle) }
        for constraint in survivingConstraints { detach(constraint) }
        for shape in survivingShapes { detach(shape) }
        for body in survivingBodies {
            // Shapes and constraints that die with the space are still linked to a
            // surviving body in C; unlink them, or it would keep pointers to freed memory.
            for constraint in body.engineConstraints() { cpSpaceRemoveConstraint(handle, constraint) }
            for shape in body.engineShapes() { cpSpaceRemoveShape(handle, shape) }
            detach(body)
            body.attachmentCount = 0
        }
    }

    /// Empties `objects`, and returns those that something else still holds.
    private static func releaseUniquelyHeld<Object: AnyObject>(_ objects: inout [Object]) -> [Object] {
        var survivors: [Object] = []
        for index in objects.indices where !isKnownUniquelyReferenced(&objects[index]) {
            survivors.append(objects[index])
        }
        objects = []
        return survivors
    }

    // MARK: Parameters

    /// The gravity applied to every dynamic body (rule: ``Parameter/spaceGravity``).
    ///
    /// The corresponding C functions are `cpSpaceGetGravity` and `cpSpaceSetGravity`.
    public var gravity: Vector {
        get { Vector(cpSpaceGetGravity(handle)) }
        set {
            Parameter.spaceGravity.require(newValue)
            cpSpaceSetGravity(handle, newValue.cp)
        }
    }

    /// The fraction of velocity each body keeps per second: 1 (the default) keeps all, 0.9
    /// loses 10 % (rule: ``Parameter/spaceDamping``). Above 1 it adds velocity, as the
    /// engine and pymunk allow: bodies speed up until a step throws
    /// ``ChipmunkError/diverged(step:body:quantity:value:)``.
    ///
    /// The corresponding C functions are `cpSpaceGetDamping` and `cpSpaceSetDamping`.
    public var damping: Double {
        get { cpSpaceGetDamping(handle) }
        set {
            Parameter.spaceDamping.require(newValue)
            cpSpaceSetDamping(handle, newValue)
        }
    }

    /// Solver iterations per step: more is stiffer and slower. The default is 10, the
    /// most ``Parameter/maxIterations``.
    ///
    /// The corresponding C functions are `cpSpaceGetIterations` and `cpSpaceSetIterations`.
    public var iterations: Int {
        get { Int(cpSpaceGetIterations(handle)) }
        set {
            Parameter.spaceIterations.require(newValue)
            cpSpaceSetIterations(handle, Int32(newValue))
        }
    }

    /// How far shapes may overlap before the solver pushes them apart. Default 0.1.
    ///
    /// The corresponding C functions are `cpSpaceGetCollisionSlop` and `cpSpaceSetCollisionSlop`.
    public var collisionSlop: Double {
        get { cpSpaceGetCollisionSlop(handle) }
        set {
            Parameter.spaceCollisionSlop.require(newValue)
            cpSpaceSetCollisionSlop(handle, newValue)
        }
    }

    /// The fraction of overlap left uncorrected after one second. The default is
    /// 0.0017970074436457143, `pow(1 - 0.1, 60)` computed from single-precision literals.
    ///
    /// The corresponding C functions are `cpSpaceGetCollisionBias` and `cpSpaceSetCollisionBias`.
    public var collisionBias: Double {
        get { cpSpaceGetCollisionBias(handle) }
        set {
            Parameter.spaceCollisionBias.require(newValue)
            cpSpaceSetCollisionBias(handle, newValue)
        }
    }

    /// The most contact pairs a step may make: candidate pairs the broad phase keeps (56
    /// bytes each), and the arbiters and contacts of those that touch (about 1 KB each).
    /// `nil`, the default, allows 128 a shape and at least 1,000,000; a grid of touching
    /// boxes at rest has about 4 a body, and a collapsing grid of jointed boxes made 40 a
    /// shape in one step. Rule: ``Parameter/spaceMaxContactPairs``.
    ///
    /// Shapes piled on one point make a pair for every two of them: 15,000 take 6 GB
    /// before a single contact is solved. A step that passes the budget throws
    /// ``ChipmunkError/tooManyContactPairs(step:limit:)`` instead, from inside the broad
    /// phase, before the pile claims the memory; the space is then stopped
    /// (``isStoppedByContactPairs``): read it and drop it, as the engine's step did not end.
    /// Only the default broad phase and the spatial hash of a space made with `Space()`
    /// are bounded; the threaded solver's step is not.
    ///
    /// The budget bounds what a step makes: it is checked as the engine's pools grow, and
    /// they never shrink. Lowered below what a space already holds, it takes effect at the
    /// first step that needs more memory than the space's pools have; until then the space
    /// steps with the pairs it has (50 overlapping circles, stepped twice, then given a
    /// budget of 1, step on without an error).
    public var maxContactPairs: Int? {
        didSet { if let maxContactPairs { Parameter.spaceMaxContactPairs.require(Double(maxContactPairs)) } }
    }

    /// How many narrow-phase tests in this space's steps the engine could not finish (its
    /// GJK/EPA stopped on a nearly degenerate pair of polygons) and the engine guard
    /// answered instead: first again from scratch, then with the shapes swapped, else as
    /// "no contact" for that step (docs/engine-assertions.md, "The engine guard"). A run
    /// that depended on it is still deterministic, but not the engine's own answer; 0 in
    /// almost every run.
    public internal(set) var guardedCollisions = 0

    /// Whether a step passed ``maxContactPairs`` and was stopped: the space can be read and
    /// dropped, but not stepped, saved or restored into again.
    public internal(set) var isStoppedByContactPairs = false

    /// Steps for which contact data is kept after shapes separate. Default 3, at least 1:
    /// with 0 the engine forgets every contact at once, and stacked bodies fall through.
    ///
    /// The corresponding C functions are `cpSpaceGetCollisionPersistence` and `cpSpaceSetCollisionPersistence`.
    public var collisionPersistence: Int {
        get { Int(cpSpaceGetCollisionPersistence(handle)) }
        set {
            Parameter.spaceCollisionPersistence.require(newValue)
            cpSpaceSetCollisionPersistence(handle, cpTimestamp(newValue))
        }
    }

    /// The speed below which a body counts as idle, for sleeping; 0 lets the engine choose
    /// from gravity.
    ///
    /// The corresponding C functions are `cpSpaceGetIdleSpeedThreshold` and `cpSpaceSetIdleSpeedThreshold`.
    public var idleSpeedThreshold: Double {
        get { cpSpaceGetIdleSpeedThreshold(handle) }
        set {
            Parameter.spaceIdleSpeedThreshold.require(newValue)
            cpSpaceSetIdleSpeedThreshold(handle, newValue)
        }
    }

    /// Seconds a group of bodies must be idle before it sleeps; infinity (the default)
    /// turns sleeping off, and wakes every sleeping body. It must be greater than zero: at 0
    /// the engine tries to put kinematic bodies to sleep, and aborts.
    ///
    /// The corresponding C functions are `cpSpaceGetSleepTimeThreshold` and `cpSpaceSetSleepTimeThreshold`.
    public var sleepTimeThreshold: Double {
        get { cpSpaceGetSleepTimeThreshold(handle) }
        set {
            Parameter.spaceSleepTimeThreshold.require(newValue)
            // With sleeping off, the engine no longer wakes a sleeping body that an awake one
            // touches, yet links their contacts: its next steps abort ("Dangling contact graph
            // pointers", found by a helper's attack). Off, nothing sleeps.
            if newValue == .infinity { wakeSleepingBodies() }
            cpSpaceSetSleepTimeThreshold(handle, newValue)
        }
    }

    /// Wakes every sleeping group (through `cpBodyActivate`, which takes the group out of
    /// the space's sleeping components: so the roots are read first).
    private func wakeSleepingBodies() {
        let components = handle.pointee.sleepingComponents!
        let roots = (0..<Int(components.pointee.num)).map {
            components.pointee.arr[$0]!.assumingMemoryBound(to: cpBody.self)
        }
        for root in roots { cpBodyActivate(root) }
    }

    /// The time step of the current or last call to ``step(_:)``.
    ///
    /// The corresponding C function is `cpSpaceGetCurrentTimeStep`.
    public var currentTimeStep: Double {
        cpSpaceGetCurrentTimeStep(handle)
    }

    /// Whether the engine is inside a step or a query, when it forbids changes.
    ///
    /// The corresponding C function is `cpSpaceIsLocked`.
    public var isLocked: Bool {
        cpSpaceIsLocked(handle) != 0
    }

    /// The threads the solver runs on: 1 for a space made with ``init()``, 1 or 2 for one
    /// made with ``init(threads:)``.
    ///
    /// The corresponding C function is `cpHastySpaceGetThreads`.
    public var threads: Int {
        cSpace.isHasty ? Int(cpHastySpaceGetThreads(handle)) : 1
    }

    /// Whether the space runs the engine's threaded solver (``init(threads:)``).
    public var isThreaded: Bool { cSpace.isHasty }

    /// Switches the broad phase from the engine's default bounding-box tree to its spatial
    /// hash, as pymunk's `use_spatial_hash` does.
    ///
    /// The hash suits many objects of similar size: `cellSize` about the size of a typical
    /// shape, `count` about ten times the number of shapes. It cannot be switched back,
    /// and it gives other (equally deterministic) trajectories than the tree, since the
    /// solver's result depends on the order in which candidate pairs are found.
    /// `shared/ENGINE.md` reports the tree taking 8.6 s for 2 steps of 20,000 bodies in a
    /// straight row; the rows measured here (20,000 unit boxes spaced 1 or 2 apart, with
    /// and without a floor, on an AMD EPYC) took 8–75 ms with the tree and 17–87 ms with
    /// the hash, so measure your own scene before switching. Every query walks the cells
    /// its box covers, so keep query distances on the scale of the scene (a query that
    /// would walk more than ``maxSpatialHashCells`` tests each shape instead).
    ///
    /// A shape may cover at most ``maxSpatialHashCells`` cells (a moving one in any
    /// rotation): a shape that would cover more, here or when added later, is a programming
    /// error (the engine walked them all, hanging); check data with
    /// ``checkSpatialHashFit(of:)``.
    ///
    /// The corresponding C function is `cpSpaceUseSpatialHash`.
    public func useSpatialHash(cellSize: Double, count: Int) {
        Parameter.spatialHashCellSize.require(cellSize)
        Parameter.spatialHashCount.require(count)
        ensure(!isDeferringChanges, "Space.useSpatialHash cannot run during a step, a query or a callback")
        for shape in shapes { requireSpatialHashFit(of: shape, cellSize: cellSize, "Space.useSpatialHash") }
        cpSpaceUseSpatialHash(handle, cellSize, Int32(count))
        spatialHash = (cellSize, count)
        broadPhaseGeneration += 1
    }

    /// Whether ``useSpatialHash(cellSize:count:)`` was called.
    public var usesSpatialHash: Bool { spatialHash != nil }

    /// Replaces the broad-phase index with a new one holding the same shapes, inserted in
    /// engine-id order, sleeping ones in the static index: where a restore starts before it
    /// puts back the broad phase's history.
    func rebuildBroadPhase() {
        var order: [UnsafeMutablePointer<cpShape>?] = shapes.filter { $0.cSpace === cSpace }.map(\.handle)
        order.sort { $0!.pointee.hashid < $1!.pointee.hashid }
        order.withUnsafeBufferPointer { buffer in
            CChipmunkRebuildSpatialIndexes(
                handle, buffer.baseAddress, Int32(buffer.count), spatialHash?.cellSize ?? 0,
                Int32(spatialHash?.count ?? 0))
        }
        broadPhaseGeneration += 1
    }
}

@available(*, unavailable, message: "A Space wraps a C object; give each task its own space")
extension Space: Sendable {}
