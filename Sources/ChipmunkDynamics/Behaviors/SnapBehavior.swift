import Chipmunk
import Foundation

/// Pulls an item to a point and straightens it, with a little overshoot, as
/// `UISnapBehavior`.
///
/// Each step, inside the item's velocity integration, an acceleration pulls its centre to
/// the snap point and an angular one turns it back to angle 0, as an isotropic damped
/// spring would: natural frequency ``frequency``
/// (1.5 Hz), damping ratio 0.1 + 0.9 × `damping`. So `damping` 0 overshoots most and 1 not
/// at all (critical damping); the default is UIKit's 0.5. (A damped-spring constraint of
/// rest length 0 would damp only along its own direction, and leave the item circling.)
public final class SnapBehavior: DynamicBehavior {
    public let item: any DynamicItem
    public var snapPoint: Vector {
        didSet {
            precondition(snapPoint.isFinite, "SnapBehavior.snapPoint must be finite")
            dynamicAnimator?.record(for: item)?.body.activate()
        }
    }
    public var damping = 0.5 {
        didSet {
            precondition((0...1).contains(damping), "SnapBehavior.damping must be from 0 to 1 (got \(damping))")
            dynamicAnimator?.record(for: item)?.body.activate()
        }
    }
    /// How fast the item snaps: the spring's natural frequency in Hz.
    public static let frequency = 1.5

    /// The damping ratio `damping` stands for.
    public var dampingRatio: Double { 0.1 + 0.9 * damping }

    public init(item: any DynamicItem, snapTo point: Vector) {
        precondition(point.isFinite, "SnapBehavior point must be finite")
        self.item = item
        snapPoint = point
        super.init()
    }

    override var dynamicItems: [any DynamicItem] { [item] }

    override func install(in animator: DynamicAnimator) {
        animator.record(for: item)?.body.activate()
    }

    override var exertsForces: Bool { true }

    override func acceleration(of item: any DynamicItem, body: Body, charge: Double, time: Double) -> (Vector, Double)?
    {
        guard item === self.item else { return nil }
        // Settled: nothing more, so that the item can fall asleep and the animator pause.
        let offset = snapPoint - body.position
        if offset.length < 0.05, body.velocity.length < DynamicAnimator.restSpeed / 4, abs(body.angle) < 1e-3,
            abs(body.angularVelocity) < 1e-2
        {
            return nil
        }
        let omega = 2 * Double.pi * Self.frequency
        let ratio = dampingRatio
        let linear = offset * (omega * omega) - body.velocity * (2 * ratio * omega)
        // Items that cannot turn (a huge moment) keep their angle.
        let angular =
            body.moment < Parameter.massRange.upperBound
            ? -body.angle * omega * omega - body.angularVelocity * 2 * ratio * omega : 0
        return (linear, angular)
    }
}

/// A force on items, continuous or once, as `UIPushBehavior`.
///
/// UIKit's scale: magnitude 1 accelerates a 100 × 100 point item of density 1 at
/// 100 points/s², so the force is `pushDirection × 100` (mass × points/s²). An
/// instantaneous push gives the same as an impulse (100 mass × points/s per unit), then
/// turns itself off (`active` becomes false); set `active` again to push again.
public final class PushBehavior: ItemListBehavior {
    public enum Mode: Sendable { case continuous, instantaneous }
    /// Force per unit of magnitude, in mass × points/s².
    public static let forceScale = 100.0

    public let mode: Mode
    public var active = true
    public var pushDirection = Vector.zero {
        didSet { precondition(pushDirection.isFinite, "PushBehavior.pushDirection must be finite") }
    }
    public var angle: Double {
        get { atan2(pushDirection.y, pushDirection.x) }
        set { pushDirection = Vector.unit(angle: newValue) * magnitude }
    }
    public var magnitude: Double {
        get { pushDirection.length }
        set {
            precondition(newValue >= 0 && newValue.isFinite, "PushBehavior.magnitude must be >= 0 and finite")
            pushDirection = Vector.unit(angle: angle) * newValue
        }
    }
    public func setAngle(_ angle: Double, magnitude: Double) {
        pushDirection = Vector.unit(angle: angle) * magnitude
    }

    private var offsets: [ObjectIdentifier: Vector] = [:]

    /// Where on the item the push acts, from its centre in the item's own coordinates
    /// (off centre, it turns the item too).
    public func targetOffsetFromCenter(for item: any DynamicItem) -> Vector { offsets[ObjectIdentifier(item)] ?? .zero }
    public func setTargetOffsetFromCenter(_ offset: Vector, for item: any DynamicItem) {
        precondition(offset.isFinite, "PushBehavior target offset must be finite")
        offsets[ObjectIdentifier(item)] = offset
    }

    public init(items: [any DynamicItem], mode: Mode) {
        self.mode = mode
        super.init(items: items)
    }

    override func willStep(in animator: DynamicAnimator, dt: Double) {
        guard active, pushDirection != .zero else { return }
        let force = pushDirection * Self.forceScale
        for item in items {
            guard let body = animator.record(for: item)?.body, body.kind == .dynamic else { continue }
            if body.isSleeping { body.activate() }
            let point = body.localToWorld(targetOffsetFromCenter(for: item))
            switch mode {
            case .continuous: body.applyForce(force, at: point)
            case .instantaneous: body.applyImpulse(force, at: point)
            }
        }
        if mode == .instantaneous { active = false }
    }
}

/// Physical properties for items, as `UIDynamicItemBehavior`; items in none have the
/// defaults of ``ItemProperties``. Where several name one item, the last added wins.
public final class DynamicItemBehavior: ItemListBehavior {
    public var elasticity: Double {
        get { properties.elasticity }
        set { set(\.elasticity, newValue, "elasticity", valid: newValue >= 0 && newValue.isFinite) }
    }
    public var friction: Double {
        get { properties.friction }
        set { set(\.friction, newValue, "friction", valid: newValue >= 0 && newValue.isFinite) }
    }
    /// Mass per 100 × 100 points.
    public var density: Double {
        get { properties.density }
        set { set(\.density, newValue, "density", valid: newValue > 0 && newValue <= 1e12) }
    }
    /// Linear damping: the velocity decays as e^(-resistance · t).
    public var resistance: Double {
        get { properties.resistance }
        set { set(\.resistance, newValue, "resistance", valid: newValue >= 0 && newValue.isFinite) }
    }
    /// Angular damping: the spin decays as e^(-angularResistance · t).
    public var angularResistance: Double {
        get { properties.angularResistance }
        set { set(\.angularResistance, newValue, "angularResistance", valid: newValue >= 0 && newValue.isFinite) }
    }
    /// Electric charge, for electric and magnetic fields.
    public var charge: Double {
        get { properties.charge }
        set { set(\.charge, newValue, "charge", valid: newValue.isFinite) }
    }
    /// Anchored items do not move, but others collide with them.
    public var isAnchored: Bool {
        get { properties.isAnchored }
        set {
            properties.isAnchored = newValue
            changed()
        }
    }
    public var allowsRotation: Bool {
        get { properties.allowsRotation }
        set {
            properties.allowsRotation = newValue
            changed()
        }
    }

    private var properties = ItemProperties()
    private var pendingVelocities: [(item: any DynamicItem, linear: Vector, angular: Double)] = []

    private func set(_ key: WritableKeyPath<ItemProperties, Double>, _ value: Double, _ name: String, valid: Bool) {
        precondition(valid, "DynamicItemBehavior.\(name) is out of range (got \(value))")
        properties[keyPath: key] = value
        changed()
    }

    /// Adds to an item's velocity (at once if the item is in the animator, else when it joins).
    public func addLinearVelocity(_ velocity: Vector, for item: any DynamicItem) {
        precondition(velocity.isFinite, "DynamicItemBehavior.addLinearVelocity needs a finite velocity")
        addVelocity(item, velocity, 0)
    }

    public func addAngularVelocity(_ velocity: Double, for item: any DynamicItem) {
        precondition(velocity.isFinite, "DynamicItemBehavior.addAngularVelocity needs a finite velocity")
        addVelocity(item, .zero, velocity)
    }

    private func addVelocity(_ item: any DynamicItem, _ linear: Vector, _ angular: Double) {
        if let body = dynamicAnimator?.body(for: item), body.kind == .dynamic {
            body.velocity += linear
            body.angularVelocity += angular
        } else {
            pendingVelocities.append((item, linear, angular))
            changed()
        }
    }

    public func linearVelocity(for item: any DynamicItem) -> Vector {
        dynamicAnimator?.body(for: item)?.velocity ?? .zero
    }

    public func angularVelocity(for item: any DynamicItem) -> Double {
        dynamicAnimator?.body(for: item)?.angularVelocity ?? 0
    }

    override func configure(in animator: DynamicAnimator) {
        for item in items { animator.record(for: item)?.properties = properties }
    }

    override func install(in animator: DynamicAnimator) {
        for pending in pendingVelocities {
            guard let body = animator.record(for: pending.item)?.body, body.kind == .dynamic else { continue }
            body.velocity += pending.linear
            body.angularVelocity += pending.angular
        }
        pendingVelocities.removeAll()
    }
}
