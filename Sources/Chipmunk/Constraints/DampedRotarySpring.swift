internal import CChipmunk

/// A rotary spring with a damper: keeps the relative angle `bodyA.angle - bodyB.angle`
/// near `restAngle`.
///
/// The corresponding C type is `cpDampedRotarySpring`.
public final class DampedRotarySpring: Constraint {
    /// Joins `a` and `b` with a rotary spring.
    ///
    /// Rules: ``Parameter/rotarySpringRestAngle``, ``Parameter/springStiffness``,
    /// ``Parameter/springDamping``.
    ///
    /// The corresponding C function is `cpDampedRotarySpringNew`.
    public init(a: Body, b: Body, restAngle: Double, stiffness: Double, damping: Double) {
        Parameter.rotarySpringRestAngle.require(restAngle)
        Parameter.springStiffness.require(stiffness)
        Parameter.springDamping.require(damping)
        super.init(
            {
                SlabArena.current.dampedRotarySprings.build {
                    cpDampedRotarySpringInit($0, a.handle, b.handle, restAngle, stiffness, damping)
                }
            }, a: a, b: b)
        cpDampedRotarySpringSetSpringTorqueFunc(handle, CChipmunkGuardedSpringTorque)
    }

    /// The relative angle at rest (rule: ``Parameter/rotarySpringRestAngle``).
    ///
    /// The corresponding C functions are `cpDampedRotarySpringGetRestAngle` and `cpDampedRotarySpringSetRestAngle`.
    public var restAngle: Double {
        get { cpDampedRotarySpringGetRestAngle(handle) }
        set {
            Parameter.rotarySpringRestAngle.require(newValue)
            cpDampedRotarySpringSetRestAngle(handle, newValue)
        }
    }

    /// The spring constant (rule: ``Parameter/springStiffness``).
    ///
    /// The corresponding C functions are `cpDampedRotarySpringGetStiffness` and `cpDampedRotarySpringSetStiffness`.
    public var stiffness: Double {
        get { cpDampedRotarySpringGetStiffness(handle) }
        set {
            Parameter.springStiffness.require(newValue)
            cpDampedRotarySpringSetStiffness(handle, newValue)
        }
    }

    /// The damping (rule: ``Parameter/springDamping``).
    ///
    /// The corresponding C functions are `cpDampedRotarySpringGetDamping` and `cpDampedRotarySpringSetDamping`.
    public var damping: Double {
        get { cpDampedRotarySpringGetDamping(handle) }
        set {
            Parameter.springDamping.require(newValue)
            cpDampedRotarySpringSetDamping(handle, newValue)
        }
    }

    /// Replaces the spring law: given the spring and the relative angle
    /// (`bodyA.angle - bodyB.angle`), return the torque. A non-finite result counts as 0
    /// and makes ``Space/step(_:)`` throw once the step ends. `nil` restores the engine's
    /// law, `(angle - restAngle) * stiffness`: note the sign, the opposite of
    /// ``DampedSpring``'s `(restLength - distance) * stiffness`.
    ///
    /// The corresponding C function is `cpDampedRotarySpringSetSpringTorqueFunc`.
    public var torqueFunction: ((DampedRotarySpring, Double) throws -> Double)? {
        didSet {
            guard torqueFunction != nil else {
                return cpDampedRotarySpringSetSpringTorqueFunc(handle, CChipmunkGuardedSpringTorque)
            }
            cpDampedRotarySpringSetSpringTorqueFunc(handle) { spring, angle in
                let this = Constraint.from(spring!) as! DampedRotarySpring
                return this.callback(orOnError: 0) { _ in
                    let torque = try this.torqueFunction?(this, angle) ?? 0
                    try Parameter.rotarySpringTorque.check(torque)
                    return torque
                }
            }
        }
    }
}
