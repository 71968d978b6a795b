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
    /// The C space, whose memory holds the C handler: kept alive while this object is, so
    /// that setting a closure after the ``Space`` is gone writes to live memory.
    private let cSpace: OwnedCSpace
    /// The closures now set; the C handler's user data points here, unretained.
    private var closures: Closures

    private let defaultBegin: cpCollisionBeginFunc?
    private let defaultPreSolve: cpCollisionPreSolveFunc?
    private let defaultPostSolve: cpCollisionPostSolveFunc?
    private let defaultSeparate: cpCollisionSeparateFunc?

    init(_ handle: UnsafeMutablePointer<cpCollisionHandler>, space: Space) {
        self.handle = handle
        cSpace = space.cSpace
        closures = Closures(of: nil, state: space.callbacks)
        defaultBegin = handle.pointee.beginFunc
        defaultPreSolve = handle.pointee.preSolveFunc
        defaultPostSolve = handle.pointee.postSolveFunc
        defaultSeparate = handle.pointee.separateFunc
        handle.pointee.userData = Unmanaged.passUnretained(closures).toOpaque()
    }

    /// The first collision type (``CollisionType/wildcard`` for the default handler).
    public var typeA: CollisionType { CollisionType(rawValue: handle.pointee.typeA) }
    /// The second collision type (``CollisionType/wildcard`` for wildcard and default handlers).
    public var typeB: CollisionType { CollisionType(rawValue: handle.pointee.typeB) }

    /// Runs when two shapes first touch; return `false` to ignore the contact until they part.
    public var begin: ((Arbiter) throws -> Bool)? = nil {
        didSet {
            replaceClosures()
            handle.pointee.beginFunc = begin == nil ? defaultBegin : Self.beginTrampoline
        }
    }

    /// Runs every step the shapes touch, before solving; return `false` to skip this step.
    public var preSolve: ((Arbiter) throws -> Bool)? = nil {
        didSet {
            replaceClosures()
            handle.pointee.preSolveFunc = preSolve == nil ? defaultPreSolve : Self.preSolveTrampoline
        }
    }

    /// Runs every step the shapes touch, after solving: impulses and energy are known.
    public var postSolve: ((Arbiter) throws -> Void)? = nil {
        didSet {
            replaceClosures()
            handle.pointee.postSolveFunc = postSolve == nil ? defaultPostSolve : Self.postSolveTrampoline
        }
    }

    /// Runs when the shapes stop touching, or one of them is removed (see ``Arbiter/isRemoval``).
    public var separate: ((Arbiter) throws -> Void)? = nil {
        didSet {
            replaceClosures()
            handle.pointee.separateFunc = separate == nil ? defaultSeparate : Self.separateTrampoline
        }
    }

    // MARK: The callback path

    // A callback runs with no reference counting at all: the C handler's user data leads
    // to an immutable `Closures` object, borrowed for the call, whose `let` closures and
    // unowned state need no retain. Setting a closure builds a new object instead of
    // changing the old one; an old one replaced while a callback runs is kept until the
    // outermost callback returns (``CallbackState/retire(_:)``), because the closure
    // running may be its own.

    /// The closures a C handler calls, and the state of the space they run in.
    final class Closures {
        /// The hot fields of the space's callback state, which outlives every callback.
        let hot: UnsafeMutablePointer<CallbackState.Hot>
        let begin: (Arbiter) throws -> Bool
        let preSolve: (Arbiter) throws -> Bool
        let postSolve: (Arbiter) throws -> Void
        let separate: (Arbiter) throws -> Void

        /// Closures not set are never called (the C handler keeps the engine's function),
        /// so they need no optional to test on every call.
        init(of handler: CollisionHandler?, state: CallbackState) {
            hot = state.hot
            // `if let`, not `??`: a generic operator would wrap each closure in a
            // reabstraction thunk, which costs a call on every callback.
            if let begin = handler?.begin { self.begin = begin } else { begin = { _ in true } }
            if let preSolve = handler?.preSolve { self.preSolve = preSolve } else { preSolve = { _ in true } }
            if let postSolve = handler?.postSolve { self.postSolve = postSolve } else { postSolve = { _ in } }
            if let separate = handler?.separate { self.separate = separate } else { separate = { _ in } }
        }

        /// The object that C user data points to, borrowed for the call: the handler keeps
        /// it alive, or the callback state does while a callback that replaced it runs.
        @inline(__always)
        static func with(_ data: UnsafeMutableRawPointer?, _ body: (Closures) -> Bool) -> Bool {
            Unmanaged<Closures>.fromOpaque(data.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
        }

        // Not generic: a closure passed to a generic function returns its result through
        // memory, which costs the callback path a few instructions.
        @inline(__always)
        static func with(_ data: UnsafeMutableRawPointer?, _ body: (Closures) -> Void) {
            Unmanaged<Closures>.fromOpaque(data.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
        }
    }

    /// Swaps in a new `Closures` object with the closures now set (see the note above).
    private func replaceClosures() {
        let replaced = closures
        closures = Closures(of: self, state: replaced.hot.pointee.owner)
        handle.pointee.userData = Unmanaged.passUnretained(closures).toOpaque()
        replaced.hot.pointee.owner.retire(replaced)
    }

    /// Gives the C handler back the engine's own functions: called as the space is torn
    /// down, when removing shapes fires `separate` and no Swift closure may run.
    /// Runs `body` with the engine's own functions in the C handler, then puts the Swift
    /// ones back: `Space.restore(_:)` removes objects without running user handlers.
    func withEngineFunctions<Result>(_ body: () -> Result) -> Result {
        let saved = (
            handle.pointee.beginFunc, handle.pointee.preSolveFunc, handle.pointee.postSolveFunc,
            handle.pointee.separateFunc
        )
        restoreEngineFunctions()
        defer {
            (
                handle.pointee.beginFunc, handle.pointee.preSolveFunc, handle.pointee.postSolveFunc,
                handle.pointee.separateFunc
            ) = saved
        }
        return body()
    }

    func restoreEngineFunctions() {
        handle.pointee.beginFunc = defaultBegin
        handle.pointee.preSolveFunc = defaultPreSolve
        handle.pointee.postSolveFunc = defaultPostSolve
        handle.pointee.separateFunc = defaultSeparate
    }

    // Four trampolines, not one generic: each is the C function the engine calls.
    private static let beginTrampoline: cpCollisionBeginFunc = { arbiter, _, data in
        Closures.with(data) { closures in
            CallbackState.call(closures.hot, arbiter, fallback: true) { try closures.begin($0) }
        } ? 1 : 0
    }

    private static let preSolveTrampoline: cpCollisionPreSolveFunc = { arbiter, _, data in
        Closures.with(data) { closures in
            CallbackState.call(closures.hot, arbiter, fallback: true) { try closures.preSolve($0) }
        } ? 1 : 0
    }

    private static let postSolveTrampoline: cpCollisionPostSolveFunc = { arbiter, _, data in
        Closures.with(data) { closures in
            CallbackState.call(closures.hot, arbiter, fallback: ()) { try closures.postSolve($0) }
        }
    }

    private static let separateTrampoline: cpCollisionSeparateFunc = { arbiter, _, data in
        Closures.with(data) { closures in
            CallbackState.call(closures.hot, arbiter, fallback: ()) { try closures.separate($0) }
        }
    }
}

@available(*, unavailable) extension CollisionHandler: Sendable {}
