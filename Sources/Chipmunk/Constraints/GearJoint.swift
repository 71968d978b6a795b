internal import CChipmunk

/// Keeps the bodies' angles in a fixed ratio, like meshed gears: the engine holds
/// `ratio * bodyB.angle - bodyA.angle == phase`, so `bodyA` turns `ratio` times as fast.
/// The corresponding C type is `cpGearJoint`.
public final class GearJoint: Constraint {
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a non-finite phase,
    ///   or a ratio that is zero or not finite (the engine divides by it).
    /// The corresponding C function is `cpGearJointNew`.
    public init(_ a: Body, _ b: Body, phase: Double, ratio: Double) throws(ChipmunkError) {
        try requireFinite(phase, "phase")
        try Self.checkRatio(ratio)
        super.init(handle: cpGearJointNew(a.handle, b.handle, phase, ratio), bodyA: a, bodyB: b)
    }

    private static func checkRatio(_ ratio: Double) throws(ChipmunkError) {
        guard ratio != 0, ratio.isFinite else { throw .invalidValue(property: "ratio", value: "\(ratio)", rule: "non-zero and finite") }
    }

    /// The angular offset. The corresponding C function is `cpGearJointGetPhase`.
    public var phase: Double {
        cpGearJointGetPhase(handle)
    }
    /// The ratio of angular velocities. The corresponding C function is `cpGearJointGetRatio`.
    public var ratio: Double {
        cpGearJointGetRatio(handle)
    }
    /// Changes the ratio. The corresponding C function is `cpGearJointSetRatio`.
    public func setRatio(_ value: Double) throws(ChipmunkError) {
        try Self.checkRatio(value)
        cpGearJointSetRatio(handle, value)
    }
}
