import Testing

@testable import Chipmunk

/// A moment of infinity, pymunk's `Body(mass, float("inf"))`: a body that never turns. Its
/// inverse moment is 0, so the only new danger is a rotary constraint between two bodies of
/// which neither can turn, which the engine cannot solve ("Unsolvable spring." aborts the
/// process; the other rotary joints divide by 0 and make both spins NaN).
@Suite struct InfiniteMomentTests {
    /// A box dropped corner first onto a slope: with a moment of infinity it lands, slides
    /// and never turns, with its angle and spin exactly as given; with a finite moment the
    /// same box turns.
    @Test func aBodyOfInfiniteMomentSlidesWithoutTurning() throws {
        func drop(moment: Double) throws -> Body {
            let space = Space()
            space.gravity = [0, -500]
            space.add(Segment(body: space.staticBody, from: [-500, 100], to: [500, -100], radius: 1, friction: 0.1))
            let box = Body(mass: 1, moment: moment)
            box.position = [0, 60]
            box.angle = 0.3
            space.add(box, Polygon.box(body: box, width: 30, height: 20, friction: 0.1))
            for _ in 0..<600 { try space.step(1.0 / 120) }
            return box
        }
        let fixed = try drop(moment: .infinity)
        #expect(fixed.angle == 0.3 && fixed.angularVelocity == 0)
        #expect(fixed.position.y < 0 && fixed.position.x > 0, "it landed and slid down the slope")
        #expect(fixed.position.x.isFinite && fixed.velocity.x.isFinite)
        let turning = try drop(moment: Moment.box(mass: 1, width: 30, height: 20))
        #expect(turning.angle != 0.3)
    }

    /// The engine's energy counts a term only when its velocity is not 0, so a body of
    /// infinite moment at rest has a finite energy; and it has no halves (mv² + Iω²).
    @Test func kineticEnergyStaysFinite() throws {
        let body = Body(mass: 2, moment: .infinity)
        body.velocity = [3, 0]
        #expect(body.kineticEnergy == 18)
        body.angularVelocity = 1
        #expect(body.kineticEnergy == .infinity)
        #expect(body.moment == .infinity)
    }

    /// Every rotary constraint between a body of infinite moment and one that cannot turn
    /// (the static body, a kinematic body, another body of infinite moment) makes the step
    /// throw, naming the constraint, before the engine runs; with a body that can turn, it
    /// steps.
    @Test(arguments: ["rotarySpring", "rotaryLimit", "ratchet", "gear", "motor"])
    func aRotaryConstraintBetweenBodiesThatCannotTurnIsRefused(kind: String) throws {
        func constraint(_ a: Body, _ b: Body) -> Constraint {
            switch kind {
            case "rotarySpring": return DampedRotarySpring(a: a, b: b, restAngle: 0, stiffness: 100, damping: 1)
            case "rotaryLimit": return RotaryLimitJoint(a: a, b: b, angle: -0.1...0.1)
            case "ratchet": return RatchetJoint(a: a, b: b, phase: 0, ratchet: 0.5)
            case "gear": return GearJoint(a: a, b: b, phase: 0, ratio: 2)
            default: return SimpleMotor(a: a, b: b, rate: 3)
            }
        }
        let space = Space()
        let fixed = Body(mass: 1, moment: .infinity)
        let kinematic = Body(kind: .kinematic)
        let other = Body(mass: 1, moment: .infinity)
        space.add(fixed, kinematic, other)
        for partner in [space.staticBody, kinematic, other] {
            let joint = constraint(partner, fixed)
            space.add(joint)
            let step = space.stepsTaken + 1
            #expect(throws: ChipmunkError.cannotTurn(step: step, constraint: 0)) { try space.step(1.0 / 60) }
            #expect(space.stepsTaken == step - 1, "nothing was simulated")
            space.remove(joint)
        }
        // A body that can turn: it steps, and the body that cannot turn still does not.
        let turning = Body(mass: 1, moment: 1)
        space.add(turning)
        let joint = constraint(turning, fixed)
        space.add(joint)
        for _ in 0..<120 { try space.step(1.0 / 60) }
        #expect(fixed.angularVelocity == 0 && fixed.angle == 0)
        #expect(turning.angularVelocity.isFinite && turning.angle.isFinite)
        // Made unable to turn after the joint was added: the next step refuses.
        turning.moment = .infinity
        let step = space.stepsTaken + 1
        #expect(throws: ChipmunkError.cannotTurn(step: step, constraint: 0)) { try space.step(1.0 / 60) }
        turning.moment = 1
        try space.step(1.0 / 60)
        // The same through a kind: the turning body made kinematic.
        turning.kind = .kinematic
        #expect(throws: ChipmunkError.cannotTurn(step: step + 1, constraint: 0)) { try space.step(1.0 / 60) }
    }

    /// Inside a step the solvability pass has run: a moment made infinite in a callback (here
    /// the spring's own preSolve), with the spring's other body unable to turn, reached the
    /// engine's "Unsolvable spring." abort (a helper's attack). It stops naming the property.
    @Test func infinityInsideAStepStopsBeforeTheEngine() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            let body = Body(mass: 1, moment: 1)
            let spring = DampedRotarySpring(a: space.staticBody, b: body, restAngle: 1, stiffness: 100, damping: 1)
            space.add(body, spring)
            spring.preSolve = { _ in body.moment = .infinity }
            for _ in 0..<10 { try? space.step(1.0 / 60) }
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("Body.moment cannot become infinity during a step"), "\(text)")
        #expect(!text.contains("Unsolvable spring"), "\(text)")
    }

    /// With a partner that can turn, infinity inside a step is fine, and so is any finite
    /// moment.
    @Test func infinityInsideAStepWithAPartnerThatTurns() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        let partner = Body(mass: 1, moment: 1)
        let spring = DampedRotarySpring(a: partner, b: body, restAngle: 1, stiffness: 100, damping: 1)
        space.add(body, partner, spring)
        spring.preSolve = { [unowned body] _ in body.moment = .infinity }
        for _ in 0..<60 { try space.step(1.0 / 60) }
        #expect(body.moment == .infinity && partner.angle.isFinite && partner.angle != 0)
        spring.preSolve = nil
    }

    /// The message names the constraint and what to do.
    @Test func theErrorSaysWhy() {
        #expect(
            "\(ChipmunkError.cannotTurn(step: 3, constraint: 1))"
                == "step 3: constraint 1 cannot be solved: it turns its bodies, and neither can turn (static, "
                + "kinematic, or a moment of infinity); give one of them a finite moment")
        #expect(Parameter.bodyMoment.rule.description == "from 1e-150 to 1e+150, or infinity")
        #expect(Parameter.bodyMoment.accepts(.infinity) && !Parameter.bodyMoment.accepts(-.infinity))
        #expect(!Parameter.bodyMass.accepts(.infinity))
    }

    /// Joints that do not turn their bodies, and contacts, take a body of infinite moment:
    /// a bob on a rod swings (its centre moves, its angle does not); a pivot at its side
    /// holds it still, as nothing may turn it about the pivot; a pile of such boxes settles.
    @Test func otherJointsAndContactsTakeIt() throws {
        let space = Space()
        space.gravity = [0, -100]
        let bob = Body(mass: 1, moment: .infinity)
        bob.position = [50, 0]
        space.add(bob, Circle(body: bob, radius: 5), PinJoint(a: space.staticBody, b: bob))
        let held = Body(mass: 1, moment: .infinity)
        held.position = [-50, 0]
        space.add(held, Circle(body: held, radius: 5), PivotJoint(a: space.staticBody, b: held, pivot: [-40, 0]))
        space.add(Segment(body: space.staticBody, from: [-200, -100], to: [200, -100], radius: 2, friction: 1))
        var boxes: [Body] = []
        for i in 0..<5 {
            let box = Body(mass: 1, moment: .infinity)
            box.position = [-150 + Double(i) * 3, -90 + Double(i) * 21]
            space.add(box, Polygon.box(body: box, width: 20, height: 20, friction: 1))
            boxes.append(box)
        }
        for _ in 0..<1_200 { try space.step(1.0 / 120) }
        #expect(bob.angle == 0 && bob.position.x < 50 && bob.position.x.isFinite)
        #expect(abs(bob.position.length - 50) < 1, "the rod kept its length")
        #expect(held.angle == 0 && abs(held.position.x + 50) < 1e-3 && abs(held.position.y) < 1e-3)
        #expect(boxes.allSatisfy { $0.angle == 0 && $0.position.y.isFinite && $0.position.y > -100 })
    }

    /// Snapshots, saved states and copies keep the infinite moment and continue with the
    /// same bits.
    @Test func snapshotsStatesAndCopiesContinueExactly() throws {
        func world() -> Space {
            let space = Space()
            space.gravity = [0, -100]
            space.add(Segment(body: space.staticBody, from: [-200, -100], to: [200, 0], radius: 2, friction: 0.5))
            let body = Body(mass: 2, moment: .infinity)
            body.position = [0, 50]
            body.angularVelocity = 0.5
            let turning = Body(mass: 1, moment: 10)
            turning.position = [10, 80]
            space.add(body, Polygon.box(body: body, width: 20, height: 10, friction: 0.5))
            space.add(turning, Circle(body: turning, radius: 4, friction: 0.5))
            space.add(GearJoint(a: body, b: turning, phase: 0, ratio: 1))
            return space
        }
        let space = world()
        for _ in 0..<60 { try space.step(1.0 / 60) }
        let restored = try Space(restoring: Snapshot(bytes: space.snapshot().bytes))
        let copy = space.copy()
        var state = SpaceState()
        space.save(into: &state)
        #expect(restored.bodies[0].moment == .infinity && copy.bodies[0].moment == .infinity)
        var hashes: [UInt64] = []
        for _ in 0..<120 {
            try space.step(1.0 / 60)
            hashes.append(space.stateHash())
        }
        try space.restore(state)
        for (i, other) in [space, restored, copy].enumerated() {
            var again: [UInt64] = []
            for _ in 0..<120 {
                try other.step(1.0 / 60)
                again.append(other.stateHash())
            }
            #expect(again == hashes, "continuation \(i)")
        }
        #expect(space.bodies[0].angularVelocity == 0.5, "nothing turned it: its spin stays as set")
    }
}
