internal import CChipmunk

/// A rotary spring with a damper: keeps the relative angle `bodyA.angle - bodyB.angle`
/// near `restAngle`.
/// The corresponding C type is `cpDampedRotarySpring`.
public final class DampedRotarySpring: Constraint {
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a non-finite rest
    ///   angle, or a negative or non-finite stiffness or damping.
    /// The corresponding C function is `cpDampedRotarySpringNew`.
    public init(_ a: Body, _ b: Body, restAngle: Double, stiffness: Double, damping: Double) throws(ChipmunkError) {
        try requireFinite(restAngle, "rest angle")
        try requireNonNegativeFinite(stiffness, "stiffness")
        try requireNonNegativeFinite(damping, "damping")
        let handle = cpDampedRotarySpringNew(a.handle, b.handle, restAngle, stiffness, damping)!
        defaultTorque = cpDampedRotarySpringGetSpringTorqueFunc(handle)
        super.init(handle: handle, bodyA: a, bodyB: b)
    }

    /// The relative angle at rest. The corresponding C function is `cpDampedRotarySpringGetRestAngle`.
    public var restAngle: Double {
        cpDampedRotarySpringGetRestAngle(handle)
    }
    /// Changes the rest angle. The corresponding C function is `cpDampedRotarySpringSetRestAngle`.
    public func setRestAngle(_ value: Double) throws(ChipmunkError) {
        try requireFinite(value, "rest angle")
        cpDampedRotarySpringSetRestAngle(handle, value)
    }
    /// The spring constant. The corresponding C function is `cpDampedRotarySpringGetStiffness`.
    public var stiffness: Double {
        cpDampedRotarySpringGetStiffness(handle)
    }
    /// Changes the spring constant. The corresponding C function is `cpDampedRotarySpringSetStiffness`.
    public func setStiffness(_ value: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(value, "stiffness")
        cpDampedRotarySpringSetStiffness(handle, value)
    }
    /// The damping. The corresponding C function is `cpDampedRotarySpringGetDamping`.
    public var damping: Double {
        cpDampedRotarySpringGetDamping(handle)
    }
    /// Changes the damping. The corresponding C function is `cpDampedRotarySpringSetDamping`.
    public func setDamping(_ value: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(value, "damping")
        cpDampedRotarySpringSetDamping(handle, value)
    }

    /// Replaces the spring law: given the spring and the relative angle
    /// (`bodyA.angle - bodyB.angle`), return the torque. A non-finite result counts as 0
    /// and makes ``Space/step(_:)`` throw once the step ends. `nil` restores the engine's
    /// law, `(angle - restAngle) * stiffness`: note the sign, the opposite of
    /// ``DampedSpring``'s `(restLength - distance) * stiffness`.
    /// The corresponding C function is `cpDampedRotarySpringSetSpringTorqueFunc`.
    public var torqueFunction: ((DampedRotarySpring, Double) throws -> Double)? {
        didSet {
            cpDampedRotarySpringSetSpringTorqueFunc(handle, torqueFunction == nil ? defaultTorque : { spring, angle in
                let this = Constraint.from(spring!) as! DampedRotarySpring
                return this.callback(orOnError: 0) { _ in
                    let torque = try this.torqueFunction?(this, angle) ?? 0
                    guard torque.isFinite else {
                        throw ChipmunkError.invalidValue(property: "spring torque", value: "\(torque)", rule: "finite")
                    }
                    return torque
                }
            })
        }
    }

    /// The engine's own law, captured before any closure replaces it.
    private let defaultTorque: cpDampedRotarySpringTorqueFunc?
}
