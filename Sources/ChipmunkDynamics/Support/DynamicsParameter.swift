import Chipmunk

/// Every value ChipmunkDynamics checks before it reaches the engine, named as the user
/// writes it, with the core's ``Rule`` it must keep: the Dynamics side of `Parameter`.
///
/// A value that breaks its rule is a programming error: the program stops with a message
/// that names the property, the rule and the value, such as
/// `GravityBehavior.magnitude must be zero or more, and finite (got -1.0)`.
package enum DynamicsParameter: String, Sendable, CaseIterable, CustomStringConvertible {
    case gravityDirection = "GravityBehavior.gravityDirection"
    case gravityMagnitude = "GravityBehavior.magnitude"
    case pushDirection = "PushBehavior.pushDirection"
    case pushMagnitude = "PushBehavior.magnitude"
    case pushTargetOffset = "PushBehavior.setTargetOffsetFromCenter offset"
    case snapPoint = "SnapBehavior.snapPoint"
    case snapDamping = "SnapBehavior.damping"
    case fieldPosition = "FieldBehavior.position"
    case fieldStrength = "FieldBehavior.strength"
    case fieldFalloff = "FieldBehavior.falloff"
    case fieldMinimumRadius = "FieldBehavior.minimumRadius"
    case attachmentAnchorPoint = "AttachmentBehavior.anchorPoint"
    case attachmentPoint = "AttachmentBehavior offsets and anchor"
    case attachmentLength = "AttachmentBehavior.length"
    case attachmentDamping = "AttachmentBehavior.damping"
    case attachmentFrequency = "AttachmentBehavior.frequency"
    case attachmentFrictionTorque = "AttachmentBehavior.frictionTorque"
    case boundaryPoint = "CollisionBehavior.addBoundary points"
    case itemElasticity = "DynamicItemBehavior.elasticity"
    case itemFriction = "DynamicItemBehavior.friction"
    case itemDensity = "DynamicItemBehavior.density"
    case itemResistance = "DynamicItemBehavior.resistance"
    case itemAngularResistance = "DynamicItemBehavior.angularResistance"
    case itemCharge = "DynamicItemBehavior.charge"
    case addedLinearVelocity = "DynamicItemBehavior.addLinearVelocity velocity"
    case addedAngularVelocity = "DynamicItemBehavior.addAngularVelocity velocity"
    case itemViewSize = "ItemView.size"
    case itemBoundsSize = "DynamicItem.bounds size"
    case referenceBoundsSize = "DynamicAnimator.referenceBounds size"

    /// The rule the values must keep.
    package var rule: Rule {
        switch self {
        case .gravityDirection, .pushDirection, .pushTargetOffset, .snapPoint, .fieldPosition, .fieldStrength,
            .attachmentAnchorPoint, .attachmentPoint, .boundaryPoint, .itemCharge, .addedLinearVelocity,
            .addedAngularVelocity:
            return .finite
        case .gravityMagnitude, .pushMagnitude, .fieldFalloff, .fieldMinimumRadius, .attachmentLength,
            .attachmentFrictionTorque, .itemElasticity, .itemFriction, .itemResistance, .itemAngularResistance:
            return .nonNegativeFinite
        case .snapDamping: return .nonNegativeAtMost(1)
        case .attachmentDamping, .attachmentFrequency: return .nonNegativeAtMost(1e6)
        // An item's mass must stay within `Parameter.massRange` (a density of 1e-300 gave
        // a mass the body refused, in a message that named `Body.mass`, not this property).
        case .itemDensity: return .within(1e-12...1e12)
        case .itemViewSize, .itemBoundsSize, .referenceBoundsSize: return .positiveFinite
        }
    }

    /// The property as the API spells it, such as `DynamicItemBehavior.density`.
    package var description: String { rawValue }

    /// Stops the program unless `value` keeps the rule.
    @inline(__always)
    package func require(_ value: Double) {
        ensure(rule.accepts(value), "\(self) must be \(rule) (got \(value))")
    }

    /// Stops the program unless both components keep the rule; the message names the first that does not.
    @inline(__always)
    package func require(_ value: Vector) {
        require(value.x)
        require(value.y)
    }

    /// Stops the program unless every point keeps the rule.
    package func require(_ points: [Vector]) {
        for point in points { require(point) }
    }

    /// Stops the program unless the width and the height keep the rule.
    package func require(_ size: Size) {
        require(size.width)
        require(size.height)
    }
}
