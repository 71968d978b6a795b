internal import CChipmunk
internal import CChipmunkRuntime

extension Space {
    /// Adds bodies, shapes and constraints, in any mix: `space.add(body, shape)`.
    ///
    /// Bodies are added first, then shapes, then constraints, each in the order given, so
    /// a shape and its body can come in one call. While changes are deferred (see the type's
    /// documentation) the engine sees them when the operation ends.
    ///
    /// Breaking a rule is a programming error that stops the program with a message: an
    /// object may be added once, to one space; a space's static body is never added; a
    /// shape's body, and both bodies of a constraint, must be in this space (or be its
    /// ``staticBody``); a constraint needs at least one dynamic body.
    ///
    /// The corresponding C functions are `cpSpaceAddBody`, `cpSpaceAddShape` and `cpSpaceAddConstraint`.
    public func add(_ objects: any SpaceObject...) {
        add(contentsOf: objects)
    }

    /// Adds every object in `objects`, any sequence of them, as `add(_:)`
    /// does: `space.add(body.shapes + [body])`.
    public func add(_ objects: some Sequence<any SpaceObject>) {
        add(contentsOf: objects)
    }

    /// Adds every object in `objects`, any sequence of them, as `add(_:)`
    /// does: `space.add(contentsOf: body.shapes + [body])`.
    public func add(contentsOf objects: some Sequence<any SpaceObject>) {
        add(contentsOf: objects, adopting: false)
    }

    /// Adds as `add(contentsOf:)` does; `adopting`, for a restore that sets every body's
    /// kind as saved right after, takes a constraint whatever its bodies' kinds are now.
    func add(contentsOf objects: some Sequence<any SpaceObject>, adopting: Bool) {
        let objects = Array(objects)
        for object in objects { Self.requireKnownKind(object) }
        for case let body as Body in objects { add(body: body) }
        for case let shape as Shape in objects { add(shape: shape) }
        for case let constraint as Constraint in objects { add(constraint: constraint, adopting: adopting) }
    }

    /// Removes bodies, shapes and constraints, in any mix: `space.remove(body, shape)`.
    ///
    /// Constraints are removed first, then shapes, then bodies, so a body and its shapes can
    /// go in one call. They can also go in separate calls, in any order, as in pymunk: a body
    /// removed while some of its shapes or constraints stay leaves ``bodies`` at once and
    /// the engine with the last of them; stepping or snapshotting before they have all
    /// gone is a programming error that names them. Removing what is not in the space, or
    /// the space's static body, is a programming error too. Removing a shape ends its
    /// contacts, so `separate` handlers run.
    ///
    /// The corresponding C functions are `cpSpaceRemoveBody`, `cpSpaceRemoveShape` and `cpSpaceRemoveConstraint`.
    public func remove(_ objects: any SpaceObject...) {
        remove(contentsOf: objects)
    }

    /// Removes every object in `objects`, any sequence of them, as
    /// `remove(_:)` does: `space.remove(body.attachments + [body])`.
    public func remove(_ objects: some Sequence<any SpaceObject>) {
        remove(contentsOf: objects)
    }

    /// Removes every object in `objects`, any sequence of them, as
    /// `remove(_:)` does: `space.remove(contentsOf: body.attachments + [body])`.
    public func remove(contentsOf objects: some Sequence<any SpaceObject>) {
        let objects = Array(objects)
        for object in objects { Self.requireKnownKind(object) }
        for case let constraint as Constraint in objects { remove(constraint: constraint) }
        for case let shape as Shape in objects { remove(shape: shape) }
        for case let body as Body in objects { remove(body: body) }
        applyPendingChangesIfIdle()
    }

    /// Whether the object is in this space (the static body counts).
    ///
    /// The corresponding C functions are `cpSpaceContainsBody`, `cpSpaceContainsShape` and `cpSpaceContainsConstraint`.
    public func contains(_ object: any SpaceObject) -> Bool { object.space === self }

    /// Whether adds and removes are deferred right now (see the type's documentation): a
    /// step, a query or a callback is running.
    package var isDeferringChanges: Bool { callbacks.depth > 0 || isLocked }

    private static func requireKnownKind(_ object: any SpaceObject) {
        ensure(
            object is Body || object is Shape || object is Constraint,
            "Space.add/remove take a Body, a Shape or a Constraint (got \(type(of: object)))")
    }

    private func requireNew(_ object: any SpaceObject, _ kind: String) {
        if let other = object.space {
            stop(
                other === self
                    ? "Space.add: this \(kind) is already in this space; add it once"
                    : "Space.add: this \(kind) is in another space; remove it there first")
        }
    }

    /// An object removed from another space during that space's step or callback stays in
    /// the engine's copy of that space until the step ends; the engine aborts if it is added
    /// elsewhere before then ("You have already added this body to another space").
    private func requireReleased(_ holder: OwnedCSpace?, _ kind: String) {
        ensure(
            holder == nil || holder === cSpace,
            "Space.add: this \(kind) is still leaving another space (it was removed during that space's step or "
                + "callback, and leaves when it ends); add it here from that space's post-step callback")
    }

    private func add(body: Body) {
        ensure(
            !body.isSpaceStaticBody, "Space.add: a space's static body is part of its space; it is never added")
        if let index = leavingBodies.firstIndex(where: { $0 === body }) {
            // Removed, its shapes still here, and back before it left the engine.
            leavingBodies.remove(at: index)
            body.space = self
            bodies.append(body)
            return
        }
        requireNew(body, "body")
        // Removed from another space, but with shapes or constraints of it left there: it
        // stays in that space's engine until they go (no step or callback is involved).
        if let holder = body.cSpace, holder !== cSpace, body.attachmentCount > 0 {
            stop(
                "Space.add: this body was removed from another space while \(body.attachmentCount) of its shapes and "
                    + "constraints stayed there, so it has not left that space yet; remove them there too (and add "
                    + "them here with the body)")
        }
        requireReleased(body.cSpace, "body")
        body.space = self
        body.serial = takeSerial()
        bodies.append(body)
        massMayHaveChanged(for: body)
        if isDeferringChanges { pending.append(.addBody(body)) } else { attach(body) }
    }

    private func add(shape: Shape) {
        requireNew(shape, "shape")
        requireReleased(shape.cSpace, "shape")
        ensure(
            shape.body.space === self,
            "Space.add: a shape's body must be in the space (or be its staticBody) before the shape")
        if shape.mass > 0 { shape.requireSaneMass(shape.mass, "mass") }
        if let cellSize = spatialHash?.cellSize { requireSpatialHashFit(of: shape, cellSize: cellSize, "Space.add") }
        shape.space = self
        shape.serial = takeSerial()
        shapes.append(shape)
        shape.body.attachmentCount += 1
        if shape.mass > 0 { massMayHaveChanged(for: shape.body) }
        if isDeferringChanges { pending.append(.addShape(shape)) } else { attach(shape) }
    }

    private func add(constraint: Constraint, adopting: Bool) {
        requireNew(constraint, "constraint")
        requireReleased(constraint.cSpace, "constraint")
        ensure(
            constraint.bodyA.space === self && constraint.bodyB.space === self,
            "Space.add: both bodies of a constraint must be in the space (or be its staticBody) before it")
        ensure(
            adopting || constraint.bodyA.kind == .dynamic || constraint.bodyB.kind == .dynamic,
            "Space.add: a constraint needs at least one dynamic body; "
                + "the engine cannot solve one between two static or kinematic bodies"
        )
        constraint.space = self
        constraint.serial = takeSerial()
        constraints.append(constraint)
        jointsMayBeUnsolvable = true
        constraint.bodyA.attachmentCount += 1
        constraint.bodyB.attachmentCount += 1
        if isDeferringChanges { pending.append(.addConstraint(constraint)) } else { attach(constraint) }
    }

    /// The next object serial (see `Body.serial`).
    private func takeSerial() -> Int {
        defer { nextSerial += 1 }
        return nextSerial
    }

    private func remove(body: Body) {
        ensure(
            !body.isSpaceStaticBody, "Space.remove: a space's static body is part of its space; it is never removed")
        guard body.space === self, let index = bodies.firstIndex(where: { $0 === body }) else {
            stop("Space.remove: this body is not in this space")
        }
        body.space = nil
        bodies.remove(at: index)
        if body.attachmentCount > 0 {
            leavingBodies.append(body)  // leaves the engine with the last of its shapes and constraints
        } else {
            if isDeferringChanges { pending.append(.removeBody(body)) } else { detach(body) }
        }
    }

    /// A leaving body whose last shape or constraint has just gone leaves the engine too.
    private func finishLeaving(_ body: Body) {
        guard body.attachmentCount == 0, !leavingBodies.isEmpty,
            let index = leavingBodies.firstIndex(where: { $0 === body })
        else { return }
        leavingBodies.remove(at: index)
        if isDeferringChanges { pending.append(.removeBody(body)) } else { detach(body) }
    }

    /// Stepping and snapshots need every removed body's shapes and constraints gone too.
    func requireNoBodyLeaving(_ operation: String) {
        guard let body = leavingBodies.first else { return }
        // The body is out of the space, so its own `shapes` and `constraints` are empty:
        // count what of it the space still holds.
        let shapeCount = shapes.count { $0.body === body }
        let constraintCount = constraints.count { $0.bodyA === body || $0.bodyB === body }
        stop(
            "\(operation): a body was removed (at \(body.position)) while \(counted(shapeCount, "shape")) and "
                + "\(counted(constraintCount, "constraint")) of it stayed in the space; remove them with it "
                + "(space.remove(body.attachments + [body])), or add the body back")
    }

    private func remove(shape: Shape) {
        guard shape.space === self, let index = shapes.firstIndex(where: { $0 === shape }) else {
            stop("Space.remove: this shape is not in this space")
        }
        shape.space = nil
        shapes.remove(at: index)
        shape.body.attachmentCount -= 1
        if shape.mass > 0 { massMayHaveChanged(for: shape.body) }
        if isDeferringChanges { pending.append(.removeShape(shape)) } else { detach(shape) }
        finishLeaving(shape.body)
    }

    private func remove(constraint: Constraint) {
        guard constraint.space === self, let index = constraints.firstIndex(where: { $0 === constraint }) else {
            stop("Space.remove: this constraint is not in this space")
        }
        constraint.space = nil
        constraints.remove(at: index)
        constraint.bodyA.attachmentCount -= 1
        constraint.bodyB.attachmentCount -= 1
        if isDeferringChanges { pending.append(.removeConstraint(constraint)) } else { detach(constraint) }
        finishLeaving(constraint.bodyA)
        finishLeaving(constraint.bodyB)
    }

    // MARK: Deferred changes

    /// A change made while changes were deferred, applied once the outermost operation ends.
    enum PendingChange {
        case addBody(Body)
        case removeBody(Body)
        case addShape(Shape)
        case removeShape(Shape)
        case addConstraint(Constraint)
        case removeConstraint(Constraint)
        case reindex(Body)
        /// A collision handler was added: every arbiter gets the space's handlers.
        case refreshArbiterHandlers
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
                case .refreshArbiterHandlers: CChipmunkRefreshArbiterHandlers(UnsafeMutableRawPointer(handle))
                case .reindex(let body):
                    if body === staticBody {
                        cpSpaceReindexStatic(handle)
                    } else if body.space === self {
                        cpSpaceReindexShapesForBody(handle, body.handle)
                    }
                }
            }
        }
    }

    // The engine-side add and remove, with the record of which C space holds each object.
    private func attach(_ body: Body) {
        cpSpaceAddBody(handle, body.handle)
        body.cSpace = cSpace
    }

    func detach(_ body: Body) {
        cpSpaceRemoveBody(handle, body.handle)
        body.cSpace = nil
    }

    private func attach(_ shape: Shape) {
        cpSpaceAddShape(handle, shape.handle)
        shape.cSpace = cSpace
    }

    func detach(_ shape: Shape) {
        // A removal runs `separate` handlers: changes they make must wait, and their
        // arbiters expire with the removal.
        callbacks.deferring { cpSpaceRemoveShape(handle, shape.handle) }
        shape.cSpace = nil
    }

    private func attach(_ constraint: Constraint) {
        cpSpaceAddConstraint(handle, constraint.handle)
        constraint.cSpace = cSpace
    }

    func detach(_ constraint: Constraint) {
        cpSpaceRemoveConstraint(handle, constraint.handle)
        constraint.cSpace = nil
    }
}
