import Chipmunk
import Foundation

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
    /// Mass per 100 × 100 points, from 1e-12 to 1e12: an item's mass must stay within
    /// `Parameter.massRange` (a density of 1e-300 gave a mass the body refused, in a
    /// message that named `Body.mass`, not this property).
    public var density: Double {
        get { properties.density }
        set {
            set(\.density, newValue, "density", valid: (1e-12...1e12).contains(newValue), rule: "from 1e-12 to 1e12")
        }
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

    private func set(
        _ key: WritableKeyPath<ItemProperties, Double>, _ value: Double, _ name: String, valid: Bool,
        rule: String = "zero or more, and finite"
    ) {
        ensure(valid, "DynamicItemBehavior.\(name) must be \(rule) (got \(value))")
        properties[keyPath: key] = value
        changed()
    }

    /// Adds to an item's velocity (at once if the item is in the animator, else when it joins).
    public func addLinearVelocity(_ velocity: Vector, for item: any DynamicItem) {
        ensure(velocity.isFinite, "DynamicItemBehavior.addLinearVelocity needs a finite velocity")
        addVelocity(item, velocity, 0)
    }

    public func addAngularVelocity(_ velocity: Double, for item: any DynamicItem) {
        ensure(velocity.isFinite, "DynamicItemBehavior.addAngularVelocity needs a finite velocity")
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
