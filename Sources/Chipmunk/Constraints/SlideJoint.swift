internal import CChipmunk

/// Keeps two anchor points between a minimum and a maximum distance, like a chain.
///
/// The corresponding C type is `cpSlideJoint`.
public final class SlideJoint: Constraint {
    /// Joins `anchorA` on `a` and `anchorB` on `b` (body coordinates), keeping their
    /// distance in `distance` (rules: ``Parameter/anchor``, ``Parameter/slideDistance``).
    ///
    /// The corresponding C function is `cpSlideJointNew`.
    public init(a: Body, b: Body, anchorA: Vector = .zero, anchorB: Vector = .zero, distance: ClosedRange<Double>) {
        Parameter.anchor.require(anchorA)
        Parameter.anchor.require(anchorB)
        Parameter.slideDistance.require(distance.lowerBound)
        Parameter.slideDistance.require(distance.upperBound)
        super.init(
            {
                SlabArena.current.slideJoints.build {
                    cpSlideJointInit(
                        $0, a.handle, b.handle, anchorA.cp, anchorB.cp, distance.lowerBound, distance.upperBound)
                }
            },
            a: a, b: b)
    }

    /// The anchor on body A, in its coordinates.
    ///
    /// The corresponding C functions are `cpSlideJointGetAnchorA` and `cpSlideJointSetAnchorA`.
    public var anchorA: Vector {
        get { Vector(cpSlideJointGetAnchorA(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpSlideJointSetAnchorA(handle, newValue.cp)
        }
    }

    /// The anchor on body B, in its coordinates.
    ///
    /// The corresponding C functions are `cpSlideJointGetAnchorB` and `cpSlideJointSetAnchorB`.
    public var anchorB: Vector {
        get { Vector(cpSlideJointGetAnchorB(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpSlideJointSetAnchorB(handle, newValue.cp)
        }
    }

    /// The distances allowed between the anchors (rule: ``Parameter/slideDistance``).
    ///
    /// The corresponding C functions are `cpSlideJointGetMin`, `cpSlideJointGetMax`, `cpSlideJointSetMin` and
    /// `cpSlideJointSetMax`.
    public var distance: ClosedRange<Double> {
        get { cpSlideJointGetMin(handle)...cpSlideJointGetMax(handle) }
        set {
            Parameter.slideDistance.require(newValue.lowerBound)
            Parameter.slideDistance.require(newValue.upperBound)
            cpSlideJointSetMin(handle, newValue.lowerBound)
            cpSlideJointSetMax(handle, newValue.upperBound)
        }
    }
}
