import Chipmunk
import ChipmunkDynamics
import Foundation
import Testing

@Suite struct CollisionTests {
    /// Two boxes falling onto each other and the floor.
    func stack(mode: CollisionBehavior.Mode) throws -> (ItemView, ItemView, ContactRecorder) {
        let animator = DynamicAnimator(referenceBounds: screen)
        let low = item("low", at: Vector(x: 160, y: 400), width: 60, height: 60)
        let high = item("high", at: Vector(x: 160, y: 200), width: 60, height: 60)
        let collision = CollisionBehavior(items: [low, high])
        collision.collisionMode = mode
        collision.translatesReferenceBoundsIntoBoundary = true
        let recorder = ContactRecorder()
        collision.collisionDelegate = recorder
        animator.addBehavior(GravityBehavior(items: [low, high]))
        animator.addBehavior(collision)
        try run(animator, seconds: 2)
        return (low, high, recorder)
    }

    @Test(
        "Modes: everything stacks the boxes; boundaries only lets them pass through each other; items only lets them fall out"
    )
    func modes() throws {
        let (low, high, recorder) = try stack(mode: .everything)
        #expect(abs(low.center.y - 450) < 0.5 && abs(high.center.y - 390) < 1, "\(low.center.y), \(high.center.y)")
        #expect(recorder.log.contains("began low|bounds"), "\(recorder.log)")
        #expect(recorder.log.contains("began high-low") || recorder.log.contains("began low-high"), "\(recorder.log)")
        #expect(recorder.points.allSatisfy { $0.y > 350 }, "contacts at the floor and between the boxes")
        let (low2, high2, _) = try stack(mode: .boundaries)
        #expect(abs(low2.center.y - 450) < 0.5 && abs(high2.center.y - 450) < 0.5, "both on the floor, overlapping")
        let (low3, high3, _) = try stack(mode: .items)
        #expect(low3.center.y > 480 && high3.center.y > 480, "no boundaries: both fell off the screen")
    }

    @Test("The delegate hears began and ended in pairs, with the contact point, and nil for the reference bounds")
    func delegate() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let ball = ItemView(
            name: "ball", center: Vector(x: 100, y: 300), size: Size(width: 40, height: 40), collisionBounds: .ellipse)
        let collision = CollisionBehavior(items: [ball])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf", from: Vector(x: 0, y: 200), to: Vector(x: 320, y: 200))
        let recorder = ContactRecorder()
        collision.collisionDelegate = recorder
        let properties = DynamicItemBehavior(items: [ball])
        properties.elasticity = 0.5
        animator.addBehavior(collision)
        animator.addBehavior(properties)
        let gravity = GravityBehavior(items: [ball])
        gravity.gravityDirection = Vector(x: 0, y: -1)  // up, onto the shelf's underside
        animator.addBehavior(gravity)
        try run(animator, seconds: 2)
        #expect(recorder.log.first == "began ball|shelf", "\(recorder.log)")
        #expect(abs(recorder.points[0].y - 200) < 2.5, "the point is on the shelf: \(recorder.points[0])")
        #expect(recorder.log.contains("ended ball|shelf"), "it bounced off")
        gravity.gravityDirection = Vector(x: 0, y: 1)
        try run(animator, seconds: 3)
        #expect(recorder.log.contains("began ball|bounds"))
        // Pairs: every ended follows a began of the same pair, and at most one is open per pair.
        var open: [String: Int] = [:]
        for entry in recorder.log {
            let key = String(entry.split(separator: " ")[1])
            open[key, default: 0] += entry.hasPrefix("began") ? 1 : -1
            #expect((0...1).contains(open[key]!), "\(recorder.log)")
        }
        #expect(abs(ball.center.y - 460) < 0.5, "resting on the bottom edge")
        #expect(animator.body(for: ball)!.shapes.first is Circle, "a square's ellipse is a circle")
    }

    @Test("Boundaries by identifier: a line, a closed path, removal; insets move the reference boundary in")
    func boundaries() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 160, y: 100), width: 40, height: 40)
        let collision = CollisionBehavior(items: [box])
        collision.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(top: 0, left: 0, bottom: 30, right: 0))
        collision.addBoundary(withIdentifier: "ledge", from: Vector(x: 100, y: 250), to: Vector(x: 220, y: 250))
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        try run(animator, seconds: 1.5)
        #expect(abs(box.center.y - 230) < 0.5, "on the ledge: \(box.center.y)")
        #expect(collision.boundaryIdentifiers == ["ledge"] && collision.boundary(withIdentifier: "ledge")?.count == 2)
        collision.removeBoundary(withIdentifier: "ledge")
        try run(animator, seconds: 1.5)
        #expect(abs(box.center.y - (480 - 30 - 20)) < 0.5, "on the inset bottom: \(box.center.y)")

        // A closed triangle path holds a small box wherever gravity points.
        let cupAnimator = DynamicAnimator(referenceBounds: screen)
        let pebble = item("pebble", at: Vector(x: 160, y: 340), width: 16, height: 16)
        let cup = CollisionBehavior(items: [pebble])
        cup.addBoundary(
            withIdentifier: "cup", forPath: [Vector(x: 60, y: 300), Vector(x: 260, y: 300), Vector(x: 160, y: 470)])
        #expect(cup.boundary(withIdentifier: "cup")?.count == 4, "closed: the first point again")
        let gravity = GravityBehavior(items: [pebble])
        cupAnimator.addBehavior(cup)
        cupAnimator.addBehavior(gravity)
        try run(cupAnimator, seconds: 2)
        #expect(pebble.center.y > 400 && pebble.center.y < 470, "down in the cup: \(pebble.center.y)")
        gravity.gravityDirection = Vector(x: 0, y: -1)
        try run(cupAnimator, seconds: 2)
        #expect(abs(pebble.center.y - 308) < 1, "under the cup's lid: \(pebble.center.y)")
        cup.removeAllBoundaries()
        try run(cupAnimator, seconds: 1)
        #expect(pebble.center.y < 0, "no boundaries left: it fell out through the top")
    }

    @Test("Collision bounds: rectangle, ellipse (a 24-gon unless square) and a convex path")
    func collisionBounds() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let oval = ItemView(
            name: "oval", center: Vector(x: 80, y: 100), size: Size(width: 60, height: 30), collisionBounds: .ellipse)
        let triangle = ItemView(
            name: "triangle", center: Vector(x: 240, y: 100), size: Size(width: 60, height: 60),
            collisionBounds: .path([Vector(x: -30, y: 30), Vector(x: 30, y: 30), Vector(x: 0, y: -30)]))
        let collision = CollisionBehavior(items: [oval, triangle])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [oval, triangle]))
        try run(animator, seconds: 2)
        #expect((animator.body(for: oval)!.shapes.first as? Polygon)?.vertices.count == 24)
        #expect((animator.body(for: triangle)!.shapes.first as? Polygon)?.vertices.count == 3)
        #expect(abs(oval.center.y - 465) < 1, "the oval lies on its flat side: \(oval.center.y)")
        #expect(abs(triangle.center.y - 450) < 1, "the triangle stands on its base: \(triangle.center.y)")
        #expect(abs(animator.body(for: triangle)!.mass - 1800.0 / 10000) < 1e-12, "mass: density 1 × area / 10⁴")
    }
}
