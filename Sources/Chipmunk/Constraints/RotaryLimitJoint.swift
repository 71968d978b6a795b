internal import CChipmunk

/// Keeps the bodies' relative angle between a minimum and a maximum.
/// The corresponding C type is `cpRotaryLimitJoint`.
public final class RotaryLimitJoint: Constraint {
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless both limits are finite and `min <= max`.
    /// The corresponding C function is `cpRotaryLimitJointNew`.
    public init(_ a: Body, _ b: Body, min: Double, max: Double) throws(ChipmunkError) {
        try Self.checkLimits(min, max)
        super.init(handle: cpRotaryLimitJointNew(a.handle, b.handle, min, max), bodyA: a, bodyB: b)
    }

    private static func checkLimits(_ min: Double, _ max: Double) throws(ChipmunkError) {
        try requireFinite(min, "min")
        try requireFinite(max, "max")
        guard min <= max else { throw .invalidValue(property: "min", value: "\(min)", rule: "at most max (\(max))") }
    }

    /// The smallest relative angle. The corresponding C function is `cpRotaryLimitJointGetMin`.
    public var min: Double {
        cpRotaryLimitJointGetMin(handle)
    }
    /// The largest relative angle. The corresponding C function is `cpRotaryLimitJointGetMax`.
    public var max: Double {
        cpRotaryLimitJointGetMax(handle)
    }
    /// Changes both limits. The corresponding C functions are `cpRotaryLimitJointSetMin` and `cpRotaryLimitJointSetMax`.
    public func setLimits(min: Double, max: Double) throws(ChipmunkError) {
        try Self.checkLimits(min, max)
        cpRotaryLimitJointSetMin(handle, min)
        cpRotaryLimitJointSetMax(handle, max)
    }
}
