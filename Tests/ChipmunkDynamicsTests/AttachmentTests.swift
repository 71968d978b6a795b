import Chipmunk
import ChipmunkDynamics
@testable import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing

@Suite struct AttachmentTests {
    /// A 40 × 20 brick hanging 100 points right of an anchor, under gravity.
    func pendulum(_ configure: (AttachmentBehavior) -> Void = { _ in }) -> (
        DynamicAnimator, ItemView, AttachmentBehavior
    ) {
        let animator = DynamicAnimator(referenceBounds: screen)
        let brick = item("brick", at: Vector(x: 260, y: 100), width: 40, height: 20)
        let attachment = AttachmentBehavior(
            item: brick, offsetFromCenter: Vector(x: -20, y: 0), attachedToAnchor: Vector(x: 160, y: 100))
        configure(attachment)
        animator.addBehavior(attachment)
        animator.addBehavior(GravityBehavior(items: [brick]))
        return (animator, brick, attachment)
    }

    func attachPoint(_ brick: ItemView, _ offset: Vector) -> Vector {
        brick.center
            + Vector(
                x: offset.x * cos(brick.rotation) - offset.y * sin(brick.rotation),
                y: offset.x * sin(brick.rotation) + offset.y * cos(brick.rotation))
    }

    @Test("Item to anchor, rigid: the attachment point stays `length` from the anchor while it swings")
    func rigid() throws {
        let (animator, brick, attachment) = pendulum()
        #expect(attachment.length == 80 && attachment.attachedBehaviorType == .anchor)
        let distances = try trace(animator, seconds: 2) {
            (attachPoint(brick, Vector(x: -20, y: 0)) - Vector(x: 160, y: 100)).length
        }
        // The engine's joints give a little under load (here up to 1.3 points at 420 points/s).
        #expect(distances.allSatisfy { abs($0 - 80) < 2 }, "\(distances.min()!)...\(distances.max()!)")
        #expect(attachment.constraints.first is PinJoint)
        attachment.length = 50
        try run(animator, seconds: 2)
        #expect(abs((attachPoint(brick, Vector(x: -20, y: 0)) - Vector(x: 160, y: 100)).length - 50) < 2)
        #expect((attachment.constraints.first as? PinJoint)?.distance == 50)
    }

    @Test("Springy (frequency > 0): it stretches and rings at about the frequency; damping calms it")
    func springy() throws {
        func swing(damping: Double) throws -> [Double] {
            let animator = DynamicAnimator(referenceBounds: screen)
            let brick = item("brick", at: Vector(x: 160, y: 200), width: 40, height: 40)
            let attachment = AttachmentBehavior(item: brick, attachedToAnchor: Vector(x: 160, y: 100))
            attachment.frequency = 2
            attachment.damping = damping
            animator.addBehavior(attachment)
            animator.addBehavior(GravityBehavior(items: [brick]))
            return try trace(animator, seconds: 3) { brick.center.y }
        }
        let free = try swing(damping: 0)
        // Released at rest length, it swings to twice the static stretch g / ω².
        let stretch = 1000 / pow(2 * Double.pi * 2, 2)
        #expect(abs(free.max()! - (200 + 2 * stretch)) < 0.5, "\(free.max()!) vs \(200 + 2 * stretch)")
        // Crossings of the mean in the last two seconds: about 2 Hz, 8 crossings.
        let tail = Array(free.suffix(240))
        let mean = tail.reduce(0, +) / Double(tail.count)
        let crossings = zip(tail, tail.dropFirst()).filter { ($0 - mean) * ($1 - mean) < 0 }.count
        #expect((7...9).contains(crossings), "\(crossings) crossings in 2 s")
        let damped = try swing(damping: 0.7)
        let spread = { (values: ArraySlice<Double>) in values.max()! - values.min()! }
        #expect(spread(damped.suffix(120)) < spread(free.suffix(120)) / 10)
    }

    @Test("frictionTorque slows a spinning pinned item; the anchor point moves and drags the item")
    func frictionAndMovingAnchor() throws {
        func spin(friction: Double) throws -> Double {
            let animator = DynamicAnimator(referenceBounds: screen)
            let wheel = item("wheel", at: Vector(x: 160, y: 240), width: 60, height: 60)
            let attachment = AttachmentBehavior(item: wheel, attachedToAnchor: Vector(x: 160, y: 240))
            attachment.frictionTorque = friction  // the wheel's moment is 216 (mass 0.36)
            let properties = DynamicItemBehavior(items: [wheel])
            animator.addBehavior(attachment)
            animator.addBehavior(properties)
            properties.addAngularVelocity(10, for: wheel)
            try run(animator, seconds: 1)
            return properties.angularVelocity(for: wheel)
        }
        #expect(abs(try spin(friction: 0) - 10) < 1e-9)
        let slowed = try spin(friction: 432)
        #expect(abs(slowed - 8) < 0.05, "432 / 216 = 2 rad/s² for 1 s: \(slowed)")

        let drag = DynamicsScenes.drag()
        for _ in 0..<720 { try drag.scene.step(drag.scene.timeStep) }
        let finger = drag.attachment.anchorPoint
        #expect(finger == Vector(x: 160, y: 260), "the finger ended at its last point")
        let held = attachPoint(drag.brick, Vector(x: 30, y: -10))
        #expect((held - finger).length < 1, "the touched point is under the finger: \(held)")
        #expect(drag.brick.center.y > finger.y, "the brick hangs below it")
    }

    @Test("Item to item with offsets keeps the two points `length` apart")
    func itemToItem() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let a = item("a", at: Vector(x: 100, y: 100), width: 40, height: 20)
        let b = item("b", at: Vector(x: 200, y: 100), width: 40, height: 20)
        let attachment = AttachmentBehavior(
            item: a, offsetFromCenter: Vector(x: 20, y: 0), attachedTo: b, offsetFromCenter: Vector(x: -20, y: 0))
        #expect(attachment.length == 60 && attachment.attachedBehaviorType == .items)
        animator.addBehavior(attachment)
        animator.addBehavior(GravityBehavior(items: [b]))
        let gaps = try trace(animator, seconds: 1) {
            (attachPoint(a, Vector(x: 20, y: 0)) - attachPoint(b, Vector(x: -20, y: 0))).length
        }
        #expect(gaps.allSatisfy { abs($0 - 60) < 2 }, "\(gaps.min()!)...\(gaps.max()!)")
    }

    @Test("Sliding: moves along the axis only, without turning; the range limits the travel")
    func sliding() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let slider = item("slider", at: Vector(x: 160, y: 200), width: 40, height: 20)
        let attachment = AttachmentBehavior.slidingAttachment(
            with: slider, attachmentAnchor: Vector(x: 160, y: 200), axisOfTranslation: Vector(x: 1, y: 1))
        attachment.attachmentRange = FloatRange(minimum: -50, maximum: 80)
        animator.addBehavior(attachment)
        animator.addBehavior(GravityBehavior(items: [slider]))
        let push = PushBehavior(items: [slider], mode: .continuous)
        push.pushDirection = Vector(x: 0.3, y: 0)
        push.setTargetOffsetFromCenter(Vector(x: 0, y: 10), for: slider)  // a torque it must resist
        animator.addBehavior(push)
        let samples = try trace(animator, seconds: 2) { (slider.center, slider.rotation) }
        for (center, rotation) in samples {
            let offset = center - Vector(x: 160, y: 200)
            #expect(abs(offset.x - offset.y) < 0.5, "on the diagonal axis: \(offset)")
            #expect(abs(rotation) < 1e-3)
        }
        let travel = (samples.last!.0 - Vector(x: 160, y: 200)).length
        #expect(abs(travel - 80) < 1, "stopped at the end of the range: \(travel)")
    }

    @Test("Fixed welds two items; limit is a rope; pin turns about the anchor within the range")
    func fixedLimitPin() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let base = item("base", at: Vector(x: 100, y: 100), width: 40, height: 40)
        let arm = item("arm", at: Vector(x: 140, y: 100), width: 40, height: 10)
        let anchored = DynamicItemBehavior(items: [base])
        anchored.isAnchored = true
        animator.addBehavior(anchored)
        animator.addBehavior(
            AttachmentBehavior.fixedAttachment(with: arm, attachedTo: base, attachmentAnchor: Vector(x: 120, y: 100)))
        let bob = item("bob", at: Vector(x: 180, y: 100), width: 20, height: 20)
        let rope = AttachmentBehavior.limitAttachment(
            with: bob, offsetFromCenter: .zero, attachedTo: base, offsetFromCenter: .zero)
        #expect(rope.length == 80, "the present distance")
        rope.length = 150  // slack at first: the bob falls freely until the rope is taut
        animator.addBehavior(rope)
        let door = item("door", at: Vector(x: 200, y: 300), width: 80, height: 10)
        let frame = item("frame", at: Vector(x: 150, y: 300), width: 20, height: 20)
        let frameAnchored = DynamicItemBehavior(items: [frame])
        frameAnchored.isAnchored = true
        animator.addBehavior(frameAnchored)
        let hinge = AttachmentBehavior.pinAttachment(
            with: door, attachedTo: frame, attachmentAnchor: Vector(x: 160, y: 300))
        hinge.attachmentRange = FloatRange(minimum: -0.5, maximum: 0.5)
        animator.addBehavior(hinge)
        animator.addBehavior(GravityBehavior(items: [arm, bob, door]))
        let samples = try trace(animator, seconds: 3) {
            (arm.center, arm.rotation, (bob.center - base.center).length, door.rotation, door.center)
        }
        for (armCenter, armRotation, ropeLength, doorAngle, doorCenter) in samples {
            #expect((armCenter - Vector(x: 140, y: 100)).length < 1 && abs(armRotation) < 0.01, "welded")
            #expect(ropeLength <= 151.5, "the rope does not stretch (beyond the engine's give)")
            #expect(doorAngle <= 0.5 + 0.03 && doorAngle >= -0.5 - 0.03, "within the hinge's range: \(doorAngle)")
            _ = doorCenter
        }
        #expect(samples.contains { $0.2 < 149 }, "the rope is slack at first")
        #expect(samples.suffix(60).allSatisfy { $0.2 > 148 }, "and taut once the bob hangs from it")
        #expect(abs(samples.last!.3 - 0.5) < 0.02, "the door hangs at the end of its range")
        #expect(base.center == Vector(x: 100, y: 100), "anchored items do not move")
    }
}
