import Chipmunk

/// The bouncing ball of the book's listings 11.1 and 11.2: a ball view moved from
/// (150, 32) to (150, 268) in 1 s with `bounceEaseOut`.
///
/// Listing 11.1 drives it with an `NSTimer` and adds a fixed 1/60 s per tick; listing 11.2
/// with a `CADisplayLink` and adds each frame's measured duration. `chipmunk-sim ball` runs
/// either on a ``TickerClock`` and prints every frame.
public struct BouncingBall: Sendable {
    /// Where the ball starts, in points (the book's (150, 32)); within ±1e15.
    public var from = Vector(x: 150, y: 32) { didSet { AnimationParameter.ballPoint.require(from) } }
    /// Where the ball lands, in points (the book's (150, 268)); within ±1e15.
    public var to = Vector(x: 150, y: 268) { didSet { AnimationParameter.ballPoint.require(to) } }
    /// How long the animation lasts, in seconds, from 1e-9 to 1e9 (a duration of 0 made
    /// every position NaN).
    public var duration = 1.0 { didSet { AnimationParameter.ballDuration.require(duration) } }
    /// Animation time so far, at most `duration`.
    public private(set) var timeOffset = 0.0

    /// The book's ball: from (150, 32) to (150, 268) in 1 s, at time 0.
    public init() {}

    /// `timeOffset = MIN(timeOffset + step, duration)`, as both listings do. A step outside
    /// 0...1e9 seconds is a programming error (a NaN step made the ball's position NaN).
    public mutating func advance(by step: Double) {
        AnimationParameter.ballStep.require(step)
        timeOffset = min(timeOffset + step, duration)
    }

    /// Whether the animation has reached its end (`timeOffset == duration`).
    public var isFinished: Bool { timeOffset >= duration }

    /// `interpolate(from, to, bounceEaseOut(timeOffset / duration))`, per coordinate.
    public var position: Vector { position(at: timeOffset) }

    /// Where the ball is `time` seconds into the animation.
    public func position(at time: Double) -> Vector {
        let eased = BookEasing.bounceEaseOut(min(time, duration) / duration)
        return Vector(
            x: BookEasing.interpolate(from.x, to.x, eased), y: BookEasing.interpolate(from.y, to.y, eased))
    }

    /// Which listing.
    package enum Ticker: String, CaseIterable, Sendable {
        /// Listing 11.1: `NSTimer` every 1/60 s, a fixed 1/60 s per tick.
        case timer
        /// Listing 11.2: `CADisplayLink`, the measured frame duration per frame.
        case displayLink = "display-link"
    }

    /// One drawn frame.
    package struct Frame: Sendable, Hashable {
        /// The frame's number, from 0.
        package var index: Int
        /// Seconds since the animation started, by the clock.
        package var wallTime: Double
        /// The measured duration of the frame.
        package var frameDuration: Double
        /// The animation's own time.
        package var timeOffset: Double
        /// Where the ball is drawn in this frame.
        package var position: Vector
        /// How far the ball is from where the wall clock says it should be.
        package var error: Double
    }

    /// Runs the animation to its end on `clock`, as the listing `ticker` does.
    /// `work(frame)` stands for the rest of the frame's work (a simulated clock advances
    /// there); it returns nothing. Stops after `maxFrames` whatever happens.
    package static func run(
        on clock: any TickerClock, ticker: Ticker, maxFrames: Int = 10_000, work: (Int) -> Void = { _ in }
    ) -> [Frame] {
        var ball = BouncingBall()
        var frames: [Frame] = []
        let start = clock.now
        func record(_ tick: TickerFrame) -> TickerAction {
            let wall = tick.timestamp - start
            let position = ball.position
            let truth = ball.position(at: wall)
            frames.append(
                Frame(
                    index: tick.index, wallTime: wall, frameDuration: tick.duration, timeOffset: ball.timeOffset,
                    position: position, error: (position - truth).length))
            work(tick.index)
            return ball.isFinished || frames.count >= maxFrames ? .stop : .continue
        }
        switch ticker {
        case .timer:
            IntervalTimer(interval: 1.0 / 60, clock: clock).run { tick in
                ball.advance(by: 1 / 60.0)
                return record(tick)
            }
        case .displayLink:
            DisplayLink(frameDuration: 1.0 / 60, clock: clock).run { tick in
                // The first frame has no previous one: it measures from the start.
                ball.advance(by: tick.index == 0 ? tick.timestamp - start : tick.duration)
                return record(tick)
            }
        }
        return frames
    }
}
