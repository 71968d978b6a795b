internal import CChipmunk

/// Lets the relative angle turn one way only, in clicks of `ratchet` radians, like a socket wrench.
///
/// The corresponding C type is `cpRatchetJoint`.
public final class RatchetJoint: Constraint {
    /// Joins `a` and `b` with a ratchet (rules: ``Parameter/ratchetPhase``, ``Parameter/ratchetInterval``).
    ///
    /// The corresponding C function is `cpRatchetJointNew`.
    public init(a: Body, b: Body, phase: Double, ratchet: Double) {
        Parameter.ratchetPhase.require(phase)
        Parameter.ratchetInterval.require(ratchet)
        super.init(
            { SlabArena.current.ratchetJoints.build { cpRatchetJointInit($0, a.handle, b.handle, phase, ratchet) } },
            a: a, b: b)
    }

    /// The angle the ratchet has reached (rule: ``Parameter/ratchetAngle``).
    ///
    /// The corresponding C functions are `cpRatchetJointGetAngle` and `cpRatchetJointSetAngle`.
    public var angle: Double {
        get { cpRatchetJointGetAngle(handle) }
        set {
            Parameter.ratchetAngle.require(newValue)
            cpRatchetJointSetAngle(handle, newValue)
        }
    }

    /// The offset of the clicks (rule: ``Parameter/ratchetPhase``).
    ///
    /// The corresponding C functions are `cpRatchetJointGetPhase` and `cpRatchetJointSetPhase`.
    public var phase: Double {
        get { cpRatchetJointGetPhase(handle) }
        set {
            Parameter.ratchetPhase.require(newValue)
            cpRatchetJointSetPhase(handle, newValue)
        }
    }

    /// The angle between clicks (rule: ``Parameter/ratchetInterval``).
    ///
    /// The corresponding C functions are `cpRatchetJointGetRatchet` and `cpRatchetJointSetRatchet`.
    public var ratchet: Double {
        get { cpRatchetJointGetRatchet(handle) }
        set {
            Parameter.ratchetInterval.require(newValue)
            cpRatchetJointSetRatchet(handle, newValue)
        }
    }
}
