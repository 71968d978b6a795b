import Chipmunk
import ChipmunkDynamics
@testable import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing

@Suite struct SnapTests {
    /// The farthest the item goes past the snap point, along the way it came.
    func overshoot(damping: Double) throws -> (overshoot: Double, final: ItemView) {
        let animator = DynamicAnimator(referenceBounds: screen)
        let square = item("square", at: Vector(x: 60, y: 60), width: 60, height: 60)
        square.rotation = 0.5
        let snap = SnapBehavior(item: square, snapTo: Vector(x: 200, y: 300))
        snap.damping = damping
        animator.addBehavior(snap)
        let direction = (Vector(x: 200, y: 300) - Vector(x: 60, y: 60)).normalized
        let past = try trace(animator, seconds: 4) { (square.center - Vector(x: 200, y: 300)).dot(direction) }
        return (past.max()!, square)
    }

    @Test("Snap settles on its point and straightens; less damping overshoots more; the default is 0.5")
    func snap() throws {
        #expect(SnapBehavior(item: item(at: .zero), snapTo: .zero).damping == 0.5)
        let low = try overshoot(damping: 0.1)
        let middle = try overshoot(damping: 0.5)
        let high = try overshoot(damping: 1)
        for (_, square) in [low, middle, high] {
            #expect((square.center - Vector(x: 200, y: 300)).length < 0.5, "\(square.center)")
            #expect(abs(square.rotation) < 0.01)
        }
        #expect(low.overshoot > middle.overshoot && middle.overshoot > high.overshoot, "\(low.0) \(middle.0) \(high.0)")
        #expect(high.overshoot < 0.5, "critical damping does not overshoot")
        #expect(middle.overshoot > 5)
    }

    @Test("ui-snap: on the first point at 2.9 s, on the second (after the tap at 3 s) at 6 s")
    func scene() throws {
        let snap = DynamicsScenes.snap()
        for _ in 0..<348 { try snap.scene.step(snap.scene.timeStep) }
        #expect((snap.square.center - DynamicsScenes.Snap.firstPoint).length < 0.5)
        for _ in 348..<720 { try snap.scene.step(snap.scene.timeStep) }
        #expect((snap.square.center - DynamicsScenes.Snap.secondPoint).length < 0.5)
    }
}

@Suite struct PushTests {
    @Test("Push follows UIKit's rule within 1 %: magnitude 1 moves a 100 × 100 item of density 1 at 100 points/s²")
    func continuous() throws {
        let push = DynamicsScenes.push()
        let body = push.animator.body(for: push.pushed)!
        #expect(abs(body.mass - 1) < 1e-12)
        for _ in 0..<120 { try push.scene.step(push.scene.timeStep) }
        let acceleration = body.velocity.x / 1.0
        #expect(abs(acceleration - 100) / 100 < 0.01, "\(acceleration) points/s²")
        let travelled = push.pushed.center.x - 60
        #expect(abs(travelled - 50) / 50 < 0.01, "x = a t² / 2: \(travelled)")
    }

    @Test("An instantaneous push changes the velocity once, then turns itself off; an offset turns the item")
    func instantaneous() throws {
        let push = DynamicsScenes.push()
        let body = push.animator.body(for: push.tapped)!
        for _ in 0..<60 { try push.scene.step(push.scene.timeStep) }
        #expect(body.velocity == .zero && !push.instantaneous.active, "not yet tapped")
        try push.scene.step(push.scene.timeStep)
        #expect(abs(body.velocity.y - 200) < 1e-9, "0.5 × 100 / mass 0.25: \(body.velocity)")
        #expect(!push.instantaneous.active)
        try push.scene.step(push.scene.timeStep)
        #expect(abs(body.velocity.y - 200) < 1e-9, "once only")

        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 160, y: 240))
        let kick = PushBehavior(items: [box], mode: .instantaneous)
        kick.setAngle(0, magnitude: 1)
        kick.setTargetOffsetFromCenter(Vector(x: 0, y: 50), for: box)
        #expect(kick.targetOffsetFromCenter(for: box) == Vector(x: 0, y: 50))
        animator.addBehavior(kick)
        try animator.step()
        #expect(
            animator.body(for: box)!.angularVelocity < 0,
            "pushed right below its centre, it turns anticlockwise on screen")
        #expect(abs(kick.angle) < 1e-12 && abs(kick.magnitude - 1) < 1e-12)
    }
}

@Suite struct ItemPropertyTests {
    func drop(_ configure: (DynamicItemBehavior) -> Void) throws -> (DynamicAnimator, ItemView, DynamicItemBehavior) {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 160, y: 100), width: 40, height: 40)
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        let properties = DynamicItemBehavior(items: [box])
        configure(properties)
        animator.addBehavior(collision)
        animator.addBehavior(properties)
        animator.addBehavior(GravityBehavior(items: [box]))
        return (animator, box, properties)
    }

    @Test("elasticity sets the bounce; density the mass; friction stops a slide")
    func elasticityDensityFriction() throws {
        func bounce(_ e: Double) throws -> Double {
            let (animator, box, _) = try drop { $0.elasticity = e }
            let ys = try trace(animator, seconds: 1.5) { box.center.y }
            let landing = ys.firstIndex { $0 > 459 }!
            return 460 - ys[landing...].min()!
        }
        #expect(try bounce(0) < 1)
        let half = try bounce(0.5)
        // Fallen 340 points: a bounce of e² × 340 = 85 points (less a little for the step).
        #expect(abs(half - 85) < 5, "\(half)")
        let (animator, box, properties) = try drop { $0.density = 3 }
        #expect(abs(animator.body(for: box)!.mass - 3 * 1600 / 10_000) < 1e-12)
        #expect(properties.density == 3)

        func slide(friction: Double) throws -> Double {
            let (animator, box, properties) = try drop { $0.friction = friction }
            try run(animator, seconds: 1)
            properties.addLinearVelocity(Vector(x: 50, y: 0), for: box)
            try run(animator, seconds: 1)
            return properties.linearVelocity(for: box).x
        }
        #expect(abs(try slide(friction: 0) - 50) < 1e-6)
        #expect(abs(try slide(friction: 0.5)) < 1e-6)
    }

    @Test("resistance and angularResistance decay the speed and the spin as e^(-r t); charge; added velocities")
    func resistance() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 0, y: 0))
        let properties = DynamicItemBehavior(items: [box])
        properties.resistance = 2
        properties.angularResistance = 0.5
        properties.charge = -3
        properties.addLinearVelocity(Vector(x: 100, y: 0), for: box)
        properties.addAngularVelocity(4, for: box)
        animator.addBehavior(properties)
        try run(animator, seconds: 1)
        #expect(abs(properties.linearVelocity(for: box).x - 100 * exp(-2)) < 1e-9)
        #expect(abs(properties.angularVelocity(for: box) - 4 * exp(-0.5)) < 1e-9)
        #expect(properties.charge == -3)
    }

    @Test("allowsRotation false keeps the angle exactly; isAnchored holds an item still while others hit it")
    func rotationAndAnchoring() throws {
        let snake = DynamicsScenes.snake()
        for _ in 0..<840 {
            try snake.scene.step(snake.scene.timeStep)
            #expect(snake.bricks[0].rotation == 0, "the head never turns")
        }
        #expect(snake.bricks[5...].contains { abs($0.rotation) > 0.3 }, "the tail does")

        let animator = DynamicAnimator(referenceBounds: screen)
        let post = item("post", at: Vector(x: 160, y: 300), width: 40, height: 40)
        let ball = item("ball", at: Vector(x: 160, y: 100), width: 20, height: 20)
        let anchored = DynamicItemBehavior(items: [post])
        anchored.isAnchored = true
        animator.addBehavior(anchored)
        animator.addBehavior(CollisionBehavior(items: [post, ball]))
        animator.addBehavior(GravityBehavior(items: [post, ball]))
        try run(animator, seconds: 2)
        #expect(post.center == Vector(x: 160, y: 300) && post.rotation == 0)
        #expect(abs(ball.center.y - 270) < 0.5, "the ball rests on the post: \(ball.center.y)")
    }
}
