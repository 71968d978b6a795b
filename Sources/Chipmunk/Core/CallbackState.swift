internal import CChipmunk

/// What every engine callback of one space shares: how deep callbacks are nested (changes
/// are deferred while they run), the first error one threw, which arbiters are still
/// valid, and whether the space is being torn down.
///
/// Kept apart from ``Space`` so that the callback path touches only this small object.
/// The fields a collision callback reads and writes live in a `Hot` struct of their own,
/// which the C handler's closures and every ``Arbiter`` reach through a plain pointer:
/// a callback then runs with no reference counting and no exclusivity checks. A space,
/// and so this object, is used from one thread at a time (neither is `Sendable`).
/// Measured, in added instructions per collision callback against raw C's 96: 672 with
/// the state on ``Space``, 281 with it here, 167 with the hot fields behind a pointer.
final class CallbackState {
    /// The fields of the callback path.
    struct Hot {
        /// How many Swift callbacks are running inside engine calls right now.
        var depth = 0
        /// Bumped when the outermost callback returns: an ``Arbiter`` from an earlier epoch is stale.
        var epoch: UInt64 = 0
        /// Set while the space is dropped: callbacks must not run then.
        var isTearingDown = false
        /// Whether ``CallbackState/retire(_:)`` holds anything.
        var hasRetired = false
        /// The object these fields belong to.
        unowned(unsafe) var owner: CallbackState
        /// The space; cleared when it is dropped.
        unowned(unsafe) var space: Space?
    }

    /// Never freed, like this object (see ``make()``): arbiters keep the address.
    let hot: UnsafeMutablePointer<Hot>
    /// How deep `Arbiter.callWildcard…` calls are nested, to catch a handler calling itself.
    var wildcardDepth = 0
    /// The first error a callback threw since it was last collected.
    var error: (any Error)?
    /// Objects replaced while a callback ran (collision closures), kept until the
    /// outermost callback returns: the code running may be theirs.
    private var retired: [AnyObject] = []

    private init() {
        hot = .allocate(capacity: 1)
        hot.initialize(to: Hot(owner: Unmanaged.passUnretained(self).takeUnretainedValue()))
    }

    var depth: Int { hot.pointee.depth }
    var epoch: UInt64 { hot.pointee.epoch }
    var isTearingDown: Bool {
        get { hot.pointee.isTearingDown }
        set { hot.pointee.isTearingDown = newValue }
    }
    var space: Space? {
        get { hot.pointee.space }
        set { hot.pointee.space = newValue }
    }

    /// Runs Swift code called back from the engine: changes it makes are deferred, an
    /// error it throws is kept for the caller, and arbiters given to it expire after it.
    @inline(__always)
    func run<Result>(orOnError fallback: Result, _ body: () throws -> Result) -> Result {
        deferring {
            do { return try body() } catch {
                record(error)
                return fallback
            }
        }
    }

    /// Runs an engine call that may call back into Swift (a removal firing `separate`,
    /// debug drawing) as if it were a callback: changes are deferred during it, and
    /// arbiters handed out inside it expire with it.
    @inline(__always)
    func deferring<Result>(_ body: () -> Result) -> Result {
        Self.enter(hot)
        defer { Self.leave(hot) }
        return body()
    }

    /// Calls a collision closure for the engine: changes are deferred, an error is kept,
    /// and the arbiter expires after. (No collision closure is called while the space is
    /// torn down: the space gives its C handlers their engine functions back first.)
    @inline(__always)
    static func call<Result>(
        _ hot: UnsafeMutablePointer<Hot>, _ arbiter: UnsafeMutablePointer<cpArbiter>?, fallback: Result,
        _ body: (Arbiter) throws -> Result
    ) -> Result {
        enter(hot)
        let result: Result
        do {
            result = try body(Arbiter(arbiter.unsafelyUnwrapped, hot: hot))
        } catch {
            hot.pointee.owner.record(error)
            result = fallback
        }
        leave(hot)
        return result
    }

    @inline(__always)
    private static func enter(_ hot: UnsafeMutablePointer<Hot>) {
        hot.pointee.depth &+= 1
    }

    @inline(__always)
    private static func leave(_ hot: UnsafeMutablePointer<Hot>) {
        hot.pointee.depth &-= 1
        if hot.pointee.depth == 0 {
            hot.pointee.epoch &+= 1
            if hot.pointee.hasRetired { hot.pointee.owner.releaseRetired() }
        }
    }

    /// Keeps `object` alive until no callback runs, or drops it now if none does.
    func retire(_ object: AnyObject) {
        guard depth > 0 else { return }
        retired.append(object)
        hot.pointee.hasRetired = true
    }

    private func releaseRetired() {
        retired.removeAll()
        hot.pointee.hasRetired = false
    }

    func record(_ error: any Error) {
        if self.error == nil { self.error = error }
    }
}

extension CallbackState {
    /// Every callback state made and not in use; see ``make()``.
    nonisolated(unsafe) private static var idle: [CallbackState] = []
    private static let idleLock = Lock()

    /// A callback state for a new space: a reused one if any is idle.
    ///
    /// Callback states are never freed. An ``Arbiter`` refers to its state's hot fields
    /// by address, to keep the callback path free of reference counting; an arbiter kept
    /// past its space must still find them there, with a grown epoch that tells it that
    /// it is stale. There are never more than the most spaces alive at once.
    static func make() -> CallbackState {
        idleLock.withLock { idle.popLast() } ?? CallbackState()
    }

    /// Takes back the state of a space whose C space has been freed: no callback of that
    /// space can run again, and its arbiters are stale from now on.
    static func recycle(_ state: CallbackState) {
        state.hot.pointee.epoch &+= 1
        state.hot.pointee.depth = 0
        state.hot.pointee.isTearingDown = false
        state.hot.pointee.space = nil
        state.wildcardDepth = 0
        state.error = nil
        state.releaseRetired()
        idleLock.withLock { idle.append(state) }
    }
}
