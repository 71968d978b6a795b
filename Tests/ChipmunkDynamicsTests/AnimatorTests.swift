import Chipmunk
import ChipmunkDynamics
@testable import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing

@Suite struct AnimatorTests {
    @Test("Gravity: magnitude 1 is 1000 points/s², down; angle and magnitude set the direction")
    func gravity() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 160, y: 0))
        let gravity = GravityBehavior(items: [box])
        animator.addBehavior(gravity)
        try run(animator, seconds: 0.5)
        // The engine moves the body before it accelerates it: y = g·t²/2 · (1 - dt/t) after whole steps.
        #expect(abs(box.center.y - 125 * (1 - (1.0 / 120) / 0.5)) < 1e-6, "\(box.center.y)")
        #expect(abs(animator.body(for: box)!.velocity.y - 500) < 1e-9)
        gravity.setAngle(0, magnitude: 2)
        #expect(abs(gravity.gravityDirection.x - 2) < 1e-12 && abs(gravity.gravityDirection.y) < 1e-12)
        #expect(abs(gravity.angle) < 1e-12 && abs(gravity.magnitude - 2) < 1e-12)
        gravity.angle = .pi / 2
        #expect(abs(gravity.gravityDirection.y - 2) < 1e-12)
        gravity.magnitude = 0.5
        #expect(abs(gravity.acceleration.y - 500) < 1e-9)
        let other = item(at: Vector(x: 0, y: 0))
        animator.addBehavior(CollisionBehavior(items: [other]))
        try run(animator, seconds: 0.5)
        #expect(other.center == Vector(x: 0, y: 0), "only gravity's own items fall")
    }

    @Test("Add and remove behaviours while running; children; each behaviour's action runs after every step")
    func behaviourTree() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 160, y: 100))
        let parent = DynamicBehavior()
        let gravity = GravityBehavior(items: [box])
        parent.addChildBehavior(gravity)
        var actions = 0
        var childActions = 0
        parent.action = { actions += 1 }
        gravity.action = { childActions += 1 }
        animator.addBehavior(parent)
        let keeper = DynamicItemBehavior(items: [box])  // keeps the box in the animator when gravity goes
        animator.addBehavior(keeper)
        #expect(animator.behaviors.count == 2 && gravity.dynamicAnimator === animator)
        try run(animator, seconds: 0.25)
        #expect(actions == 30 && childActions == 30)
        // The action removes gravity mid-run: the box keeps its speed and stops accelerating.
        // Unowned, as in UIKit: an action that held its own behaviour (or the animator) would leak both.
        parent.action = { [unowned parent, unowned animator] in
            if animator.elapsedTime >= 0.5 { parent.removeChildBehavior(gravity) }
        }
        try run(animator, seconds: 0.5)
        let speed = animator.body(for: box)!.velocity.y
        try run(animator, seconds: 0.1)
        #expect(animator.body(for: box)?.velocity.y == speed, "no gravity after it was removed")
        #expect(gravity.dynamicAnimator == nil)
        animator.removeBehavior(parent)
        animator.removeBehavior(keeper)
        #expect(animator.body(for: box) == nil, "an item no behaviour names leaves the space")
        #expect(animator.space.bodies.isEmpty)
    }

    @Test("A behaviour's items: each once, in order; added and removed while running, the field follows")
    func itemLists() throws {
        let (a, b) = (item(at: Vector(x: 100, y: 100)), item(at: Vector(x: 200, y: 100)))
        let field = FieldBehavior.linearGravityField(direction: Vector(x: 0, y: 1))
        #expect(
            GravityBehavior(items: [a, b, a]).items.map(ObjectIdentifier.init) == [a, b].map(ObjectIdentifier.init))
        let animator = DynamicAnimator(referenceBounds: screen)
        animator.addBehavior(DynamicItemBehavior(items: [a, b]))
        animator.addBehavior(field)
        field.addItem(a)
        field.addItem(a)
        #expect(field.items.count == 1)
        try run(animator, seconds: 0.1)
        #expect(a.center.y > 100 && b.center.y == 100, "the field moves its item only")
        field.removeItem(a)
        field.removeItem(b)  // not in it: nothing happens
        field.addItem(b)
        let (velocity, by) = (animator.body(for: a)!.velocity, b.center.y)
        #expect(velocity.y > 0)
        try run(animator, seconds: 0.1)
        #expect(b.center.y > by, "b, added, now falls")
        #expect(animator.body(for: a)!.velocity == velocity, "a, removed, no longer accelerates")
    }

    @Test("elapsedTime, isRunning and the delegate: paused when everything rests, resumed when it moves")
    func pauseAndResume() throws {
        let heavy = DynamicsScenes.heavy()
        let recorder = PauseRecorder()
        heavy.animator.delegate = recorder
        for _ in 0..<720 { try heavy.scene.step(heavy.scene.timeStep) }
        #expect(recorder.events.map(\.0) == ["resume", "pause", "resume", "pause"], "\(recorder.events)")
        let (firstPause, resume) = (recorder.events[1].1, recorder.events[2].1)
        #expect(firstPause < 3 && abs(resume - firstPause) < 0.01, "elapsed time stops while paused")
        #expect(!heavy.animator.isRunning)
        #expect(heavy.animator.elapsedTime < 6)
    }

    @Test("items(in:) finds items by their frames; updateItem(usingCurrentState:) reads a moved item")
    func itemsInRect() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let a = item("a", at: Vector(x: 50, y: 50), width: 20, height: 20)
        let b = item("b", at: Vector(x: 250, y: 400), width: 20, height: 20)
        animator.addBehavior(CollisionBehavior(items: [a, b]))
        #expect(animator.items(in: Rect(x: 0, y: 0, width: 100, height: 100)).map { ($0 as! ItemView).name } == ["a"])
        #expect(animator.items(in: Rect(x: 0, y: 0, width: 320, height: 480)).count == 2)
        a.center = Vector(x: 240, y: 390)
        a.rotation = 1
        animator.updateItem(usingCurrentState: a)
        #expect(animator.body(for: a)?.position == Vector(x: 240, y: 390) && animator.body(for: a)?.angle == 1)
        #expect(animator.items(in: Rect(x: 200, y: 350, width: 100, height: 100)).count == 2)
    }

    @Test(
        "The same behaviours and inputs give the same bits",
        arguments: ["ui-heavy", "ui-drag", "ui-snake", "ui-snap", "ui-push"])
    func deterministic(name: String) throws {
        let (a, b) = (try SceneCatalog.scene(named: name), try SceneCatalog.scene(named: name))
        for _ in 0..<600 {
            try a.step(a.timeStep)
            try b.step(b.timeStep)
            #expect(a.space.stateHash() == b.space.stateHash())
        }
    }

    @Test("advance(by:) runs frames in fixed steps, the remainder waiting for the next frame")
    func advance() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        animator.addBehavior(GravityBehavior(items: [item(at: .zero)]))
        let report = try animator.advance(by: 1.0 / 50)
        #expect(report.steps == 2 && animator.stepCount == 2)
        try animator.advance(by: 1.0 / 50)
        #expect(animator.stepCount == 4, "0.04 s holds four steps of 1/120 s and a remainder")
    }
}
