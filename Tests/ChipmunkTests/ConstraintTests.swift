import Testing
@testable import Chipmunk

@Suite struct ConstraintTests {
    private func twoBodies(gravity: Vector = .zero) throws -> (Space, Body, Body) {
        let space = Space()
        space.gravity = gravity
        let a = try Body(mass: 1, moment: 1), b = try Body(mass: 1, moment: 1)
        try b.setPosition([10, 0])
        try space.add(a)
        try space.add(b)
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
        let joint = try PinJoint(a, b, anchorA: .zero, anchorB: .zero)
        #expect(joint.maxForce == .infinity)
        #expect(joint.errorBias == 0.0017970074436457143)
        #expect(joint.errorBias == Space().collisionBias)
        #expect(joint.maxBias == .infinity && joint.collideBodies)
        #expect(joint.bodyA === a && joint.bodyB === b && joint.impulse == 0)
        try joint.setMaxForce(10)
        try joint.setErrorBias(0.5)
        try joint.setMaxBias(3)
        joint.collideBodies = false
        #expect(joint.maxForce == 10 && joint.errorBias == 0.5 && joint.maxBias == 3 && !joint.collideBodies)
        #expect(throws: ChipmunkError.self) { try joint.setMaxForce(-1) }
        #expect(throws: ChipmunkError.self) { try joint.setErrorBias(.nan) }
        #expect(throws: ChipmunkError.self) { try joint.setMaxBias(-.infinity) }
    }

    @Test func pinJointKeepsItsDistance() throws {
        let (space, a, b) = try twoBodies()
        let pin = try PinJoint(a, b, anchorA: .zero, anchorB: .zero)
        try space.add(pin)
        #expect(pin.distance == 10)
        try b.setVelocity([0, 5])
        try run(space)
        #expect(abs(a.position.distance(to: b.position) - 10) < 0.01)
        #expect(pin.impulse != 0)
    }

    @Test func slideJointKeepsWithinLimits() throws {
        let (space, a, b) = try twoBodies()
        let slide = try SlideJoint(a, b, anchorA: .zero, anchorB: .zero, min: 5, max: 12)
        try space.add(slide)
        try b.setVelocity([20, 0])
        try run(space)
        #expect(a.position.distance(to: b.position) < 12.05)
        #expect(throws: ChipmunkError.self) { try SlideJoint(a, b, anchorA: .zero, anchorB: .zero, min: 3, max: 2) }
        #expect(throws: ChipmunkError.self) { try slide.setLimits(min: -1, max: 2) }
    }

    @Test func pivotJointHinges() throws {
        let (space, a, _) = try twoBodies(gravity: [0, -10])
        try space.add(Circle(body: a, radius: 1))
        let hinge = try PivotJoint(space.staticBody, a, pivot: [0, 5])
        try space.add(hinge)
        try run(space)
        #expect(abs(a.localToWorld(hinge.anchorB).distance(to: [0, 5])) < 0.01)
        let twoAnchors = try PivotJoint(space.staticBody, a, anchorA: [0, 5], anchorB: [0, 5])
        #expect(twoAnchors.anchorA == [0, 5])
    }

    @Test func grooveJointHoldsItsAnchorInTheGroove() throws {
        let (space, a, b) = try twoBodies(gravity: [0, -10])
        try a.setKind(.static)
        let groove = try GrooveJoint(a, b, grooveA: [0, 0], grooveB: [20, 0], anchorB: .zero)
        try space.add(groove)
        try run(space)
        #expect(abs(b.position.y) < 0.05, "held on the groove's line against gravity")
        #expect(groove.grooveB == [20, 0])
    }

    @Test func dampedSpringAndItsForceClosure() throws {
        let (space, a, b) = try twoBodies()
        let spring = try DampedSpring(a, b, anchorA: .zero, anchorB: .zero, restLength: 5, stiffness: 10, damping: 1)
        try space.add(spring)
        try run(space, steps: 600)
        #expect(abs(a.position.distance(to: b.position) - 5) < 0.1, "settles at its rest length")
        var calls = 0
        spring.forceFunction = { spring, distance in
            calls += 1
            return (8 - distance) * spring.stiffness   // a different rest length, 8
        }
        try run(space, steps: 600)
        #expect(calls == 600)
        #expect(abs(a.position.distance(to: b.position) - 8) < 0.1)
        spring.forceFunction = { _, _ in .nan }
        #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
        spring.forceFunction = nil
        try run(space, steps: 600)
        #expect(abs(a.position.distance(to: b.position) - 5) < 0.1, "the default law is back")
        #expect(throws: ChipmunkError.self) { try spring.setDamping(-1) }   // "Damping must be positive"
        #expect(throws: ChipmunkError.self) { try DampedSpring(a, b, anchorA: .zero, anchorB: .zero, restLength: 1, stiffness: .nan, damping: 0) }
    }

    @Test func dampedRotarySpringAndItsTorqueClosure() throws {
        let (space, a, b) = try twoBodies()
        try a.setKind(.static)
        let spring = try DampedRotarySpring(a, b, restAngle: 1, stiffness: 10, damping: 2)
        try space.add(spring)
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
        try a.setKind(.static)
        let motor = try SimpleMotor(a, b, rate: -2)   // a − b = −2, so b spins at 2
        try space.add(motor)
        try run(space, steps: 60)
        #expect(abs(b.angularVelocity - 2) < 1e-6)
        let limit = try RotaryLimitJoint(a, b, min: -0.5, max: 0.5)
        try space.add(limit)
        try run(space)
        #expect(b.angle <= 0.51)
        try space.remove(limit)
        try space.remove(motor)

        let (space2, c, d) = try twoBodies()
        let gear = try GearJoint(c, d, phase: 0, ratio: 2)
        try space2.add(gear)
        try c.setAngularVelocity(3)
        try run(space2, steps: 60)
        // The joint holds ratio · θB − θA = phase (and so ωA ≈ ratio · ωB, up to error correction).
        #expect(abs(c.angle - 2 * d.angle) < 1e-3)
        #expect(abs(c.angularVelocity - 2 * d.angularVelocity) < 0.05)
        #expect(c.angle > 0.5, "they turned")
        #expect(throws: ChipmunkError.self) { try GearJoint(c, d, phase: 0, ratio: 0) }
        #expect(throws: ChipmunkError.self) { try gear.setRatio(.infinity) }

        let (space3, e, f) = try twoBodies()
        try e.setKind(.static)
        let ratchet = try RatchetJoint(e, f, phase: 0, ratchet: .pi / 4)
        try space3.add(ratchet)
        try f.setAngularVelocity(5)
        try run(space3, steps: 30)
        let turned = f.angle
        #expect(turned > 1, "turns freely one way")
        try f.setAngularVelocity(-5)
        try run(space3, steps: 30)
        #expect(f.angle > turned - .pi / 4 - 0.05, "and not back past the last click")
        #expect(ratchet.ratchet == .pi / 4)
    }

    /// "Unsolvable constraint": a constraint between two non-dynamic bodies makes the
    /// solver abort, so adding one is refused, and so is making it so by changing a kind.
    @Test func twoNonDynamicBodiesAreRefused() throws {
        let space = Space()
        let kinematic = Body(kind: .kinematic)
        try space.add(kinematic)
        let pin = try PinJoint(space.staticBody, kinematic, anchorA: .zero, anchorB: .zero)
        #expect(throws: ChipmunkError.unsolvableConstraint) { try space.add(pin) }
        let body = try Body(mass: 1, moment: 1)
        try space.add(body)
        let pivot = try PivotJoint(space.staticBody, body, pivot: .zero)
        try space.add(pivot)
        #expect(throws: ChipmunkError.unsolvableConstraint) { try body.setKind(.kinematic) }
        try space.step(1.0 / 60)
    }

    @Test func membershipRules() throws {
        let (space, a, b) = try twoBodies()
        let outsider = try Body(mass: 1, moment: 1)
        #expect(throws: ChipmunkError.bodyNotInSpace) { try space.add(PinJoint(a, outsider, anchorA: .zero, anchorB: .zero)) }
        let pin = try PinJoint(a, b, anchorA: .zero, anchorB: .zero)
        try space.add(pin)
        #expect(throws: ChipmunkError.alreadyInThisSpace(.constraint)) { try space.add(pin) }
        #expect(throws: ChipmunkError.inAnotherSpace(.constraint)) { try Space().add(pin) }
        try space.remove(pin)
        #expect(throws: ChipmunkError.notInThisSpace(.constraint)) { try space.remove(pin) }
    }

    @Test func preAndPostSolveCanBreakAJoint() throws {
        let (space, a, b) = try twoBodies(gravity: [0, -100])
        try a.setKind(.static)
        try b.setPosition([0, -10])   // hanging: the rod carries its full weight, 100
        let pin = try PinJoint(a, b, anchorA: .zero, anchorB: .zero)
        try space.add(pin)
        var preSolves = 0
        pin.preSolve = { _ in preSolves += 1 }
        pin.postSolve = { joint in
            // Break under load: the force exceeds 50. The removal is deferred to the step's end.
            if joint.impulse / (1.0 / 60) > 50 { try joint.space?.remove(joint) }
        }
        try run(space, steps: 10)
        #expect(preSolves >= 1)
        #expect(pin.space == nil && space.constraints.isEmpty)
        #expect(b.position.y < -1, "once broken, it falls")
    }
}
