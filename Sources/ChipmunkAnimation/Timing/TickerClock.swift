import Chipmunk
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a ticker reads the time and waits: the real monotonic clock, or a simulated one
/// that tests script.
public protocol TickerClock: AnyObject {
    /// Seconds since some fixed point; never goes back.
    var now: Double { get }
    /// Returns at `deadline` or later (at once if it has passed).
    func sleep(until deadline: Double)
}

/// `CLOCK_MONOTONIC`, waited on with absolute deadlines (`clock_nanosleep(TIMER_ABSTIME)`),
/// so the time a frame's work takes does not push the next deadline back.
public final class MonotonicClock: TickerClock {
    /// The system's monotonic clock.
    public init() {}

    /// Seconds on `CLOCK_MONOTONIC`.
    public var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Sleeps until `deadline` on `CLOCK_MONOTONIC` (an absolute deadline), through interruptions.
    public func sleep(until deadline: Double) {
        guard deadline.isFinite, deadline > now else { return }
        let seconds = deadline.rounded(.down)
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((deadline - seconds) * 1e9))
        #if canImport(Glibc)
            // EINTR (a signal) wakes it early: sleep again until the deadline.
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
        #else
            while now < deadline { usleep(UInt32(max(1, (deadline - now) * 1e6))) }
        #endif
    }
}

/// A clock that moves only when told: `sleep(until:)` jumps to the deadline plus the next
/// scripted lateness, and ``advance(by:)`` stands for work done. Tests drive tickers with
/// it to get exact, repeatable frame times.
///
/// ```swift
/// let clock = SimulatedClock(lateness: [0, 0.004, 0.030])  // then on time
/// ```
public final class SimulatedClock: TickerClock {
    /// The simulated time, in seconds: moved by `sleep(until:)` and `advance(by:)` only.
    public private(set) var now: Double
    private var lateness: [Double]
    private var next = 0
    /// When the lateness list runs out: none (nil), or the list again from the start.
    public let repeats: Bool

    /// `lateness[i]` is how late the i-th wake-up is, in seconds.
    public init(start: Double = 0, lateness: [Double] = [], repeats: Bool = false) {
        ensure(lateness.allSatisfy { $0 >= 0 && $0.isFinite }, "SimulatedClock lateness must be finite and >= 0")
        now = start
        self.lateness = lateness
        self.repeats = repeats
    }

    /// Jumps to `deadline` (or stays, if it has passed) plus the next scripted lateness.
    public func sleep(until deadline: Double) {
        var late = 0.0
        if next < lateness.count {
            late = lateness[next]
            next += 1
            if repeats, next == lateness.count { next = 0 }
        }
        now = max(now, deadline) + late
    }

    /// Time passing while the caller works.
    public func advance(by seconds: Double) {
        ensure(
            seconds >= 0 && seconds.isFinite, "SimulatedClock.advance needs finite seconds >= 0 (got \(seconds))")
        now += seconds
    }
}
