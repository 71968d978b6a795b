import Chipmunk

/// Every value ChipmunkDynamics checks before it reaches the engine, named as the user
/// writes it, with the core's ``Rule`` it must keep: the Dynamics side of `Parameter`.
///
/// A value that breaks its rule is a programming error: the program stops with a message
/// that names the property, the rule and the value, such as
/// `GravityBehavior.magnitude must be from 0 to 1e15 (got -1.0)`.
package enum DynamicsParameter: String, Sendable, CaseIterable, RuledParameter {
    case gravityDirection = "GravityBehavior.gravityDirection"
    case gravityMagnitude = "GravityBehavior.magnitude"
    case gravityAngle = "GravityBehavior.angle"
    case pushDirection = "PushBehavior.pushDirection"
    case pushMagnitude = "PushBehavior.magnitude"
    case pushAngle = "PushBehavior.angle"
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
    case itemCenter = "DynamicItem.center"
    case itemRotation = "DynamicItem.rotation"
    case itemPath = "DynamicItem collision path points"
    case referenceBoundsSize = "DynamicAnimator.referenceBounds size"
    case referenceBoundsCorner = "DynamicAnimator.referenceBounds corners"
    case boundaryInsets = "CollisionBehavior.setTranslatesReferenceBoundsIntoBoundary insets"
    case slidingAxis = "AttachmentBehavior.slidingAttachment axisOfTranslation"
    case attachmentRangeEnd = "AttachmentBehavior.attachmentRange ends"
    case fieldDirection = "FieldBehavior direction"
    case fieldSmoothness = "FieldBehavior smoothness"
    case fieldAnimationSpeed = "FieldBehavior animationSpeed"
    case fieldRegion = "FieldBehavior.region size or radius"
    case animatorTimeStep = "DynamicAnimator timeStep"
    case stepDuration = "DynamicAnimator.step dt"
    case frameDuration = "DynamicAnimator.advance frameDuration"

    /// The rule the values must keep.
    package var rule: Rule {
        switch self {
        // Positions become bodies' positions, anchors and segments' ends: the core's
        // coordinates (`Parameter.maxCoordinate`). A snap point of 1e308, or an item's centre,
        // was accepted here and stopped the program in the core, naming `Body.position`.
        case .snapPoint, .fieldPosition, .attachmentAnchorPoint, .attachmentPoint, .boundaryPoint, .itemCenter,
            .itemPath, .attachmentRangeEnd:
            return .magnitudeAtMost(Parameter.maxCoordinate)
        // The reference bounds and their insets add up to a boundary's corners: half each.
        case .referenceBoundsCorner, .boundaryInsets: return .magnitudeAtMost(Parameter.maxCoordinate / 2)
        // A push of 1e308 became an infinite force (× forceScale), and the stop named
        // `Body.applyForce`; an angle past maxCoordinate has no fraction left.
        // Gravity too: a direction of (1e200, 0) had a length of inf, and turning it made
        // (inf, inf), which its own setter refuses.
        case .pushDirection, .pushTargetOffset, .itemRotation, .slidingAxis, .pushAngle, .gravityAngle,
            .gravityDirection:
            return .magnitudeAtMost(Parameter.maxCoordinate)
        case .pushMagnitude, .gravityMagnitude: return .nonNegativeAtMost(Parameter.maxCoordinate)
        case .fieldStrength, .itemCharge, .addedLinearVelocity, .addedAngularVelocity,
            .fieldDirection:
            return .finite
        // Noise moves at time × speed lattice cells: 1e308 made it infinite, and the force NaN.
        case .fieldAnimationSpeed: return .magnitudeAtMost(Parameter.maxCoordinate)
        // The length becomes a pin's, slide's or spring's: the core's rule (1e300 made the
        // pin's velocities NaN).
        case .attachmentLength: return Parameter.pinDistance.rule
        case .fieldFalloff, .fieldMinimumRadius,
            .attachmentFrictionTorque, .itemResistance, .itemAngularResistance,
            .frameDuration:
            return .nonNegativeFinite
        // They become the item's shape's, which the engine multiplies by the other shape's.
        case .itemElasticity, .itemFriction: return .nonNegativeAtMost(Parameter.maxCoefficient)
        case .snapDamping, .fieldSmoothness: return .nonNegativeAtMost(1)
        case .fieldRegion: return .nonNegative
        case .attachmentDamping, .attachmentFrequency: return .nonNegativeAtMost(1e6)
        // An item's mass must stay within `Parameter.massRange` (a density of 1e-300 gave
        // a mass the body refused, in a message that named `Body.mass`, not this property).
        case .itemDensity: return .within(1e-12...1e12)
        // With densities from 1e-12 to 1e12, sizes from 1e-6 to 1e15 keep an item's mass
        // (density × area / 10,000) and moment within `Parameter.massRange`: a size of
        // 1e-300 gave a mass of 0, and one of 1e308 a box the core refused.
        case .itemViewSize, .itemBoundsSize, .referenceBoundsSize: return .within(1e-6...Parameter.maxCoordinate)
        // The space's own rule: the animator steps it by these.
        case .animatorTimeStep, .stepDuration: return Parameter.spaceTimeStep.rule
        }
    }

    /// The smallest area a collision path may enclose, in points²: a 1e-6 × 1e-6 box's.
    package static let minimumPathArea = 1e-12

    /// The property as the API spells it, such as `DynamicItemBehavior.density`.
    package var description: String { rawValue }

    /// Stops the program unless every point keeps the rule.
    package func require(_ points: [Vector]) {
        for point in points { require(point) }
    }

    /// Stops the program unless the width and the height keep the rule.
    package func require(_ size: Size) {
        require(size.width)
        require(size.height)
    }

    /// Stops the program unless the rectangle's corners keep the rule.
    package func requireCorners(of rect: Rect) {
        for value in [rect.minX, rect.minY, rect.maxX, rect.maxY] { require(value) }
    }

    /// Stops the program unless the insets keep the rule.
    package func require(_ insets: EdgeInsets) {
        for value in [insets.top, insets.left, insets.bottom, insets.right] { require(value) }
    }
}
