import Foundation
import Testing
@testable import Chipmunk
import ChipmunkTestSupport

/// A rule is a promise (STYLE.md, item 5d): every value a `Parameter` accepts must step
/// without an engine abort, a hang or a silent NaN. For every parameter, each extreme value
/// its rule accepts (the bounds, the next values inside them, ±0, the smallest denormal and
/// normal, the largest finite value, infinity where allowed) is applied to a small world
/// that uses it, which then steps 120 times: each step completes or throws from `step`, and
/// every body's state stays finite. Each parameter runs in a child process, so an abort or
/// a trap fails its own test (under AddressSanitizer, a third of its values:
/// `Sanitizer.runs`). And each value just outside the rule stops with the rule's message,
/// before any engine call.
@Suite(
    .disabled(
        if: Sanitizer.active == "thread",
        "each case runs alone in a child process: ThreadSanitizer adds minutes, and no thread")
)
struct AcceptedExtremesTests {
    /// The small world: a ground, a unit box `box` on body `b` resting on it, and a second
    /// body `c` with a circle, under gravity, sleeping enabled.
    struct World {
        let space = Space()
        let b = Body(mass: 1, moment: 1)
        let c = Body(mass: 1, moment: 1)
        let box: Polygon
        let ground: Segment
        var dt = 1.0 / 60
        var afterStep: ((World) -> Void)?

        init() {
            space.gravity = [0, -100]
            space.sleepTimeThreshold = 0.5
            ground = Segment(body: space.staticBody, from: [-20, 0], to: [20, 0], radius: 0.1)
            b.position = [0, 0.6]
            c.position = [3, 0.6]
            box = Polygon.box(body: b, width: 1, height: 1)
            space.add(ground, b, c, box, Circle(body: c, radius: 0.5))
        }

        /// Steps 120 times (stopping at the first error) and returns the first problem: after
        /// any step, thrown or not, a body's or a joint's state that is not finite, or a
        /// snapshot of the space that does not read back (a silent NaN; checked only after
        /// the last step, a NaN the solver left was hidden by the next step, which threw and
        /// stopped the bodies: a helper's attack, a motor's rate of 1.8e308); or a step that
        /// threw on a value the engine computed as NaN.
        func runFindingProblem() -> String? {
            for _ in 0..<120 {
                var threw = false
                do { try space.step(dt) } catch {
                    threw = true
                    // The step caught a NaN before it reached the bodies: thrown, but computed
                    // from values the rules accepted (a pin's distance of 1.7e308 made a NaN
                    // velocity: a helper's attack). A rule's values may diverge, past
                    // maxCoordinate or to an overflow, but the engine's arithmetic must stay
                    // defined.
                    if case .diverged(_, _, _, let value)? = error as? ChipmunkError, value.isNaN {
                        return "a step threw \(error): an accepted value made the engine compute NaN"
                    }
                }
                if let problem = stateProblem() { return problem }
                if threw { break }
                afterStep?(self)
            }
            return nil
        }

        private func stateProblem() -> String? {
            for body in space.bodies {
                let state = [
                    body.position.x, body.position.y, body.velocity.x, body.velocity.y, body.angle,
                    body.angularVelocity,
                ]
                if !state.allSatisfy(\.isFinite) {
                    return "step \(space.stepsTaken): a body's state is not finite: \(state)"
                }
            }
            for constraint in space.constraints {
                var state = [constraint.impulse]
                if let ratchet = constraint as? RatchetJoint { state.append(ratchet.angle) }
                if !state.allSatisfy(\.isFinite) {
                    return "step \(space.stepsTaken): a constraint's state is not finite: \(state)"
                }
            }
            do { _ = try Snapshot(bytes: space.snapshot().bytes) } catch {
                return "step \(space.stepsTaken): the space's snapshot does not read back: \(error)"
            }
            return nil
        }
    }

    /// How each parameter is used in the world.
    static func apply(_ parameter: Parameter, _ v: Double, to w: inout World) {
        let (space, b, c) = (w.space, w.b, w.c)
        func add(_ constraint: Constraint) { space.add(constraint) }
        switch parameter {
        case .bodyMass: b.mass = v
        case .bodyMoment: b.moment = v
        case .bodyCenterOfGravity:
            b.centerOfGravity = [v, v]
            add(PivotJoint(a: b, b: c, pivot: [1.5, 0.6]))
        case .bodyPosition: c.position = [v, v]
        case .bodyVelocity: b.velocity = [v, -v]
        case .bodyAngle: b.angle = v
        case .bodyAngularVelocity: b.angularVelocity = v
        case .bodyForce: b.force = [v, v]
        case .bodyTorque: b.torque = v
        case .appliedForce: b.applyForce([v, v], at: b.position)
        case .appliedImpulse: b.applyImpulse([v, v], at: b.position)
        case .applicationPoint: b.applyImpulse([1, 0], at: [v, v])
        case .integrationGravity:
            b.velocityUpdate = { body, _, damping, dt in
                try body.updateVelocity(gravity: [v, v], damping: damping, dt: dt)
            }
        case .integrationDamping:
            b.velocityUpdate = { body, gravity, _, dt in try body.updateVelocity(gravity: gravity, damping: v, dt: dt) }
        case .integrationTimeStep:
            b.velocityUpdate = { body, gravity, damping, _ in
                try body.updateVelocity(gravity: gravity, damping: damping, dt: v)
            }
            b.positionUpdate = { body, _ in try body.updatePosition(dt: v) }
        // Both shapes of the contact: the engine multiplies theirs (1e300 twice overflowed).
        case .shapeFriction:
            w.box.friction = v
            w.ground.friction = v
        case .shapeElasticity:
            w.box.elasticity = v
            w.ground.elasticity = v
        // Opposite on the two shapes of the contact: the engine takes their difference
        // (±1.7e308 gave inf - inf, a NaN contact, and the box fell through the ground).
        case .shapeSurfaceVelocity:
            w.box.surfaceVelocity = [v, v]
            w.ground.surfaceVelocity = [-v, -v]
        case .shapeMass: w.box.mass = v
        case .shapeDensity: w.box.density = v
        case .circleRadius: space.add(Circle(body: c, radius: v))
        case .circleOffset: space.add(Circle(body: c, radius: 0.5, offset: [v, v]))
        case .segmentEnd: space.add(Segment(body: space.staticBody, from: [v, v], to: [-v, 1]))
        case .segmentRadius: space.add(Segment(body: space.staticBody, from: [-5, 2], to: [5, 2], radius: v))
        case .segmentNeighbor: w.ground.setNeighbors(previous: [v, v], next: [-v, v])
        case .polygonVertex: space.add(Polygon(body: c, vertices: [[v, v], [1, 0], [0, 1]]))
        case .polygonTransform:
            // The triangle lies on the side of the origin that keeps it within the bound, and
            // is as large as the offset (a unit triangle at 1e15 has no area one can measure).
            let s: Double = v < 0 ? -1e15 : 1e15
            space.add(Polygon(body: c, vertices: [[0, 0], [-s, 0], [0, -s]], transform: .translation([v, v])))
        case .polygonRadius: space.add(Polygon(body: c, vertices: [[0, 0], [1, 0], [0, 1]], radius: v))
        case .boxSize: space.add(Polygon.box(body: c, width: v, height: 1))
        case .boxBounds:
            space.add(
                Polygon.box(body: c, boundingBox: BoundingBox(left: -abs(v), bottom: -1, right: 1, top: abs(v))))
        case .spaceGravity: space.gravity = [v, v]
        case .spaceDamping: space.damping = v
        case .spaceIterations: space.iterations = Int(v)
        case .spaceCollisionSlop: space.collisionSlop = v
        case .spaceCollisionBias: space.collisionBias = v
        case .spaceCollisionPersistence: space.collisionPersistence = Int(v)
        case .spaceIdleSpeedThreshold: space.idleSpeedThreshold = v
        case .spaceSleepTimeThreshold: space.sleepTimeThreshold = v
        case .spaceTimeStep: w.dt = v
        case .spaceMaxContactPairs: space.maxContactPairs = Int(v)
        case .spatialHashCellSize:
            // A world of a grain a tenth of the cell: the hash covers it in a few cells.
            let tiny = Space()
            let grain = Body(mass: 1, moment: 1)
            tiny.add(grain, Circle(body: grain, radius: min(v / 10, 1e15)))
            tiny.useSpatialHash(cellSize: v, count: 100)
            try? tiny.step(1.0 / 60)
        case .spatialHashCount: space.useSpatialHash(cellSize: 2, count: Int(v))
        case .constraintMaxForce:
            let pivot = PivotJoint(a: b, b: c, pivot: [1.5, 0.6])
            pivot.maxForce = v
            add(pivot)
        case .constraintErrorBias:
            let pivot = PivotJoint(a: b, b: c, pivot: [1.5, 0.6])
            pivot.errorBias = v
            add(pivot)
        case .constraintMaxBias:
            let pivot = PivotJoint(a: b, b: c, pivot: [1.5, 0.6])
            pivot.maxBias = v
            add(pivot)
        case .anchor: add(PinJoint(a: b, b: c, anchorA: [v, v], anchorB: .zero))
        case .pinDistance:
            let pin = PinJoint(a: b, b: c)
            pin.distance = v
            add(pin)
        case .slideDistance: add(SlideJoint(a: b, b: c, distance: 0...v))
        case .slideMin: add(SlideJoint(a: b, b: c, min: v, max: Parameter.maxLength))
        case .slideMax: add(SlideJoint(a: b, b: c, min: 0, max: v))
        case .pivot: add(PivotJoint(a: space.staticBody, b: b, pivot: [v, v]))
        case .grooveEnd: add(GrooveJoint(a: space.staticBody, b: b, grooveA: [v, 0], grooveB: [-v, 1]))
        case .springRestLength: add(DampedSpring(a: b, b: c, restLength: v, stiffness: 10, damping: 1))
        case .springStiffness: add(DampedSpring(a: b, b: c, restLength: 1, stiffness: v, damping: 0))
        case .springDamping: add(DampedSpring(a: b, b: c, restLength: 1, stiffness: 10, damping: v))
        case .springForce:
            let spring = DampedSpring(a: b, b: c, restLength: 1, stiffness: 10, damping: 1)
            spring.forceFunction = { _, _ in v }
            add(spring)
        case .rotarySpringRestAngle: add(DampedRotarySpring(a: b, b: c, restAngle: v, stiffness: 10, damping: 1))
        case .rotarySpringTorque:
            let spring = DampedRotarySpring(a: b, b: c, restAngle: 0, stiffness: 10, damping: 1)
            spring.torqueFunction = { _, _ in v }
            add(spring)
        case .rotaryLimitAngle: add(RotaryLimitJoint(a: b, b: c, angle: min(v, -v)...max(v, -v)))
        case .ratchetPhase:
            // Not a ratchet of 1, for which `floor(-phase) + phase` is 0 at any phase.
            add(RatchetJoint(a: b, b: c, phase: v, ratchet: 0.5))
        case .ratchetInterval: add(RatchetJoint(a: b, b: c, phase: 0, ratchet: v))
        case .ratchetAngle:
            let ratchet = RatchetJoint(a: b, b: c, phase: 0, ratchet: 1)
            ratchet.angle = v
            add(ratchet)
        case .gearPhase: add(GearJoint(a: b, b: c, phase: v, ratio: 1))
        // Against the largest moments, to the static body both ways round: the engine sums
        // the inverse moments weighted by the ratio and its inverse (a ratio of 1e-170 made
        // that sum subnormal and both spins NaN).
        case .gearRatio:
            b.moment = Parameter.massRange.upperBound
            c.moment = Parameter.massRange.upperBound
            add(GearJoint(a: b, b: space.staticBody, phase: 0, ratio: v))
            add(GearJoint(a: space.staticBody, b: c, phase: 0, ratio: v))
        case .motorRate: add(SimpleMotor(a: b, b: c, rate: v))
        case .arbiterRestitution:
            space.onCollision(preSolve: {
                $0.restitution = v
                return true
            })
        case .arbiterFriction:
            space.onCollision(preSolve: {
                $0.friction = v
                return true
            })
        case .arbiterSurfaceVelocity:
            space.onCollision(preSolve: {
                $0.surfaceVelocity = [v, v]
                return true
            })
        case .contactPoint:
            space.onCollision(preSolve: { arbiter in
                var set = arbiter.contactPointSet
                if set.count > 0 { set[0].distance = v }
                arbiter.contactPointSet = set
                return true
            })
        case .queryPoint:
            w.afterStep = { w in
                _ = w.space.pointQuery([v, v], maxDistance: 1)
                _ = w.space.pointQueryNearest([v, v])
                _ = w.space.segmentQuery(from: [v, v], to: [-v, 1])
                _ = w.space.segmentQueryFirst(from: [v, v], to: [-v, 1])
            }
        case .queryDistance: w.afterStep = { w in _ = w.space.pointQueryNearest(.zero, maxDistance: v) }
        case .queryRadius:
            w.afterStep = { w in
                _ = w.space.pointQuery(.zero, maxDistance: v)
                _ = w.space.segmentQuery(from: [-1, 1], to: [1, 1], radius: v)
            }
        case .queryBox:
            w.afterStep = { w in
                _ = w.space.boundingBoxQuery(
                    BoundingBox(left: min(v, -v), bottom: min(v, -v), right: max(v, -v), top: max(v, -v)))
            }
        case .stepperTimeStep:
            var stepper = FixedStepper(timeStep: v, maxStepsPerFrame: 120, clock: { 0 })
            for _ in 0..<10 { _ = try? stepper.advance(space, by: 1.0 / 60) }
        case .stepperMaxSteps:
            var stepper = FixedStepper(timeStep: 1.0 / 120, maxStepsPerFrame: Int(v), clock: { 0 })
            _ = try? stepper.advance(space, by: 1)
        case .stepperCPUBudget:
            var stepper = FixedStepper(timeStep: 1.0 / 120, cpuBudget: v, clock: { 0 })
            _ = try? stepper.advance(space, by: 1.0 / 60)
        case .frameDuration:
            var stepper = FixedStepper(clock: { 0 })
            _ = try? stepper.advance(space, by: v)
        }
    }

    @Test(arguments: Parameter.allCases.map(\.rawValue))
    func acceptedExtremesAreSafe(name: String) async {
        let log = ChildLog()
        let result = await #expect(processExitsWith: .success) { [name, log = log as ChildLog] in
            let parameter = Parameter(rawValue: name)!
            let row = Parameter.allCases.firstIndex(of: parameter)!
            for (column, value) in parameter.rule.acceptedExtremes.enumerated()
            where Sanitizer.runs(row: row, column: column) {
                log.write("trying \(parameter) = \(value)")
                var world = World()
                AcceptedExtremesTests.apply(parameter, value, to: &world)
                if let problem = world.runFindingProblem() {
                    log.write(problem)
                    fatalError(problem)
                }
            }
            // Ends here, past the exit handlers: these children test that nothing aborts or
            // traps. Under ASan, LeakSanitizer's exit check would scan the child's memory and
            // fail it (exit code 1) on what it judges leaked; leaks are the in-process
            // suite's and valgrind's job (scripts/leaks.sh), where a report names the cause.
            log.write("done")
            _exit(0)
        }
        let last = log.tail(2)
        if result == nil { Issue.record("\(name): the child stopped after: \(last)") }
    }

    /// Just outside the rule, `Parameter.check` throws, and the setter's check (`require`,
    /// the one behind every property) stops with the rule's message.
    @Test(arguments: Parameter.allCases.map(\.rawValue))
    func valuesOutsideStopWithTheRule(name: String) async {
        let parameter = Parameter(rawValue: name)!
        let outside = parameter.rule.valuesOutside
        #expect(!outside.isEmpty || parameter.rule == .nonNegative || parameter.rule == .positive, "\(name)")
        for value in outside {
            let error = #expect(throws: ChipmunkError.self, "\(name) \(value)") { try parameter.check(value) }
            guard case .invalidValue(parameter, let got)? = error, got.bitPattern == value.bitPattern else {
                Issue.record("\(name) \(value): \(String(describing: error))")
                continue
            }
        }
        guard outside.contains(where: { !$0.isNaN }) else { return }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [name] in
            let parameter = Parameter(rawValue: name)!
            parameter.require(parameter.rule.valuesOutside.first(where: { !$0.isNaN })!)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("\(parameter) must be \(parameter.rule) (got"), "\(name): \(output.prefix(200))")
    }
}
