internal import CChipmunk

/// Keeps the bodies' relative angle between a minimum and a maximum.
///
/// The corresponding C type is `cpRotaryLimitJoint`.
public final class RotaryLimitJoint: Constraint {
    /// Keeps `a.angle - b.angle` in `angle` (rule: ``Parameter/rotaryLimitAngle``).
    ///
    /// The corresponding C function is `cpRotaryLimitJointNew`.
    public init(a: Body, b: Body, angle: ClosedRange<Double>) {
        Parameter.rotaryLimitAngle.require(angle.lowerBound)
        Parameter.rotaryLimitAngle.require(angle.upperBound)
        super.init(
            {
                SlabArena.current.rotaryLimitJoints.build {
                    cpRotaryLimitJointInit($0, a.handle, b.handle, angle.lowerBound, angle.upperBound)
                }
            }, a: a, b: b)
    }

    /// The relative angles allowed (rule: ``Parameter/rotaryLimitAngle``).
    ///
    /// The corresponding C functions are `cpRotaryLimitJointGetMin`, `cpRotaryLimitJointGetMax`,
    /// `cpRotaryLimitJointSetMin` and `cpRotaryLimitJointSetMax`.
    public var angle: ClosedRange<Double> {
        get { cpRotaryLimitJointGetMin(handle)...cpRotaryLimitJointGetMax(handle) }
        set {
            Parameter.rotaryLimitAngle.require(newValue.lowerBound)
            Parameter.rotaryLimitAngle.require(newValue.upperBound)
            cpRotaryLimitJointSetMin(handle, newValue.lowerBound)
            cpRotaryLimitJointSetMax(handle, newValue.upperBound)
        }
    }
}
