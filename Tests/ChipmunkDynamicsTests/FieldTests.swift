import Chipmunk
import ChipmunkDynamics
import Foundation
import Testing

@Suite struct FieldTests {
    /// One 100 × 100 item (mass 1) at `at` moving at `velocity`, in `field` for `seconds`.
    func run(
        _ field: FieldBehavior, at position: Vector = Vector(x: 100, y: 0), velocity: Vector = .zero,
        charge: Double = 0,
        seconds: Double = 0.5
    ) throws -> (ItemView, Body) {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: position)
        field.addItem(box)
        let properties = DynamicItemBehavior(items: [box])
        properties.charge = charge
        properties.addLinearVelocity(velocity, for: box)
        animator.addBehavior(properties)
        animator.addBehavior(field)
        try ChipmunkDynamicsTests.run(animator, seconds: seconds)
        return (box, animator.body(for: box)!)
    }

    @Test("Linear gravity: strength 1 along the direction is 1000 points/s²")
    func linearGravity() throws {
        let (_, body) = try run(.linearGravityField(direction: Vector(x: 1, y: 0)), seconds: 0.5)
        #expect(abs(body.velocity.x - 500) < 1e-6)
    }

    @Test("Radial gravity pulls toward the position, weaker with distance by the falloff; minimumRadius caps it")
    func radialGravity() throws {
        let near = FieldBehavior.radialGravityField(position: .zero)
        near.falloff = 2
        let sample = { (field: FieldBehavior, r: Double) in
            field.force(offset: Vector(x: r, y: 0), velocity: .zero, mass: 1, charge: 0, time: 0).x
        }
        #expect(sample(near, 10) < 0, "toward the centre")
        #expect(abs(sample(near, 10) / sample(near, 20) - 4) < 1e-12, "inverse square")
        near.minimumRadius = 15
        #expect(sample(near, 10) == sample(near, 15), "no stronger inside the minimum radius")
        let (box, _) = try run(
            .radialGravityField(position: Vector(x: 0, y: 0)), at: Vector(x: 200, y: 0), seconds: 0.2)
        #expect(box.center.x < 200)
    }

    @Test("Spring: oscillates about the position with ω = √strength; drag: velocity decays")
    func springAndDrag() throws {
        let spring = FieldBehavior.springField()
        spring.strength = 4 * .pi * .pi  // ω = 2π: a period of 1 s
        let (box, _) = try run(spring, at: Vector(x: 100, y: 0), seconds: 1)
        #expect(abs(box.center.x - 100) < 3, "one full period later it is back: \(box.center.x)")
        let drag = FieldBehavior.dragField()
        drag.strength = 2
        let (_, body) = try run(drag, velocity: Vector(x: 100, y: 0), seconds: 1)
        #expect(abs(body.velocity.x - 100 * exp(-2)) < 1, "\(body.velocity.x)")
    }

    @Test("Vortex pushes around the position; velocity drives the velocity to its target")
    func vortexAndVelocity() throws {
        let vortex = FieldBehavior.vortexField()
        let f = vortex.force(offset: Vector(x: 10, y: 0), velocity: .zero, mass: 1, charge: 0, time: 0)
        #expect(abs(f.x) < 1e-9 && f.y != 0, "perpendicular to the offset: \(f)")
        let field = FieldBehavior.velocityField(direction: Vector(x: 0, y: 50))
        field.strength = 5
        let (_, body) = try run(field, seconds: 2)
        #expect(abs(body.velocity.y - 50) < 0.1)
    }

    @Test("Noise is smooth, repeatable and not zero; turbulence needs motion")
    func noiseAndTurbulence() throws {
        let noise = FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1)
        let a = noise.force(offset: Vector(x: 13, y: 7), velocity: .zero, mass: 1, charge: 0, time: 0.3)
        let b = noise.force(offset: Vector(x: 13, y: 7), velocity: .zero, mass: 1, charge: 0, time: 0.3)
        let c = noise.force(offset: Vector(x: 13.01, y: 7), velocity: .zero, mass: 1, charge: 0, time: 0.3)
        #expect(a == b && a.length > 0)
        #expect((a - c).length < a.length * 0.01 + 1, "smooth")
        let (one, _) = try run(FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1))
        let (two, _) = try run(FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1))
        #expect(one.center == two.center && one.center != Vector(x: 100, y: 0))
        let turbulence = FieldBehavior.turbulenceField(smoothness: 0.5, animationSpeed: 1)
        #expect(turbulence.force(offset: Vector(x: 13, y: 7), velocity: .zero, mass: 1, charge: 0, time: 0) == .zero)
        #expect(
            turbulence.force(offset: Vector(x: 13, y: 7), velocity: Vector(x: 100, y: 0), mass: 1, charge: 0, time: 0)
                != .zero)
    }

    @Test("Electric: like charges repel; magnetic: bends the path, keeping the speed")
    func electricAndMagnetic() throws {
        let electric = FieldBehavior.electricField()
        let (repelled, _) = try run(electric, at: Vector(x: 100, y: 0), charge: 1, seconds: 0.2)
        #expect(repelled.center.x > 100)
        let (attracted, _) = try run(FieldBehavior.electricField(), at: Vector(x: 100, y: 0), charge: -1, seconds: 0.2)
        #expect(attracted.center.x < 100)
        let (neutral, _) = try run(FieldBehavior.electricField(), at: Vector(x: 100, y: 0), charge: 0, seconds: 0.2)
        #expect(neutral.center == Vector(x: 100, y: 0), "no charge, no force")
        let magnetic = FieldBehavior.magneticField()
        magnetic.strength = 2
        let (_, body) = try run(magnetic, velocity: Vector(x: 100, y: 0), charge: 1, seconds: 0.5)
        #expect(abs(body.velocity.y) > 10, "turned: \(body.velocity)")
        #expect(abs(body.velocity.length - 100) < 2, "speed kept: \(body.velocity.length)")
    }

    /// A 10-point item (mass 0.01) in the default magnetic field turns at 100 rad/s, 0.83
    /// rad a step: taken as a force a step at a time, its speed grew 1.3 times a step and
    /// the step threw a divergence at step 140 (a helper's attack). Turned by each step's
    /// whole angle, it keeps its speed; and a small angle is the table's force.
    @Test("Magnetic: a small item in the default field turns fast and keeps its speed")
    func magneticOnASmallItem() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let small = item(at: Vector(x: 100, y: 0), width: 10, height: 10)
        let magnetic = FieldBehavior.magneticField()
        magnetic.addItem(small)
        let properties = DynamicItemBehavior(items: [small])
        properties.charge = 1
        properties.addLinearVelocity(Vector(x: 10, y: 0), for: small)
        animator.addBehavior(properties)
        animator.addBehavior(magnetic)
        try ChipmunkDynamicsTests.run(animator, seconds: 5)
        let body = try #require(animator.body(for: small))
        #expect(abs(body.velocity.length - 10) < 1e-9, "speed kept: \(body.velocity)")
        #expect(abs(body.position.x - 100) < 1, "circles where it started: \(body.position)")
        // Slow turns, as the force: one step of a 100-point item at strength 1.
        let (_, slow) = try run(.magneticField(), velocity: Vector(x: 100, y: 0), charge: 1, seconds: 1.0 / 120)
        #expect(abs(slow.velocity.y - (-100 / 120.0)) < 1e-4, "\(slow.velocity)")
    }

    @Test("Custom fields, and regions: items outside the region feel nothing")
    func customAndRegion() throws {
        let custom = FieldBehavior.field { sample in Vector(x: 0, y: -sample.mass * 100) }
        let (_, body) = try run(custom, seconds: 1)
        #expect(abs(body.velocity.y + 100) < 1e-6)
        let bounded = FieldBehavior.linearGravityField(direction: Vector(x: 1, y: 0))
        bounded.region = .circle(radius: 50)
        let (outside, _) = try run(bounded, at: Vector(x: 100, y: 0), seconds: 0.5)
        #expect(outside.center == Vector(x: 100, y: 0))
        let boxed = FieldBehavior.linearGravityField(direction: Vector(x: 1, y: 0))
        boxed.region = .rectangle(Size(width: 300, height: 300))
        let (inside, _) = try run(boxed, at: Vector(x: 100, y: 0), seconds: 0.1)
        #expect(inside.center.x > 100)
    }
}
