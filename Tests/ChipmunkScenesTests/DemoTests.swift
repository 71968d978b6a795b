import Chipmunk
import Testing
import ChipmunkCatalog
@testable import ChipmunkScenes

/// Each of Chipmunk's demos, ported, shows what it exists to show.
@Suite struct DemoTests {
    private func run(_ scene: Scene, seconds: Double, every: Double? = nil, _ probe: (Double) throws -> Void = { _ in })
        throws
    {
        let steps = Int((seconds / scene.timeStep).rounded())
        let stride = every.map { max(1, Int(($0 / scene.timeStep).rounded())) } ?? steps
        for step in 1...steps {
            try scene.step(scene.timeStep)
            if step % stride == 0 { try probe(Double(step) * scene.timeStep) }
        }
    }

    @Test func pyramidStackSettlesAndSleeps() throws {
        let scene = Demos.pyramidStack()
        #expect(scene.space.bodies.count == 106)
        var asleepAt: Double?
        try run(scene, seconds: 10, every: 0.25) { t in
            if asleepAt == nil, scene.space.bodies.allSatisfy(\.isSleeping) { asleepAt = t }
        }
        let settled = try #require(asleepAt, "every body fell asleep")
        #expect(settled < 9)
        // The stack stands: the top box (added first) rests 13 boxes above the floor.
        #expect(scene.space.bodies[0].position.y > -240 + 13 * 30)
    }

    @Test func pyramidToppleFallsInOrder() throws {
        let scene = Demos.pyramidTopple()
        let bottomRow = scene.space.bodies
            .filter {
                abs($0.position.y - -225) < 20 && ($0.shapes.first as? Polygon)?.vertices.contains { $0.y > 10 } == true
            }
            .sorted { $0.position.x < $1.position.x }
        #expect(bottomRow.count == 12)
        var fellAt: [Double?] = Array(repeating: nil, count: bottomRow.count)
        try run(scene, seconds: 8, every: 1.0 / 60) { t in
            for (index, domino) in bottomRow.enumerated() where fellAt[index] == nil && abs(domino.angle) > 0.3 {
                fellAt[index] = t
            }
        }
        let times = fellAt.compactMap { $0 }
        #expect(times.count == 12, "every domino of the bottom row fell")
        // Left to right, one after another, until the falling top brings the last few down together.
        #expect(zip(times.prefix(8), times.dropFirst().prefix(8)).allSatisfy { $0 < $1 })
        #expect(times.last! - times.first! > 1.5)
    }

    @Test func tumbleTurnsItsContents() throws {
        let scene = Demos.tumble()
        let box = scene.space.bodies[0]
        #expect(box.kind == .kinematic)
        let contents = Array(scene.space.bodies.dropFirst())
        #expect(contents.count >= 21)
        let start = contents.map(\.position)
        try run(scene, seconds: 5)
        // Tumble.c sets 0.4f: the float nearest 0.4, widened to double.
        #expect(box.angularVelocity == Double(Float(0.4)))
        #expect(abs(box.angle - Double(Float(0.4)) * 5) < 1e-9, "the kinematic box turns at its set rate")
        #expect(box.position == .zero, "and is not pushed by what it carries")
        #expect(contents.allSatisfy { $0.position.length < 200 * 2.0.squareRoot() }, "everything stays inside")
        let moved = zip(contents, start).filter { $0.0.position.distance(to: $0.1) > 50 }.count
        #expect(moved > contents.count / 2, "the contents tumble")
    }

    @Test func planetsBodiesOrbit() throws {
        let scene = Demos.planet()
        let boxes = Array(scene.space.bodies.dropFirst())
        #expect(boxes.count == 30 && boxes.allSatisfy { $0.velocityUpdate != nil })
        let startAngles = boxes.map(\.position.angle)
        var lowest = Double.infinity
        var highest = 0.0
        try run(scene, seconds: 5, every: 0.1) { _ in
            for box in boxes {
                lowest = min(lowest, box.position.length)
                highest = max(highest, box.position.length)
            }
        }
        #expect(lowest > 70, "none falls to the surface")
        #expect(highest < 500, "none escapes")
        let swept = zip(boxes, startAngles).map { abs(($0.0.position.angle - $0.1).remainder(dividingBy: 2 * .pi)) }
        #expect(swept.allSatisfy { $0 > 0.2 }, "every box went some way round")
    }

    @Test func oneWayLetsTheBallUpThenHoldsIt() throws {
        let scene = Demos.oneWay()
        let ball = scene.space.bodies[0]
        var peak = -Double.infinity
        try run(scene, seconds: 6, every: 1.0 / 60) { _ in peak = max(peak, ball.position.y) }
        // The platform's top is at -90; the ball (radius 15) rose clear above it...
        #expect(peak - 15 > -90)
        // ...and came to rest on it: -100 + 10 (platform radius) + 15, less the collision slop.
        #expect(abs(ball.position.y - -75) < 0.2)
        #expect(ball.velocity.length < 1e-6)
    }

    @Test func jointsGalleryHoldsEveryConstraint() throws {
        let scene = Demos.joints()
        let constraints = scene.space.constraints
        let kinds = Set(constraints.map { String(describing: type(of: $0)) })
        #expect(
            kinds == [
                "PinJoint", "SlideJoint", "PivotJoint", "GrooveJoint", "DampedSpring", "DampedRotarySpring",
                "RotaryLimitJoint", "RatchetJoint", "GearJoint", "SimpleMotor",
            ], "all ten kinds")
        try run(scene, seconds: 10)
        for constraint in constraints {
            let a = constraint.bodyA
            let b = constraint.bodyB
            switch constraint {
            case let pin as PinJoint:
                #expect(abs(a.localToWorld(pin.anchorA).distance(to: b.localToWorld(pin.anchorB)) - pin.distance) < 0.5)
            case let slide as SlideJoint:
                let d = a.localToWorld(slide.anchorA).distance(to: b.localToWorld(slide.anchorB))
                #expect(d >= slide.distance.lowerBound - 0.5 && d <= slide.distance.upperBound + 0.5)
            case let pivot as PivotJoint:
                #expect(a.localToWorld(pivot.anchorA).distance(to: b.localToWorld(pivot.anchorB)) < 0.5)
            case let groove as GrooveJoint:
                let anchor = a.worldToLocal(b.localToWorld(groove.anchorB))
                #expect(abs(anchor.x - groove.grooveA.x) < 0.5, "on the groove's line")
            case let motor as SimpleMotor:
                // a − b is driven at rate π: ten seconds turn it by 10π.
                #expect(abs((a.angle - b.angle) - motor.rate * 10) < 0.5)
            case let limit as RotaryLimitJoint:
                #expect(
                    a.angle - b.angle >= limit.angle.lowerBound - 0.05
                        && a.angle - b.angle <= limit.angle.upperBound + 0.05)
            case let gear as GearJoint:
                #expect(abs(gear.ratio * b.angle - a.angle - gear.phase) < 0.05)
            default:
                break
            }
            #expect(a.position.isFinite && b.position.isFinite)
        }
    }

    @Test func theoJansenWalks() throws {
        let scene = Demos.theoJansen()
        let chassis = scene.space.bodies[0]
        let start = chassis.position.x
        try run(scene, seconds: 4)
        #expect(chassis.position.x - start > 100, "the motor drives the walker forward (to the right)")
        #expect(abs(chassis.angle) < 1, "upright")
    }

    @Test func chainsBreakUnderLoad() throws {
        let scene = Demos.chains()
        let links = scene.space.constraints.compactMap { $0 as? SlideJoint }
        #expect(links.count == 80)
        try run(scene, seconds: 2)
        let broken = links.filter { $0.space == nil }
        #expect(!broken.isEmpty, "the weighted chain broke")
        #expect(broken.count <= 10, "only that chain: 10 links")
        #expect(scene.space.constraints.count == 81 - broken.count)
        #expect(broken.allSatisfy { $0.impulse / scene.timeStep > 0.9 * Demos.chainBreakingForce || $0.space == nil })
    }

    @Test func buoyancyFloatsTheLightBoxAndSinksTheHeavyOne() throws {
        let scene = Demos.buoyancy()
        let light = scene.space.bodies[0]
        let heavy = scene.space.bodies[1]
        try run(scene, seconds: 8)
        // The light box (0.3 × the water's density, 50 high) floats with 30 % under the
        // surface at y = 0: its centre near 0 - 15 + 25 = 10.
        #expect(abs(light.position.y - 10) < 2)
        // The heavy one (3 ×) lies on the tank's floor: -200 + 5 (wall radius) + 20 (half its width, on its side).
        #expect(heavy.position.y < -170)
    }

    @Test func everyBuiltInSceneRunsAThousandFiniteSteps() throws {
        for entry in SceneCatalog.builtIn {
            let scene = entry.make()
            for _ in 0..<1000 { try scene.step(scene.timeStep) }
            #expect(
                scene.space.bodies.allSatisfy { $0.position.isFinite && $0.velocity.isFinite && $0.angle.isFinite },
                "\(entry.name)")
        }
    }
}

/// The ports use the C demos' own constants: their `0.7f`-style literals are floats widened
/// to double, and Theo Jansen's motor rate is computed in the C demo's order.
@Suite struct DemoConstantTests {
    @Test func floatLiteralsAreTheCDemosFloats() {
        let joints = Demos.joints()
        #expect(joints.space.shapes.contains { $0.friction == Double(Float(0.7)) })
        #expect(!joints.space.shapes.contains { $0.friction == 0.7 })
        let spring = joints.space.constraints.compactMap { $0 as? DampedSpring }.first { $0.restLength == 20 }
        #expect(spring?.damping == Double(Float(0.3)))
        #expect(Demos.planet().space.bodies[0].angularVelocity == Double(Float(0.2)))
        #expect(Demos.pyramidStack().space.shapes.contains { $0.friction == Double(Float(0.8)) })
    }

    @Test func theoJansensRateIsTheCDemos() {
        let motor = Demos.theoJansen().space.constraints.compactMap { $0 as? SimpleMotor }.first
        // TheoJansen.c update(): coef = (2.0f + 0)/3.0f; rate = 1*10.0f*coef.
        let coef = (2.0 + 0) / 3.0
        #expect(motor?.rate == 1 * 10.0 * coef)
        #expect(motor?.rate == 6.666666666666666 && motor?.rate != 20.0 / 3)
    }
}
