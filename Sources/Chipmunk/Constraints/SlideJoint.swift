internal import CChipmunk

/// Keeps two anchor points between a minimum and a maximum distance, like a chain.
///
/// The corresponding C type is `cpSlideJoint`.
public final class SlideJoint: Constraint {
    /// Joins `anchorA` on `a` and `anchorB` on `b` (body coordinates), keeping their
    /// distance in `distance` (rules: ``Parameter/anchor``, ``Parameter/slideDistance``).
    ///
    /// A range is built before this initialiser runs, so `2...1` stops in the standard
    /// library ("Range requires lowerBound <= upperBound"); with bounds computed at run
    /// time, ``init(a:b:anchorA:anchorB:min:max:)`` checks them and names them.
    ///
    /// The corresponding C function is `cpSlideJointNew`.
    public convenience init(
        a: Body, b: Body, anchorA: Vector = .zero, anchorB: Vector = .zero, distance: ClosedRange<Double>
    ) {
        self.init(a: a, b: b, anchorA: anchorA, anchorB: anchorB, min: distance.lowerBound, max: distance.upperBound)
    }

    /// Joins `anchorA` on `a` and `anchorB` on `b` (body coordinates), keeping their
    /// distance from `min` to `max`, as pymunk's `SlideJoint(a, b, anchor_a, anchor_b, min, max)`
    /// (rules: ``Parameter/anchor``, ``Parameter/slideMin``, ``Parameter/slideMax``; `min` must not exceed `max`).
    ///
    /// The corresponding C function is `cpSlideJointNew`.
    public init(a: Body, b: Body, anchorA: Vector = .zero, anchorB: Vector = .zero, min: Double, max: Double) {
        Parameter.anchor.require(anchorA)
        Parameter.anchor.require(anchorB)
        Parameter.slideMin.require(min)
        Parameter.slideMax.require(max)
        Self.requireOrdered(min: min, max: max)
        super.init(
            {
                SlabArena.current.slideJoints.build {
                    cpSlideJointInit($0, a.handle, b.handle, anchorA.cp, anchorB.cp, min, max)
                }
            },
            a: a, b: b)
    }

    private static func requireOrdered(min: Double, max: Double) {
        ensure(min <= max, "SlideJoint.min must not exceed SlideJoint.max (got min \(min), max \(max))")
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

    /// The shortest distance allowed between the anchors (rule: ``Parameter/slideMin``;
    /// at most ``max``). To move both bounds past each other, set ``distance``.
    ///
    /// The corresponding C functions are `cpSlideJointGetMin` and `cpSlideJointSetMin`.
    public var min: Double {
        get { cpSlideJointGetMin(handle) }
        set {
            Parameter.slideMin.require(newValue)
            Self.requireOrdered(min: newValue, max: max)
            cpSlideJointSetMin(handle, newValue)
        }
    }

    /// The longest distance allowed between the anchors (rule: ``Parameter/slideMax``;
    /// at least ``min``). To move both bounds past each other, set ``distance``.
    ///
    /// The corresponding C functions are `cpSlideJointGetMax` and `cpSlideJointSetMax`.
    public var max: Double {
        get { cpSlideJointGetMax(handle) }
        set {
            Parameter.slideMax.require(newValue)
            Self.requireOrdered(min: min, max: newValue)
            cpSlideJointSetMax(handle, newValue)
        }
    }
}
