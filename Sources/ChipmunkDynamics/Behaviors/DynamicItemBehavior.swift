import Chipmunk
import Foundation

/// Physical properties for items, as `UIDynamicItemBehavior`; items in none have the
/// defaults of ``ItemProperties``. Where several name one item, the last added wins.
///
/// A value that breaks a property's rule (each property says it) is a programming error:
/// the program stops with a message naming the property, such as
/// `DynamicItemBehavior.friction must be from 0 to 1e+100 (got -1.0)`.
public final class DynamicItemBehavior: ItemListBehavior {
    /// How much of the speed a collision keeps (0 none, 1 all); from 0 to
    /// `Parameter.maxCoefficient` (1e100), as a shape's.
    public var elasticity: Double {
        get { properties.elasticity }
        set { set(\.elasticity, newValue, .itemElasticity) }
    }
    /// The friction coefficient; from 0 to `Parameter.maxCoefficient` (1e100), as a shape's.
    public var friction: Double {
        get { properties.friction }
        set { set(\.friction, newValue, .itemFriction) }
    }
    /// Mass per 100 × 100 points, from 1e-12 to 1e12, so that an item's mass stays within
    /// `Parameter.massRange`.
    public var density: Double {
        get { properties.density }
        set { set(\.density, newValue, .itemDensity) }
    }
    /// Linear damping: the velocity decays as e^(-resistance · t).
    public var resistance: Double {
        get { properties.resistance }
        set { set(\.resistance, newValue, .itemResistance) }
    }
    /// Angular damping: the spin decays as e^(-angularResistance · t).
    public var angularResistance: Double {
        get { properties.angularResistance }
        set { set(\.angularResistance, newValue, .itemAngularResistance) }
    }
    /// Electric charge, for electric and magnetic fields.
    public var charge: Double {
        get { properties.charge }
        set { set(\.charge, newValue, .itemCharge) }
    }
    /// Anchored items do not move, but others collide with them.
    public var isAnchored: Bool {
        get { properties.isAnchored }
        set {
            properties.isAnchored = newValue
            changed()
        }
    }
    /// Whether the items may turn.
    public var allowsRotation: Bool {
        get { properties.allowsRotation }
        set {
            properties.allowsRotation = newValue
            changed()
        }
    }

    private var properties = ItemProperties()
    private var pendingVelocities: [(item: any DynamicItem, linear: Vector, angular: Double)] = []

    private func set(_ key: WritableKeyPath<ItemProperties, Double>, _ value: Double, _ parameter: DynamicsParameter) {
        parameter.require(value)
        properties[keyPath: key] = value
        changed()
    }

    /// Adds to an item's velocity (at once if the item is in the animator, else when it joins).
    ///
    /// A velocity that is not finite, or one that makes the item's velocity (or the sum
    /// waiting for it to join) overflow, is a programming error: the program stops.
    public func addLinearVelocity(_ velocity: Vector, for item: any DynamicItem) {
        DynamicsParameter.addedLinearVelocity.require(velocity)
        addVelocity(item, velocity, 0)
    }

    /// Adds to an item's angular velocity, in radians/s (at once if the item is in the
    /// animator, else when it joins).
    ///
    /// A velocity that is not finite, or one that makes the item's angular velocity (or
    /// the sum waiting for it to join) overflow, is a programming error: the program stops.
    public func addAngularVelocity(_ velocity: Double, for item: any DynamicItem) {
        DynamicsParameter.addedAngularVelocity.require(velocity)
        addVelocity(item, .zero, velocity)
    }

    private func addVelocity(_ item: any DynamicItem, _ linear: Vector, _ angular: Double) {
        if let body = dynamicAnimator?.body(for: item), body.kind == .dynamic {
            body.velocity = Self.sum(body.velocity, linear, "the item's velocity")
            body.angularVelocity = Self.sum(body.angularVelocity, angular, "the item's angular velocity")
        } else if let index = pendingVelocities.firstIndex(where: { $0.item === item }) {
            pendingVelocities[index].linear = Self.sum(
                pendingVelocities[index].linear, linear, "the velocity added before the item joined")
            pendingVelocities[index].angular = Self.sum(
                pendingVelocities[index].angular, angular, "the angular velocity added before the item joined")
        } else {
            pendingVelocities.append((item, linear, angular))
            changed()
        }
    }

    /// `a + b`, stopping the program, in the caller's terms, when the sum overflows: two
    /// additions of 1e308 stopped it naming `Body.velocity`, a property the user never set.
    private static func sum(_ a: Vector, _ b: Vector, _ what: String) -> Vector {
        let total = a + b
        ensure(total.isFinite, "DynamicItemBehavior.addLinearVelocity: \(what) \(a) plus \(b) is not finite")
        return total
    }

    private static func sum(_ a: Double, _ b: Double, _ what: String) -> Double {
        let total = a + b
        ensure(total.isFinite, "DynamicItemBehavior.addAngularVelocity: \(what) \(a) plus \(b) is not finite")
        return total
    }

    /// The item's velocity in points/s, or zero when it is not in the animator.
    public func linearVelocity(for item: any DynamicItem) -> Vector {
        dynamicAnimator?.body(for: item)?.velocity ?? .zero
    }

    /// The item's angular velocity in radians/s, or zero when it is not in the animator.
    public func angularVelocity(for item: any DynamicItem) -> Double {
        dynamicAnimator?.body(for: item)?.angularVelocity ?? 0
    }

    override func configure(in animator: DynamicAnimator) {
        for item in items { animator.record(for: item)?.properties = properties }
    }

    override func install(in animator: DynamicAnimator) {
        for pending in pendingVelocities {
            guard let body = animator.record(for: pending.item)?.body, body.kind == .dynamic else { continue }
            body.velocity = Self.sum(body.velocity, pending.linear, "the item's velocity")
            body.angularVelocity = Self.sum(body.angularVelocity, pending.angular, "the item's angular velocity")
        }
        pendingVelocities.removeAll()
    }
}
