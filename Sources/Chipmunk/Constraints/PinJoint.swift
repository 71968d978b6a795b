internal import CChipmunk

/// Keeps two anchor points a fixed distance apart, like a rigid rod.
///
/// The corresponding C type is `cpPinJoint`.
public final class PinJoint: Constraint {
    /// Joins `anchorA` on `a` and `anchorB` on `b` (body coordinates) at their current
    /// distance (rule: ``Parameter/anchor``).
    ///
    /// The corresponding C function is `cpPinJointNew`.
    public init(a: Body, b: Body, anchorA: Vector = .zero, anchorB: Vector = .zero) {
        Parameter.anchor.require(anchorA)
        Parameter.anchor.require(anchorB)
        super.init(
            { SlabArena.current.pinJoints.build { cpPinJointInit($0, a.handle, b.handle, anchorA.cp, anchorB.cp) } },
            a: a, b: b)
    }

    /// The anchor on body A, in its coordinates.
    ///
    /// The corresponding C functions are `cpPinJointGetAnchorA` and `cpPinJointSetAnchorA`.
    public var anchorA: Vector {
        get { Vector(cpPinJointGetAnchorA(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpPinJointSetAnchorA(handle, newValue.cp)
        }
    }

    /// The anchor on body B, in its coordinates.
    ///
    /// The corresponding C functions are `cpPinJointGetAnchorB` and `cpPinJointSetAnchorB`.
    public var anchorB: Vector {
        get { Vector(cpPinJointGetAnchorB(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpPinJointSetAnchorB(handle, newValue.cp)
        }
    }

    /// The distance kept (rule: ``Parameter/pinDistance``).
    ///
    /// The corresponding C functions are `cpPinJointGetDist` and `cpPinJointSetDist`.
    public var distance: Double {
        get { cpPinJointGetDist(handle) }
        set {
            Parameter.pinDistance.require(newValue)
            cpPinJointSetDist(handle, newValue)
        }
    }
}
