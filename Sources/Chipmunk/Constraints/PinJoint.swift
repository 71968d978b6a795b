internal import CChipmunk

/// Keeps two anchor points a fixed distance apart, like a rigid rod.
/// The corresponding C type is `cpPinJoint`.
public final class PinJoint: Constraint {
    /// Joins `anchorA` on `a` and `anchorB` on `b` (body coordinates) at their current distance.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for non-finite anchors.
    /// The corresponding C function is `cpPinJointNew`.
    public init(_ a: Body, _ b: Body, anchorA: Vector, anchorB: Vector) throws(ChipmunkError) {
        try requireFinite(anchorA, "anchor A")
        try requireFinite(anchorB, "anchor B")
        super.init(handle: cpPinJointNew(a.handle, b.handle, anchorA.cp, anchorB.cp), bodyA: a, bodyB: b)
    }

    /// The anchor on body A. The corresponding C function is `cpPinJointGetAnchorA`.
    public var anchorA: Vector {
        Vector(cpPinJointGetAnchorA(handle))
    }
    /// Moves the anchor on body A. The corresponding C function is `cpPinJointSetAnchorA`.
    public func setAnchorA(_ anchor: Vector) throws(ChipmunkError) {
        try requireFinite(anchor, "anchor A")
        cpPinJointSetAnchorA(handle, anchor.cp)
    }
    /// The anchor on body B. The corresponding C function is `cpPinJointGetAnchorB`.
    public var anchorB: Vector {
        Vector(cpPinJointGetAnchorB(handle))
    }
    /// Moves the anchor on body B. The corresponding C function is `cpPinJointSetAnchorB`.
    public func setAnchorB(_ anchor: Vector) throws(ChipmunkError) {
        try requireFinite(anchor, "anchor B")
        cpPinJointSetAnchorB(handle, anchor.cp)
    }
    /// The distance kept. The corresponding C function is `cpPinJointGetDist`.
    public var distance: Double {
        cpPinJointGetDist(handle)
    }
    /// Changes the distance kept. The corresponding C function is `cpPinJointSetDist`.
    public func setDistance(_ distance: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(distance, "distance")
        cpPinJointSetDist(handle, distance)
    }
}
