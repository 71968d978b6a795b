internal import CChipmunk

/// Pins two bodies together at a point they rotate about, like a hinge.
///
/// The corresponding C type is `cpPivotJoint`.
public final class PivotJoint: Constraint {
    /// Joins the bodies at `pivot`, a point in world coordinates (rule: ``Parameter/pivot``).
    ///
    /// The corresponding C function is `cpPivotJointNew`.
    public init(a: Body, b: Body, pivot: Vector) {
        Parameter.pivot.require(pivot)
        super.init(
            {
                SlabArena.current.pivotJoints.build {
                    cpPivotJointInit(
                        $0, a.handle, b.handle, cpBodyWorldToLocal(a.handle, pivot.cp),
                        cpBodyWorldToLocal(b.handle, pivot.cp))
                }
            }, a: a, b: b)
    }

    /// Joins `anchorA` on `a` to `anchorB` on `b`, in body coordinates (rule: ``Parameter/anchor``).
    ///
    /// The corresponding C function is `cpPivotJointNew2`.
    public init(a: Body, b: Body, anchorA: Vector, anchorB: Vector) {
        Parameter.anchor.require(anchorA)
        Parameter.anchor.require(anchorB)
        super.init(
            {
                SlabArena.current.pivotJoints.build { cpPivotJointInit($0, a.handle, b.handle, anchorA.cp, anchorB.cp) }
            },
            a: a, b: b)
    }

    /// The anchor on body A, in its coordinates.
    ///
    /// The corresponding C functions are `cpPivotJointGetAnchorA` and `cpPivotJointSetAnchorA`.
    public var anchorA: Vector {
        get { Vector(cpPivotJointGetAnchorA(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpPivotJointSetAnchorA(handle, newValue.cp)
            space?.jointsMayBeUnsolvable = true
        }
    }

    /// The anchor on body B, in its coordinates.
    ///
    /// The corresponding C functions are `cpPivotJointGetAnchorB` and `cpPivotJointSetAnchorB`.
    public var anchorB: Vector {
        get { Vector(cpPivotJointGetAnchorB(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpPivotJointSetAnchorB(handle, newValue.cp)
            space?.jointsMayBeUnsolvable = true
        }
    }
}
