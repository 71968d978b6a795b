import ArgumentParser
import Chipmunk
import ChipmunkAnimation
import Foundation

struct Ball: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The book's bouncing ball (listings 11.1 and 11.2) on both tickers, frame by frame.",
        discussion: """
            The ball falls from (150, 32) to (150, 268) in 1 s with bounceEaseOut. Listing 11.1 \
            drives it with an NSTimer-style ticker and adds a fixed 1/60 s each tick; listing \
            11.2 with a display link and adds each frame's measured duration. On a jittery clock \
            (frames up to --jitter ms late, and a --stall ms stall every --stall-every frames, \
            seeded) the timer's ball depends on when frames come: it lags the clock and ends \
            late. The display link's ball is where the clock says at every frame.

            Columns: the ticker, the frame, the wall-clock time (ms), the frame's measured \
            duration (ms), the animation's time (ms), the ball's y, and how far it is from where \
            the wall clock says it should be (points).

            Examples:
              chipmunk-sim ball
              chipmunk-sim ball --jitter 0 --stall 0        # a steady clock: both agree
              chipmunk-sim ball --real-time --ticker display-link
            """
    )

    @Option(help: "Which ticker drives the ball.") var ticker: TickerChoice = .both
    @Option(
        parsing: .unconditional,
        help: "The most a frame is late, in milliseconds from 0 to 1000 (uniform, seeded; default: 12).",
        transform: DecimalNumber.parser(0...1000, "milliseconds"))
    var jitter = 12.0
    @Option(
        parsing: .unconditional, help: "A stall of this many milliseconds (0 to 1000; default: 40) …",
        transform: DecimalNumber.parser(0...1000, "milliseconds"))
    var stall = 40.0
    @Option(
        parsing: .unconditional, help: "… every Nth frame (0: none; default: 20).",
        transform: WholeNumber.parser(0...WholeNumber.maxStep, "frames"))
    var stallEvery = 20
    @Option(
        parsing: .unconditional, help: "The jitter's seed, a whole number from 0 to 2^64 - 1 (default: 42).",
        transform: { text in
            guard let seed = UInt64(text) else {
                throw ValidationError("--seed must be a whole number from 0 to 18446744073709551615 (got \(text))")
            }
            return seed
        })
    var seed: UInt64 = 42
    @Option(help: "A table to read, or CSV.") var format: BallFormat = .table
    @Flag(help: "Run on the real monotonic clock; the jitter becomes real sleeps in each frame.") var realTime = false

    /// The seeded lateness of each frame, in seconds.
    func lateness(count: Int) -> [Double] {
        var state = seed
        return (0..<count).map { index in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let stalled = stallEvery > 0 && index % stallEvery == stallEvery - 1
            return ((stalled ? stall : 0) + Double(state >> 40) / Double(1 << 24) * jitter) / 1000
        }
    }

    func run() throws {
        let tickers: [BouncingBall.Ticker] =
            ticker == .both ? [.timer, .displayLink] : [BouncingBall.Ticker(rawValue: ticker.rawValue)!]
        let delays = lateness(count: 400)
        var out = format == .csv ? "ticker,frame,wall_ms,frame_ms,animation_ms,y,error\n" : ""
        var summaries: [String] = []
        for ticker in tickers {
            let frames: [BouncingBall.Frame]
            if realTime {
                frames = BouncingBall.run(on: MonotonicClock(), ticker: ticker) { index in
                    usleep(UInt32(delays[index % delays.count] * 1e6))
                }
            } else {
                frames = BouncingBall.run(on: SimulatedClock(lateness: delays), ticker: ticker)
            }
            if format == .table {
                out += "\(ticker.rawValue) (listing \(ticker == .timer ? "11.1" : "11.2")):\n"
                out += "  frame  wall ms  frame ms  anim ms        y   error\n"
            }
            for f in frames {
                if format == .csv {
                    out += "\(ticker.rawValue),\(f.index),\(f.wallTime * 1000),\(f.frameDuration * 1000),"
                    out += "\(f.timeOffset * 1000),\(f.position.y),\(f.error)\n"
                } else {
                    out += String(
                        format: "  %5d  %7.1f  %8.1f  %7.1f  %7.2f  %6.2f\n", f.index, f.wallTime * 1000,
                        f.frameDuration * 1000, f.timeOffset * 1000, f.position.y, f.error)
                }
            }
            let worst = frames.map(\.error).max() ?? 0
            summaries.append(
                String(
                    format:
                        "%@: %d frames, ends at %.0f ms of wall time, at most %.2f points from where the clock says",
                    ticker.rawValue, frames.count, (frames.last?.wallTime ?? 0) * 1000, worst))
        }
        if format == .table { out += "\n" + summaries.joined(separator: "\n") + "\n" }
        try Output.standardOutput(out)
    }
}

/// `ball --ticker`: one of the book's tickers, or both.
enum TickerChoice: String, ExpressibleByArgument, CaseIterable {
    case timer
    case displayLink = "display-link"
    case both
}

/// What `ball` writes.
enum BallFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv
}
