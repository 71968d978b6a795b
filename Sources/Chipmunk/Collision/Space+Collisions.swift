internal import CChipmunk
internal import CChipmunkRuntime

extension Space {
    /// Sets up what happens when shapes of two types touch, in one call, as pymunk's
    /// `space.on_collision(a, b, begin=…, pre_solve=…)` does.
    ///
    /// With both types it is the handler for that pair; with `a` only, the wildcard
    /// handler for `a` (shapes of type `a` touching anything); with neither, the default
    /// handler. Only the closures given are set; the others keep what they had.
    ///
    /// ```swift
    /// space.onCollision(between: ball, and: floor, postSolve: { arbiter in
    ///     if arbiter.isFirstContact { hits += 1 }
    /// })
    /// ```
    ///
    /// The corresponding C functions are `cpSpaceAddCollisionHandler`, `cpSpaceAddWildcardHandler` and
    /// `cpSpaceAddDefaultCollisionHandler`.
    @discardableResult
    public func onCollision(
        between a: CollisionType? = nil, and b: CollisionType? = nil,
        begin: ((Arbiter) throws -> Bool)? = nil, preSolve: ((Arbiter) throws -> Bool)? = nil,
        postSolve: ((Arbiter) throws -> Void)? = nil, separate: ((Arbiter) throws -> Void)? = nil
    ) -> CollisionHandler {
        let handler: CollisionHandler
        switch (a, b) {
        case let (a?, b?): handler = collisionHandler(between: a, and: b)
        case let (a?, nil): handler = wildcardCollisionHandler(for: a)
        case (nil, nil): handler = defaultCollisionHandler
        case (nil, _?): stop("Space.onCollision: give type a for a wildcard handler, not only b")
        }
        if let begin { handler.begin = begin }
        if let preSolve { handler.preSolve = preSolve }
        if let postSolve { handler.postSolve = postSolve }
        if let separate { handler.separate = separate }
        return handler
    }

    /// The handler for shapes of types `a` and `b` touching; created on first use. The pair
    /// is unordered: `(b, a)` gives the same handler, whose arbiters list shapes in the
    /// order ``CollisionHandler/typeA``, ``CollisionHandler/typeB``.
    ///
    /// The corresponding C function is `cpSpaceAddCollisionHandler`.
    ///
    /// Neither type may be ``CollisionType/wildcard``: the engine would take such a pair
    /// handler for a wildcard one, and its default callbacks, which call the wildcard
    /// handlers, would call themselves until the stack ran out. Use
    /// ``wildcardCollisionHandler(for:)`` or ``defaultCollisionHandler``.
    public func collisionHandler(between a: CollisionType, and b: CollisionType) -> CollisionHandler {
        if a == .wildcard || b == .wildcard {
            stop(
                "Space.collisionHandler(between: \(a), and: \(b)): a pair handler takes two types, not "
                    + "the wildcard; use wildcardCollisionHandler(for:) or defaultCollisionHandler")
        }
        return handler(for: cpSpaceAddCollisionHandler(handle, a.rawValue, b.rawValue)!)
    }

    /// The handler for shapes of `type` touching anything; pair handlers call it by default.
    /// The arbiter's first shape is of `type`.
    ///
    /// The corresponding C function is `cpSpaceAddWildcardHandler`.
    /// `type` may not be ``CollisionType/wildcard``; the handler for every pair is
    /// ``defaultCollisionHandler``.
    public func wildcardCollisionHandler(for type: CollisionType) -> CollisionHandler {
        if type == .wildcard {
            stop(
                "Space.wildcardCollisionHandler(for: wildcard): the handler for every pair is "
                    + "defaultCollisionHandler")
        }
        return handler(for: addingWildcards { cpSpaceAddWildcardHandler(handle, type.rawValue)! })
    }

    /// The handler for every pair that has no handler of its own.
    ///
    /// The corresponding C function is `cpSpaceAddDefaultCollisionHandler`.
    public var defaultCollisionHandler: CollisionHandler {
        handler(for: addingWildcards { cpSpaceAddDefaultCollisionHandler(handle)! })
    }

    /// Adds a wildcard or the default handler through `add`. The engine then calls wildcard
    /// handlers through every arbiter, and those cached before have none: they get theirs
    /// now, or the next pair to separate crashed the engine (CollisionHandlers.c).
    private func addingWildcards(
        _ add: () -> UnsafeMutablePointer<cpCollisionHandler>
    ) -> UnsafeMutablePointer<cpCollisionHandler> {
        let used = handle.pointee.usesWildcards != 0
        let handler = add()
        if !used { CChipmunkFillWildcardHandlers(UnsafeMutableRawPointer(handle)) }
        return handler
    }

    /// Makes sure the space has the handler for `typeA` and `typeB` as the engine keys them
    /// (the wildcard's pair is the default handler, a pair with it a wildcard handler), as
    /// a restore or a copy does for the handlers of the space it reproduces: without closures.
    func ensureCollisionHandler(_ typeA: cpCollisionType, _ typeB: cpCollisionType) {
        let wildcard = CChipmunkWildcardCollisionType()
        if typeA == wildcard && typeB == wildcard {
            _ = defaultCollisionHandler
        } else if typeB == wildcard {
            _ = wildcardCollisionHandler(for: CollisionType(rawValue: typeA))
        } else {
            _ = collisionHandler(between: CollisionType(rawValue: typeA), and: CollisionType(rawValue: typeB))
        }
    }

    /// The Swift box of a C handler; the engine returns the same C handler for the same
    /// (unordered) pair, so the box is found by its address.
    private func handler(for cHandler: UnsafeMutablePointer<cpCollisionHandler>) -> CollisionHandler {
        if let existing = collisionHandlers[cHandler] { return existing }
        let handler = CollisionHandler(cHandler, space: self)
        collisionHandlers[cHandler] = handler
        // Pairs touching now get it for their next callbacks, their `separate` included,
        // as a restore gives it to them (CollisionHandlers.c); during a step, once it ends.
        if isDeferringChanges {
            pending.append(.refreshArbiterHandlers)
        } else {
            CChipmunkRefreshArbiterHandlers(UnsafeMutableRawPointer(handle))
        }
        return handler
    }
}
