internal import CChipmunk

extension Body {
    /// The shapes on this body that are in its space, in the order they were added.
    ///
    /// Like ``Space/shapes``, it changes at once when a shape is added or removed, also
    /// while the engine's own change is deferred. The first read after a shape or
    /// constraint is added or removed indexes the space's, in time in proportion to them;
    /// the next reads take time in proportion to the body's own.
    public var shapes: [Shape] {
        guard let space else { return [] }
        return space.attachments.shapes[ObjectIdentifier(self)]?.map { space.shapes[$0] } ?? []
    }

    /// The constraints on this body that are in its space, in the order they were added
    /// (indexed as ``shapes`` are).
    public var constraints: [Constraint] {
        guard let space else { return [] }
        return space.attachments.constraints[ObjectIdentifier(self)]?.map { space.constraints[$0] } ?? []
    }

    /// The body's ``shapes`` and then its ``constraints``: what must leave the space with
    /// it, as in `space.remove(body.attachments + [body])` (`body.shapes + [body]` leaves
    /// a joint behind, and the next step stops saying so).
    public var attachments: [any SpaceObject] { shapes + constraints }

    /// Calls `body` with each arbiter (contact) the body is in, valid only during the call.
    /// Changes to the space made inside are deferred until it returns.
    ///
    /// - Throws: what `body` throws (the first error; the iteration completes). An error
    ///   of a `separate` handler run by a change applied as it returns is thrown by the
    ///   next ``Space/step(_:)``, as after `Space.remove(_:)`.
    ///
    /// The corresponding C function is `cpBodyEachArbiter`.
    public func forEachArbiter(_ body: (Arbiter) throws -> Void) rethrows {
        try forEachArbiter(body, rescue: { throw $0 })
    }

    /// ``forEachArbiter(_:)``, with the error `body` threw handed to `rescue` after the C
    /// call returns (how a `rethrows` function throws an error it kept).
    private func forEachArbiter(
        _ body: (Arbiter) throws -> Void, rescue: (any Error) throws -> Void
    ) rethrows {
        guard let space else { return }
        typealias Visit = (space: Space, body: (Arbiter) throws -> Void, failure: (any Error)?)
        let failure = withoutActuallyEscaping(body) { body -> (any Error)? in
            var visit: Visit = (space, body, nil)
            withUnsafeMutablePointer(to: &visit) { pointer in
                cpBodyEachArbiter(
                    handle,
                    { _, arbiter, data in
                        let visit = data!.assumingMemoryBound(to: Visit.self)
                        let space = visit.pointee.space
                        let arbiter = Arbiter(arbiter!, hot: space.callbacks.hot)
                        space.callbacks.run(orOnError: ()) {
                            do { try visit.pointee.body(arbiter) } catch {
                                if visit.pointee.failure == nil { visit.pointee.failure = error }
                            }
                        }
                    }, pointer)
            }
            return visit.failure
        }
        space.applyPendingChangesIfIdle()
        if let failure { try rescue(failure) }
    }

    /// The C shapes the engine has attached to this body.
    ///
    /// The corresponding C function is `cpBodyEachShape`.
    func engineShapes() -> [UnsafeMutablePointer<cpShape>] {
        ResultList<UnsafeMutablePointer<cpShape>>.collect {
            cpBodyEachShape(handle, { _, shape, list in ResultList.append(shape!, to: list) }, $0)
        }
    }

    /// The C constraints the engine has attached to this body.
    ///
    /// The corresponding C function is `cpBodyEachConstraint`.
    func engineConstraints() -> [UnsafeMutablePointer<cpConstraint>] {
        ResultList<UnsafeMutablePointer<cpConstraint>>.collect {
            cpBodyEachConstraint(handle, { _, constraint, list in ResultList.append(constraint!, to: list) }, $0)
        }
    }
}

/// Where each body's shapes and constraints are in its space's ``Space/shapes`` and
/// ``Space/constraints``, by the body's identity: so that reading every body's shapes
/// takes time in proportion to the shapes, not to their square (a replay page, a diff
/// page and serve's scene message read each body's).
struct AttachmentIndex {
    var shapes: [ObjectIdentifier: [Int]] = [:]
    var constraints: [ObjectIdentifier: [Int]] = [:]

    init(_ space: Space) {
        for (index, shape) in space.shapes.enumerated() {
            shapes[ObjectIdentifier(shape.body), default: []].append(index)
        }
        for (index, constraint) in space.constraints.enumerated() {
            constraints[ObjectIdentifier(constraint.bodyA), default: []].append(index)
            constraints[ObjectIdentifier(constraint.bodyB), default: []].append(index)  // never bodyA
        }
    }
}

extension Space {
    /// The space's ``AttachmentIndex``, built if a change dropped it.
    var attachments: AttachmentIndex {
        if let attachmentIndex { return attachmentIndex }
        let index = AttachmentIndex(self)
        attachmentIndex = index
        return index
    }
}
