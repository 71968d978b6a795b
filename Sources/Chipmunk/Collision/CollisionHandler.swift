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
