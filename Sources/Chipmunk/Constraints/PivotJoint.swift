internal import CChipmunk

/// Pins two bodies together at a point they rotate about, like a hinge.
/// The corresponding C type is `cpPivotJoint`.
public final class PivotJoint: Constraint {
    /// Joins the bodies at `pivot`, a point in world coordinates.
    /// The corresponding C function is `cpPivotJointNew`.
    public init(_ a: Body, _ b: Body, pivot: Vector) throws(ChipmunkError) {
        try requireFinite(pivot, "pivot")
        super.init(handle: cpPivotJointNew(a.handle, b.handle, pivot.cp), bodyA: a, bodyB: b)
    }

    /// Joins `anchorA` on `a` to `anchorB` on `b` (body coordinates).
    /// The corresponding C function is `cpPivotJointNew2`.
    public init(_ a: Body, _ b: Body, anchorA: Vector, anchorB: Vector) throws(ChipmunkError) {
        try requireFinite(anchorA, "anchor A")
        try requireFinite(anchorB, "anchor B")
        super.init(handle: cpPivotJointNew2(a.handle, b.handle, anchorA.cp, anchorB.cp), bodyA: a, bodyB: b)
    }

    /// The anchor on body A. The corresponding C function is `cpPivotJointGetAnchorA`.
    public var anchorA: Vector {
        Vector(cpPivotJointGetAnchorA(handle))
    }
    /// Moves the anchor on body A. The corresponding C function is `cpPivotJointSetAnchorA`.
    public func setAnchorA(_ anchor: Vector) throws(ChipmunkError) {
        try requireFinite(anchor, "anchor A")
        cpPivotJointSetAnchorA(handle, anchor.cp)
    }
    /// The anchor on body B. The corresponding C function is `cpPivotJointGetAnchorB`.
    public var anchorB: Vector {
        Vector(cpPivotJointGetAnchorB(handle))
    }
    /// Moves the anchor on body B. The corresponding C function is `cpPivotJointSetAnchorB`.
    public func setAnchorB(_ anchor: Vector) throws(ChipmunkError) {
        try requireFinite(anchor, "anchor B")
        cpPivotJointSetAnchorB(handle, anchor.cp)
    }
}
