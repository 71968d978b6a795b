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
        var ts = Self.absoluteTime(at: deadline)
        #if canImport(Glibc)
            // EINTR (a signal) wakes it early: sleep again until the deadline.
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
        #else
            while now < deadline { usleep(UInt32(max(1, (deadline - now) * 1e6))) }
        #endif
    }
}

extension MonotonicClock {
    /// The latest deadline a sleep waits for, in seconds on the clock (2^62, some 10^11
    /// years): a later one is that one, where `Int(1e300)` trapped.
    static let latestDeadline = 0x1p62

    /// `deadline` (finite, at least 0) as the absolute time `clock_nanosleep` takes.
    static func absoluteTime(at deadline: Double) -> timespec {
        let deadline = min(deadline, latestDeadline)
        let seconds = deadline.rounded(.down)
        return timespec(tv_sec: Int(seconds), tv_nsec: Int((deadline - seconds) * 1e9))
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
    ///
    /// A start beyond ±1e15 seconds, or a lateness outside 0...1e9 seconds, is a
    /// programming error: the program stops.
    public init(start: Double = 0, lateness: [Double] = [], repeats: Bool = false) {
        AnimationParameter.clockStart.require(start)
        for late in lateness { AnimationParameter.clockLateness.require(late) }
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
        // A deadline that is not finite is no deadline, as on the monotonic clock.
        now = (deadline.isFinite ? max(now, deadline) : now) + late
    }

    /// Time passing while the caller works.
    ///
    /// Seconds outside 0...1e9 are a programming error: the program stops.
    public func advance(by seconds: Double) {
        AnimationParameter.clockAdvance.require(seconds)
        now += seconds
    }
}
