internal import CChipmunk
internal import CChipmunkRuntime

/// A space's state, saved for a fast restore into the same space: what rollback, search
/// and scrubbing keep for every frame.
///
/// ```swift
/// var ring = Array(repeating: SpaceState(), count: 9)
/// for frame in 0..<frames {
///     space.save(into: &ring[frame % ring.count])   // no allocation once warm
///     try space.step(1.0 / 60)
/// }
/// try space.restore(ring[(frames - 8) % ring.count])  // 8 frames back; step on from there
/// ```
///
/// Saving copies what changes as the world steps (bodies' motion and sleeping, the
/// constraints, every cached contact with its impulses, the engine's arrays and the broad
/// phase's trees), by the address it lives at, into buffers the state keeps: a state
/// saved into again reuses them, and once they are large enough neither saving nor
/// restoring allocates. Restoring writes it back, and the space continues with the bits of
/// the run that was saved. A shape's material, filter, mass or geometry changed since the
/// save comes back as it was.
///
/// A state belongs to the space it was saved from, and keeps the objects the space held:
/// objects added since are taken out again, and objects removed since come back.
/// ``Space/restore(_:)-(SpaceState)`` throws for another space, or when the space rebuilt
/// its broad phase since (by restoring a ``Snapshot``). To move a state to a file, another
/// space or another process, use a ``Snapshot``; to branch a world, ``Space/copy()``.
///
/// A space on the spatial hash keeps a ``Snapshot`` in the state instead: correct, and as
/// slow as one.
///
/// `SpaceState` is a value: a copy shares its buffers until either is saved into again.
public struct SpaceState {
    final class Storage {
        let state: OpaquePointer
        weak var space: Space?
        /// The space's objects when saved, with their engine pointers and serials.
        var membership: MembershipRecord?
        var stepsTaken = 0
        var nextSerial = 0
        var shapeSettings: ShapeSettingsRecord?
        var snapshot: Snapshot?
        /// The space's ``Space/broadPhaseGeneration`` when saved: a rebuilt broad phase is
        /// another.
        var broadPhaseGeneration = 0

        init() {
            guard let state = CChipmunkSpaceStateCreate() else { stop("SpaceState: out of memory") }
            self.state = state
        }

        deinit { CChipmunkSpaceStateDestroy(state) }
    }

    var storage: Storage

    /// An empty state, to save into.
    public init() { storage = Storage() }

    /// Whether nothing was saved into it yet.
    public var isEmpty: Bool { storage.snapshot == nil && CChipmunkSpaceStateIsSaved(storage.state) == 0 }

    /// The steps the space had taken when the state was saved.
    public var stepsTaken: Int { storage.stepsTaken }

    /// Whether the save copied the dynamic tree's buffers whole (a large or full tree),
    /// rather than node by node and pair by pair.
    var savedTreeWhole: Bool { CChipmunkSpaceStateSavedTreeWhole(storage.state) != 0 }

    /// The bytes the state holds for its save (its buffers may be larger).
    public var byteCount: Int {
        storage.snapshot?.bytes.count ?? Int(CChipmunkSpaceStateByteCount(storage.state))
    }

    /// The memory the state takes: its buffers as allocated, which grow by doubling and
    /// are kept for the next save (up to about twice ``byteCount``).
    package var heapBytes: Int {
        storage.snapshot?.bytes.capacity ?? Int(CChipmunkSpaceStateHeapBytes(storage.state))
    }
}

/// The objects a space holds, as of one save: its arrays (kept, so that an add or a remove,
/// which copies them, shows as a different buffer), their serials (an object taken out and
/// put back gets a new one, and a new array with it), and their engine pointers for the
/// save (the static body's, the bodies', the shapes', then the constraints'). Shared by
/// every state saved while the space holds the same arrays: a save then copies none of it.
final class MembershipRecord {
    let bodies: [Body]
    let shapes: [Shape]
    let constraints: [Constraint]
    let serials: [Int]
    let pointers: [UnsafeMutableRawPointer?]

    init(_ space: Space) {
        bodies = space.bodies
        shapes = space.shapes
        constraints = space.constraints
        serials = bodies.map(\.serial) + shapes.map(\.serial) + constraints.map(\.serial)
        pointers = Self.enginePointers(of: space)
    }

    /// A space's engine pointers, in the order the C side takes them: its static body's,
    /// its bodies', its shapes', then its constraints'.
    static func enginePointers(of space: Space) -> [UnsafeMutableRawPointer?] {
        [UnsafeMutableRawPointer(space.staticBody.handle)] + space.bodies.map { UnsafeMutableRawPointer($0.handle) }
            + space.shapes.map { UnsafeMutableRawPointer($0.handle) }
            + space.constraints.map { UnsafeMutableRawPointer($0.handle) }
    }

    /// Whether `space` holds these arrays now.
    func isCurrent(for space: Space) -> Bool {
        same(bodies, space.bodies) && same(shapes, space.shapes) && same(constraints, space.constraints)
    }

    /// Whether two arrays are one buffer.
    private func same<T>(_ a: [T], _ b: [T]) -> Bool {
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in x.count == y.count && (x.count == 0 || x.baseAddress == y.baseAddress) }
        }
    }
}

/// The settings (material, filter, sensor flag, collision type, mass and geometry) of the
/// shapes of one ``MembershipRecord``, as of one ``Space/shapeSettingsVersion``: shared by
/// every state saved while the space holds those objects and the version holds.
final class ShapeSettingsRecord {
    struct Settings {
        var elasticity: Double
        var friction: Double
        var surfaceVelocity: cpVect
        var collisionType: cpCollisionType
        var filter: cpShapeFilter
        var sensor: cpBool
        var massInfo: cpShapeMassInfo
        var geometry: [Double]
    }

    let version: UInt64
    /// The objects whose shapes the settings are of.
    let membership: MembershipRecord
    let settings: [Settings]

    init(_ membership: MembershipRecord, version: UInt64) {
        self.version = version
        self.membership = membership
        settings = membership.shapes.map { shape in
            let s = shape.handle.pointee
            return Settings(
                elasticity: s.e, friction: s.u, surfaceVelocity: s.surfaceV, collisionType: s.type, filter: s.filter,
                sensor: s.sensor, massInfo: s.massInfo, geometry: ShapeGeometry.read(shape.handle))
        }
    }

    /// Whether it holds the settings of `membership`'s shapes as of `version`.
    func isCurrent(for membership: MembershipRecord, version: UInt64) -> Bool {
        self.membership === membership && self.version == version
    }

    /// Writes the settings back into their shapes.
    func apply() {
        for (shape, s) in zip(membership.shapes, settings) {
            let h = shape.handle
            h.pointee.e = s.elasticity
            h.pointee.u = s.friction
            h.pointee.surfaceV = s.surfaceVelocity
            h.pointee.type = s.collisionType
            h.pointee.filter = s.filter
            h.pointee.sensor = s.sensor
            h.pointee.massInfo = s.massInfo
            ShapeGeometry.write(h, s.geometry)
        }
    }
}

extension Space {
    /// The buffers of nodes and pairs the dynamic tree has allocated (-1 on the spatial
    /// hash): they are never freed, so a restore that left some out of the pools would show
    /// as this growing.
    var dynamicTreeBufferCount: Int { Int(CChipmunkTreeBufferCount(handle.pointee.dynamicShapes)) }

    /// Saves the space's state into `state`, reusing its buffers (see ``SpaceState``).
    ///
    /// Call it between steps, or from a post-step callback: inside a step, a query or a
    /// collision callback is a programming error. So is a space made with
    /// ``init(threads:)``, even with 1 thread: its solver with 2 threads does not give the
    /// same bits run after run, so a restore could not continue as the run did (``copy()``
    /// makes a space with ``init()`` from one).
    public func save(into state: inout SpaceState) {
        ensure(
            !isDeferringChanges && pending.isEmpty,
            "Space.save(into:) must be called between steps, not inside a step, a query or a callback")
        requireUnthreaded("Space.save(into:)")
        requireNoBodyLeaving("Space.save(into:)")
        requireNotStopped("Space.save(into:)")
        if !isKnownUniquelyReferenced(&state.storage) { state.storage = SpaceState.Storage() }
        let storage = state.storage
        storage.space = self
        storage.broadPhaseGeneration = broadPhaseGeneration
        storage.stepsTaken = stepsTaken
        storage.nextSerial = nextSerial
        if membershipRecord?.isCurrent(for: self) != true { membershipRecord = MembershipRecord(self) }
        let membership = membershipRecord!
        storage.membership = membership
        // Kept for the same shapes at the same version: an add or a remove changes no setting
        // but the list (a record reused across one paired the settings with other shapes).
        if shapeSettings?.isCurrent(for: membership, version: shapeSettingsVersion) != true {
            shapeSettings = ShapeSettingsRecord(membership, version: shapeSettingsVersion)
        }
        storage.shapeSettings = shapeSettings
        storage.snapshot = nil
        let bodyCount = membership.bodies.count + 1
        let shapeCount = membership.shapes.count
        let saved = membership.pointers.withUnsafeBufferPointer { p in
            CChipmunkSpaceStateSave(
                storage.state, UnsafeMutableRawPointer(handle), p.baseAddress, Int32(bodyCount),
                p.baseAddress! + bodyCount, Int32(shapeCount), p.baseAddress! + bodyCount + shapeCount,
                Int32(membership.constraints.count))
        }
        // The spatial hash, or a broad phase this build cannot read: a snapshot instead.
        if saved == 0 { storage.snapshot = snapshot() }
    }

    /// Sets the space to a state saved from it by ``save(into:)``; it continues as the run
    /// that was saved did, with its bits.
    ///
    /// Objects added since the save are taken out, and those removed since are put back
    /// (the state keeps them), with no collision handler run.
    ///
    /// - Throws: ``SnapshotError/stateMismatch(_:)`` when the state is empty, was saved
    ///   from another space, one of its objects is in another space now, or the space has
    ///   rebuilt its broad phase since (restored a ``Snapshot``, or switched to the spatial
    ///   hash); the space is unchanged then.
    public func restore(_ state: SpaceState) throws(SnapshotError) {
        ensure(
            !isDeferringChanges && pending.isEmpty,
            "Space.restore(_:) must be called between steps, not inside a step, a query or a callback")
        requireNoBodyLeaving("Space.restore(_:)")
        requireNotStopped("Space.restore(_:)")
        let storage = state.storage
        guard !state.isEmpty else { throw .stateMismatch("the state is empty: nothing was saved into it") }
        guard storage.space === self else {
            throw .stateMismatch(
                "the state was saved from another space: a SpaceState restores into its own space; "
                    + "use a Snapshot or Space.copy() to move a world")
        }
        if let snapshot = storage.snapshot { return try restore(snapshot, keeping: storage.membership) }
        guard broadPhaseGeneration == storage.broadPhaseGeneration else {
            throw .stateMismatch(
                "the space's broad phase was rebuilt since the state was saved (a Snapshot was restored into it, "
                    + "or it switched to the spatial hash): save a new state")
        }
        guard let membership = storage.membership else { stop("SpaceState: a saved state without its objects") }
        // Objects put back may have changed out of the space, where no change is noted.
        let adopted = !membership.isCurrent(for: self)
        if adopted { try adoptMembership(of: membership) }
        if let settings = storage.shapeSettings, adopted || settings.version != shapeSettingsVersion {
            settings.apply()
        }
        let restored = CChipmunkSpaceStateRestore(storage.state, UnsafeMutableRawPointer(handle))
        ensure(restored != 0, "Space.restore(_:): the engine's state did not take a state saved from this space")
        keepSleepingPairContacts()
        if let settings = storage.shapeSettings {
            shapeSettingsVersion = settings.version
            shapeSettings = settings
        }
        stepsTaken = storage.stepsTaken
        nextSerial = storage.nextSerial
        jointsMayBeUnsolvable = true
    }

    /// Restores a state that keeps a snapshot (a space on the spatial hash) as the fast path
    /// restores one: the objects the state holds put back (not new ones made from the
    /// snapshot's records, which a snapshot's restore makes for objects it lacks), and bodies'
    /// kinds changed since set back (which a snapshot's restore refuses), then the records.
    private func restore(_ snapshot: Snapshot, keeping membership: MembershipRecord?) throws(SnapshotError) {
        requireUnthreaded("Space.restore(_:)")
        try snapshot.check(restoringInto: self)
        if let membership, !membership.isCurrent(for: self) {
            try adoptMembership(of: membership, placedAs: snapshot.state.bodies)
        }
        // Those that become dynamic first: a body made non-dynamic while its partner in a
        // constraint still is would join two non-dynamic bodies (the saved state had neither).
        let kinds = zip(bodies, snapshot.state.bodies.dropFirst()).map { body, record in
            (body, [Body.Kind.dynamic, .kinematic, .static][Int(record.kind)])
        }
        for (body, kind) in kinds where kind == .dynamic && body.kind != kind { body.kind = kind }
        for (body, kind) in kinds where kind != .dynamic && body.kind != kind { body.kind = kind }
        try restore(checked: snapshot.state)
    }

    /// Makes the space hold exactly the objects it held when `storage` was saved: those
    /// added since go, those removed since come back (through the engine, with no collision
    /// handler run: the restore that follows sets every contact), with their serials.
    ///
    /// The restore that follows also sets each body's kind and place as saved, so a
    /// constraint comes back whatever its bodies' kinds are now (a body turned kinematic
    /// after its joint was removed stopped the restore in `Space.add`: a helper's attack).
    /// On the spatial hash, the bodies that come back are put where `records` (a snapshot's,
    /// the static body's first) has them, so that their shapes are hashed there, not where
    /// they were moved out of the space. First each shape that comes back is checked there
    /// against the hash as it is now (resized since): one that does not fit is refused
    /// before anything changes, so those bodies stay where they were.
    private func adoptMembership(of storage: MembershipRecord, placedAs records: [BodyRecord]? = nil)
        throws(SnapshotError)
    {
        let kept: [any SpaceObject] = storage.bodies as [any SpaceObject] + storage.shapes + storage.constraints
        for object in kept where object.space !== self && object.space != nil {
            throw .stateMismatch(
                "a \(object.spaceObjectKind) the state holds has since been added to another space; "
                    + "remove it there first, or restore a Snapshot")
        }
        if let cellSize = spatialHash?.cellSize {
            var placements: [(body: Body, record: BodyRecord)] = []
            if let records, records.count == storage.bodies.count + 1 {
                placements = zip(storage.bodies, records.dropFirst()).filter { $0.0.space == nil }.map { ($0, $1) }
            }
            let placed = Dictionary(uniqueKeysWithValues: placements.map { (ObjectIdentifier($0.body), $0.record) })
            for shape in storage.shapes where shape.space == nil {
                // Where the shape will be: the box the engine will give it at its body's
                // saved place, read without moving the body or recaching the shape.
                let cells =
                    if let record = placed[ObjectIdentifier(shape.body)] {
                        Self.hashCells(
                            of: Self.insertionBox(of: shape, transform: record.transform),
                            onStaticBody: shape.body.kind == .static, cellSize: cellSize)
                    } else {
                        Self.hashCells(of: shape, cellSize: cellSize)
                    }
                if cells > Double(Self.maxSpatialHashCells) {
                    throw .stateMismatch(
                        "a shape the state holds, removed since, would cover \(cells) cells of the spatial hash as it is "
                            + "now (cell size \(cellSize)), more than \(Self.maxSpatialHashCells): use the cell size it "
                            + "was saved with, or save a new state")
                }
            }
            for (body, record) in placements {
                let h = body.handle
                h.pointee.p = record.position.cp
                h.pointee.a = record.angle
                h.pointee.transform = record.engineTransform
            }
        }
        let keep = Set(kept.map { ObjectIdentifier($0) })
        let extra: [any SpaceObject] = (constraints as [any SpaceObject] + shapes + bodies).filter {
            !keep.contains(ObjectIdentifier($0))
        }
        withEngineCollisionFunctions {
            remove(contentsOf: extra)
            let present = Set((bodies as [AnyObject] + shapes + constraints).map(ObjectIdentifier.init))
            let missing: [any SpaceObject] = kept.filter { !present.contains(ObjectIdentifier($0)) }
            add(contentsOf: missing, adopting: true)
        }
        requireNoBodyLeaving("Space.restore(_:)")
        requireNotStopped("Space.restore(_:)")
        bodies = storage.bodies
        shapes = storage.shapes
        constraints = storage.constraints
        var serials = storage.serials.makeIterator()
        for body in bodies { body.serial = serials.next()! }
        for shape in shapes { shape.serial = serials.next()! }
        for constraint in constraints { constraint.serial = serials.next()! }
        bodiesToCheckForMass = bodies
        membershipRecord = storage
    }
}

extension Space {
    /// The box the engine gives `shape` when its body has `transform` (a, b, c, d, tx, ty),
    /// computed from the shape's own geometry: neither the shape nor its body changes.
    fileprivate static func insertionBox(of shape: Shape, transform: [Double]) -> cpBB {
        let box = SnapshotCheck.insertionBox(
            kind: UInt8(shape.handle.pointee.klass.pointee.type.rawValue), geometry: ShapeGeometry.read(shape.handle),
            transform: transform)
        return cpBB(l: box.0, b: box.1, r: box.2, t: box.3)
    }
}
