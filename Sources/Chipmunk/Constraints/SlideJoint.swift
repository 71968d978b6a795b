internal import CChipmunk

/// Keeps two anchor points between a minimum and a maximum distance, like a chain.
/// The corresponding C type is `cpSlideJoint`.
public final class SlideJoint: Constraint {
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for non-finite anchors
    ///   or limits, or `min` not in `0...max`. The corresponding C function is `cpSlideJointNew`.
    public init(_ a: Body, _ b: Body, anchorA: Vector, anchorB: Vector, min: Double, max: Double) throws(ChipmunkError) {
        try requireFinite(anchorA, "anchor A")
        try requireFinite(anchorB, "anchor B")
        try Self.checkLimits(min, max)
        super.init(handle: cpSlideJointNew(a.handle, b.handle, anchorA.cp, anchorB.cp, min, max), bodyA: a, bodyB: b)
    }

    private static func checkLimits(_ min: Double, _ max: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(min, "min")
        try requireNonNegativeFinite(max, "max")
        guard min <= max else { throw .invalidValue(property: "min", value: "\(min)", rule: "at most max (\(max))") }
    }

    /// The anchor on body A. The corresponding C function is `cpSlideJointGetAnchorA`.
    public var anchorA: Vector {
        Vector(cpSlideJointGetAnchorA(handle))
    }
    /// The anchor on body B. The corresponding C function is `cpSlideJointGetAnchorB`.
    public var anchorB: Vector {
        Vector(cpSlideJointGetAnchorB(handle))
    }
    /// The shortest distance allowed. The corresponding C function is `cpSlideJointGetMin`.
    public var min: Double {
        cpSlideJointGetMin(handle)
    }
    /// The longest distance allowed. The corresponding C function is `cpSlideJointGetMax`.
    public var max: Double {
        cpSlideJointGetMax(handle)
    }
    /// Changes both limits. The corresponding C functions are `cpSlideJointSetMin` and `cpSlideJointSetMax`.
    public func setLimits(min: Double, max: Double) throws(ChipmunkError) {
        try Self.checkLimits(min, max)
        cpSlideJointSetMin(handle, min)
        cpSlideJointSetMax(handle, max)
    }
}
