import Chipmunk
import ChipmunkTestSupport
import Foundation
import Testing

@testable import ChipmunkAnimation

/// A rule is a promise (STYLE.md, item 5d), in ChipmunkAnimation as in the core: for every
/// `AnimationParameter`, each extreme value its rule accepts drives what uses it (a timing
/// curve, a timer, a display link on a simulated clock that jumps a billion seconds, the
/// book's ball) for 60 frames, and every time, duration, skip count and position stays
/// finite. Each parameter runs in a child process, so a trap fails its own test. Before
/// this test, a display link with a frame of 1e-300 s trapped converting the frames a late
/// callback skipped to an `Int`, a monotonic clock's sleep until 1e300 trapped the same
/// way, and a ball with a duration of 0, or a NaN step, drew NaN positions.
@Suite(
    .disabled(
        if: Sanitizer.active == "thread",
        "each case runs alone in a child process: ThreadSanitizer adds minutes, and no thread")
)
struct AnimationExtremesTests {
    /// Stops the child with status 3 unless every number of `frame` is finite.
    static func check(_ frame: TickerFrame, _ log: ChildLog) {
        guard frame.targetTime.isFinite, frame.timestamp.isFinite, frame.duration.isFinite, frame.skippedFrames >= 0
        else {
            log.write("  NOT FINITE: \(frame)")
            exit(3)
        }
    }

    /// Runs `ticker` for 60 frames; in frame 2 the work takes `work` seconds.
    static func run(
        _ ticker: (_ body: (TickerFrame) -> TickerAction) -> Void, on clock: SimulatedClock, work: Double,
        _ log: ChildLog
    ) {
        ticker { frame in
            check(frame, log)
            if frame.index == 2 { clock.advance(by: work) }
            return frame.index < 59 ? .continue : .stop
        }
    }

    /// Drives what uses `parameter` with `v`.
    static func drive(_ parameter: AnimationParameter, _ v: Double, _ log: ChildLog) {
        let most = AnimationParameter.maxInterval
        switch parameter {
        case .controlPointX, .controlPointY:
            let curve =
                parameter == .controlPointX
                ? TimingFunction(controlPoints: v, 0.1, v, 1) : TimingFunction(controlPoints: 0.25, v, 0.75, -v)
            for x in [0, .leastNonzeroMagnitude, 1e-12, 0.25, 0.5, 1 - 1e-16, 1] where !curve(x).isFinite {
                log.write("  NOT FINITE: curve(\(x)) = \(curve(x))")
                exit(3)
            }
        case .timerInterval, .frameDuration:
            for work in [0, most] {
                let clock = SimulatedClock(lateness: [0, most, 0], repeats: true)
                if parameter == .timerInterval {
                    run({ IntervalTimer(interval: v, clock: clock).run($0) }, on: clock, work: work, log)
                } else {
                    for every in [1, 2, Int.max] {
                        run(
                            { DisplayLink(frameDuration: v, frameInterval: every, clock: clock).run($0) }, on: clock,
                            work: work, log)
                    }
                }
            }
        case .clockStart, .clockLateness, .clockAdvance:
            for (interval, frame) in [(most, AnimationParameter.minInterval), (AnimationParameter.minInterval, most)] {
                let clock = {
                    switch parameter {
                    case .clockStart: SimulatedClock(start: v, lateness: [most])
                    case .clockLateness: SimulatedClock(lateness: [v, 0, v], repeats: true)
                    default: SimulatedClock()
                    }
                }
                let work = parameter == .clockAdvance ? v : most
                let timerClock = clock()
                run({ IntervalTimer(interval: interval, clock: timerClock).run($0) }, on: timerClock, work: work, log)
                let linkClock = clock()
                run({ DisplayLink(frameDuration: frame, clock: linkClock).run($0) }, on: linkClock, work: work, log)
            }
        case .ballPoint, .ballDuration, .ballStep:
            var ball = BouncingBall()
            switch parameter {
            case .ballPoint:
                ball.from = Vector(x: v, y: -v)
                ball.to = Vector(x: -v, y: v)
            case .ballDuration: ball.duration = v
            default: break
            }
            for step in 0..<60 {
                ball.advance(by: parameter == .ballStep ? v : [1.0 / 60, 0, most][step % 3])
                guard ball.position.isFinite, ball.timeOffset.isFinite else {
                    log.write("  NOT FINITE at frame \(step): \(ball.position), \(ball.timeOffset)")
                    exit(3)
                }
            }
        }
    }

    @Test(arguments: AnimationParameter.allCases.map(\.rawValue))
    func acceptedExtremesAreSafe(name: String) async {
        let log = ChildLog()
        let result = await #expect(processExitsWith: .success) { [name, log = log as ChildLog] in
            let parameter = AnimationParameter(rawValue: name)!
            for value in parameter.rule.acceptedExtremes {
                log.write("trying \(parameter) = \(value)")
                AnimationExtremesTests.drive(parameter, value, log)
            }
            log.write("done")
            _exit(0)
        }
        if result == nil { Issue.record("\(name): the child stopped after: \(log.tail(3))") }
    }

    /// Just outside each rule, the check stops with the rule's message, naming the user's
    /// property: in every build, as `ensure` does.
    @Test(arguments: AnimationParameter.allCases.map(\.rawValue))
    func valuesOutsideStopNamingTheProperty(name: String) async {
        let parameter = AnimationParameter(rawValue: name)!
        #expect(!parameter.rule.valuesOutside.isEmpty, "\(name)")
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [name] in
            let parameter = AnimationParameter(rawValue: name)!
            AnimationExtremesTests.drive(parameter, parameter.rule.valuesOutside.first(where: \.isFinite)!, ChildLog())
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("\(parameter) must be \(parameter.rule)"), "\(name): \(stderr)")
    }

    /// The monotonic clock's deadline as `clock_nanosleep` takes it: a deadline beyond
    /// 2^62 s is that one (`Int(1e300)` trapped), and the fraction is kept below it.
    @Test func aFarDeadlineIsTheLatestOneNotATrap() {
        let far = MonotonicClock.absoluteTime(at: 1e300)
        #expect(far.tv_sec == Int(MonotonicClock.latestDeadline) && far.tv_nsec == 0)
        let near = MonotonicClock.absoluteTime(at: 12.25)
        #expect(near.tv_sec == 12 && near.tv_nsec == 250_000_000)
    }
}
