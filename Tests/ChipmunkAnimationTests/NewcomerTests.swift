import Chipmunk
import ChipmunkAnimation
import Foundation
import Testing

/// A newcomer's and an attacker's tries (helper h19).
struct AnimationNewcomerTests {
    /// The DocC overview on a simulated clock (its `try link.run` draws a warning: `run` rethrows).
    @Test func docCOverviewOnSimulatedClock() {
        var ball = BouncingBall()
        let link = DisplayLink(clock: SimulatedClock())
        var frames = 0
        link.run { frame in
            ball.advance(by: frame.duration)
            frames += 1
            return ball.isFinished ? .stop : .continue
        }
        #expect(ball.isFinished)
        #expect((ball.position - ball.to).length < 1e-9)
        print("DocC overview: \(frames) frames")
    }

    @Test func timingFunctionsSolveOverTheirRange() {
        let curves = [
            TimingFunction(controlPoints: 1, 0, 0, 1), TimingFunction(controlPoints: 0, 0, 0, 0),
            TimingFunction(controlPoints: 1, 1, 1, 1), TimingFunction(controlPoints: 0, 1e15, 1, -1e15),
            TimingFunction(controlPoints: 0.5, -1e15, 0.5, 1e15), .default, .easeInEaseOut,
        ]
        for curve in curves {
            for k in 0...1000 {
                let x = Double(k) / 1000
                let t = curve.parameter(forX: x)
                let solved = curve.point(at: t)
                #expect(abs(solved.x - x) <= 1e-9, "\(curve) x \(x) -> \(solved.x)")
                #expect(curve(x).isFinite)
            }
            #expect(curve(-1e308) == curve(0) && curve(1e308) == curve(1) && curve(.infinity) == curve(1))
        }
    }

    @Test func easingsAtTheEnds() {
        for easing in Easing.all {
            #expect(abs(easing(0)) < 1e-9 && abs(easing(1) - 1) < 1e-9, "\(easing)")
            #expect(easing(-.infinity) == easing(0) && easing(.infinity) == easing(1))
            #expect(easing(.nan).isNaN)
            for k in 0...1000 { #expect(easing(Double(k) / 1000).isFinite) }
        }
    }

    @Test func displayLinkSkipsAHugeStall() {
        let clock = SimulatedClock(lateness: [0, 1e9, 0, 1e9], repeats: true)
        var frames: [TickerFrame] = []
        DisplayLink(frameDuration: 1e-9, frameInterval: 1000, clock: clock).run { frame in
            frames.append(frame)
            return frames.count < 200 ? .continue : .stop
        }
        #expect(frames.allSatisfy { $0.duration.isFinite && $0.duration >= 0 && $0.skippedFrames >= 0 })
        #expect(frames.map(\.targetTime) == frames.map(\.targetTime).sorted())
    }

    @Test func ballWithTinyDurationAndFarPoints() {
        var ball = BouncingBall()
        ball.from = Vector(x: -1e15, y: 1e15)
        ball.to = Vector(x: 1e15, y: -1e15)
        ball.duration = 1e-9
        #expect(ball.position == ball.from)
        ball.advance(by: 0)
        ball.advance(by: 1e9)
        #expect(ball.isFinished && ball.position.isFinite)
    }

    /// As Apple's NSTimer, the timer fires once after a stall, skipping the deadlines it
    /// missed (it fired each one, 0 s apart).
    @Test func timerAfterAStall() {
        let clock = SimulatedClock(lateness: [0, 0.5])
        var frames: [TickerFrame] = []
        IntervalTimer(interval: 1.0 / 60, clock: clock).run { frame in
            frames.append(frame)
            return frames.count < 40 ? .continue : .stop
        }
        #expect(frames.filter { $0.index > 0 && $0.duration == 0 }.isEmpty)
        // The second wake-up came 0.5 s late, at 2/60 + 0.5 s: the 30 deadlines up to
        // 32/60 passed, and the next firing is at 33/60.
        #expect(frames[2].skippedFrames == 30 && frames[2].targetTime == 33.0 / 60)
    }
}

struct AnimationNewcomerExitTests {
    @Test func controlPointXOutOfRangeStops() async {
        await #expect(processExitsWith: .failure) { _ = TimingFunction(controlPoints: 1.5, 0, 0.5, 1) }
        await #expect(processExitsWith: .failure) { _ = TimingFunction(controlPoints: -0.1, 0, 0.5, 1) }
        await #expect(processExitsWith: .failure) { _ = TimingFunction(controlPoints: 0.1, .nan, 0.5, 1) }
    }
    @Test func zeroAndNegativeDurationsStop() async {
        await #expect(processExitsWith: .failure) { _ = DisplayLink(frameDuration: 0) }
        await #expect(processExitsWith: .failure) { _ = DisplayLink(frameInterval: 0) }
        await #expect(processExitsWith: .failure) { _ = IntervalTimer(interval: -1) }
        await #expect(processExitsWith: .failure) {
            var b = BouncingBall()
            b.duration = 0
        }
        await #expect(processExitsWith: .failure) {
            var b = BouncingBall()
            b.advance(by: -1)
        }
        await #expect(processExitsWith: .failure) { _ = SimulatedClock(lateness: [.infinity]) }
    }
}
