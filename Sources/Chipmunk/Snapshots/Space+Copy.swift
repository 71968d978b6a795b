internal import CChipmunk
internal import CChipmunkRuntime

extension Space {
    /// An independent space in the same state, with new bodies, shapes and constraints in
    /// the same order (``bodies``, ``shapes``, ``constraints``): stepped alike, the two
    /// continue with the same bits.
    ///
    /// A copy keeps data, not code: collision types that had handlers get handlers without
    /// closures, and custom integrators, constraint callbacks and user data are not copied
    /// (set them again on the copy, as after ``init(restoring:)``). The order in which
    /// `separate` handlers of contacts that expire together run may differ from the
    /// original's. ``maxContactPairs`` and ``guardedCollisions`` are copied; a copy of a
    /// space on the threaded solver (``init(threads:)``) is a space made with ``init()``.
    ///
    /// The copy is made struct by struct in the engine, each pointer moved to its
    /// counterpart, the broad phase's trees included (a space on the spatial hash is copied
    /// through its snapshot's records instead).
    public func copy() -> Space {
        ensure(
            !isDeferringChanges && pending.isEmpty,
            "Space.copy() must be called between steps, not inside a step, a query or a callback")
        requireNoBodyLeaving("Space.copy()")
        requireNotStopped("Space.copy()")
        let copy = Space()
        // The space's own settings that are not the engine's.
        copy.maxContactPairs = maxContactPairs
        copy.guardedCollisions = guardedCollisions
        if spatialHash == nil && CChipmunkSpaceCanClone(handle) != 0 {
            copy.clone(self)
        } else {
            do {
                // The space's own records, never encoded: nothing to check that the space did not.
                try copy.restore(checked: capturedState())
            } catch {
                stop("Space.copy(): the space's own state did not restore: \(error)")
            }
        }
        return copy
    }

    /// Makes this new, empty space a clone of `original` (see `SpaceClone.c`): its objects
    /// counterparts of the original's, made here and never added through the engine, whose
    /// state the clone then copies whole.
    private func clone(_ original: Space) {
        for cHandler in original.collisionHandlers.keys {
            ensureCollisionHandler(cHandler.pointee.typeA, cHandler.pointee.typeB)
        }
        bodies = original.bodies.map { body in
            let copy = Body(blankForCopy: ())
            copy.serial = body.serial
            return copy
        }
        var counterparts = Counterparts(original, self)
        shapes = original.shapes.map { shape in
            let copy = Shape.blank(like: shape, body: counterparts.of(shape.body))
            copy.serial = shape.serial
            return copy
        }
        constraints = original.constraints.map { constraint in
            guard let kind = ConstraintFields.kind(of: constraint.handle) else {
                stop("Space.copy(): a constraint of a kind the binding does not know")
            }
            let copy = Constraint.skeleton(
                kind: kind, a: counterparts.of(constraint.bodyA), b: counterparts.of(constraint.bodyB))
            copy.serial = constraint.serial
            return copy
        }
        let from = MembershipRecord.enginePointers(of: original)
        let to = MembershipRecord.enginePointers(of: self)
        let bodyCount = bodies.count + 1
        let shapeCount = shapes.count
        let cloned = from.withUnsafeBufferPointer { f in
            to.withUnsafeBufferPointer { t in
                CChipmunkSpaceClone(
                    UnsafeMutableRawPointer(original.handle), UnsafeMutableRawPointer(handle), cSpace.keptContacts,
                    f.baseAddress!,
                    t.baseAddress!, Int32(bodyCount), f.baseAddress! + bodyCount, t.baseAddress! + bodyCount,
                    Int32(shapeCount), f.baseAddress! + bodyCount + shapeCount, t.baseAddress! + bodyCount + shapeCount,
                    Int32(constraints.count))
            }
        }
        ensure(
            cloned != 0,
            "Space.copy(): the engine's state could not be cloned (out of memory, or a pointer with no counterpart)")
        keepSleepingPairContacts()
        // The objects are in this space now, in Swift as in the engine.
        staticBody.attachmentCount = original.staticBody.attachmentCount
        for (copy, body) in zip(bodies, original.bodies) {
            copy.space = self
            copy.cSpace = cSpace
            copy.attachmentCount = body.attachmentCount
        }
        for shape in shapes {
            shape.space = self
            shape.cSpace = cSpace
        }
        for constraint in constraints {
            constraint.space = self
            constraint.cSpace = cSpace
        }
        stepsTaken = original.stepsTaken
        nextSerial = original.nextSerial
        bodiesToCheckForMass = bodies
        jointsMayBeUnsolvable = true
    }
}

/// The copy's counterpart of each of the original's bodies. Shapes and constraints mostly
/// come in their bodies' order (a body is added with its shapes), so the body next to the
/// last one found is tried first, and a dictionary is built only when that fails.
private struct Counterparts {
    private let original: Space
    private let copy: Space
    private var cursor = 0
    private var index: [ObjectIdentifier: Int]?

    init(_ original: Space, _ copy: Space) {
        self.original = original
        self.copy = copy
    }

    mutating func of(_ body: Body) -> Body {
        if body === original.staticBody { return copy.staticBody }
        let bodies = original.bodies
        for i in cursor..<min(cursor + 2, bodies.count) where bodies[i] === body {
            cursor = i
            return copy.bodies[i]
        }
        if index == nil {
            index = Dictionary(uniqueKeysWithValues: bodies.enumerated().map { (ObjectIdentifier($1), $0) })
        }
        guard let i = index![ObjectIdentifier(body)] else {
            stop("Space.copy(): a shape's or constraint's body is not in the space")
        }
        cursor = i
        return copy.bodies[i]
    }
}
