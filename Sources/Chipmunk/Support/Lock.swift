#if canImport(Glibc)
    internal import Glibc
#endif

/// A mutual-exclusion lock on `pthread_mutex_t`, for the little state that threads share
/// (the slabs of C structs, the pool of callback states); never taken while stepping.
///
/// Not `Synchronization.Mutex`: on Linux it waits on a futex, which ThreadSanitizer does
/// not see, so TSan reported every access under it as a race. TSan intercepts the
/// pthread calls, and `scripts/sanitize.sh` runs clean with this lock.
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        ensure(pthread_mutex_init(mutex, nil) == 0, "Lock: pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value that threads share, reached only through ``withLock(_:)``: the shape of
/// `Synchronization.Mutex`, on a ``Lock`` that ThreadSanitizer sees. For the layers above
/// (the sweep's queue of runs, the progress line), so that none of them declares a class
/// `@unchecked Sendable` of its own; the value must not escape the closure.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
