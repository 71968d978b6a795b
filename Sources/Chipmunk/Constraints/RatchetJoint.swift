internal import CChipmunk

/// Lets the relative angle turn one way only, in clicks of `ratchet` radians, like a socket wrench.
/// The corresponding C type is `cpRatchetJoint`.
public final class RatchetJoint: Constraint {
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless phase and ratchet are finite.
    /// The corresponding C function is `cpRatchetJointNew`.
    public init(_ a: Body, _ b: Body, phase: Double, ratchet: Double) throws(ChipmunkError) {
        try requireFinite(phase, "phase")
        try requireFinite(ratchet, "ratchet")
        super.init(handle: cpRatchetJointNew(a.handle, b.handle, phase, ratchet), bodyA: a, bodyB: b)
    }

    /// The angle the ratchet has reached. The corresponding C function is `cpRatchetJointGetAngle`.
    public var angle: Double {
        cpRatchetJointGetAngle(handle)
    }
    /// Sets the angle reached. The corresponding C function is `cpRatchetJointSetAngle`.
    public func setAngle(_ value: Double) throws(ChipmunkError) {
        try requireFinite(value, "angle")
        cpRatchetJointSetAngle(handle, value)
    }
    /// The offset of the clicks. The corresponding C function is `cpRatchetJointGetPhase`.
    public var phase: Double {
        cpRatchetJointGetPhase(handle)
    }
    /// The angle between clicks. The corresponding C function is `cpRatchetJointGetRatchet`.
    public var ratchet: Double {
        cpRatchetJointGetRatchet(handle)
    }
}
