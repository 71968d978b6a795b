import Chipmunk
/// One firing of a ticker.
public struct TickerFrame: Sendable, Hashable {
    /// 0 for the first firing, then 1, 2, …
    public var index: Int
    /// When the frame was due (a display link's vsync time).
    public var targetTime: Double
    /// When the callback actually ran.
    public var timestamp: Double
    /// The measured time since the previous firing (0 for the first): what listing 11.2
    /// of the book computes from `CACurrentMediaTime()`. (`CADisplayLink.duration` is the
    /// nominal refresh period instead; here that is ``DisplayLink/period``.)
    public var duration: Double
    /// Deadlines skipped just before this one because the previous callback ran past them.
    public var skippedFrames: Int
}

/// What a ticker's callback says after each frame.
public enum TickerAction: Sendable {
    /// Fire again.
    case `continue`
    /// Stop: `run` returns.
    case stop
}

/// The book's `NSTimer`: fires every `interval` seconds, with deadlines fixed from the
/// start. A late firing is late; when the callback overruns, the deadlines it missed are
/// skipped, as Foundation documents for a repeating timer ("fired only once for that time
/// period; the timer is then rescheduled … for the next scheduled firing time in the
/// future"), and ``TickerFrame/skippedFrames`` counts them. So a fixed step per tick, as
/// listing 11.1 takes, falls behind the clock when a frame runs long.
///
/// ```swift
/// let timer = IntervalTimer(interval: 1.0 / 60)
/// try timer.run { frame in
///     ball.advance(by: 1.0 / 60)  // listing 11.1: a fixed step per tick
///     return frame.index < 59 ? .continue : .stop
/// }
/// ```
public struct IntervalTimer {
    /// Seconds between firings.
    public let interval: Double
    /// The clock the timer reads and waits on.
    public let clock: any TickerClock

    /// A timer firing every `interval` seconds on `clock`.
    ///
    /// An interval outside 1e-9...1e9 seconds is a programming error: the program stops.
    public init(interval: Double, clock: any TickerClock = MonotonicClock()) {
        AnimationParameter.timerInterval.require(interval)
        self.interval = interval
        self.clock = clock
    }

    /// Fires until the callback says `.stop`; the first firing is one interval from now.
    public func run(_ body: (TickerFrame) throws -> TickerAction) rethrows {
        try runOnGrid(period: interval, clock: clock, body)
    }
}

/// Fires `body` at `start + k × period` for k = 1, 2, … on `clock` until it says `.stop`:
/// the loop both tickers share. Deadlines that passed while the callback ran are skipped
/// and counted; the next firing is at the next deadline still ahead.
private func runOnGrid(period: Double, clock: any TickerClock, _ body: (TickerFrame) throws -> TickerAction)
    rethrows
{
    let start = clock.now
    var previous = start
    // The deadline's number, start + slot × period; a Double, for a clock may jump
    // further ahead than an Int counts frames (a scripted clock, a machine suspended).
    var slot = 1.0
    var index = 0
    var skipped = 0
    while true {
        let target = start + slot * period
        clock.sleep(until: target)
        let now = clock.now
        let frame = TickerFrame(
            index: index, targetTime: target, timestamp: now, duration: index == 0 ? 0 : now - previous,
            skippedFrames: skipped)
        previous = now
        if try body(frame) == .stop { return }
        index += 1
        // The next deadline still ahead; those that passed during the callback are skipped.
        let after = clock.now
        let due = ((after - start) / period).rounded(.down)
        let next = due.isFinite && due >= slot + 1 ? due + 1 : slot + 1
        // Past 2^53 frames a Double counts in steps larger than one: never below none.
        skipped = Int(min(max(next - slot - 1, 0), maxSkippedFrames))
        slot = next
    }
}

/// The most skipped frames one firing reports (2^62): a clock can jump further.
private let maxSkippedFrames = 0x1p62

/// The book's `CADisplayLink` on Linux: fires on a `frameDuration` grid (60 Hz by default)
/// every `frameInterval` frames, with absolute deadlines on the clock. Each frame reports
/// its measured duration. A frame whose deadline passed while the previous callback ran
/// is skipped, never fired twice: the next firing is at the next deadline still ahead.
///
/// ```swift
/// let link = DisplayLink(frameInterval: 2)  // 30 fps, as the book advises for slow steps
/// try link.run { frame in
///     try stepper.advance(space, by: frame.duration)
///     return .continue
/// }
/// ```
public struct DisplayLink {
    /// The display's refresh period, in seconds.
    public let frameDuration: Double
    /// Fire every Nth display frame (`CADisplayLink.frameInterval`).
    public let frameInterval: Int
    /// The clock the link reads and waits on.
    public let clock: any TickerClock

    /// A link on a `frameDuration` grid that fires every `frameInterval` frames, on `clock`.
    ///
    /// A `frameDuration` outside 1e-9...1e9 seconds, or a `frameInterval` below 1, is a
    /// programming error: the program stops.
    public init(frameDuration: Double = 1.0 / 60, frameInterval: Int = 1, clock: any TickerClock = MonotonicClock()) {
        AnimationParameter.frameDuration.require(frameDuration)
        ensure(frameInterval >= 1, "DisplayLink.frameInterval must be at least 1 (got \(frameInterval))")
        self.frameDuration = frameDuration
        self.frameInterval = frameInterval
        self.clock = clock
    }

    /// The time between firings when none is missed.
    public var period: Double { frameDuration * Double(frameInterval) }

    /// Fires until the callback says `.stop`; the first firing is at the next deadline.
    public func run(_ body: (TickerFrame) throws -> TickerAction) rethrows {
        try runOnGrid(period: period, clock: clock, body)
    }
}
