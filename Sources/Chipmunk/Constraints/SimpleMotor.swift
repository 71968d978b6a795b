internal import CChipmunk

/// Drives the relative angular velocity `bodyA.angularVelocity - bodyB.angularVelocity`
/// to `rate`; limit its torque with ``Constraint/maxForce``.
///
/// The corresponding C type is `cpSimpleMotor`.
public final class SimpleMotor: Constraint {
    /// Joins `a` and `b` with a motor (rule: ``Parameter/motorRate``).
    ///
    /// The corresponding C function is `cpSimpleMotorNew`.
    public init(a: Body, b: Body, rate: Double) {
        Parameter.motorRate.require(rate)
        super.init(
            { SlabArena.current.simpleMotors.build { cpSimpleMotorInit($0, a.handle, b.handle, rate) } }, a: a, b: b)
    }

    /// The relative angular velocity driven to, in radians per second (rule: ``Parameter/motorRate``).
    ///
    /// The corresponding C functions are `cpSimpleMotorGetRate` and `cpSimpleMotorSetRate`.
    public var rate: Double {
        get { cpSimpleMotorGetRate(handle) }
        set {
            Parameter.motorRate.require(newValue)
            cpSimpleMotorSetRate(handle, newValue)
        }
    }
}
