internal import CChipmunk

extension Body {
    /// The shapes on this body that are in its space, in the order they were added.
    ///
    /// Like ``Space/shapes``, it changes at once when a shape is added or removed, also
    /// while the engine's own change is deferred. It takes time in proportion to the
    /// space's shapes.
    public var shapes: [Shape] {
        space?.shapes.filter { $0.body === self } ?? []
    }

    /// The constraints on this body that are in its space, in the order they were added.
    public var constraints: [Constraint] {
        space?.constraints.filter { $0.bodyA === self || $0.bodyB === self } ?? []
    }

    /// Calls `body` with each arbiter (contact) the body is in, valid only during the call.
    /// Changes to the space made inside are deferred until it returns.
    ///
    /// - Throws: what `body` throws (the first error; the iteration completes).
    ///
    /// The corresponding C function is `cpBodyEachArbiter`.
    public func forEachArbiter(_ body: (Arbiter) throws -> Void) throws {
        guard let space else { return }
        withoutActuallyEscaping(body) { body in
            var context = (space, body)
            withUnsafeMutablePointer(to: &context) { pointer in
                cpBodyEachArbiter(
                    handle,
                    { _, arbiter, data in
                        let (space, body) = data!.assumingMemoryBound(to: (Space, (Arbiter) throws -> Void).self)
                            .pointee
                        let arbiter = Arbiter(arbiter!, hot: space.callbacks.hot)
                        space.callbacks.run(orOnError: ()) { try body(arbiter) }
                    }, pointer)
            }
        }
        space.applyPendingChangesIfIdle()
        try space.rethrowCallbackError()
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
