import Chipmunk
@testable import ChipmunkAnimation
import Foundation
import Testing

@Suite struct TickerTests {
    let period = 1.0 / 60

    @Test(
        "The timer fires on its grid; a late wake-up is late; after an overrun it skips the missed deadlines, as NSTimer does"
    )
    func timerSkipsMissedDeadlines() {
        // Wake-ups: on time, 4 ms late, then on time.
        let clock = SimulatedClock(lateness: [0, 0.004])
        var frames: [TickerFrame] = []
        IntervalTimer(interval: period, clock: clock).run { frame in
            frames.append(frame)
            if frame.index == 2 { clock.advance(by: 0.05) }  // a 50 ms frame: three deadlines pass
            return frames.count < 10 ? .continue : .stop
        }
        #expect(frames[0].timestamp == period)
        #expect(abs(frames[1].timestamp - (2 * period + 0.004)) < 1e-12, "the second wake-up is 4 ms late")
        // Frame 2 ran from 3/60 s for 50 ms, past the deadlines 4/60, 5/60 and 6/60: each is
        // skipped, and the timer fires once, at 7/60, never twice for one period.
        #expect(frames[3].targetTime == 7 * period)
        #expect(frames[3].skippedFrames == 3)
        #expect(frames.map(\.targetTime) == ([1, 2, 3] + (7...13)).map { Double($0) * period })
        #expect(frames.enumerated().allSatisfy { $0.offset == 3 || $0.element.skippedFrames == 0 })
        #expect(frames.dropFirst().allSatisfy { $0.duration > 0 }, "no two firings at one time")
    }

    @Test("The display link skips a missed frame instead of firing twice, and measures each frame")
    func displayLinkSkips() {
        let clock = SimulatedClock(lateness: [0, 0.004])
        var frames: [TickerFrame] = []
        DisplayLink(frameDuration: period, clock: clock).run { frame in
            frames.append(frame)
            if frame.index == 2 { clock.advance(by: 0.05) }
            return frames.count < 10 ? .continue : .stop
        }
        // Frame 2 ran from 3/60 s to 3/60 + 50 ms = 6/60 + 0.0167 ms… past the deadlines 4/60, 5/60, 6/60.
        #expect(frames[3].skippedFrames == 3, "\(frames[3])")
        #expect(abs(frames[3].targetTime - 7 * period) < 1e-12)
        for (a, b) in zip(frames, frames.dropFirst()) {
            #expect(b.targetTime - a.targetTime >= period - 1e-9, "never two firings for one display frame")
            #expect(abs(b.duration - (b.timestamp - a.timestamp)) < 1e-15, "duration is the measured interval")
            let slot = b.targetTime / period
            #expect(abs(slot - slot.rounded()) < 1e-9, "deadlines stay on the display's grid")
        }
        #expect(abs(frames[1].duration - (period + 0.004)) < 1e-12)
    }

    @Test("frameInterval 2 fires every other display frame: 30 fps")
    func frameInterval() {
        let clock = SimulatedClock()
        var stamps: [Double] = []
        DisplayLink(frameDuration: period, frameInterval: 2, clock: clock).run { frame in
            stamps.append(frame.timestamp)
            return stamps.count < 30 ? .continue : .stop
        }
        #expect(abs(stamps.last! - 1) < 1e-9, "30 frames take a second")
        for (a, b) in zip(stamps, stamps.dropFirst()) { #expect(abs(b - a - 2 * period) < 1e-12) }
    }

    @Test("FixedStepper plugs into the display link: jittery frames, steps of exactly 1/120 s, nothing lost")
    func stepperOnDisplayLink() throws {
        let clock = SimulatedClock(lateness: [0, 0.003, 0.011, 0, 0.007, 0.001], repeats: true)
        var stepper = FixedStepper(timeStep: 1.0 / 120, clock: { 0 })
        var steps = 0
        var elapsed = 0.0
        DisplayLink(frameDuration: period, clock: clock).run { frame in
            elapsed += frame.duration
            let report = stepper.advance(by: frame.duration) { _ in steps += 1 }
            #expect(report.steps <= 3)
            return frame.index < 119 ? .continue : .stop
        }
        #expect(steps == stepper.stepCount)
        #expect(abs(Double(steps) / 120 + stepper.accumulatedTime - elapsed) < 1e-9, "simulated time follows real time")
    }

    /// The display link sleeps until absolute deadlines, so lateness never accumulates: on a
    /// clock that wakes it up to 12 ms late each frame (seeded), 600 frames stay on the
    /// display's grid and their mean interval is the frame duration. (The real clock's
    /// accuracy depends on the machine's load; it is measured by a benchmark,
    /// `display-link-accuracy` in Benchmarks/, not asserted here.)
    @Test("Absolute deadlines: late wake-ups do not drift the display link's frames off its grid")
    func deadlinesDoNotDrift() {
        var state: UInt64 = 7
        let lateness = (0..<600).map { _ -> Double in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 40) / Double(1 << 24) * 0.012
        }
        let clock = SimulatedClock(lateness: lateness)
        var frames: [TickerFrame] = []
        DisplayLink(frameDuration: period, clock: clock).run { frame in
            frames.append(frame)
            return frames.count < 600 ? .continue : .stop
        }
        #expect(frames.allSatisfy { $0.skippedFrames == 0 }, "no wake-up was a whole frame late")
        for (index, frame) in frames.enumerated() {
            #expect(abs(frame.targetTime - Double(index + 1) * period) < 1e-9, "frame \(index) is on the grid")
            #expect(abs(frame.timestamp - frame.targetTime - lateness[index]) < 1e-9, "lateness is not carried over")
        }
        let mean = (frames.last!.targetTime - frames.first!.targetTime) / Double(frames.count - 1)
        #expect(abs(mean - period) < 1e-12)
    }
}

@Suite struct BouncingBallTests {
    /// Frames 0-12 ms late at random (seeded), and a 40 ms stall every 20th frame.
    static func jitteryClock() -> SimulatedClock {
        var state: UInt64 = 42
        let lateness = (0..<200).map { index -> Double in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (index % 20 == 19 ? 0.040 : 0) + Double(state >> 40) / Double(1 << 24) * 0.012
        }
        return SimulatedClock(lateness: lateness)
    }

    @Test("On a steady clock both listings draw the same frames")
    func steady() {
        let timer = BouncingBall.run(on: SimulatedClock(), ticker: .timer)
        let link = BouncingBall.run(on: SimulatedClock(), ticker: .displayLink)
        #expect(timer.count == 60 && link.count == 60)
        for (a, b) in zip(timer, link) { #expect(abs(a.position.y - b.position.y) < 1e-9) }
        #expect(abs(timer.last!.position.y - 268) < 1e-9, "bounceEaseOut(1) is 1 to within an ulp or two")
    }

    @Test("With jittery frames the timer's ball depends on frame timing; the display link's follows the clock")
    func jittery() {
        let timer = BouncingBall.run(on: Self.jitteryClock(), ticker: .timer)
        let link = BouncingBall.run(on: Self.jitteryClock(), ticker: .displayLink)
        #expect(link.allSatisfy { $0.error < 1e-9 }, "the measured-duration ball is where the clock says")
        #expect(timer.map(\.error).max()! > 20, "the fixed-step ball lags: \(timer.map(\.error).max()!) points")
        #expect(timer.last!.wallTime > link.last!.wallTime, "and finishes late")
    }
}
