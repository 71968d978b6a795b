internal import CChipmunk

/// Keeps the bodies' angles in a fixed ratio, like meshed gears: the engine holds
/// `ratio * bodyB.angle - bodyA.angle == phase`, so `bodyA` turns `ratio` times as fast.
///
/// The corresponding C type is `cpGearJoint`.
public final class GearJoint: Constraint {
    /// Joins `a` and `b` with gears (rules: ``Parameter/gearPhase``, ``Parameter/gearRatio``:
    /// the engine divides by the ratio).
    ///
    /// The corresponding C function is `cpGearJointNew`.
    public init(a: Body, b: Body, phase: Double, ratio: Double) {
        Parameter.gearPhase.require(phase)
        Parameter.gearRatio.require(ratio)
        super.init(
            { SlabArena.current.gearJoints.build { cpGearJointInit($0, a.handle, b.handle, phase, ratio) } }, a: a, b: b
        )
    }

    /// The angular offset (rule: ``Parameter/gearPhase``).
    ///
    /// The corresponding C functions are `cpGearJointGetPhase` and `cpGearJointSetPhase`.
    public var phase: Double {
        get { cpGearJointGetPhase(handle) }
        set {
            Parameter.gearPhase.require(newValue)
            cpGearJointSetPhase(handle, newValue)
        }
    }

    /// The ratio of angular velocities (rule: ``Parameter/gearRatio``).
    ///
    /// The corresponding C functions are `cpGearJointGetRatio` and `cpGearJointSetRatio`.
    public var ratio: Double {
        get { cpGearJointGetRatio(handle) }
        set {
            Parameter.gearRatio.require(newValue)
            cpGearJointSetRatio(handle, newValue)
            space?.jointsMayBeUnsolvable = true
        }
    }
}
