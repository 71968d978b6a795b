internal import CChipmunk

/// Drives the relative angular velocity `bodyA.angularVelocity - bodyB.angularVelocity`
/// to `rate`; limit its torque with ``Constraint/setMaxForce(_:)``.
/// The corresponding C type is `cpSimpleMotor`.
public final class SimpleMotor: Constraint {
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless `rate` is finite.
    /// The corresponding C function is `cpSimpleMotorNew`.
    public init(_ a: Body, _ b: Body, rate: Double) throws(ChipmunkError) {
        try requireFinite(rate, "rate")
        super.init(handle: cpSimpleMotorNew(a.handle, b.handle, rate), bodyA: a, bodyB: b)
    }

    /// The relative angular velocity driven to, in radians per second. The corresponding C function is `cpSimpleMotorGetRate`.
    public var rate: Double {
        cpSimpleMotorGetRate(handle)
    }
    /// Changes the rate. The corresponding C function is `cpSimpleMotorSetRate`.
    public func setRate(_ value: Double) throws(ChipmunkError) {
        try requireFinite(value, "rate")
        cpSimpleMotorSetRate(handle, value)
    }
}
