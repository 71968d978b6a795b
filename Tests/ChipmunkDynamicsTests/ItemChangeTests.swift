import Chipmunk
import Foundation
import Testing

@testable import ChipmunkCatalog
import ChipmunkScenes

@testable import ChipmunkDynamics

/// Changes to items while they are attached, touching or asleep: anchoring and freeing
/// attached items, masses under springs, contacts whose behaviour or item goes away,
/// angles set before magnitudes, sums of added velocities, and stepping from inside a
/// step (a newcomer's attack found each of these stopping the program in the core, or
/// doing silently what UIKit does not).
@Suite struct ItemChangeTests {
    private func stderr(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    // MARK: anchored items and attachments

    /// An anchored item attached to an anchor point holds still, and swings once set free.
    /// It stopped the program in `Space.add` ("a constraint needs at least one dynamic body").
    @Test(arguments: [0.0, 2.0])
    func anAnchoredItemOnAnAnchorHoldsThenSwings(frequency: Double) throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 100, y: 200), width: 20, height: 20)
        let attachment = AttachmentBehavior(item: box, attachedToAnchor: Vector(x: 160, y: 100))
        attachment.frequency = frequency
        let properties = DynamicItemBehavior(items: [box])
        properties.isAnchored = true
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(attachment)
        animator.addBehavior(properties)
        try run(animator, seconds: 0.5)
        #expect(box.center == Vector(x: 100, y: 200))
        #expect(attachment.constraints.isEmpty)
        properties.isAnchored = false
        try run(animator, seconds: 0.5)
        #expect(box.center.x > 100, "it swings towards below the anchor")
        #expect(!attachment.constraints.isEmpty)
        let distance = (box.center - Vector(x: 160, y: 100)).length
        if frequency == 0 { #expect(abs(distance - (Vector(x: 60, y: 100)).length) < 0.5, "the rod keeps its length") }
        properties.isAnchored = true
        let held = box.center
        try run(animator, seconds: 0.5)
        #expect(box.center == held)
    }

    /// A spring from an anchored item to a free one pulls the free one as a spring to a
    /// fixed point does: its stiffness comes from the free item's mass (inf / inf made it
    /// NaN, and the program stopped naming `DampedSpring.stiffness`).
    @Test func aSpringToAnAnchoredItemPullsLikeAFixedPoint() throws {
        func swing(anchored: Bool) throws -> [Vector] {
            let animator = DynamicAnimator(referenceBounds: screen)
            let post = item("post", at: Vector(x: 160, y: 100), width: 10, height: 10)
            let bob = item("bob", at: Vector(x: 260, y: 100), width: 20, height: 20)
            let spring: AttachmentBehavior
            if anchored {
                spring = AttachmentBehavior(item: bob, attachedTo: post)
                let properties = DynamicItemBehavior(items: [post])
                properties.isAnchored = true
                animator.addBehavior(properties)
            } else {
                spring = AttachmentBehavior(item: bob, attachedToAnchor: Vector(x: 160, y: 100))
            }
            spring.frequency = 1
            spring.damping = 0.2
            animator.addBehavior(spring)
            animator.addBehavior(GravityBehavior(items: [bob]))
            return try trace(animator, seconds: 1) { bob.center }
        }
        let toAnchoredItem = try swing(anchored: true)
        let toPoint = try swing(anchored: false)
        #expect(toAnchoredItem.allSatisfy { $0.isFinite })
        let gaps = zip(toAnchoredItem, toPoint).map { ($0 - $1).length }
        #expect(gaps.allSatisfy { $0 < 1e-6 }, "largest gap \(gaps.max() ?? 0)")
    }

    /// Two attached items both anchored hold; freeing one lets it move. Anchoring the
    /// second stopped the program ("Body.kind cannot become kinematic").
    @Test(arguments: ["plain", "fixed", "pin", "sliding", "limit"])
    func twoAnchoredAttachedItemsHold(kind: String) throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let a = item("a", at: Vector(x: 100, y: 100), width: 20, height: 20)
        let b = item("b", at: Vector(x: 200, y: 100), width: 20, height: 20)
        let attachment: AttachmentBehavior
        switch kind {
        case "fixed": attachment = .fixedAttachment(with: a, attachedTo: b, attachmentAnchor: Vector(x: 150, y: 100))
        case "pin": attachment = .pinAttachment(with: a, attachedTo: b, attachmentAnchor: Vector(x: 150, y: 100))
        case "sliding":
            attachment = .slidingAttachment(
                with: a, attachedTo: b, attachmentAnchor: Vector(x: 150, y: 100), axisOfTranslation: Vector(x: 1, y: 0))
        case "limit":
            attachment = .limitAttachment(with: a, offsetFromCenter: .zero, attachedTo: b, offsetFromCenter: .zero)
        default: attachment = AttachmentBehavior(item: a, attachedTo: b)
        }
        let properties = DynamicItemBehavior(items: [a, b])
        animator.addBehavior(attachment)
        animator.addBehavior(properties)
        animator.addBehavior(GravityBehavior(items: [a, b]))
        try run(animator, seconds: 0.1)
        properties.isAnchored = true
        try run(animator, seconds: 0.1)
        let (heldA, heldB) = (a.center, b.center)
        try run(animator, seconds: 0.5)
        #expect(a.center == heldA && b.center == heldB)
        #expect(attachment.constraints.isEmpty)
        properties.removeItem(b)
        try run(animator, seconds: 0.5)
        #expect(a.center == heldA)
        #expect(b.center.y > heldB.y, "b hangs from the anchored a")
        #expect(!attachment.constraints.isEmpty)
    }

    /// A spring's frequency holds whatever the order: a density set after the spring is
    /// installed changes its stiffness too (1 Hz became 0.1 Hz when the mass grew 100
    /// times after the spring was made).
    @Test func aSpringKeepsItsFrequencyWhenTheMassChanges() throws {
        func period(densityLater: Bool) throws -> Int {
            let animator = DynamicAnimator(referenceBounds: screen)
            let bob = item(at: Vector(x: 260, y: 240), width: 20, height: 20)
            let spring = AttachmentBehavior(item: bob, attachedToAnchor: Vector(x: 160, y: 240))
            spring.length = 50
            spring.frequency = 1
            let properties = DynamicItemBehavior(items: [bob])
            if !densityLater { properties.density = 100 }
            animator.addBehavior(spring)
            animator.addBehavior(properties)
            try animator.step()
            if densityLater { properties.density = 100 }
            // Steps until the bob, pulled in from 100 to 50 points, first comes back out.
            var closest = Double.infinity
            for step in 1...1200 {
                try animator.step()
                let distance = (bob.center - Vector(x: 160, y: 240)).length
                if distance > closest + 1e-9 { return step }
                closest = distance
            }
            return 0
        }
        let before = try period(densityLater: false)
        let after = try period(densityLater: true)
        #expect(before > 0 && abs(before - after) <= 1, "half a period: \(before) and \(after) steps")
        #expect(abs(before - 60) <= 2, "half a period of 1 Hz is 60 steps of 1/120 s (got \(before))")
    }

    // MARK: contacts that end

    /// The delegate hears "ended" for every "began", whether the contact ends by moving
    /// apart or because the collision behaviour, the item or the boundary went away
    /// (removals gave "began" and never "ended").
    @Test(arguments: ["behaviour", "item", "boundary", "bounds", "mode", "animator item"])
    func everyBeganContactEnds(removal: String) throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let a = item("a", at: Vector(x: 100, y: 400), width: 40, height: 40)
        let b = item("b", at: Vector(x: 100, y: 300), width: 40, height: 40)
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf", from: Vector(x: 0, y: 440), to: Vector(x: 320, y: 440))
        let recorder = ContactRecorder()
        collision.collisionDelegate = recorder
        let gravity = GravityBehavior(items: [a, b])
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        try run(animator, seconds: 2)
        #expect(!animator.isRunning, "at rest, b on a on the shelf")
        #expect(recorder.log.contains("began a|shelf"), "\(recorder.log)")
        #expect(recorder.log.contains("began a-b") || recorder.log.contains("began b-a"), "\(recorder.log)")
        switch removal {
        case "behaviour": animator.removeBehavior(collision)
        case "item": collision.removeItem(a)
        case "boundary": collision.removeBoundary(withIdentifier: "shelf")
        case "bounds": collision.removeAllBoundaries()
        case "mode": collision.collisionMode = .items
        default:
            gravity.removeItem(a)
            collision.removeItem(a)
        }
        try run(animator, seconds: 1)
        let began = recorder.log.filter { $0.hasPrefix("began") }.map { $0.dropFirst(6) }
        let ended = recorder.log.filter { $0.hasPrefix("ended") }.map { $0.dropFirst(6) }
        let open = began.filter { contact in began.filter { $0 == contact }.count > ended.filter { $0 == contact }.count
        }
        let gone: Set<String> =
            switch removal {
            case "behaviour": ["a|shelf", "a-b", "b-a"]
            case "item", "animator item": ["a|shelf", "a-b", "b-a"]
            default: ["a|shelf"]
            }
        for contact in open {
            #expect(!gone.contains(String(contact)), "\(contact) began and never ended: \(recorder.log)")
        }
        #expect(recorder.log.contains("ended a|shelf"), "\(recorder.log)")
    }

    /// A delegate may change the animator when it hears a contact end during a rebuild.
    @Test func aDelegateMayChangeTheAnimatorWhenAContactEnds() throws {
        final class Adder: CollisionBehaviorDelegate {
            weak var animator: DynamicAnimator?
            var ends = 0
            func collisionBehavior(
                _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                withBoundaryIdentifier identifier: String?
            ) {
                ends += 1
                animator?.addBehavior(GravityBehavior(items: [item]))
                _ = animator?.items(in: screen)
            }
        }
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 160, y: 400), width: 40, height: 40)
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        let adder = Adder()
        adder.animator = animator
        collision.collisionDelegate = adder
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(collision)
        try run(animator, seconds: 1)
        collision.translatesReferenceBoundsIntoBoundary = false
        try run(animator, seconds: 0.1)
        #expect(adder.ends == 1)
        #expect(animator.behaviors.count == 3)
    }

    // MARK: waking

    /// A change that does not touch resting items leaves them asleep: an animator whose
    /// pushes change twice a second pauses (any change woke every item with gravity).
    @Test func aChangeElsewhereLeavesRestingItemsAsleep() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let resting = item("resting", at: Vector(x: 60, y: 440), width: 40, height: 40)
        let other = item("other", at: Vector(x: 260, y: 100), width: 20, height: 20)
        let collision = CollisionBehavior(items: [resting])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [resting]))
        animator.addBehavior(collision)
        try run(animator, seconds: 2)
        #expect(animator.body(for: resting)?.isSleeping == true)
        for _ in 0..<4 {
            animator.addBehavior(PushBehavior(items: [other], mode: .instantaneous))
            try run(animator, seconds: 0.5)
            #expect(animator.body(for: resting)?.isSleeping == true)
        }
        let gravity = try #require(animator.behaviors.first as? GravityBehavior)
        gravity.angle = 0
        try animator.step()
        #expect(animator.body(for: resting)?.isSleeping == false, "a change of its gravity wakes it")
    }

    // MARK: angles and magnitudes

    /// An angle set on a push or gravity of magnitude 0 holds when the magnitude is set
    /// (the push went along +x, where UIKit's pushes down).
    @Test func anAngleSetBeforeTheMagnitudeHolds() {
        let push = PushBehavior(items: [], mode: .continuous)
        push.angle = .pi / 2
        push.magnitude = 2
        #expect(abs(push.pushDirection.x) < 1e-12 && push.pushDirection.y == 2)
        #expect(push.angle == .pi / 2)
        let gravity = GravityBehavior(items: [])
        gravity.magnitude = 0
        gravity.angle = .pi
        gravity.magnitude = 1
        #expect(gravity.gravityDirection.x == -1 && abs(gravity.gravityDirection.y) < 1e-12)
        push.pushDirection = Vector(x: 0, y: -3)
        #expect(push.angle == -.pi / 2 && push.magnitude == 3)
    }

    @Test func anAngleThatIsNotFiniteStopsNamingIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            PushBehavior(items: [], mode: .continuous).angle = .nan
        }
        #expect(stderr(result).contains("PushBehavior.angle must be"), "\(stderr(result))")
    }

    // MARK: added velocities

    /// Two additions that overflow stop naming the method the user called (not
    /// `Body.velocity`), in the animator and while the item waits to join.
    @Test(arguments: [true, false])
    func addedVelocitiesThatOverflowStopNamingTheMethod(inAnimator: Bool) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [inAnimator] in
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let box = ItemView(name: "box", center: Vector(x: 100, y: 100), size: Size(width: 10, height: 10))
            let properties = DynamicItemBehavior(items: [box])
            if inAnimator { animator.addBehavior(properties) }
            properties.addLinearVelocity(Vector(x: 1e308, y: 0), for: box)
            properties.addLinearVelocity(Vector(x: 1e308, y: 0), for: box)
            if !inAnimator { animator.addBehavior(properties) }
            try? animator.step()
        }
        #expect(stderr(result).contains("DynamicItemBehavior.addLinearVelocity:"), "\(stderr(result))")
        #expect(stderr(result).contains("is not finite"), "\(stderr(result))")
    }

    /// Velocities added before the item joins are summed and given when it joins.
    @Test func velocitiesAddedBeforeJoiningAreSummed() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item(at: Vector(x: 100, y: 100), width: 10, height: 10)
        let properties = DynamicItemBehavior(items: [box])
        properties.addLinearVelocity(Vector(x: 3, y: 0), for: box)
        properties.addLinearVelocity(Vector(x: 4, y: 1), for: box)
        properties.addAngularVelocity(0.5, for: box)
        animator.addBehavior(properties)
        #expect(properties.linearVelocity(for: box) == Vector(x: 7, y: 1))
        #expect(properties.angularVelocity(for: box) == 0.5)
    }

    // MARK: stepping from inside a step

    /// Advancing the animator from a behaviour's action, or stepping it from a collision
    /// delegate, stops with the animator's message: the first crashed in Swift's
    /// exclusivity check with none, the second named `Space.step`.
    @Test(arguments: [true, false])
    func steppingInsideAStepStopsNamingTheAnimator(advance: Bool) async {
        final class Stepper: CollisionBehaviorDelegate {
            weak var animator: DynamicAnimator?
            func collisionBehavior(
                _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                withBoundaryIdentifier identifier: String?, at point: Vector
            ) { try? animator?.step() }
        }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [advance] in
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let box = ItemView(name: "box", center: Vector(x: 100, y: 460), size: Size(width: 10, height: 10))
            let gravity = GravityBehavior(items: [box])
            let collision = CollisionBehavior(items: [box])
            collision.translatesReferenceBoundsIntoBoundary = true
            let stepper = Stepper()
            stepper.animator = animator
            if advance {
                gravity.action = { [unowned animator] in _ = try? animator.advance(by: 1.0 / 60) }
            } else {
                collision.collisionDelegate = stepper
            }
            animator.addBehavior(gravity)
            animator.addBehavior(collision)
            for _ in 0..<120 { _ = try? animator.advance(by: 1.0 / 60) }
        }
        let expected =
            advance
            ? "DynamicAnimator.advance(by:) was called while it ran"
            : "DynamicAnimator.step() was called while the space stepped"
        #expect(stderr(result).contains(expected), "\(stderr(result))")
    }

    /// One advance runs at most `maxStepsPerFrame` steps, and says what it dropped.
    @Test func aLongFrameIsCappedAndSaysSo() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let report = try animator.advance(by: 2)
        #expect(animator.maxStepsPerFrame == 120)
        #expect(report.steps == 120 && animator.stepCount == 120)
        #expect(abs(report.droppedTime - 1) < 1e-9)
    }
}

/// What a second attack (helper-21) found in the changes above, each mended.
@Suite struct ItemChangeFollowUpTests {
    private func stderr(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    /// Counts began minus ended per unordered pair of items.
    final class PairLedger: CollisionBehaviorDelegate {
        var open: [String: Int] = [:]
        var began = 0
        private func key(_ a: any DynamicItem, _ b: any DynamicItem) -> String {
            let (x, y) = ((a as! ItemView).name, (b as! ItemView).name)
            return min(x, y) + "-" + max(x, y)
        }
        func collisionBehavior(
            _ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem,
            at point: Vector
        ) {
            open[key(item1, item2), default: 0] += 1
            began += 1
        }
        func collisionBehavior(
            _ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem
        ) { open[key(item1, item2), default: 0] -= 1 }
    }

    /// A pile of items: every pair is told "ended" once per "began", though the engine
    /// gives a pair in one order when it begins and may give it in the other when it ends
    /// (with 10 items, 13 pairs were left open after 58 repeated "began"s).
    @Test(arguments: [5, 10, 30])
    func everyPairInAPileEndsOncePerBegan(count: Int) throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let items = (0..<count).map { k in
            item("i\(k)", at: Vector(x: 20 + Double(k % 10) * 30, y: 40 + Double(k / 10) * 40), width: 18, height: 18)
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        let ledger = PairLedger()
        collision.collisionDelegate = ledger
        let properties = DynamicItemBehavior(items: items)
        properties.elasticity = 0.7
        animator.addBehavior(collision)
        animator.addBehavior(properties)
        animator.addBehavior(GravityBehavior(items: items))
        for (k, item) in items.enumerated() {
            properties.addLinearVelocity(
                Vector(x: Double(k * 37 % 400) - 200, y: Double(k * 53 % 300) - 150), for: item)
        }
        for _ in 0..<1200 {
            try animator.step()
            #expect(ledger.open.values.allSatisfy { $0 == 0 || $0 == 1 }, "\(ledger.open.filter { $0.value > 1 })")
        }
        #expect(ledger.began > count)
        animator.removeAllBehaviors()
        try animator.step()
        #expect(ledger.open.values.allSatisfy { $0 == 0 }, "\(ledger.open.filter { $0.value != 0 })")
    }

    /// Removing a collision behaviour ends its contacts at once, though the items go on
    /// touching through another one (its delegate heard only "began").
    @Test func aRemovedBehaviourIsToldItsContactsEnded() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let a = item("a", at: Vector(x: 160, y: 455), width: 40, height: 40)
        let b = item("b", at: Vector(x: 160, y: 400), width: 40, height: 40)
        let first = CollisionBehavior(items: [a, b])
        let second = CollisionBehavior(items: [a, b])
        second.translatesReferenceBoundsIntoBoundary = true
        let recorder = ContactRecorder()
        first.collisionDelegate = recorder
        animator.addBehavior(first)
        animator.addBehavior(second)
        animator.addBehavior(GravityBehavior(items: [a, b]))
        try run(animator, seconds: 2)
        #expect(recorder.log.count == 1 && recorder.log[0].hasPrefix("began"), "\(recorder.log)")
        animator.removeBehavior(first)
        try animator.step()
        #expect(recorder.log.count == 2 && recorder.log[1].hasPrefix("ended"), "\(recorder.log)")
        #expect(abs((a.center - b.center).length - 40) < 1, "still touching, through the second behaviour")
        // Taking an item out of a behaviour ends its contact the same way.
        let third = CollisionBehavior(items: [a, b])
        let thirdRecorder = ContactRecorder()
        third.collisionDelegate = thirdRecorder
        animator.addBehavior(third)
        try run(animator, seconds: 0.5)
        third.removeItem(a)
        try animator.step()
        #expect(
            thirdRecorder.log.filter { $0.hasPrefix("began") }.count
                == thirdRecorder.log.filter { $0.hasPrefix("ended") }.count, "\(thirdRecorder.log)")
    }

    /// A UIKit scene rolled back into itself ends the contacts told before the rollback,
    /// then tells those of the state it went back to: its bricks dim as in the run that
    /// was never rolled back (two stayed dimmed for good, on 385 of 500 steps).
    @Test func aRolledBackSceneTellsItsDelegatesAsTheRunDid() throws {
        let original = DynamicsScenes.snake()
        let rolled = DynamicsScenes.snake()
        var state = SceneState()
        for _ in 0..<200 { try rolled.scene.step(rolled.scene.timeStep) }
        rolled.scene.save(into: &state)
        for _ in 0..<300 { try rolled.scene.step(rolled.scene.timeStep) }
        try rolled.scene.restore(state)
        for _ in 0..<200 { try original.scene.step(original.scene.timeStep) }
        var mismatches = 0
        for _ in 200..<700 {
            if original.bricks.map(\.alpha) != rolled.bricks.map(\.alpha) { mismatches += 1 }
            try original.scene.step(original.scene.timeStep)
            try rolled.scene.step(rolled.scene.timeStep)
        }
        #expect(mismatches == 0)
        #expect(rolled.dimmer.touching.values.sorted() == original.dimmer.touching.values.sorted())
        #expect(rolled.dimmer.touching.values.allSatisfy { $0 >= 0 })
    }

    /// Anchoring and freeing an item under a pin, fixed or sliding attachment keeps the
    /// joint where the items were attached (it was made again at the anchor point in the
    /// world, 496 points from an item that had fallen).
    @Test(arguments: ["pin", "fixed", "sliding"])
    func anchoringKeepsWhereItemsWereAttached(kind: String) throws {
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 10000))
        let a = item("a", at: Vector(x: 100, y: 100), width: 20, height: 20)
        let b = item("b", at: Vector(x: 140, y: 100), width: 20, height: 20)
        let anchor = Vector(x: 120, y: 100)
        let attachment: AttachmentBehavior =
            switch kind {
            case "pin": .pinAttachment(with: a, attachedTo: b, attachmentAnchor: anchor)
            case "fixed": .fixedAttachment(with: a, attachedTo: b, attachmentAnchor: anchor)
            default:
                .slidingAttachment(
                    with: a, attachedTo: b, attachmentAnchor: anchor, axisOfTranslation: Vector(x: 1, y: 0))
            }
        let properties = DynamicItemBehavior(items: [a])
        animator.addBehavior(attachment)
        animator.addBehavior(properties)
        animator.addBehavior(GravityBehavior(items: [a, b]))
        try run(animator, seconds: 1)
        let gap = (a.center - b.center).length
        let first = attachment.constraints.map { "\($0)" }
        properties.isAnchored = true
        try animator.step()
        properties.isAnchored = false
        try animator.step()
        #expect(attachment.constraints.map { "\($0)" }.count == first.count)
        if let pivot = attachment.constraints.first as? PivotJoint {
            #expect(pivot.anchorA == Vector(x: 20, y: 0) && pivot.anchorB == Vector(x: -20, y: 0))
        }
        try run(animator, seconds: 1)
        // The engine's joints give a little under load (docs/dynamics.md: the tests allow 2
        // points); made again at the world point, the gap had become 25.
        #expect(abs((a.center - b.center).length - gap) < 2, "gap \(gap) became \((a.center - b.center).length)")
    }

    /// Insets that leave the bounds no room stop naming them (the walls' thickness came out
    /// below 0 and the stop named `Segment.radius`).
    @Test func insetsThatCrossStopNamingTheInsets() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let box = ItemView(name: "box", center: Vector(x: 160, y: 240), size: Size(width: 10, height: 10))
            let collision = CollisionBehavior(items: [box])
            collision.setTranslatesReferenceBoundsIntoBoundary(
                with: EdgeInsets(top: 300, left: 200, bottom: 300, right: 200))
            animator.addBehavior(collision)
            try? animator.step()
        }
        #expect(
            stderr(result).contains(
                "CollisionBehavior.setTranslatesReferenceBoundsIntoBoundary insets leave no room inside the reference bounds"
            ), "\(stderr(result))")
    }

    /// Bounds and insets at their limits put an edge at ±1e15, the core's last coordinate:
    /// the walls stay within it (they sat 1e14 past it, and the stop named `Segment.start`),
    /// and items still collide with them.
    @Test func wallsAtTheCoordinateLimitStayWithinIt() throws {
        let animator = DynamicAnimator(referenceBounds: Rect(x: -5e14, y: -5e14, width: 1e15, height: 1e15))
        let box = item(at: Vector(x: 0, y: 0), width: 1e13, height: 1e13)
        let collision = CollisionBehavior(items: [box])
        collision.setTranslatesReferenceBoundsIntoBoundary(
            with: EdgeInsets(top: -5e14, left: -5e14, bottom: -5e14, right: -5e14))
        let gravity = GravityBehavior(items: [box])
        gravity.magnitude = 1e12
        animator.addBehavior(collision)
        animator.addBehavior(gravity)
        for _ in 0..<600 { try animator.step() }
        #expect(box.center.isFinite && box.center.y <= 1e15)
        #expect(animator.space.shapes.count == 5)
    }
}
