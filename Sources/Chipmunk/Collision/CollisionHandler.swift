internal import CChipmunk

/// What happens when shapes of two collision types touch.
///
/// Set one up in one call with ``Space/onCollision(between:and:begin:preSolve:postSolve:separate:)``,
/// or get it from ``Space/collisionHandler(between:and:)``, ``Space/wildcardCollisionHandler(for:)``
/// or ``Space/defaultCollisionHandler`` and set the closures you need; `nil` restores
/// the engine's behaviour. The closures run inside ``Space/step(_:)`` (and `separate` also
/// when a touching shape is removed). Changes to the space made in them are deferred
/// until the step ends, and an error they throw comes out of `step` once it has
/// finished; `begin` and `preSolve` then count as having returned `true`.
///
/// ```swift
/// let handler = space.collisionHandler(between: player, and: platform)
/// handler.preSolve = { arbiter in arbiter.normal.y < 0 }   // one-way platform
/// ```
///
/// The corresponding C type is `cpCollisionHandler`.
public final class CollisionHandler {
    let handle: UnsafeMutablePointer<cpCollisionHandler>
    /// The callback state of the space that owns this handler.
    private let state: CallbackState

    private let defaultBegin: cpCollisionBeginFunc?
    private let defaultPreSolve: cpCollisionPreSolveFunc?
    private let defaultPostSolve: cpCollisionPostSolveFunc?
    private let defaultSeparate: cpCollisionSeparateFunc?

    init(_ handle: UnsafeMutablePointer<cpCollisionHandler>, space: Space) {
        self.handle = handle
        self.state = space.callbacks
        defaultBegin = handle.pointee.beginFunc
        defaultPreSolve = handle.pointee.preSolveFunc
        defaultPostSolve = handle.pointee.postSolveFunc
        defaultSeparate = handle.pointee.separateFunc
        handle.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
    }

    /// The first collision type (``CollisionType/wildcard`` for the default handler).
    public var typeA: CollisionType { CollisionType(rawValue: handle.pointee.typeA) }
    /// The second collision type (``CollisionType/wildcard`` for wildcard and default handlers).
    public var typeB: CollisionType { CollisionType(rawValue: handle.pointee.typeB) }

    // The closures are read on every callback; a space is used from one thread at a time,
    // so their dynamic exclusivity checks (a third of the callback path's cost) are skipped.

    /// Runs when two shapes first touch; return `false` to ignore the contact until they part.
    @exclusivity(unchecked) public var begin: ((Arbiter) throws -> Bool)? {
        didSet {
            handle.pointee.beginFunc =
                begin == nil
                ? defaultBegin
                : { arbiter, _, data in
                    CollisionHandler.with(data) { $0.call(arbiter, fallback: true) { try $0.begin?($1) ?? true } }
                        ? 1 : 0
                }
        }
    }

    /// Runs every step the shapes touch, before solving; return `false` to skip this step.
    @exclusivity(unchecked) public var preSolve: ((Arbiter) throws -> Bool)? {
        didSet {
            handle.pointee.preSolveFunc =
                preSolve == nil
                ? defaultPreSolve
                : { arbiter, _, data in
                    CollisionHandler.with(data) { $0.call(arbiter, fallback: true) { try $0.preSolve?($1) ?? true } }
                        ? 1 : 0
                }
        }
    }

    /// Runs every step the shapes touch, after solving: impulses and energy are known.
    @exclusivity(unchecked) public var postSolve: ((Arbiter) throws -> Void)? {
        didSet {
            handle.pointee.postSolveFunc =
                postSolve == nil
                ? defaultPostSolve
                : { arbiter, _, data in
                    CollisionHandler.with(data) { $0.call(arbiter, fallback: ()) { try $0.postSolve?($1) } }
                }
        }
    }

    /// Runs when the shapes stop touching, or one of them is removed (see ``Arbiter/isRemoval``).
    @exclusivity(unchecked) public var separate: ((Arbiter) throws -> Void)? {
        didSet {
            handle.pointee.separateFunc =
                separate == nil
                ? defaultSeparate
                : { arbiter, _, data in
                    CollisionHandler.with(data) { $0.call(arbiter, fallback: ()) { try $0.separate?($1) } }
                }
        }
    }

    /// The handler that C user data points to, borrowed for the call (no retain: the
    /// space keeps every handler alive while its callbacks can run).
    @inline(__always)
    private static func with<Result>(_ data: UnsafeMutableRawPointer?, _ body: (CollisionHandler) -> Result) -> Result {
        Unmanaged<CollisionHandler>.fromOpaque(data!)._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    private func call<Result>(
        _ arbiter: UnsafeMutablePointer<cpArbiter>?, fallback: Result,
        _ body: (CollisionHandler, Arbiter) throws -> Result
    ) -> Result {
        let state = self.state
        guard !state.isTearingDown else { return fallback }
        let arbiter = Arbiter(arbiter!, state: state)
        return state.run(orOnError: fallback) { try body(self, arbiter) }
    }
}

@available(*, unavailable) extension CollisionHandler: Sendable {}

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
        case (nil, _?): preconditionFailure("Space.onCollision: give type a for a wildcard handler, not only b")
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
    public func collisionHandler(between a: CollisionType, and b: CollisionType) -> CollisionHandler {
        handler(for: cpSpaceAddCollisionHandler(handle, a.rawValue, b.rawValue)!)
    }

    /// The handler for shapes of `type` touching anything; pair handlers call it by default.
    /// The arbiter's first shape is of `type`.
    ///
    /// The corresponding C function is `cpSpaceAddWildcardHandler`.
    public func wildcardCollisionHandler(for type: CollisionType) -> CollisionHandler {
        handler(for: cpSpaceAddWildcardHandler(handle, type.rawValue)!)
    }

    /// The handler for every pair that has no handler of its own.
    ///
    /// The corresponding C function is `cpSpaceAddDefaultCollisionHandler`.
    public var defaultCollisionHandler: CollisionHandler {
        handler(for: cpSpaceAddDefaultCollisionHandler(handle)!)
    }

    /// The Swift box of a C handler; the engine returns the same C handler for the same
    /// (unordered) pair, so the box is found by its address.
    private func handler(for cHandler: UnsafeMutablePointer<cpCollisionHandler>) -> CollisionHandler {
        if let existing = collisionHandlers[cHandler] { return existing }
        let handler = CollisionHandler(cHandler, space: self)
        collisionHandlers[cHandler] = handler
        return handler
    }
}
