import Chipmunk
import Foundation

/// Joins an item to an anchor point or to another item, as `UIAttachmentBehavior`.
///
/// The plain attachment keeps the attachment points `length` apart: rigidly (a pin
/// joint) while `frequency` is 0, springily (a damped spring: `frequency` in Hz and
/// `damping` as the damping ratio) when it is more. The other kinds:
/// - ``slidingAttachment(with:attachedTo:attachmentAnchor:axisOfTranslation:)``: moves
///   along an axis only, without turning (a groove joint and a gear joint); the
///   `attachmentRange` limits the travel;
/// - ``fixedAttachment(with:attachedTo:attachmentAnchor:)``: welded at the anchor (a
///   pivot and a gear joint);
/// - ``limitAttachment(with:offsetFromCenter:attachedTo:offsetFromCenter:)``: no further
///   apart than `length`, like a rope (a slide joint);
/// - ``pinAttachment(with:attachedTo:attachmentAnchor:)``: turning about the anchor (a
///   pivot joint), within `attachmentRange` of the starting angle (a rotary limit joint).
///
/// `frictionTorque` resists turning of one relative to the other with at most that torque
/// (a simple motor at rate 0).
public final class AttachmentBehavior: DynamicBehavior {
    /// `UIAttachmentBehaviorType`.
    public enum AttachmentType: Sendable {
        /// Two items attached to each other.
        case items
        /// One item attached to an anchor point.
        case anchor
    }
    enum Kind: Equatable {
        case standard
        case sliding(axis: Vector)
        case fixed, limit, pin
    }

    /// Whether two items or an item and an anchor are attached.
    public let attachedBehaviorType: AttachmentType
    /// One item, or two.
    public let items: [any DynamicItem]
    let offsets: [Vector]
    let kind: Kind

    /// Where an item-to-anchor attachment is anchored, in reference coordinates; moving
    /// it drags the item (as a finger does). For the sliding, fixed and pin kinds, the
    /// attachment anchor they were made with.
    public var anchorPoint: Vector {
        didSet {
            DynamicsParameter.attachmentAnchorPoint.require(anchorPoint)
            madeAt = nil
            moveAnchor()
        }
    }
    /// The distance kept between the attachment points (the plain and limit kinds).
    public var length: Double {
        didSet {
            DynamicsParameter.attachmentLength.require(length)
            rebuild()
        }
    }
    /// The damping ratio of a springy attachment (frequency > 0), from 0 to 1e6.
    public var damping: Double = 0 {
        didSet {
            DynamicsParameter.attachmentDamping.require(damping)
            rebuild()
        }
    }
    /// The spring's frequency in Hz, from 0 to 1e6; 0 makes the attachment rigid. (The
    /// spring's stiffness is mass × (2π × frequency)²: 1e300 Hz overflowed it, and the stop
    /// named `DampedSpring.stiffness`, not this property.)
    public var frequency: Double = 0 {
        didSet {
            DynamicsParameter.attachmentFrequency.require(frequency)  // in Hz
            rebuild()
        }
    }
    /// The most torque with which the attachment resists turning; 0 for none.
    public var frictionTorque: Double = 0 {
        didSet {
            DynamicsParameter.attachmentFrictionTorque.require(frictionTorque)
            rebuild()
        }
    }
    /// Travel along the axis (sliding) or turning (pin) allowed; infinite by default.
    ///
    /// Each end is infinite (no limit that way) or from -1e15 to 1e15; a range whose
    /// minimum is above its maximum, or with an end of NaN, is a programming error: the
    /// program stops.
    public var attachmentRange = FloatRange.infinite {
        didSet {
            for end in [attachmentRange.minimum, attachmentRange.maximum] where end.isFinite || end.isNaN {
                DynamicsParameter.attachmentRangeEnd.require(end)
            }
            ensure(
                attachmentRange.minimum <= attachmentRange.maximum,
                "AttachmentBehavior.attachmentRange is empty (got \(attachmentRange.minimum)...\(attachmentRange.maximum))"
            )
            rebuild()
        }
    }

    /// The constraints standing for the attachment now.
    public private(set) var constraints: [Constraint] = []
    /// Where the sliding, fixed and pin kinds hold each body, in its own coordinates, its
    /// angle, and the angle between the two, as first made: made again (an item anchored or
    /// freed, a range or a torque changed), they hold the items where they were attached.
    /// Made again at `anchorPoint` in the world as the items had moved, the pivot of two
    /// items that had fallen 1,000 points moved 496 points from one of them. Moving
    /// `anchorPoint` makes them afresh from there.
    private var madeAt: (anchorA: Vector, anchorB: Vector, angleB: Double, phase: Double)?
    private var main: Constraint?
    private var needsRebuild = true

    init(items: [any DynamicItem], offsets: [Vector], anchor: Vector, kind: Kind, type: AttachmentType) {
        DynamicsParameter.attachmentPoint.require(offsets + [anchor])
        if items.count == 2 {
            ensure(items[0] !== items[1], "AttachmentBehavior: an item cannot be attached to itself")
        }
        self.items = items
        self.offsets = offsets
        self.kind = kind
        attachedBehaviorType = type
        anchorPoint = anchor
        func point(_ index: Int) -> Vector {
            items[index].center + offsets[index].rotated(by: items[index].rotation)
        }
        length = ((items.count == 2 ? point(1) : anchor) - point(0)).length
        super.init()
    }

    /// An item to an anchor: the point `offsetFromCenter` of the item (in its own
    /// coordinates) stays `length` (the present distance) from `anchor`.
    public convenience init(
        item: any DynamicItem, offsetFromCenter offset: Vector = .zero, attachedToAnchor anchor: Vector
    ) {
        self.init(items: [item], offsets: [offset], anchor: anchor, kind: .standard, type: .anchor)
    }

    /// Two items, by points on each.
    public convenience init(
        item item1: any DynamicItem, offsetFromCenter offset1: Vector = .zero, attachedTo item2: any DynamicItem,
        offsetFromCenter offset2: Vector = .zero
    ) {
        self.init(
            items: [item1, item2], offsets: [offset1, offset2], anchor: item2.center, kind: .standard, type: .items)
    }

    /// Two items that slide along `axis` relative to each other, without turning, attached
    /// at `attachmentAnchor`; `attachmentRange` limits the travel.
    ///
    /// An axis with a component past ±1e15, or shorter than 1e-100, is a programming
    /// error: the program stops.
    public static func slidingAttachment(
        with item1: any DynamicItem, attachedTo item2: any DynamicItem, attachmentAnchor: Vector,
        axisOfTranslation axis: Vector
    ) -> AttachmentBehavior {
        requireAxis(axis)
        return AttachmentBehavior(
            items: [item1, item2], offsets: [.zero, .zero], anchor: attachmentAnchor, kind: .sliding(axis: axis),
            type: .items)
    }

    /// An item that slides along `axis` through `attachmentAnchor`, without turning.
    ///
    /// An axis with a component past ±1e15, or shorter than 1e-100, is a programming
    /// error: the program stops.
    public static func slidingAttachment(
        with item: any DynamicItem, attachmentAnchor: Vector, axisOfTranslation axis: Vector
    ) -> AttachmentBehavior {
        requireAxis(axis)
        return AttachmentBehavior(
            items: [item], offsets: [.zero], anchor: attachmentAnchor, kind: .sliding(axis: axis), type: .anchor)
    }

    /// The shortest sliding axis: a shorter one (1e-300) has no length in doubles to
    /// divide by, and the groove it made had no length either.
    static let minimumAxisLength = 1e-100

    private static func requireAxis(_ axis: Vector) {
        DynamicsParameter.slidingAxis.require(axis)
        ensure(
            axis.length >= minimumAxisLength,
            "\(DynamicsParameter.slidingAxis) must be at least \(minimumAxisLength) long (got \(axis))")
    }

    /// Two items held no further apart than `length`, at points `offset1` and `offset2` from
    /// their centres, like a rope.
    public static func limitAttachment(
        with item1: any DynamicItem, offsetFromCenter offset1: Vector, attachedTo item2: any DynamicItem,
        offsetFromCenter offset2: Vector
    ) -> AttachmentBehavior {
        AttachmentBehavior(
            items: [item1, item2], offsets: [offset1, offset2], anchor: item2.center, kind: .limit, type: .items)
    }

    /// Two items held together at `attachmentAnchor`, neither moving nor turning relative to the other.
    public static func fixedAttachment(
        with item1: any DynamicItem, attachedTo item2: any DynamicItem, attachmentAnchor: Vector
    ) -> AttachmentBehavior {
        AttachmentBehavior(
            items: [item1, item2], offsets: [.zero, .zero], anchor: attachmentAnchor, kind: .fixed, type: .items)
    }

    /// Two items joined at `attachmentAnchor`, turning about it within `attachmentRange`.
    public static func pinAttachment(
        with item1: any DynamicItem, attachedTo item2: any DynamicItem, attachmentAnchor: Vector
    ) -> AttachmentBehavior {
        AttachmentBehavior(
            items: [item1, item2], offsets: [.zero, .zero], anchor: attachmentAnchor, kind: .pin, type: .items)
    }

    override var dynamicItems: [any DynamicItem] { items }

    private func rebuild() {
        needsRebuild = true
        changed()
    }

    private func moveAnchor() {
        guard attachedBehaviorType == .anchor, kind == .standard || kind == .limit, let main,
            let animator = dynamicAnimator
        else { return rebuild() }
        switch main {
        case let joint as PinJoint: joint.anchorB = anchorPoint
        case let joint as DampedSpring: joint.anchorB = anchorPoint
        case let joint as SlideJoint: joint.anchorB = anchorPoint
        case let joint as PivotJoint: joint.anchorB = anchorPoint
        default: return rebuild()
        }
        animator.wake(items[0])
    }

    override func install(in animator: DynamicAnimator) {
        guard needsRebuild || constraints.isEmpty else { return }
        uninstall(from: animator)
        needsRebuild = false
        guard let a = animator.record(for: items[0])?.body else { return }
        let b =
            items.count == 2
            ? animator.record(for: items[1])?.body ?? animator.space.staticBody : animator.space.staticBody
        // Anchored items (kinematic bodies) hold still: an attachment between them, or
        // between one and an anchor point, has nothing to move (the engine takes no joint
        // without a dynamic body). It is made once an item is set free.
        guard a.kind == .dynamic || b.kind == .dynamic else { return }
        // An anchor 1e15 from a body far the other way is past the core's coordinates in the
        // body's own: clamped, as the groove's ends are (the pivot made from the world point
        // took it unchecked).
        let geometry =
            madeAt
            ?? (
                a.worldToLocal(anchorPoint).clamped(to: Parameter.maxCoordinate),
                b.worldToLocal(anchorPoint).clamped(to: Parameter.maxCoordinate), b.angle, a.angle - b.angle
            )
        madeAt = geometry
        let anchorB = items.count == 2 ? offsets[1] : anchorPoint
        var made: [Constraint] = []
        switch kind {
        case .standard where frequency > 0:
            let omega = 2 * Double.pi * frequency
            let mass = Self.effectiveMass(a, b)
            made.append(
                DampedSpring(
                    a: a, b: b, anchorA: offsets[0], anchorB: anchorB, restLength: length,
                    stiffness: mass * omega * omega, damping: 2 * damping * mass * omega))
        case .standard where length == 0:
            // A pin of length 0 is a pivot (the engine warns that a pivot is steadier).
            made.append(PivotJoint(a: a, b: b, anchorA: offsets[0], anchorB: anchorB))
        case .standard:
            let pin = PinJoint(a: a, b: b, anchorA: offsets[0], anchorB: anchorB)
            pin.distance = length
            made.append(pin)
        case .limit:
            made.append(SlideJoint(a: a, b: b, anchorA: offsets[0], anchorB: anchorB, distance: 0...length))
        case .sliding(let axis):
            // The groove lies on b along the axis through the anchor; a slides on it without turning.
            // The anchor in each body's coordinates lies within half of maxCoordinate, and the
            // travel within the other half, so the groove's ends are coordinates the core takes:
            // an anchor 1e15 from a body, or a range of ±1e15, made ends past it, and the core
            // stopped the program naming `GrooveJoint.groove`. Only a world near its edge is
            // clamped so.
            let half = Parameter.maxCoordinate / 2
            let localAnchor = geometry.anchorB.clamped(to: half)
            let localAxis = (axis * (1 / axis.length)).rotated(by: -geometry.angleB)
            let low = attachmentRange.minimum.isFinite ? max(attachmentRange.minimum, -half) : -1e5
            let high = attachmentRange.maximum.isFinite ? min(attachmentRange.maximum, half) : 1e5
            let (grooveA, grooveB) = (localAnchor + localAxis * low, localAnchor + localAxis * high)
            if grooveA == grooveB {
                // No travel (a range of zero, or one below the coordinates' resolution there):
                // held at the anchor. A groove of no length has no direction.
                made.append(PivotJoint(a: a, b: b, anchorA: geometry.anchorA, anchorB: geometry.anchorB))
            } else {
                made.append(
                    GrooveJoint(
                        a: b, b: a, grooveA: grooveA, grooveB: grooveB,
                        anchorB: geometry.anchorA.clamped(to: Parameter.maxCoordinate)))
            }
            made.append(GearJoint(a: b, b: a, phase: geometry.phase, ratio: 1))
        case .fixed:
            made.append(PivotJoint(a: a, b: b, anchorA: geometry.anchorA, anchorB: geometry.anchorB))
            made.append(GearJoint(a: b, b: a, phase: geometry.phase, ratio: 1))
        case .pin:
            made.append(PivotJoint(a: a, b: b, anchorA: geometry.anchorA, anchorB: geometry.anchorB))
            if !attachmentRange.isInfinite {
                let start = geometry.phase
                let low = attachmentRange.minimum.isFinite ? attachmentRange.minimum : -1e6
                let high = attachmentRange.maximum.isFinite ? attachmentRange.maximum : 1e6
                made.append(RotaryLimitJoint(a: b, b: a, angle: (start + low)...(start + high)))
            }
        }
        if frictionTorque > 0 {
            let motor = SimpleMotor(a: b, b: a, rate: 0)
            motor.maxForce = frictionTorque
            made.append(motor)
        }
        main = made.first
        constraints = made
        animator.space.add(contentsOf: made)
        a.activate()
    }

    override func uninstall(from animator: DynamicAnimator) {
        if !constraints.isEmpty { animator.space.remove(contentsOf: constraints) }
        constraints.removeAll()
        main = nil
        needsRebuild = true
    }

    /// Whether the constraints depend on the items' masses (a spring's stiffness is set
    /// from them), so that a change of mass rebuilds them.
    var dependsOnMass: Bool { kind == .standard && frequency > 0 }

    /// The mass a spring between the two bodies moves: the reduced mass, or the one
    /// dynamic body's (an anchored item's kinematic body has an infinite mass: inf / inf
    /// made the stiffness NaN).
    static func effectiveMass(_ a: Body, _ b: Body) -> Double {
        switch (a.kind == .dynamic, b.kind == .dynamic) {
        case (true, true): a.mass * b.mass / (a.mass + b.mass)
        case (true, false): a.mass
        default: b.mass
        }
    }
}

extension Vector {
    /// The vector with each component clamped to ±`bound`.
    func clamped(to bound: Double) -> Vector {
        Vector(x: min(max(x, -bound), bound), y: min(max(y, -bound), bound))
    }

    /// The vector turned by `angle` radians.
    func rotated(by angle: Double) -> Vector {
        let (c, s) = (cos(angle), sin(angle))
        return Vector(x: x * c - y * s, y: x * s + y * c)
    }
}
