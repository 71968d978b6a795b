import Chipmunk
import Foundation
import Testing

@testable import ChipmunkDynamics

/// A seeded generator (SplitMix64), so that a fuzz run is the same run after run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Counts began minus ended per behaviour and pair: "ended" without a "began" before it
/// is an error. (A pair may be told "began" more than once: a boundary is several segments,
/// the reference bounds four walls.)
private final class PairLedger: CollisionBehaviorDelegate {
    var balance: [String: Int] = [:]
    var errors: [String] = []
    var began = 0
    var ended = 0
    /// Run on every call, to change the animator from inside a delegate.
    var onEvent: ((CollisionBehavior, Bool) -> Void)?

    private func key(_ behavior: CollisionBehavior, _ a: String, _ b: String) -> String {
        "\(ObjectIdentifier(behavior).hashValue):\(min(a, b))-\(max(a, b))"
    }
    private func name(_ item: any DynamicItem) -> String { (item as? ItemView)?.name ?? "?" }
    private func tell(_ key: String, began isBegan: Bool) {
        let now = balance[key, default: 0] + (isBegan ? 1 : -1)
        if now < 0 { errors.append("\(isBegan ? "began" : "ended") \(key) -> \(now)") }
        balance[key] = now
        if isBegan { began += 1 } else { ended += 1 }
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem,
        at point: Vector
    ) {
        tell(key(behavior, name(item1), name(item2)), began: true)
        onEvent?(behavior, true)
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem
    ) {
        tell(key(behavior, name(item1), name(item2)), began: false)
        onEvent?(behavior, false)
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
        withBoundaryIdentifier identifier: String?, at point: Vector
    ) {
        tell(key(behavior, name(item), "|" + (identifier ?? "bounds")), began: true)
        onEvent?(behavior, true)
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?
    ) {
        tell(key(behavior, name(item), "|" + (identifier ?? "bounds")), began: false)
        onEvent?(behavior, false)
    }
}

/// A world of items, attachments of every kind, collisions, pushes and properties, changed
/// at random (a seeded generator) before each step: what it gives is every item's centre
/// and rotation after every step, as bits, and the error a step threw, if any (the run
/// ends there: a random world may diverge, which the step reports).
private func fuzz(
    seed: UInt64, steps: Int, changesPerStep: Int = 1
) -> (bits: [UInt64], error: ChipmunkError?, ledger: PairLedger) {
    var random = SeededGenerator(state: seed)
    let animator = DynamicAnimator(referenceBounds: screen)
    var items: [ItemView] = []
    for k in 0..<8 {
        let x: Double = 40 + Double(k % 4) * 70
        let y: Double = 80 + Double(k / 4) * 120
        let width: Double = 10 + Double(k) * 4
        let height: Double = 14 + Double(k % 3) * 6
        items.append(item("i\(k)", at: Vector(x: x, y: y), width: width, height: height))
    }
    let ledger = PairLedger()
    let gravity = GravityBehavior(items: items)
    let collisions = [CollisionBehavior(items: items), CollisionBehavior(items: Array(items[2..<6]))]
    collisions[0].translatesReferenceBoundsIntoBoundary = true
    collisions[1].addBoundary(withIdentifier: "shelf", from: Vector(x: 20, y: 300), to: Vector(x: 300, y: 320))
    for collision in collisions { collision.collisionDelegate = ledger }
    let properties = [DynamicItemBehavior(items: [items[0], items[1]]), DynamicItemBehavior(items: [items[4]])]
    let push = PushBehavior(items: [items[3], items[5]], mode: .continuous)
    let attachments = [
        AttachmentBehavior(item: items[0], attachedTo: items[1]),
        AttachmentBehavior(item: items[1], attachedToAnchor: Vector(x: 160, y: 40)),
        AttachmentBehavior.pinAttachment(with: items[2], attachedTo: items[3], attachmentAnchor: Vector(x: 140, y: 80)),
        AttachmentBehavior.fixedAttachment(with: items[4], attachedTo: items[0], attachmentAnchor: items[4].center),
        AttachmentBehavior.slidingAttachment(
            with: items[5], attachedTo: items[4], attachmentAnchor: items[5].center,
            axisOfTranslation: Vector(x: 1, y: 0.2)),
        AttachmentBehavior.limitAttachment(
            with: items[6], offsetFromCenter: Vector(x: 2, y: 0), attachedTo: items[0],
            offsetFromCenter: Vector(x: 0, y: 3)),
        AttachmentBehavior.slidingAttachment(
            with: items[7], attachmentAnchor: items[7].center, axisOfTranslation: Vector(x: 0, y: 1)),
    ]
    let all: [DynamicBehavior] = [gravity, push] + collisions + properties + attachments
    for behavior in all { animator.addBehavior(behavior) }
    var bits: [UInt64] = []
    func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &random)] }
    for _ in 0..<steps {
        for _ in 0..<changesPerStep {
            switch Int.random(in: 0..<16, using: &random) {
            case 0: pick(properties).isAnchored.toggle()
            case 1: pick(properties).density = Double.random(in: 0.01...50, using: &random)
            case 2:
                let behavior = pick(all)
                if behavior.dynamicAnimator == nil {
                    animator.addBehavior(behavior)
                } else {
                    animator.removeBehavior(behavior)
                }
            case 3:
                let collision = pick(collisions)
                let member = pick(items)
                if collision.items.contains(where: { $0 === member }) {
                    collision.removeItem(member)
                } else {
                    collision.addItem(member)
                }
            case 4:
                pick(attachments).frictionTorque =
                    Bool.random(using: &random) ? 0 : Double.random(in: 0...1e4, using: &random)
            case 5:
                let low = Double.random(in: -2...0.5, using: &random)
                pick(attachments).attachmentRange =
                    Bool.random(using: &random)
                    ? .infinite : FloatRange(minimum: low, maximum: low + Double.random(in: 0...2, using: &random))
            case 6:
                pick(attachments).length = Bool.random(using: &random) ? 0 : Double.random(in: 0...120, using: &random)
            case 7:
                let attachment = pick(attachments)
                attachment.frequency = Bool.random(using: &random) ? 0 : Double.random(in: 0.1...20, using: &random)
                attachment.damping = Double.random(in: 0...1, using: &random)
            case 8:
                pick(attachments).anchorPoint = Vector(
                    x: Double.random(in: 0...320, using: &random), y: Double.random(in: 0...480, using: &random))
            case 9:
                if Bool.random(using: &random) {
                    push.angle = Double.random(in: -7...7, using: &random)
                } else {
                    push.magnitude = Double.random(in: 0...0.5, using: &random)
                }
            case 10:
                pick(properties).addLinearVelocity(
                    Vector(
                        x: Double.random(in: -200...200, using: &random),
                        y: Double.random(in: -200...200, using: &random)),
                    for: pick(items))
            case 11: pick(properties).allowsRotation.toggle()
            case 12:
                gravity.setAngle(
                    Double.random(in: 0...(2 * .pi), using: &random),
                    magnitude: Double.random(in: 0...2, using: &random))
            case 13:
                let collision = pick(collisions)
                if collision.boundary(withIdentifier: "line") == nil {
                    collision.addBoundary(
                        withIdentifier: "line", from: Vector(x: Double.random(in: 0...320, using: &random), y: 200),
                        to: Vector(x: 300, y: Double.random(in: 100...460, using: &random)))
                } else {
                    collision.removeBoundary(withIdentifier: "line")
                }
            case 14:
                let modes: [CollisionBehavior.Mode] = [.items, .boundaries, .everything, []]
                pick(collisions).collisionMode = pick(modes)
            default:
                let member = pick(items)
                if gravity.items.contains(where: { $0 === member }) {
                    gravity.removeItem(member)
                } else {
                    gravity.addItem(member)
                }
            }
        }
        do { try animator.step() } catch {
            animator.removeAllBehaviors()
            _ = animator.items(in: screen)  // applies the removal: the ends are told
            return (bits, error as? ChipmunkError, ledger)
        }
        for member in items {
            bits += [member.center.x.bitPattern, member.center.y.bitPattern, member.rotation.bitPattern]
        }
    }
    animator.removeAllBehaviors()
    _ = animator.items(in: screen)
    return (bits, nil, ledger)
}

/// Attacks on the anchored attachments, told contacts, thick walls and stepping rules: the
/// behaviour that held.
@Suite struct AttackDynamicsTests {
    private func stderr(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    // MARK: fuzzing

    /// A thousand random changes per run, each followed by a step: no stop, every centre
    /// finite, no "ended" without its "began", and the same bits (and the same thrown
    /// error, where the random world diverged) when run again.
    @Test(arguments: [1 as UInt64, 2, 3, 42])
    func randomChangesStayFiniteAndDeterministic(seed: UInt64) async throws {
        await #expect(processExitsWith: .success) { [seed] in
            let first = fuzz(seed: seed, steps: 1000)
            guard first.bits.map(Double.init(bitPattern:)).allSatisfy(\.isFinite) else { exit(3) }
            guard first.ledger.errors.isEmpty, first.ledger.began > 0 else { exit(4) }
            let second = fuzz(seed: seed, steps: 1000)
            guard second.bits == first.bits, second.error == first.error else { exit(5) }
        }
    }

    /// Ten changes before each step, for 300 steps.
    @Test(arguments: [7 as UInt64, 8])
    func manyChangesPerStep(seed: UInt64) async throws {
        await #expect(processExitsWith: .success) { [seed] in
            let run = fuzz(seed: seed, steps: 300, changesPerStep: 10)
            guard run.bits.map(Double.init(bitPattern:)).allSatisfy(\.isFinite) else { exit(3) }
            guard run.ledger.errors.isEmpty else { exit(4) }
        }
    }

    // MARK: anchored items under attachments

    /// Every kind of attachment, with friction torque, a range, length 0 and a spring,
    /// whose items are anchored and freed in turn on every step (each item, both, neither):
    /// no stop in the core, centres finite, anchored items exactly still.
    @Test(arguments: ["plain", "spring", "zero", "fixed", "pin", "sliding", "limit", "anchor", "slidingAnchor"])
    func anchoringAttachedItemsEveryStep(kind: String) async throws {
        await #expect(processExitsWith: .success) { [kind] in
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let a = ItemView(name: "a", center: Vector(x: 100, y: 200), size: Size(width: 20, height: 20))
            let b = ItemView(name: "b", center: Vector(x: 160, y: 220), size: Size(width: 30, height: 10))
            let attachment: AttachmentBehavior
            switch kind {
            case "fixed":
                attachment = .fixedAttachment(with: a, attachedTo: b, attachmentAnchor: Vector(x: 130, y: 210))
            case "pin": attachment = .pinAttachment(with: a, attachedTo: b, attachmentAnchor: Vector(x: 130, y: 210))
            case "sliding":
                attachment = .slidingAttachment(
                    with: a, attachedTo: b, attachmentAnchor: Vector(x: 130, y: 210),
                    axisOfTranslation: Vector(x: 1, y: 1))
            case "limit":
                attachment = .limitAttachment(
                    with: a, offsetFromCenter: Vector(x: 5, y: 0), attachedTo: b, offsetFromCenter: .zero)
            case "anchor": attachment = AttachmentBehavior(item: a, attachedToAnchor: Vector(x: 160, y: 100))
            case "slidingAnchor":
                attachment = .slidingAttachment(
                    with: a, attachmentAnchor: Vector(x: 100, y: 200), axisOfTranslation: Vector(x: 0, y: 1))
            default: attachment = AttachmentBehavior(item: a, attachedTo: b)
            }
            if kind == "spring" { attachment.frequency = 3 }
            if kind == "zero" { attachment.length = 0 }
            attachment.frictionTorque = 50
            if kind == "pin" || kind.hasPrefix("sliding") {
                attachment.attachmentRange = FloatRange(minimum: -0.5, maximum: 20)
            }
            let first = DynamicItemBehavior(items: [a])
            let second = DynamicItemBehavior(items: [b])
            animator.addBehavior(attachment)
            animator.addBehavior(GravityBehavior(items: [a, b]))
            animator.addBehavior(first)
            animator.addBehavior(second)
            for step in 0..<400 {
                first.isAnchored = step % 2 == 1
                second.isAnchored = step % 4 >= 2
                if step % 7 == 0 { first.density = Double(step % 5 + 1) }
                let held = (a.center, b.center)
                guard (try? animator.step()) != nil else { exit(2) }
                guard a.center.isFinite, b.center.isFinite else { exit(3) }
                if first.isAnchored, a.center != held.0 { exit(4) }
                if second.isAnchored, b.center != held.1 { exit(5) }
                let bothHeld = first.isAnchored && (second.isAnchored || attachment.items.count == 1)
                if bothHeld != attachment.constraints.isEmpty { exit(6) }
            }
        }
    }

    /// Anchoring and freeing attached items from a behaviour's action and from a collision
    /// delegate (settings made inside a step wait for the next): nothing stops, centres
    /// stay finite.
    @Test func anchoringFromActionsAndDelegates() async throws {
        await #expect(processExitsWith: .success) {
            final class Toggler: CollisionBehaviorDelegate {
                var properties: DynamicItemBehavior?
                func collisionBehavior(
                    _ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem,
                    at point: Vector
                ) { properties?.isAnchored.toggle() }
                func collisionBehavior(
                    _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                    withBoundaryIdentifier identifier: String?, at point: Vector
                ) { properties?.isAnchored.toggle() }
                func collisionBehavior(
                    _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                    withBoundaryIdentifier identifier: String?
                ) { properties?.density = properties!.density == 1 ? 3 : 1 }
            }
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let items = (0..<4).map { k in
                ItemView(
                    name: "i\(k)", center: Vector(x: 60 + Double(k) * 60, y: 300), size: Size(width: 30, height: 30))
            }
            let springs = [
                AttachmentBehavior(item: items[0], attachedTo: items[1]),
                AttachmentBehavior.pinAttachment(
                    with: items[1], attachedTo: items[2], attachmentAnchor: Vector(x: 150, y: 300)),
                AttachmentBehavior(item: items[3], attachedToAnchor: Vector(x: 240, y: 200)),
            ]
            springs[0].frequency = 2
            springs[2].frequency = 1
            springs[2].damping = 0.1
            let properties = DynamicItemBehavior(items: [items[1], items[3]])
            properties.elasticity = 0.8
            let collision = CollisionBehavior(items: items)
            collision.translatesReferenceBoundsIntoBoundary = true
            let toggler = Toggler()
            toggler.properties = properties
            collision.collisionDelegate = toggler
            let other = DynamicItemBehavior(items: [items[0]])
            var count = 0
            other.action = { [unowned other] in
                count += 1
                if count % 3 == 0 { other.isAnchored.toggle() }
            }
            for behavior in [collision, properties, other, GravityBehavior(items: items)] as [DynamicBehavior] + springs
            {
                animator.addBehavior(behavior)
            }
            for _ in 0..<1200 {
                guard (try? animator.step()) != nil else { exit(2) }
                guard items.allSatisfy({ $0.center.isFinite && $0.rotation.isFinite }) else { exit(3) }
            }
        }
    }

    /// A density changed before every step under a spring: the spring is made again each
    /// time with the stiffness of the item's new mass (1 Hz kept), and nothing diverges.
    @Test func densityChangedEveryStepUnderASpring() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let bob = item("bob", at: Vector(x: 260, y: 100), width: 20, height: 20)
        let other = item("other", at: Vector(x: 160, y: 100), width: 10, height: 10)
        let spring = AttachmentBehavior(item: bob, attachedTo: other)
        spring.frequency = 1
        spring.damping = 0.3
        let properties = DynamicItemBehavior(items: [bob])
        animator.addBehavior(spring)
        animator.addBehavior(properties)
        animator.addBehavior(GravityBehavior(items: [bob, other]))
        for step in 0..<600 {
            properties.density = [0.5, 1, 7, 1e-3, 200][step % 5]
            try animator.step()
            let a = try #require(animator.body(for: bob))
            let b = try #require(animator.body(for: other))
            let joint = try #require(spring.constraints.first as? DampedSpring)
            let mass = a.mass * b.mass / (a.mass + b.mass)
            let omega = 2 * Double.pi
            #expect(joint.stiffness == mass * omega * omega)
            #expect(joint.damping == 2 * 0.3 * mass * omega)
            #expect(bob.center.isFinite && other.center.isFinite)
        }
    }

    /// A spring to an anchored item keeps the free item's mass as its stiffness's, as its
    /// density changes.
    @Test func springToAnchoredItemFollowsTheFreeMass() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let bob = item("bob", at: Vector(x: 260, y: 100), width: 20, height: 20)
        let post = item("post", at: Vector(x: 160, y: 100), width: 10, height: 10)
        let spring = AttachmentBehavior(item: post, attachedTo: bob)
        spring.frequency = 2
        let anchored = DynamicItemBehavior(items: [post])
        anchored.isAnchored = true
        let free = DynamicItemBehavior(items: [bob])
        for behavior in [spring, anchored, free, GravityBehavior(items: [bob])] as [DynamicBehavior] {
            animator.addBehavior(behavior)
        }
        for density in [1.0, 10, 0.1, 1e12, 1e-12] {
            free.density = density
            try animator.step()
            let joint = try #require(spring.constraints.first as? DampedSpring)
            let mass = try #require(animator.body(for: bob)).mass
            let omega = 2 * Double.pi * 2
            #expect(joint.stiffness == mass * omega * omega)
            #expect(joint.stiffness.isFinite && joint.stiffness > 0)
        }
        #expect(post.center == Vector(x: 160, y: 100))
    }

    // MARK: contacts told began and ended

    /// Items falling into a pile, in two collision behaviours with one ledger as delegate;
    /// inside "began" and "ended" the delegate removes and re-adds items, behaviours and
    /// boundaries, changes the mode and the delegate's behaviour's boundaries: each pair
    /// is told "ended" only after a "began", and nothing stops.
    @Test(arguments: [11 as UInt64, 12, 13])
    func changesFromInsideDelegatesKeepContactsPaired(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let animator = DynamicAnimator(referenceBounds: screen)
        let items = (0..<10).map { k in
            item("i\(k)", at: Vector(x: 30 + Double(k) * 28, y: 100 + Double(k % 3) * 40), width: 20, height: 20)
        }
        let ledger = PairLedger()
        let first = CollisionBehavior(items: items)
        first.translatesReferenceBoundsIntoBoundary = true
        first.addBoundary(withIdentifier: "ramp", from: Vector(x: 0, y: 300), to: Vector(x: 200, y: 400))
        let second = CollisionBehavior(items: Array(items[3...]))
        second.addBoundary(withIdentifier: "floor", forPath: [Vector(x: 0, y: 470), Vector(x: 320, y: 470)])
        first.collisionDelegate = ledger
        second.collisionDelegate = ledger
        let gravity = GravityBehavior(items: items)
        let properties = DynamicItemBehavior(items: items)
        properties.elasticity = 0.6
        for behavior in [first, second, gravity, properties] as [DynamicBehavior] { animator.addBehavior(behavior) }
        var calls = 0
        ledger.onEvent = { behavior, began in
            calls += 1
            guard calls % 3 == 0 else { return }
            let member = items[Int.random(in: 0..<items.count, using: &random)]
            switch Int.random(in: 0..<8, using: &random) {
            case 0: behavior.removeItem(member)
            case 1: behavior.addItem(member)
            case 2: animator.removeBehavior(behavior)
            case 3: if behavior.dynamicAnimator == nil { animator.addBehavior(behavior) }
            case 4: behavior.removeBoundary(withIdentifier: began ? "ramp" : "floor")
            case 5:
                behavior.addBoundary(withIdentifier: "ramp", from: Vector(x: 0, y: 300), to: Vector(x: 200, y: 400))
            case 6: behavior.translatesReferenceBoundsIntoBoundary.toggle()
            default: properties.isAnchored.toggle()
            }
        }
        for step in 0..<1500 {
            if step % 50 == 0 {
                for behavior in [first, second] where behavior.dynamicAnimator == nil { animator.addBehavior(behavior) }
                properties.isAnchored = false
                properties.addLinearVelocity(
                    Vector(x: Double.random(in: -300...300, using: &random), y: -400), for: items[step / 50 % 10])
            }
            try animator.step()
            #expect(items.allSatisfy { $0.center.isFinite })
        }
        ledger.onEvent = nil
        animator.removeAllBehaviors()
        try animator.step()
        #expect(ledger.errors.isEmpty, "\(ledger.errors.prefix(5))")
        #expect(ledger.began > 20)
        #expect(ledger.ended > 20)
    }

    /// Removing what a resting contact depends on tells "ended" once: the item, the
    /// collision behaviour, the boundary, the reference bounds; and a removed, re-added
    /// behaviour is told "began" again.
    @Test(arguments: ["item", "behaviour", "boundary", "bounds", "mode", "anchored"])
    func removingWhatAContactNeedsTellsEndedOnce(what: String) throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item("box", at: Vector(x: 160, y: 300), width: 20, height: 20)
        let lid = item("lid", at: Vector(x: 160, y: 270), width: 20, height: 20)
        let collision = CollisionBehavior(items: [box, lid])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf", from: Vector(x: 100, y: 320), to: Vector(x: 220, y: 320))
        let recorder = ContactRecorder()
        collision.collisionDelegate = recorder
        let gravity = GravityBehavior(items: [box, lid])
        let properties = DynamicItemBehavior(items: [box])
        for behavior in [collision, gravity, properties] as [DynamicBehavior] { animator.addBehavior(behavior) }
        try run(animator, seconds: 2)
        #expect(!animator.isRunning, "asleep on the shelf")
        #expect(
            recorder.log.sorted() == ["began box|shelf", "began box-lid"].sorted()
                || recorder.log.sorted() == ["began box|shelf", "began lid-box"].sorted(), "\(recorder.log)")
        recorder.log.removeAll()
        switch what {
        case "item":
            collision.removeItem(box)
            gravity.removeItem(box)
            properties.removeItem(box)
        case "behaviour": animator.removeBehavior(collision)
        case "boundary": collision.removeBoundary(withIdentifier: "shelf")
        case "bounds": collision.removeAllBoundaries()
        case "mode": collision.collisionMode = .items
        default: properties.isAnchored = true
        }
        try run(animator, seconds: 2)
        let ends = recorder.log.filter { $0.hasPrefix("ended") }
        let begins = recorder.log.filter { $0.hasPrefix("began") }
        #expect(Set(ends).count == ends.count, "\(recorder.log)")
        if what != "anchored" && what != "mode" { #expect(ends.contains("ended box|shelf"), "\(recorder.log)") }
        if what == "behaviour" {
            #expect(begins.isEmpty)
            animator.addBehavior(collision)
            try run(animator, seconds: 2)
        }
        animator.removeAllBehaviors()
        try animator.step()
        let counts = Dictionary(grouping: recorder.log, by: { $0.dropFirst(6) }).mapValues { events in
            events.filter { $0.hasPrefix("began") }.count - events.filter { $0.hasPrefix("ended") }.count
        }
        #expect(counts.values.allSatisfy { $0 == -1 || $0 == 0 }, "\(recorder.log)")
    }

    /// Stepping from a collision delegate and advancing from an action stop naming the
    /// animator; stepping from an action and from the animator's delegate work.
    @Test func steppingInsideAStep() async throws {
        let fromDelegate = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Stepper: CollisionBehaviorDelegate {
                weak var animator: DynamicAnimator?
                func collisionBehavior(
                    _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                    withBoundaryIdentifier identifier: String?
                ) { try? animator?.step() }
            }
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let box = ItemView(name: "box", center: Vector(x: 160, y: 450), size: Size(width: 10, height: 10))
            let collision = CollisionBehavior(items: [box])
            collision.translatesReferenceBoundsIntoBoundary = true
            let stepper = Stepper()
            stepper.animator = animator
            collision.collisionDelegate = stepper
            let properties = DynamicItemBehavior(items: [box])
            animator.addBehavior(collision)
            animator.addBehavior(GravityBehavior(items: [box]))
            animator.addBehavior(properties)
            for _ in 0..<120 { try? animator.step() }
            properties.addLinearVelocity(Vector(x: 0, y: -500), for: box)
            for _ in 0..<120 { try? animator.step() }
        }
        #expect(stderr(fromDelegate).contains("DynamicAnimator.step() was called while the space stepped"))

        let advance = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let box = ItemView(name: "box", center: Vector(x: 160, y: 450), size: Size(width: 10, height: 10))
            let gravity = GravityBehavior(items: [box])
            gravity.action = { [unowned animator] in _ = try? animator.advance(by: 1.0 / 60) }
            animator.addBehavior(gravity)
            _ = try? animator.advance(by: 1.0 / 60)
        }
        #expect(stderr(advance).contains("DynamicAnimator.advance(by:) was called while it ran"))

        final class Resumer: DynamicAnimatorDelegate {
            var steps = 0
            func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
                steps += 1
                try? animator.step()
            }
        }
        let animator = DynamicAnimator(referenceBounds: screen)
        let box = item("box", at: Vector(x: 160, y: 100), width: 10, height: 10)
        let gravity = GravityBehavior(items: [box])
        var inner = 0
        gravity.action = { [unowned animator] in
            inner += 1
            if inner == 5 { try? animator.step() }
        }
        let resumer = Resumer()
        animator.delegate = resumer
        animator.addBehavior(gravity)
        try animator.advance(by: 0.1)
        #expect(resumer.steps == 1)
        #expect(animator.stepCount == 12 + 2, "the advance's 12 steps, one from the action, one from the delegate")
        #expect(box.center.isFinite)
    }

    /// The 17th collision behaviour stops where it is added, as a child too, naming the method.
    @Test func seventeenthCollisionBehaviourAsAGrandchild() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
            let parent = DynamicBehavior()
            let middle = DynamicBehavior()
            parent.addChildBehavior(middle)
            for _ in 0..<16 { middle.addChildBehavior(CollisionBehavior(items: [])) }
            animator.addBehavior(parent)
            try? animator.step()
            middle.addChildBehavior(CollisionBehavior(items: []))
        }
        #expect(stderr(result).contains("DynamicBehavior.addChildBehavior: an animator takes at most 16"))
    }

    /// item(for:) answers the item of each body, nil for the static body and for a body
    /// whose item left.
    @Test func itemForBody() throws {
        let animator = DynamicAnimator(referenceBounds: screen)
        let a = item("a", at: Vector(x: 100, y: 100), width: 10, height: 10)
        let b = item("b", at: Vector(x: 200, y: 100), width: 10, height: 10)
        let gravity = GravityBehavior(items: [a, b])
        animator.addBehavior(gravity)
        try animator.step()
        let bodyA = try #require(animator.body(for: a))
        let bodyB = try #require(animator.body(for: b))
        #expect(animator.item(for: bodyA) === a)
        #expect(animator.item(for: bodyB) === b)
        #expect(animator.item(for: animator.space.staticBody) == nil)
        gravity.removeItem(a)
        try animator.step()
        #expect(animator.item(for: bodyA) == nil)
        gravity.addItem(a)
        try animator.step()
        let again = try #require(animator.body(for: a))
        #expect(again !== bodyA)
        #expect(animator.item(for: again) === a)
    }

    // MARK: the reference bounds' thick walls

    /// Items bouncing at elasticity 1 with gravity inside bounds from a screen to 1e15
    /// wide, at the corners' limits and with insets: nothing stops in the core, every centre stays
    /// finite and within the (inset) bounds, give or take a tenth of the item's size.
    @Test(
        arguments: [
            [0.0, 0, 320, 480, 0], [-5e14, -5e14, 1e15, 1e15, 0], [5e14 - 200, 5e14 - 300, 200, 300, 0],
            [-5e14, -5e14, 200, 300, 0], [0, 0, 320, 480, 40], [-5e14, -5e14, 1e15, 1e15, 1e14],
            [0, 0, 320, 480, -40],
        ] as [[Double]])
    func itemsStayInsideBoundsOfEveryScale(spec: [Double]) async throws {
        await #expect(processExitsWith: .success) { [spec] in
            let bounds = Rect(x: spec[0], y: spec[1], width: spec[2], height: spec[3])
            let insets = EdgeInsets(top: spec[4], left: spec[4], bottom: spec[4], right: spec[4])
            let inner = bounds.inset(by: insets)
            let animator = DynamicAnimator(referenceBounds: bounds)
            let side = max(min(inner.width, inner.height) / 8, 1e-6)
            let items = (0..<6).map { k in
                ItemView(
                    name: "i\(k)",
                    center: Vector(
                        x: inner.minX + inner.width * (0.2 + 0.12 * Double(k)),
                        y: inner.minY + inner.height * (0.3 + 0.08 * Double(k))),
                    size: Size(width: side, height: side),
                    collisionBounds: k % 2 == 0 ? .rectangle : .ellipse)
            }
            let collision = CollisionBehavior(items: items)
            collision.setTranslatesReferenceBoundsIntoBoundary(with: insets)
            let properties = DynamicItemBehavior(items: items)
            properties.elasticity = 1
            let gravity = GravityBehavior(items: items)
            for behavior in [collision, properties, gravity] as [DynamicBehavior] { animator.addBehavior(behavior) }
            let scale = max(inner.width, inner.height)
            for (k, member) in items.enumerated() {
                properties.addLinearVelocity(
                    Vector(x: scale * Double(k + 1), y: -scale * Double(6 - k)) * 0.5, for: member)
            }
            let slack = side / 10 + 1e-9 * max(abs(inner.minX), abs(inner.minY), abs(inner.maxX), abs(inner.maxY))
            for _ in 0..<1500 {
                guard (try? animator.step()) != nil else { exit(2) }
                for member in items {
                    guard member.center.isFinite else { exit(3) }
                    let c = member.center
                    guard c.x >= inner.minX - slack, c.x <= inner.maxX + slack, c.y >= inner.minY - slack,
                        c.y <= inner.maxY + slack
                    else { exit(4) }
                }
            }
        }
    }
}
