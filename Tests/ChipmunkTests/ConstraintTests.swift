import Testing
@testable import Chipmunk

@Suite struct ConstraintTests {
    private func twoBodies(gravity: Vector = .zero) throws -> (Space, Body, Body) {
        let space = Space()
        space.gravity = gravity
        let a = Body(mass: 1, moment: 1)
        let b = Body(mass: 1, moment: 1)
        b.position = [10, 0]
        space.add(a)
        space.add(b)
        return (space, a, b)
    }

    private func run(_ space: Space, steps: Int = 120) throws {
        for _ in 0..<steps { try space.step(1.0 / 60) }
    }

    /// The defaults: max force infinite, error bias pow(1 - 0.1, 60), collide bodies
    /// true. The engine computes the bias from float literals (1.0f - 0.1f is 0.8999999762),
    /// so it is 0.0017970074436457143, not pow(0.9, 60) = 0.0017970102999144172.
    @Test func defaults() throws {
        let (_, a, b) = try twoBodies()
        let joint = PinJoint(a: a, b: b, anchorA: .zero, anchorB: [1, 0])
        #expect(joint.maxForce == .infinity)
        #expect(joint.errorBias == 0.0017970074436457143)
        #expect(joint.errorBias == Space().collisionBias)
        #expect(joint.maxBias == .infinity && joint.collideBodies)
        #expect(joint.bodyA === a && joint.bodyB === b && joint.impulse == 0)
        joint.maxForce = 10
        joint.errorBias = 0.5
        joint.maxBias = 3
        joint.collideBodies = false
        #expect(joint.maxForce == 10 && joint.errorBias == 0.5 && joint.maxBias == 3 && !joint.collideBodies)
    }

    @Test func pinJointKeepsItsDistance() throws {
        let (space, a, b) = try twoBodies()
        let pin = PinJoint(a: a, b: b, anchorA: .zero, anchorB: .zero)
        space.add(pin)
        #expect(pin.distance == 10)
        b.velocity = [0, 5]
        try run(space)
        #expect(abs(a.position.distance(to: b.position) - 10) < 0.01)
        #expect(pin.impulse != 0)
    }

    @Test func slideJointKeepsWithinLimits() throws {
        let (space, a, b) = try twoBodies()
        let slide = SlideJoint(a: a, b: b, anchorA: .zero, anchorB: .zero, distance: 5...12)
        space.add(slide)
        b.velocity = [20, 0]
        try run(space)
        #expect(a.position.distance(to: b.position) < 12.05, "the upper limit holds while b flies off")
        #expect(a.position.distance(to: b.position) > 11.95, "the joint is taut")
    }

    @Test func slideJointKeepsAboveItsMinimum() throws {
        let (space, a, b) = try twoBodies()
        let slide = SlideJoint(a: a, b: b, anchorA: .zero, anchorB: .zero, distance: 5...12)
        space.add(slide)
        b.velocity = [-20, 0]  // from 10 away, straight through a's centre
        var closest = Double.infinity
        for _ in 0..<120 {
            try space.step(1.0 / 60)
            closest = min(closest, a.position.distance(to: b.position))
        }
        // Without the lower limit b would pass through a (distance 0 after 0.5 s). The engine
        // finds the violation after the step that makes it, so b gets at most one step's travel
        // (20/60) inside the limit, and is then pushed back out.
        #expect(closest > 5 - 20.0 / 60 - 1e-9, "the lower limit holds while b flies at a: \(closest)")
        #expect(closest < 5, "b reached the limit: \(closest)")
        let final = a.position.distance(to: b.position)
        #expect(final >= 5 - 1e-6 && final <= 12 + 1e-6, "back within 5...12 at the end: \(final)")
    }

    @Test func pivotJointHinges() throws {
        let (space, a, _) = try twoBodies(gravity: [0, -10])
        space.add(Circle(body: a, radius: 1))
        let hinge = PivotJoint(a: space.staticBody, b: a, pivot: [0, 5])
        space.add(hinge)
        try run(space)
        #expect(abs(a.localToWorld(hinge.anchorB).distance(to: [0, 5])) < 0.01)
        let twoAnchors = PivotJoint(a: space.staticBody, b: a, anchorA: [0, 5], anchorB: [0, 5])
        #expect(twoAnchors.anchorA == [0, 5])
    }

    @Test func grooveJointHoldsItsAnchorInTheGroove() throws {
        let (space, a, b) = try twoBodies(gravity: [0, -10])
        a.kind = .static
        let groove = GrooveJoint(a: a, b: b, grooveA: [0, 0], grooveB: [20, 0], anchorB: .zero)
        space.add(groove)
        try run(space)
        #expect(abs(b.position.y) < 0.05, "held on the groove's line against gravity")
        #expect(groove.grooveB == [20, 0])
    }

    /// The shortest grooves the rule accepts (ends a denormal apart) step with finite states;
    /// one of no length is refused (PreconditionTests.aGrooveWithoutLength).
    @Test(arguments: [
        Vector(x: Double.leastNonzeroMagnitude, y: 0), Vector(x: 0, y: -Double.leastNonzeroMagnitude),
        Vector(x: 1e-300, y: 1e-300),
    ])
    func theShortestGroovesStepWithoutNaN(end: Vector) throws {
        let (space, a, b) = try twoBodies(gravity: [0, -10])
        a.kind = .static
        #expect(GrooveJoint.hasLength(from: .zero, to: end) && !GrooveJoint.hasLength(from: end, to: end))
        space.add(GrooveJoint(a: a, b: b, grooveA: .zero, grooveB: end))
        for step in 1...120 {
            try space.step(1.0 / 60)
            let state = [b.position.x, b.position.y, b.velocity.x, b.velocity.y, b.angle, b.angularVelocity]
            let finite = state.allSatisfy { $0.isFinite }
            #expect(finite, "step \(step): \(state)")
            if !finite { return }
        }
    }

    /// A crafted snapshot is the other route to a groove of no length (grv_a, grv_b, grv_n).
    @Test func aSnapshotOfAGrooveWithoutLengthIsRefused() throws {
        let (space, a, b) = try twoBodies(gravity: [0, -10])
        a.kind = .static
        space.add(GrooveJoint(a: a, b: b, grooveA: [0, 0], grooveB: [20, 0]))
        try run(space, steps: 5)
        let state = space.snapshot().state
        #expect(throws: Never.self) { try Space(restoring: Snapshot(state: state)) }
        var sameEnds = state
        sameEnds.constraints[0].values[2] = sameEnds.constraints[0].values[0]
        sameEnds.constraints[0].values[3] = sameEnds.constraints[0].values[1]
        var zeroNormal = state
        zeroNormal.constraints[0].values[4] = 0
        zeroNormal.constraints[0].values[5] = 0
        for crafted in [sameEnds, zeroNormal] {
            #expect(throws: SnapshotError.invalid("constraint 0 is a groove of no length, or with a zero normal")) {
                try Space(restoring: Snapshot(state: crafted))
            }
        }
    }

    @Test func dampedSpringAndItsForceClosure() throws {
        let (space, a, b) = try twoBodies()
        let spring = DampedSpring(a: a, b: b, anchorA: .zero, anchorB: .zero, restLength: 5, stiffness: 10, damping: 1)
        space.add(spring)
        try run(space, steps: 600)
        #expect(abs(a.position.distance(to: b.position) - 5) < 0.1, "settles at its rest length")
        var calls = 0
        spring.forceFunction = { spring, distance in
            calls += 1
            return (8 - distance) * spring.stiffness  // a different rest length, 8
        }
        try run(space, steps: 600)
        #expect(calls == 600)
        #expect(abs(a.position.distance(to: b.position) - 8) < 0.1)
        spring.forceFunction = { _, _ in .nan }
        #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
        spring.forceFunction = nil
        try run(space, steps: 600)
        #expect(abs(a.position.distance(to: b.position) - 5) < 0.1, "the default law is back")
    }

    @Test func dampedRotarySpringAndItsTorqueClosure() throws {
        let (space, a, b) = try twoBodies()
        a.kind = .static
        let spring = DampedRotarySpring(a: a, b: b, restAngle: 1, stiffness: 10, damping: 2)
        space.add(spring)
        try run(space, steps: 600)
        // The relative angle is a − b, so b settles at −1.
        #expect(abs(b.angle - -1) < 0.01)
        spring.torqueFunction = { spring, angle in (angle - 2) * spring.stiffness }  // the engine's sign
        try run(space, steps: 600)
        #expect(abs(b.angle - -2) < 0.01)
        spring.torqueFunction = nil
        try run(space, steps: 600)
        #expect(abs(b.angle - -1) < 0.01, "the default law is back")
    }

    @Test func rotaryLimitRatchetGearAndMotor() throws {
        let (space, a, b) = try twoBodies()
        a.kind = .static
        let motor = SimpleMotor(a: a, b: b, rate: -2)  // a − b = −2, so b spins at 2
        space.add(motor)
        try run(space, steps: 60)
        #expect(abs(b.angularVelocity - 2) < 1e-6)
        let limit = RotaryLimitJoint(a: a, b: b, angle: -0.5...0.5)
        space.add(limit)
        try run(space)
        #expect(b.angle <= 0.51)
        space.remove(limit)
        space.remove(motor)

        let (space2, c, d) = try twoBodies()
        let gear = GearJoint(a: c, b: d, phase: 0, ratio: 2)
        space2.add(gear)
        c.angularVelocity = 3
        try run(space2, steps: 60)
        // The joint holds ratio · θB − θA = phase (and so ωA ≈ ratio · ωB, up to error correction).
        #expect(abs(c.angle - 2 * d.angle) < 1e-3)
        #expect(abs(c.angularVelocity - 2 * d.angularVelocity) < 0.05)
        #expect(c.angle > 0.5, "they turned")

        let (space3, e, f) = try twoBodies()
        e.kind = .static
        let ratchet = RatchetJoint(a: e, b: f, phase: 0, ratchet: .pi / 4)
        space3.add(ratchet)
        f.angularVelocity = 5
        try run(space3, steps: 30)
        let turned = f.angle
        #expect(turned > 1, "turns freely one way")
        f.angularVelocity = -5
        try run(space3, steps: 30)
        #expect(f.angle > turned - .pi / 4 - 0.05, "and not back past the last click")
        #expect(ratchet.ratchet == .pi / 4)
    }

    /// A constraint with one dynamic body and the static body steps; two non-dynamic
    /// bodies ("Unsolvable constraint") are a precondition: PreconditionTests.constraintRules.
    @Test func aConstraintToTheStaticBodySteps() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        space.add(body)
        let pivot = PivotJoint(a: space.staticBody, b: body, pivot: .zero)
        space.add(pivot)
        try space.step(1.0 / 60)
    }

    @Test func membershipRules() throws {
        let (space, a, b) = try twoBodies()
        let pin = PinJoint(a: a, b: b, anchorA: .zero, anchorB: [1, 0])
        space.add(pin)
        #expect(space.contains(pin) && a.constraints.first === pin && b.constraints.first === pin)
        space.remove(pin, a)  // the constraint leaves first, then its body
        #expect(!space.contains(pin) && !space.contains(a) && b.constraints.isEmpty)
    }

    @Test func preAndPostSolveCanBreakAJoint() throws {
        let (space, a, b) = try twoBodies(gravity: [0, -100])
        a.kind = .static
        b.position = [0, -10]  // hanging: the rod carries its full weight, 100
        let pin = PinJoint(a: a, b: b, anchorA: .zero, anchorB: .zero)
        space.add(pin)
        var preSolves = 0
        pin.preSolve = { _ in preSolves += 1 }
        pin.postSolve = { joint in
            // Break under load: the force exceeds 50. The removal is deferred to the step's end.
            if joint.impulse / (1.0 / 60) > 50 { joint.space?.remove(joint) }
        }
        try run(space, steps: 10)
        #expect(preSolves >= 1)
        #expect(pin.space == nil && space.constraints.isEmpty)
        #expect(b.position.y < -1, "once broken, it falls")
    }
}
