import Testing
@testable import Chipmunk

@Suite struct FixedStepperTests {
    /// A space with some motion: a falling, spinning body bouncing on a floor.
    private func makeSpace() throws -> (Space, Body) {
        let space = Space()
        space.gravity = [0, -1000]
        space.add(
            Segment(body: space.staticBody, from: [-100, 0], to: [100, 0], radius: 1, friction: 0.5, elasticity: 0.8))
        let body = Body(mass: 1, moment: Moment.box(mass: 1, width: 10, height: 10))
        body.position = [0, 50]
        body.angularVelocity = 3
        space.add(body)
        space.add(Polygon.box(body: body, width: 10, height: 10, friction: 0.5, elasticity: 0.8))
        return (space, body)
    }

    /// The issue's test: the same total time as even 1/60 s frames, and as jittery frames
    /// (1/60 ± 50 %, one 0.5 s stall below the cap), gives bit-identical final states.
    @Test func jitteryAndEvenFramesGiveIdenticalStates() throws {
        let frameCount = 600
        let even = [Double](repeating: 1.0 / 60.0, count: frameCount)
        var random = SplitMix64(seed: 7)  // so the jitter is the same every run
        var jittery = (0..<frameCount - 40).map { _ in (1.0 / 60.0) * (0.5 + random.nextUnit()) }
        jittery.insert(0.5, at: 100)
        let total = 10.0  // 600 frames of 1/60 s
        jittery.append(total - jittery.reduce(0, +))  // the rest, so both sum to 10 s
        #expect(jittery.allSatisfy { $0 >= 0 } && jittery.last! < 1)

        func run(_ frames: [Double]) throws -> (Body, FixedStepper, [FrameReport]) {
            let (space, body) = try makeSpace()
            var stepper = FixedStepper()
            let reports = try frames.map { try stepper.advance(space, by: $0) }
            return (body, stepper, reports)
        }
        let (a, stepperA, _) = try run(even)
        let (b, stepperB, reportsB) = try run(jittery)
        #expect(stepperA.stepCount == 1200 && stepperB.stepCount == 1200)
        #expect(stepperA.droppedTime == 0 && stepperB.droppedTime == 0)
        #expect(reportsB[100].steps >= 60, "the stall was caught up, not dropped")
        #expect(a.position.x.bitPattern == b.position.x.bitPattern)
        #expect(a.position.y.bitPattern == b.position.y.bitPattern)
        #expect(a.angle.bitPattern == b.angle.bitPattern)
        #expect(a.velocity == b.velocity && a.angularVelocity == b.angularVelocity)
        #expect(a.position.y < 50, "the body did move")
    }

    @Test func aSlowFrameDropsTimeInsteadOfSpiralling() throws {
        let (space, _) = try makeSpace()
        var stepper = FixedStepper(timeStep: 1.0 / 120, maxStepsPerFrame: 10)
        let report = try stepper.advance(space, by: 1.0)  // 120 steps due, 10 allowed
        #expect(report.steps == 10)
        #expect(abs(report.droppedTime - 110.0 / 120) < 1e-12)
        #expect(stepper.droppedTime == report.droppedTime)
        #expect(stepper.accumulatedTime < stepper.timeStep)
        let next = try stepper.advance(space, by: 1.0 / 120)
        #expect(next.steps == 1 && next.droppedTime == 0, "the debt did not carry over")
    }

    @Test func interpolationIsTheFractionOfAStepLeft() throws {
        var stepper = FixedStepper(timeStep: 0.01)
        var steps = 0
        let report = stepper.advance(by: 0.025) { _ in steps += 1 }
        #expect(steps == 2 && report.steps == 2)
        #expect(abs(report.interpolation - 0.5) < 1e-9)
        #expect(abs(stepper.simulatedTime - 0.02) < 1e-15)
    }

    @Test func cpuShareIsMeasuredAndFlaggedPastTheBudget() throws {
        // A fake clock that advances 6 ms of CPU per step of 10 ms: 60 %, past the book's 50 %.
        final class FakeClock: @unchecked Sendable { var now = 0.0 }
        let clock = FakeClock()
        var stepper = FixedStepper(timeStep: 0.01, clock: { clock.now })
        let slow = stepper.advance(by: 0.02) { _ in clock.now += 0.006 }
        #expect(abs(slow.physicsTime - 0.012) < 1e-12)
        #expect(abs(slow.cpuShare - 0.6) < 1e-9)
        #expect(slow.isOverBudget)
        let fast = stepper.advance(by: 0.01) { _ in clock.now += 0.001 }
        #expect(abs(fast.cpuShare - 0.1) < 1e-9 && !fast.isOverBudget)
        let idle = stepper.advance(by: 0.001) { _ in clock.now += 1 }
        #expect(idle.steps == 0 && idle.cpuShare == 0)
    }

    /// A frame duration from data is checked with `Parameter.frameDuration`, which throws
    /// the parameter and the value; the check leaves the stepper as it was.
    @Test func badArgumentsThrow() throws {
        let stepper = FixedStepper()
        for bad in [-0.1, .nan, .infinity] {
            let error = #expect(throws: ChipmunkError.self) { try Parameter.frameDuration.check(bad) }
            guard case .invalidValue(let parameter, let value)? = error else {
                Issue.record("expected invalidValue for \(bad), got \(String(describing: error))")
                continue
            }
            #expect(parameter == .frameDuration)
            #expect(value.bitPattern == bad.bitPattern)
        }
        #expect(stepper.accumulatedTime == 0 && stepper.stepCount == 0)
    }

    /// The same value written in code stops `advance` before any step, naming it.
    @Test func aNegativeFrameDurationStopsAdvance() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var stepper = FixedStepper()
            _ = stepper.advance(by: -0.1) { _ in }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains("FixedStepper.advance frameDuration must be zero or more, and finite (got -0.1)"),
            "\(output.prefix(400))")
    }

    @Test func anErrorInAStepStopsTheFrameAndKeepsTheRest() throws {
        struct Stop: Error {}
        var stepper = FixedStepper(timeStep: 0.01)
        var calls = 0
        #expect(throws: Stop.self) {
            try stepper.advance(by: 0.05) { _ in
                calls += 1
                if calls == 3 { throw Stop() }
            }
        }
        #expect(stepper.stepCount == 2)
        #expect(abs(stepper.accumulatedTime - 0.03) < 1e-12, "the unsimulated time is kept")
    }
}
