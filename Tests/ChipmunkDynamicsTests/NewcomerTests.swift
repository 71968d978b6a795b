import Chipmunk
import Foundation
import Testing

@testable import ChipmunkDynamics

/// A newcomer's and an attacker's tries (helper h19).
struct NewcomerTests {
    static let bounds = Rect(x: 0, y: 0, width: 320, height: 480)

    static func finite(_ items: [ItemView]) -> Bool {
        items.allSatisfy { $0.center.isFinite && $0.rotation.isFinite }
    }

    // MARK: newcomer

    @Test func snapSettlesAndPauses() throws {
        let animator = DynamicAnimator(referenceBounds: Self.bounds)
        let pauses = PauseRecorderH19()
        animator.delegate = pauses
        let box = ItemView(name: "box", center: Vector(x: 50, y: 50), size: Size(width: 40, height: 40))
        animator.addBehavior(SnapBehavior(item: box, snapTo: Vector(x: 200, y: 300)))
        for _ in 0..<1200 { try animator.step() }
        #expect((box.center - Vector(x: 200, y: 300)).length < 0.1)
        #expect(!animator.isRunning)
        #expect(pauses.pauses == 1)
    }

    // MARK: attacker (in-process: held)

    @Test func behavioursWithNoItemsStep() throws {
        let animator = DynamicAnimator(referenceBounds: Self.bounds)
        let collision = CollisionBehavior(items: [])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "line", from: .zero, to: Vector(x: 10, y: 10))
        for b in [
            GravityBehavior(items: []), collision, PushBehavior(items: [], mode: .instantaneous),
            DynamicItemBehavior(items: []), FieldBehavior.vortexField(), DynamicBehavior(),
        ] as [DynamicBehavior] {
            animator.addBehavior(b)
        }
        for _ in 0..<120 { try animator.step() }
        #expect(!animator.isRunning)
    }

    @Test func removingInsideCallbacks() throws {
        final class Remover: CollisionBehaviorDelegate {
            weak var animator: DynamicAnimator?
            var began = 0
            func collisionBehavior(
                _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                withBoundaryIdentifier identifier: String?, at point: Vector
            ) {
                began += 1
                behavior.removeItem(item)
                animator?.removeAllBehaviors()
                _ = animator?.items(in: NewcomerTests.bounds)
            }
        }
        let animator = DynamicAnimator(referenceBounds: Self.bounds)
        let a = ItemView(name: "a", center: Vector(x: 160, y: 400), size: Size(width: 50, height: 50))
        let collision = CollisionBehavior(items: [a])
        collision.translatesReferenceBoundsIntoBoundary = true
        let remover = Remover()
        remover.animator = animator
        collision.collisionDelegate = remover
        animator.addBehavior(GravityBehavior(items: [a]))
        animator.addBehavior(collision)
        for _ in 0..<240 { try animator.step() }
        #expect(remover.began == 1)
        #expect(animator.behaviors.isEmpty)
        #expect(animator.space.bodies.isEmpty)
    }

    @Test func sameItemInTwoAnimators() throws {
        let one = DynamicAnimator(referenceBounds: Self.bounds)
        let two = DynamicAnimator(referenceBounds: Self.bounds)
        let a = ItemView(name: "a", center: Vector(x: 160, y: 100), size: Size(width: 50, height: 50))
        one.addBehavior(GravityBehavior(items: [a]))
        let push = PushBehavior(items: [a], mode: .continuous)
        push.pushDirection = Vector(x: 1, y: 0)
        two.addBehavior(push)
        for _ in 0..<120 {
            try one.step()
            try two.step()
        }
        #expect(a.center.isFinite)
    }

    @Test func longRunStaysFinite() throws {
        let animator = DynamicAnimator(referenceBounds: Self.bounds)
        var items: [ItemView] = []
        for k in 0..<20 {
            items.append(
                ItemView(
                    name: "b\(k)", center: Vector(x: 40 + Double(k % 5) * 60, y: 40 + Double(k / 5) * 60),
                    size: Size(width: 30, height: 30), collisionBounds: k.isMultiple(of: 2) ? .ellipse : .rectangle))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        let props = DynamicItemBehavior(items: items)
        // Elasticity 1, at up to 2,400 points/s: an item went through a wall of no thickness
        // (after 8,842 steps here, 17,527 in the helper's report); the reference bounds' walls
        // are thick now, and an item driven 8 points past an edge comes back.
        props.elasticity = 1
        let gravity = GravityBehavior(items: items)
        animator.addBehavior(collision)
        animator.addBehavior(props)
        animator.addBehavior(gravity)
        for step in 0..<20_000 {
            if step % 600 == 0 { gravity.angle += 1.3 }
            try animator.step()
        }
        #expect(Self.finite(items))
        #expect(items.allSatisfy { Self.bounds.contains($0.center) })
    }
}

final class PauseRecorderH19: DynamicAnimatorDelegate {
    var pauses = 0
    var resumes = 0
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { resumes += 1 }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { pauses += 1 }
}

/// Attacks that may stop the program, each in a child process.
struct NewcomerExitTests {
    @Test func hugeFrictionAndElasticityBetweenItems() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 160, y: 300), size: Size(width: 50, height: 50))
            let b = ItemView(name: "b", center: Vector(x: 170, y: 200), size: Size(width: 50, height: 50))
            let props = DynamicItemBehavior(items: [a, b])
            // The largest the rules take (1e308 each, before the cap, made the product infinite).
            props.friction = Parameter.maxCoefficient
            props.elasticity = Parameter.maxCoefficient
            let collision = CollisionBehavior(items: [a, b])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(props)
            animator.addBehavior(collision)
            animator.addBehavior(GravityBehavior(items: [a, b]))
            for s in 0..<240 {
                do { try animator.step() } catch {
                    print("step \(s) threw \(error)")
                    break
                }
                if !(a.center.isFinite && b.center.isFinite) {
                    print("NaN at step \(s): \(a.center) \(b.center)")
                    exit(3)
                }
            }
            print("huge friction: \(a.center) \(b.center)")
        }
    }

    @Test func updateItemFromCollisionDelegate() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            final class Mover: CollisionBehaviorDelegate {
                weak var animator: DynamicAnimator?
                func collisionBehavior(
                    _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                    withBoundaryIdentifier identifier: String?, at point: Vector
                ) {
                    item.center = Vector(x: 160, y: 100)
                    animator?.updateItem(usingCurrentState: item)
                }
            }
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 160, y: 400), size: Size(width: 50, height: 50))
            let collision = CollisionBehavior(items: [a])
            collision.translatesReferenceBoundsIntoBoundary = true
            let mover = Mover()
            mover.animator = animator
            collision.collisionDelegate = mover
            animator.addBehavior(GravityBehavior(items: [a]))
            animator.addBehavior(collision)
            for _ in 0..<240 { try animator.step() }
            print("after teleports: \(a.center)")
        }
    }

    @Test func stepFromCollisionDelegate() async {
        let r = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Stepper: CollisionBehaviorDelegate {
                weak var animator: DynamicAnimator?
                func collisionBehavior(
                    _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                    withBoundaryIdentifier identifier: String?, at point: Vector
                ) { try? animator?.step() }
            }
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 160, y: 400), size: Size(width: 50, height: 50))
            let collision = CollisionBehavior(items: [a])
            collision.translatesReferenceBoundsIntoBoundary = true
            let stepper = Stepper()
            stepper.animator = animator
            collision.collisionDelegate = stepper
            animator.addBehavior(GravityBehavior(items: [a]))
            animator.addBehavior(collision)
            for _ in 0..<240 { try animator.step() }
        }
        let output = String(decoding: r?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("DynamicAnimator.step() was called while the space stepped"), "\(output)")
    }

    @Test func snapToFarPoint() async {
        let r = await #expect(processExitsWith: .success, observing: [\.standardErrorContent, \.standardOutputContent])
        {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 160, y: 100), size: Size(width: 50, height: 50))
            let snap = SnapBehavior(item: a, snapTo: Vector(x: 1e15, y: -1e15))
            snap.damping = 0
            animator.addBehavior(snap)
            var maxX = 0.0
            for s in 0..<6000 {
                do { try animator.step() } catch {
                    print("snap far: step \(s) threw \(error)")
                    break
                }
                maxX = max(maxX, a.center.x)
                if !a.center.isFinite {
                    print("NaN")
                    exit(3)
                }
            }
            print("snap far: \(a.center) max x \(maxX) running \(animator.isRunning)")
        }
        print(
            "snapToFarPoint:",
            String(decoding: (r?.standardOutputContent ?? []) + (r?.standardErrorContent ?? []), as: UTF8.self))
    }

    @Test func extremeSpringAndLength() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 160, y: 100), size: Size(width: 50, height: 50))
            let b = ItemView(name: "b", center: Vector(x: 100, y: 100), size: Size(width: 1e15, height: 1e15))
            let props = DynamicItemBehavior(items: [b])
            props.density = 1e12
            let spring = AttachmentBehavior(item: a, attachedTo: b)
            spring.frequency = 1e6
            spring.damping = 1e6
            spring.length = Parameter.maxLength
            let limit = AttachmentBehavior.limitAttachment(
                with: a, offsetFromCenter: .zero, attachedTo: b, offsetFromCenter: .zero)
            limit.length = Parameter.maxLength
            let pin = AttachmentBehavior(item: a, attachedToAnchor: Vector(x: 0, y: 0))
            pin.length = Parameter.maxLength
            pin.frictionTorque = 1e308
            for x in [props, spring, limit, pin] as [DynamicBehavior] { animator.addBehavior(x) }
            animator.addBehavior(GravityBehavior(items: [a, b]))
            for s in 0..<120 {
                do { try animator.step() } catch {
                    print("spring: step \(s) threw \(error)")
                    break
                }
            }
            print("spring: \(a.center) \(b.center)")
        }
    }

    @Test func hugeTimeStep() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480), timeStep: 1e300)
            let a = ItemView(name: "a", center: Vector(x: 160, y: 100), size: Size(width: 50, height: 50))
            animator.addBehavior(GravityBehavior(items: [a]))
            do { try animator.step() } catch { print("huge dt threw \(error)") }
            print("huge dt: \(a.center)")
            let tiny = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480), timeStep: 1e-300)
            tiny.addBehavior(GravityBehavior(items: [a]))
            let report = try tiny.advance(by: 1)
            print("tiny dt: \(report.steps) steps, dropped \(report.droppedTime)")
        }
    }

    @Test func seventeenCollisionBehaviours() async {
        let r = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let group = DynamicBehavior()
            animator.addBehavior(group)
            for _ in 0..<16 { animator.addBehavior(CollisionBehavior(items: [])) }
            group.addChildBehavior(CollisionBehavior(items: []))  // the 17th stops here, not at the next step
            exit(0)
        }
        let output = String(decoding: r?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            output.contains(
                "DynamicBehavior.addChildBehavior: an animator takes at most 16 collision behaviours (got 17)"),
            "\(output)")
    }

    @Test func fieldClosureMutatesAnimator() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 160, y: 100), size: Size(width: 50, height: 50))
            let field = FieldBehavior.field { [unowned animator] sample in
                a.center = Vector(x: 10, y: 10)
                animator.updateItem(usingCurrentState: a)
                _ = animator.items(in: Rect(x: 0, y: 0, width: 1, height: 1))
                animator.removeAllBehaviors()
                return Vector(x: 0, y: 1)
            }
            field.addItem(a)
            animator.addBehavior(field)
            for _ in 0..<10 { try animator.step() }
            print("field closure: \(a.center)")
        }
    }

    @Test func slidingPathAndInfiniteRegion() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            final class Sliver: DynamicItem {
                var center = Vector(x: 160, y: 100)
                var bounds = Rect(x: 0, y: 0, width: 10, height: 10)
                var rotation = 0.0
                var collisionBounds: CollisionBounds {
                    .path([Vector(x: -1e14, y: 0), Vector(x: 1e14, y: 0), Vector(x: 0, y: 1e-26)])
                }
            }
            let s = Sliver()
            let a = ItemView(name: "a", center: Vector(x: 160, y: 300), size: Size(width: 1e-6, height: 1e-6))
            let props = DynamicItemBehavior(items: [s, a])
            props.density = 1e-12
            let collision = CollisionBehavior(items: [s, a])
            collision.translatesReferenceBoundsIntoBoundary = true
            let field = FieldBehavior.radialGravityField(position: Vector(x: 160, y: 240))
            field.region = .circle(radius: .infinity)
            field.falloff = 3
            field.addItem(s)
            field.addItem(a)
            let slide = AttachmentBehavior.slidingAttachment(
                with: a, attachedTo: s, attachmentAnchor: Vector(x: 160, y: 200),
                axisOfTranslation: Vector(x: 1e-100, y: 0))
            slide.attachmentRange = FloatRange(minimum: -1e15, maximum: 1e15)
            for x in [props, collision, field, slide] as [DynamicBehavior] { animator.addBehavior(x) }
            for st in 0..<600 {
                do { try animator.step() } catch {
                    print("sliver: step \(st) threw \(error)")
                    break
                }
                if !(s.center.isFinite && a.center.isFinite) {
                    print("NaN at \(st)")
                    exit(3)
                }
            }
            print("sliver: \(s.center) \(a.center)")
        }
    }
}

final class PairCounterH19: CollisionBehaviorDelegate {
    var began = 0
    var ended = 0
    var onEnd: (() -> Void)?
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
        withBoundaryIdentifier identifier: String?, at point: Vector
    ) { began += 1 }
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?
    ) {
        ended += 1
        onEnd?()
    }
}

struct NewcomerPairingTests {
    /// An item resting on the bottom edge, its contact begun.
    static func resting() throws -> (DynamicAnimator, ItemView, CollisionBehavior, GravityBehavior, PairCounterH19) {
        let animator = DynamicAnimator(referenceBounds: NewcomerTests.bounds)
        let a = ItemView(name: "a", center: Vector(x: 160, y: 400), size: Size(width: 50, height: 50))
        let collision = CollisionBehavior(items: [a])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "floor", from: Vector(x: 0, y: 470), to: Vector(x: 320, y: 470))
        let counter = PairCounterH19()
        collision.collisionDelegate = counter
        let gravity = GravityBehavior(items: [a])
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        for _ in 0..<240 { try animator.step() }
        return (animator, a, collision, gravity, counter)
    }

    @Test func endedDelegateReentersAnimator() throws {
        let (animator, a, collision, gravity, counter) = try Self.resting()
        let b = ItemView(name: "b", center: Vector(x: 60, y: 60), size: Size(width: 20, height: 20))
        counter.onEnd = { [unowned animator] in
            collision.addItem(b)
            gravity.addItem(b)
            _ = animator.body(for: a)
            _ = animator.items(in: NewcomerTests.bounds)
            animator.updateItem(usingCurrentState: a)
        }
        gravity.gravityDirection = Vector(x: 0, y: -1)
        for _ in 0..<240 { try animator.step() }
        print("reentrant ended: began \(counter.began) ended \(counter.ended) b \(b.center)")
        #expect(a.center.isFinite && b.center.isFinite)
    }
}

struct NewcomerExitTests2 {
    @Test func pinRangeAtTheRuleEdge() async {
        await #expect(processExitsWith: .success) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 160, y: 100), size: Size(width: 50, height: 50))
            let b = ItemView(name: "b", center: Vector(x: 160, y: 200), size: Size(width: 50, height: 50))
            let pin = AttachmentBehavior.pinAttachment(with: a, attachedTo: b, attachmentAnchor: Vector(x: 160, y: 150))
            pin.attachmentRange = FloatRange(minimum: 1e15, maximum: 1e15)
            animator.addBehavior(pin)
            animator.addBehavior(GravityBehavior(items: [a]))
            for _ in 0..<120 { do { try animator.step() } catch { break } }
            if !(a.center.isFinite && a.rotation.isFinite) { exit(3) }
        }
    }
}

struct NewcomerMutationTests {
    final class Meddler: DynamicItem {
        var center: Vector { didSet { onMove?() } }
        let bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        var rotation = 0.0
        var onMove: (() -> Void)?
        init(center: Vector) { self.center = center }
    }

    @Test func itemSetterMutatesAnimator() throws {
        let animator = DynamicAnimator(referenceBounds: NewcomerTests.bounds)
        let a = Meddler(center: Vector(x: 100, y: 100))
        let b = Meddler(center: Vector(x: 200, y: 100))
        let gravity = GravityBehavior(items: [a, b])
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        var moves = 0
        // Not strong: `a` holds this closure, and the behaviours hold `a` (cycles LeakSanitizer caught).
        a.onMove = { [unowned animator, unowned a, weak gravity, weak collision] in
            moves += 1
            if moves == 30 {
                gravity?.removeItem(b)
                collision?.removeItem(b)
                _ = animator.items(in: NewcomerTests.bounds)
                animator.updateItem(usingCurrentState: a)
            }
            if moves == 60 {
                animator.removeAllBehaviors()
                _ = animator.body(for: a)
                animator.addBehavior(GravityBehavior(items: [b]))
            }
        }
        for _ in 0..<240 { try animator.step() }
        #expect(a.center.isFinite && b.center.isFinite)
        #expect(animator.space.bodies.count == 1)
    }

    @Test func treeChangedFromActions() throws {
        let animator = DynamicAnimator(referenceBounds: NewcomerTests.bounds)
        let a = ItemView(name: "a", center: Vector(x: 160, y: 100), size: Size(width: 40, height: 40))
        let parent = DynamicBehavior()
        let child = GravityBehavior(items: [a])
        let grandchild = SnapBehavior(item: a, snapTo: Vector(x: 10, y: 10))
        parent.addChildBehavior(child)
        child.addChildBehavior(grandchild)
        var n = 0
        grandchild.action = { [unowned child, unowned grandchild, unowned animator] in
            n += 1
            if n == 10 {
                child.removeChildBehavior(grandchild)
                animator.addBehavior(grandchild)
            }
        }
        child.action = { [unowned parent, unowned child] in
            if n == 20 { parent.removeChildBehavior(child) }
        }
        animator.addBehavior(parent)
        for _ in 0..<240 { try animator.step() }
        #expect(a.center.isFinite)
        #expect(animator.behaviors.count == 2)
    }

    @Test func pauseDelegateRestartsAnimator() throws {
        final class Restarter: DynamicAnimatorDelegate {
            var pauses = 0
            var resumes = 0
            let item: ItemView
            init(item: ItemView) { self.item = item }
            func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
                pauses += 1
                guard pauses < 5 else { return }
                let push = PushBehavior(items: [item], mode: .instantaneous)
                push.pushDirection = Vector(x: 0, y: -1)
                animator.addBehavior(push)
                try? animator.step()
            }
            func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { resumes += 1 }
        }
        let animator = DynamicAnimator(referenceBounds: NewcomerTests.bounds)
        let a = ItemView(name: "a", center: Vector(x: 160, y: 400), size: Size(width: 40, height: 40))
        let collision = CollisionBehavior(items: [a])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [a]))
        animator.addBehavior(collision)
        let restarter = Restarter(item: a)
        animator.delegate = restarter
        for _ in 0..<3000 { try animator.step() }
        #expect(restarter.pauses == 5)
        #expect(restarter.resumes == 5)
        #expect(!animator.isRunning)
    }
}
