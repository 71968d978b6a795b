internal import CChipmunk

// Snapshots read and write the engine's private fields (chipmunk_structs.h): the public
// API has no way to reach accumulated impulses, cached contacts or the engine's lists.
// docs/snapshots.md explains what is saved and why each part matters.

extension Space {
    /// Captures the space's whole state (see ``Snapshot``).
    ///
    /// Call it between steps: inside a step, a query or a callback is a programming error.
    public func snapshot() -> Snapshot {
        ensure(
            !isDeferringChanges && pending.isEmpty,
            "Space.snapshot() must be called between steps, not inside a step, a query or a callback")
        requireNoBodyLeaving("Space.snapshot()")
        requireNotStopped("Space.snapshot()")
        return Snapshot(state: SnapshotCapture(space: self).state)
    }

    /// A snapshot that also records a scene's name and clock (for ChipmunkScenes).
    package func snapshot(
        sceneName: String, sceneTime: Double, changesApplied: Int, inputsApplied: Int, bodyNames: [String] = []
    ) -> Snapshot {
        ensure(!isDeferringChanges && pending.isEmpty, "Scene.snapshot() must be called between steps")
        var state = SnapshotCapture(space: self).state
        state.sceneName = sceneName
        state.sceneTime = sceneTime
        state.sceneChangesApplied = UInt32(clamping: changesApplied)
        state.sceneInputsApplied = UInt32(clamping: inputsApplied)
        state.sceneBodyNames = bodyNames
        return Snapshot(state: state)
    }

    /// Creates a space from a snapshot, with new bodies, shapes and constraints in the
    /// order of the space it came from (``bodies``, ``shapes``, ``constraints``).
    ///
    /// Collision types that had handlers get handlers without closures: set them again
    /// (``onCollision(between:and:begin:preSolve:postSolve:separate:)``). Custom
    /// integrators and constraint callbacks are not restored; to keep closures, build the
    /// space with your own code and call ``restore(_:)-(Snapshot)`` on it instead.
    ///
    /// - Throws: ``SnapshotError`` if the snapshot holds what no valid space holds (a
    ///   snapshot read by ``Snapshot/init(bytes:)`` was checked as it was read), or shapes
    ///   that overlap in more pairs than the default ``maxContactPairs``: restore such a
    ///   pile with ``restore(_:)-(Snapshot)`` into a space whose budget is raised.
    public convenience init(restoring snapshot: Snapshot) throws(SnapshotError) {
        self.init()
        try restore(snapshot)
    }

    /// Sets this space to the state in `snapshot`, keeping its objects and their closures.
    ///
    /// Objects are matched by the order in which they were added to their space: build
    /// this space with the same code as the snapshot's, and every body, shape and
    /// constraint finds its counterpart and keeps its closures. Objects the snapshot's
    /// space had removed are removed here, without running any collision handler (their
    /// contacts did not exist in the snapshot's space, and a handler that added or removed
    /// objects while the space is being rebuilt would leave it inconsistent); objects it had
    /// added later are created, without closures. Collision handlers it had and this space
    /// lacks are added without closures.
    ///
    /// - Throws: ``SnapshotError/structureMismatch(_:)`` when a matched object differs in
    ///   kind, body or geometry, naming it; another ``SnapshotError`` for invalid data, or
    ///   for shapes that overlap in more pairs than this space's ``maxContactPairs``. The
    ///   space is unchanged then.
    public func restore(_ snapshot: Snapshot) throws(SnapshotError) {
        ensure(
            !isDeferringChanges && pending.isEmpty,
            "Space.restore(_:) must be called between steps, not inside a step, a query or a callback")
        requireUnthreaded("Space.restore(_:)")
        requireNotStopped("Space.restore(_:)")
        try snapshot.check(restoringInto: self)
        try restore(checked: snapshot.state)
    }

    /// The space's records as a snapshot holds them, not encoded.
    func capturedState() -> SnapshotState { SnapshotCapture(space: self).state }

    /// Restores `state`, which passed ``SnapshotCheck`` or is a capture of a space (``copy()``).
    func restore(checked state: SnapshotState) throws(SnapshotError) {
        var match = try SnapshotMatch(state, space: self)
        withEngineCollisionFunctions { match.apply() }
        SnapshotRestore(space: self, state: state).run()
        keepSleepingPairContacts()
        // SnapshotCheck bounds both, so stepping and adding cannot overflow them.
        stepsTaken = Int(state.stepsTaken)
        nextSerial = Int(state.space.nextSerial)
        bodiesToCheckForMass = bodies
        jointsMayBeUnsolvable = true
    }

    /// Runs `body` with no Swift collision handler installed in the engine.
    func withEngineCollisionFunctions(_ body: () -> Void) {
        var handlers = Array(collisionHandlers.values)
        func next() {
            guard let handler = handlers.popLast() else { return body() }
            handler.withEngineFunctions(next)
        }
        next()
    }
}

/// Pairs a space's objects with a snapshot's by serial, then makes the space hold exactly
/// the snapshot's objects, in its order.
private struct SnapshotMatch {
    let state: SnapshotState
    let space: Space
    private var bodies: [Body?] = []
    private var shapes: [Shape?] = []
    private var constraints: [Constraint?] = []

    /// Whether the space holds exactly the snapshot's objects, in its order: restoring into
    /// the space the snapshot came from, or one built by the same code. Then nothing is
    /// looked up by serial, and nothing is added, removed or reordered.
    private let holdsTheSnapshotsObjects: Bool

    init(_ state: SnapshotState, space: Space) throws(SnapshotError) {
        self.state = state
        self.space = space
        func fail(_ message: String) -> SnapshotError { .structureMismatch(message) }
        func inOrder<Object>(_ objects: [Object], _ serials: some Collection<UInt64>, _ serial: (Object) -> Int)
            -> [Object?]?
        {
            guard objects.count == serials.count, zip(objects, serials).allSatisfy({ UInt64(serial($0)) == $1 })
            else { return nil }
            return objects.map(Optional.some)  // `as [Object?]` casts each element at run time
        }
        func bySerial<Object>(_ objects: [Object], _ serials: some Sequence<UInt64>, _ serial: (Object) -> Int)
            -> [Object?]
        {
            let objectBySerial = Dictionary(uniqueKeysWithValues: objects.map { (UInt64(serial($0)), $0) })
            return serials.map { objectBySerial[$0] }
        }
        let bodySerials = state.bodies.dropFirst().lazy.map(\.serial)
        let shapeSerials = state.shapes.lazy.map(\.serial)
        let constraintSerials = state.constraints.lazy.map(\.serial)
        let bodiesInOrder = inOrder(space.bodies, bodySerials, \.serial)
        let shapesInOrder = inOrder(space.shapes, shapeSerials, \.serial)
        let constraintsInOrder = inOrder(space.constraints, constraintSerials, \.serial)
        holdsTheSnapshotsObjects = bodiesInOrder != nil && shapesInOrder != nil && constraintsInOrder != nil
        bodies = [space.staticBody] + (bodiesInOrder ?? bySerial(space.bodies, bodySerials, \.serial))
        shapes = shapesInOrder ?? bySerial(space.shapes, shapeSerials, \.serial)
        constraints = constraintsInOrder ?? bySerial(space.constraints, constraintSerials, \.serial)
        for (i, record) in state.bodies.enumerated() {
            if let body = bodies[i], UInt8(cpBodyGetType(body.handle).rawValue) != record.kind {
                throw fail("body \(i) (added as object \(record.serial)) is \(body.kind) here but not in the snapshot")
            }
        }
        for (shape, record) in zip(shapes, state.shapes) {
            guard let shape else { continue }
            guard shape.body === bodies[Int(record.body)],
                UInt8(shape.handle.pointee.klass.pointee.type.rawValue) == record.kind,
                ShapeGeometry.count(shape.handle) == record.geometry.count
            else { throw fail("the shape added as object \(record.serial) differs in kind, body or vertex count") }
        }
        for (constraint, record) in zip(constraints, state.constraints) {
            guard let constraint else { continue }
            guard ConstraintFields.kind(of: constraint.handle)?.rawValue == record.kind,
                constraint.bodyA === bodies[Int(record.bodyA)], constraint.bodyB === bodies[Int(record.bodyB)]
            else { throw fail("the constraint added as object \(record.serial) differs in kind or bodies") }
        }
    }

    /// Removes the space's objects the snapshot lacks, creates those it lacks, and puts
    /// the space's lists in the snapshot's order.
    mutating func apply() {
        guard !holdsTheSnapshotsObjects else { return }
        let keep = Set(
            (bodies.compactMap { $0 } as [AnyObject] + shapes.compactMap { $0 } + constraints.compactMap { $0 }).map(
                ObjectIdentifier.init))
        let extra: [any SpaceObject] = (space.constraints as [any SpaceObject] + space.shapes + space.bodies).filter {
            !keep.contains(ObjectIdentifier($0))
        }
        space.remove(contentsOf: extra)
        // New bodies where the snapshot has them, and new shapes with their geometry, before
        // each shape is added: the broad phase pairs a shape with every shape its box
        // overlaps as it is added, so skeletons all at the origin made every pair (15,000
        // separated circles took over 4 GB) and a tree whose insertions were quadratic.
        for (i, record) in state.bodies.enumerated() where bodies[i] == nil {
            let body = Body(kind: [Body.Kind.dynamic, .kinematic, .static][Int(record.kind)])
            body.handle.pointee.p = record.position.cp
            body.handle.pointee.a = record.angle
            body.handle.pointee.transform = record.engineTransform
            space.add(body)
            bodies[i] = body
        }
        for (i, record) in state.shapes.enumerated() where shapes[i] == nil {
            let shape = Shape.skeleton(of: record, body: bodies[Int(record.body)]!)
            ShapeGeometry.write(shape.handle, record.geometry)
            space.add(shape)
            shapes[i] = shape
        }
        for (i, record) in state.constraints.enumerated() where constraints[i] == nil {
            let constraint = Constraint.skeleton(
                of: record, a: bodies[Int(record.bodyA)]!, b: bodies[Int(record.bodyB)]!)
            space.add(constraint)
            constraints[i] = constraint
        }
        space.bodies = bodies.dropFirst().map { $0! }
        space.shapes = shapes.map { $0! }
        space.constraints = constraints.map { $0! }
        for (body, record) in zip(space.bodies, state.bodies.dropFirst()) { body.serial = Int(record.serial) }
        for (shape, record) in zip(space.shapes, state.shapes) { shape.serial = Int(record.serial) }
        for (constraint, record) in zip(space.constraints, state.constraints) { constraint.serial = Int(record.serial) }
    }
}

// MARK: Capture

private struct SnapshotCapture {
    var state = SnapshotState()
    private var bodyIndex = PointerIndex()
    private var shapeIndex = PointerIndex()
    private var constraintIndex = PointerIndex()
    private var arbiterIndex = PointerIndex()
    private var arbiters: [UnsafeMutablePointer<cpArbiter>] = []
    /// The arbiters the space's cache holds (only whether an arbiter is there is read).
    private var cached = PointerIndex()

    init(space: Space) {
        let h = space.handle
        state.engineVersion = Engine.version
        state.bindingVersion = Engine.bindingVersion
        state.architecture = Engine.architecture
        state.stepsTaken = UInt64(space.stepsTaken)
        state.space = SpaceRecord(
            iterations: h.pointee.iterations, gravity: .init(h.pointee.gravity), damping: h.pointee.damping,
            idleSpeedThreshold: h.pointee.idleSpeedThreshold, sleepTimeThreshold: h.pointee.sleepTimeThreshold,
            collisionSlop: h.pointee.collisionSlop, collisionBias: h.pointee.collisionBias,
            collisionPersistence: UInt64(h.pointee.collisionPersistence), stamp: UInt64(h.pointee.stamp),
            currentTimeStep: h.pointee.curr_dt, shapeIDCounter: UInt64(h.pointee.shapeIDCounter),
            usesWildcards: h.pointee.usesWildcards != 0, broadPhase: space.spatialHash == nil ? 0 : 1,
            hashCellSize: space.spatialHash?.cellSize ?? 0, hashCount: Int32(space.spatialHash?.count ?? 0),
            canonicalBroadPhase: false)
        state.handlers = space.collisionHandlers.keys
            .map { HandlerRecord(typeA: UInt64($0.pointee.typeA), typeB: UInt64($0.pointee.typeB)) }
            .sorted { ($0.typeA, $0.typeB) < ($1.typeA, $1.typeB) }

        let bodies = [space.staticBody] + space.bodies
        bodyIndex = PointerIndex(capacity: bodies.count)
        shapeIndex = PointerIndex(capacity: space.shapes.count)
        constraintIndex = PointerIndex(capacity: space.constraints.count)
        for (index, body) in bodies.enumerated() { bodyIndex.insert(body.handle, Int32(index)) }
        for (index, shape) in space.shapes.enumerated() { shapeIndex.insert(shape.handle, Int32(index)) }
        for (index, constraint) in space.constraints.enumerated() {
            constraintIndex.insert(constraint.handle, Int32(index))
        }
        collectArbiters(h, bodies: bodies)

        state.bodies = bodies.map { record(of: $0.handle) }
        state.shapes = space.shapes.map { record(of: $0.handle) }
        state.constraints = space.constraints.map { record(of: $0.handle) }
        for (index, body) in bodies.enumerated() { state.bodies[index].serial = UInt64(max(body.serial, 0)) }
        for (index, shape) in space.shapes.enumerated() { state.shapes[index].serial = UInt64(shape.serial) }
        for (index, constraint) in space.constraints.enumerated() {
            state.constraints[index].serial = UInt64(constraint.serial)
        }
        state.space.nextSerial = UInt64(space.nextSerial)
        state.arbiters = arbiters.map { record(of: $0) }
        state.dynamicBodies = indices(h.pointee.dynamicBodies, bodyIndex)
        state.staticBodies = indices(h.pointee.staticBodies, bodyIndex)
        state.sleepingComponents = indices(h.pointee.sleepingComponents, bodyIndex)
        state.activeConstraints = indices(h.pointee.constraints, constraintIndex)
        state.activeArbiters = indices(h.pointee.arbiters, arbiterIndex)
        state.engineBuild = Engine.buildID
        state.broadPhase = SnapshotBroadPhase.capture(space).map { [$0] } ?? []
        state.spatialHash = SnapshotSpatialHash.capture(space).map { [$0] } ?? []
    }

    /// Active arbiters in the engine's order; then the other cached ones; then those only
    /// sleeping bodies' lists hold; the last two sorted by their shapes' indices.
    private mutating func collectArbiters(_ h: UnsafeMutablePointer<cpSpace>, bodies: [Body]) {
        func add(_ group: [UnsafeMutablePointer<cpArbiter>], sorted: Bool) {
            // Only arbiters not met yet (a body list holds each of its arbiters, and two
            // bodies share one); their sort keys looked up once, not per comparison.
            var fresh = group.filter { arbiterIndex[$0] == nil }
            if sorted {
                let shapeIndex = self.shapeIndex
                fresh = fresh.map { arbiter in
                    let key = (
                        shapeIndex[arbiter.pointee.a!]!,
                        shapeIndex[arbiter.pointee.b!]!
                    )
                    return (key: key, arbiter: arbiter)
                }
                .sorted { $0.key < $1.key }
                .map(\.arbiter)
            }
            for arbiter in fresh where arbiterIndex.insert(arbiter, Int32(arbiters.count)) {
                arbiters.append(arbiter)
            }
        }
        let cachedArray = cpArrayNew(0)!
        cpHashSetEach(h.pointee.cachedArbiters, CChipmunkPushInto, cachedArray)
        let cachedArbiters: [UnsafeMutablePointer<cpArbiter>] = pointers(cachedArray)
        cpArrayFree(cachedArray)
        cached = PointerIndex(capacity: cachedArbiters.count)
        for (index, arbiter) in cachedArbiters.enumerated() { cached.insert(arbiter, Int32(index)) }
        arbiterIndex = PointerIndex(capacity: cachedArbiters.count)
        add(pointers(h.pointee.arbiters), sorted: false)
        add(cachedArbiters, sorted: true)
        var threaded: [UnsafeMutablePointer<cpArbiter>] = []
        for body in bodies.lazy.map(\.handle) {
            var arbiter = body.pointee.arbiterList
            while let current = arbiter {
                threaded.append(current)
                arbiter = current.pointee.body_a == body ? current.pointee.thread_a.next : current.pointee.thread_b.next
            }
        }
        add(threaded, sorted: true)
    }

    private func record(of b: UnsafeMutablePointer<cpBody>) -> BodyRecord {
        let body = b.pointee
        var record = BodyRecord()
        record.kind = UInt8(cpBodyGetType(b).rawValue)
        record.mass = body.m
        record.inverseMass = body.m_inv
        record.moment = body.i
        record.inverseMoment = body.i_inv
        record.centerOfGravity = .init(body.cog)
        record.position = .init(body.p)
        record.velocity = .init(body.v)
        record.force = .init(body.f)
        record.angle = body.a
        record.angularVelocity = body.w
        record.torque = body.t
        record.engineTransform = body.transform
        record.velocityBias = .init(body.v_bias)
        record.angularVelocityBias = body.w_bias
        record.idleTime = body.sleeping.idleTime
        record.sleepingRoot = body.sleeping.root.map { bodyIndex[$0]! } ?? -1
        record.sleepingNext = body.sleeping.next.map { bodyIndex[$0]! } ?? -1
        var shape = body.shapeList
        while let current = shape {
            record.shapeList.append(shapeIndex[current]!)
            shape = current.pointee.next
        }
        var arbiter = body.arbiterList
        while let current = arbiter {
            record.arbiterList.append(arbiterIndex[current]!)
            arbiter = current.pointee.body_a == b ? current.pointee.thread_a.next : current.pointee.thread_b.next
        }
        var constraint = body.constraintList
        while let current = constraint {
            record.constraintList.append(constraintIndex[current]!)
            constraint = current.pointee.a == b ? current.pointee.next_a : current.pointee.next_b
        }
        return record
    }

    private func record(of s: UnsafeMutablePointer<cpShape>) -> ShapeRecord {
        let shape = s.pointee
        var record = ShapeRecord()
        record.kind = UInt8(shape.klass.pointee.type.rawValue)
        record.body = bodyIndex[shape.body]!
        record.hashID = UInt64(shape.hashid)
        record.isSensor = shape.sensor != 0
        record.elasticity = shape.e
        record.friction = shape.u
        record.surfaceVelocity = .init(shape.surfaceV)
        record.collisionType = UInt64(shape.type)
        record.group = UInt64(shape.filter.group)
        record.categories = shape.filter.categories
        record.mask = shape.filter.mask
        record.mass = shape.massInfo.m
        record.moment = shape.massInfo.i
        record.massCenter = .init(shape.massInfo.cog)
        record.area = shape.massInfo.area
        record.bb = [shape.bb.l, shape.bb.b, shape.bb.r, shape.bb.t]
        record.geometry = ShapeGeometry.read(s)
        return record
    }

    private func record(of c: UnsafeMutablePointer<cpConstraint>) -> ConstraintRecord {
        let kind = ConstraintFields.kind(of: c)!
        var record = ConstraintRecord()
        record.kind = kind.rawValue
        record.bodyA = bodyIndex[c.pointee.a]!
        record.bodyB = bodyIndex[c.pointee.b]!
        record.maxForce = c.pointee.maxForce
        record.errorBias = c.pointee.errorBias
        record.maxBias = c.pointee.maxBias
        record.collideBodies = c.pointee.collideBodies != 0
        record.values = ConstraintFields.read(c, kind)
        return record
    }

    private func record(of a: UnsafeMutablePointer<cpArbiter>) -> ArbiterRecord {
        let arbiter = a.pointee
        var record = ArbiterRecord()
        record.shapeA = shapeIndex[UnsafeMutablePointer(mutating: arbiter.a)]!
        record.shapeB = shapeIndex[UnsafeMutablePointer(mutating: arbiter.b)]!
        record.elasticity = arbiter.e
        record.friction = arbiter.u
        record.surfaceVelocity = .init(arbiter.surface_vr)
        record.normal = .init(arbiter.n)
        record.stamp = UInt64(arbiter.stamp)
        record.state = UInt8(arbiter.state.rawValue)
        record.isCached = cached[a] != nil
        for index in 0..<Int(arbiter.count) {
            let contact = arbiter.contacts[index]
            record.contacts.append(
                ContactRecord(
                    r1: .init(contact.r1), r2: .init(contact.r2), normalMass: contact.nMass, tangentMass: contact.tMass,
                    bounce: contact.bounce, normalImpulse: contact.jnAcc, tangentImpulse: contact.jtAcc,
                    biasImpulse: contact.jBias, bias: contact.bias, hash: UInt64(contact.hash)))
        }
        return record
    }

    private func pointers<T>(_ array: UnsafeMutablePointer<cpArray>?) -> [UnsafeMutablePointer<T>] {
        guard let array, array.pointee.num > 0 else { return [] }
        return (0..<Int(array.pointee.num)).map { array.pointee.arr[$0]!.assumingMemoryBound(to: T.self) }
    }

    private func indices(_ array: UnsafeMutablePointer<cpArray>?, _ index: PointerIndex) -> [Int32] {
        guard let array, array.pointee.num > 0 else { return [] }
        return (0..<Int(array.pointee.num)).map { index[array.pointee.arr[$0]!]! }
    }
}

extension Space {
    /// Stops unless the space was made with ``init()``: a threaded space is not saved or
    /// restored into, even with 1 thread (which gives the plain solver's bits), since its
    /// solver with 2 threads does not give the same bits run after run.
    func requireUnthreaded(_ call: String) {
        ensure(
            !cSpace.isHasty,
            "\(call) needs a space made with Space(); a threaded space (Space(threads:)) is not saved or restored, "
                + "as its solver with more than one thread does not give the same bits run after run "
                + "(Space.copy() of one is a space made with Space())")
    }
}

extension SnapshotVector {
    init(_ vector: cpVect) { self.init(x: vector.x, y: vector.y) }
    var cp: cpVect { cpVect(x: x, y: y) }
}

extension BodyRecord {
    /// The saved transform as the engine's `cpTransform`: the six doubles, a, b, c, d, tx,
    /// ty, in that order, with their bits unchanged either way.
    var engineTransform: cpTransform {
        get {
            cpTransform(
                a: transform[0], b: transform[1], c: transform[2], d: transform[3], tx: transform[4], ty: transform[5])
        }
        set { transform = [newValue.a, newValue.b, newValue.c, newValue.d, newValue.tx, newValue.ty] }
    }
}
