import Chipmunk
import ChipmunkDynamics
import Foundation
import Testing

/// Issue 19, UIKit Dynamics: what a field or a delegate can do to a step.
@Suite struct AcceptedDynamicsTests {
    /// A falling item under a field, in a screen.
    func fallingItem(_ field: FieldBehavior) -> (DynamicAnimator, ItemView) {
        let animator = DynamicAnimator(referenceBounds: screen)
        let ball = item("ball", at: Vector(x: 160, y: 200), width: 20, height: 20)
        field.addItem(ball)
        animator.addBehavior(field)
        animator.addBehavior(GravityBehavior(items: [ball]))
        return (animator, ball)
    }

    /// A custom field that returns NaN was dropped without a word; it now ends the step
    /// naming the field and the item (it named "body 0", the animator's space's index), and
    /// the item stays where it was.
    @Test func aFieldOfNaNEndsTheStep() throws {
        let (animator, ball) = fallingItem(FieldBehavior.field { _ in Vector(x: .nan, y: 0) })
        let error = #expect(throws: DynamicsError.self) { try animator.step() }
        guard case .nonFiniteAcceleration(let step, let behavior, let item, let itemName, let value)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(
            step == 1 && behavior == "FieldBehavior (custom)" && item == 0 && itemName == "ItemView 'ball'"
                && value.isNaN)
        #expect(
            "\(error!)" == "step 1: FieldBehavior (custom) gave item 0 (ItemView 'ball') an acceleration of nan; "
                + "a behaviour's force must be finite")
        #expect(ball.center == Vector(x: 160, y: 200))
    }

    /// A falloff of 1e300, which the rule accepts, gives an infinite force near the field's
    /// centre: the step reports it instead of dropping it.
    @Test func aFalloffThatOverflowsEndsTheStep() throws {
        let field = FieldBehavior.radialGravityField(position: Vector(x: 160, y: 200.5))
        field.falloff = 1e300
        let (animator, _) = fallingItem(field)
        #expect(throws: DynamicsError.self) { try animator.step() }
        // Far from the centre the same falloff gives no force at all, and the item falls.
        let far = FieldBehavior.radialGravityField(position: Vector(x: 0, y: 0))
        far.falloff = 1e300
        let (calm, ball) = fallingItem(far)
        for _ in 0..<10 { try calm.step() }
        #expect(ball.center.y > 200)
    }

    /// Anchoring an item from a collision delegate, then asking the animator for its body,
    /// stopped the program ("Body.kind cannot change during a step"). The anchoring now
    /// takes effect at the next step: the ball stops where it touched the floor.
    @Test func anchoringFromADelegateWaitsForTheNextStep() throws {
        final class Anchor: CollisionBehaviorDelegate {
            let properties: DynamicItemBehavior
            weak var animator: DynamicAnimator?
            var bodyKindWhenTold: Body.Kind?
            init(_ properties: DynamicItemBehavior) { self.properties = properties }
            func collisionBehavior(
                _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                withBoundaryIdentifier identifier: String?, at point: Vector
            ) {
                properties.isAnchored = true
                bodyKindWhenTold = animator?.body(for: item)?.kind
            }
        }
        let animator = DynamicAnimator(referenceBounds: screen)
        let ball = item("ball", at: Vector(x: 160, y: 300), width: 40, height: 40)
        let collision = CollisionBehavior(items: [ball])
        collision.translatesReferenceBoundsIntoBoundary = true
        let properties = DynamicItemBehavior(items: [ball])
        let anchor = Anchor(properties)
        anchor.animator = animator
        collision.collisionDelegate = anchor
        animator.addBehavior(collision)
        animator.addBehavior(properties)
        animator.addBehavior(GravityBehavior(items: [ball]))
        try run(animator, seconds: 1)
        #expect(anchor.bodyKindWhenTold == .dynamic, "still dynamic inside the step")
        #expect(animator.body(for: ball)?.kind == .kinematic)
        let resting = ball.center
        try run(animator, seconds: 1)
        #expect(ball.center == resting && resting.y > 400)
    }
}
