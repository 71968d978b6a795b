internal import CChipmunk

/// A spring with a damper between two anchor points.
/// The corresponding C type is `cpDampedSpring`.
///
/// ```swift
/// let spring = try DampedSpring(a, b, anchorA: .zero, anchorB: .zero, restLength: 50, stiffness: 20, damping: 0.3)
/// spring.forceFunction = { spring, distance in (spring.restLength - distance) * spring.stiffness * 2 }
/// ```
public final class DampedSpring: Constraint {
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for non-finite anchors,
    ///   or a rest length, stiffness or damping that is negative or not finite.
    /// The corresponding C function is `cpDampedSpringNew`.
    public init(_ a: Body, _ b: Body, anchorA: Vector, anchorB: Vector, restLength: Double, stiffness: Double, damping: Double) throws(ChipmunkError) {
        try requireFinite(anchorA, "anchor A")
        try requireFinite(anchorB, "anchor B")
        try requireNonNegativeFinite(restLength, "rest length")
        try requireNonNegativeFinite(stiffness, "stiffness")
        try requireNonNegativeFinite(damping, "damping")
        let handle = cpDampedSpringNew(a.handle, b.handle, anchorA.cp, anchorB.cp, restLength, stiffness, damping)!
        defaultForce = cpDampedSpringGetSpringForceFunc(handle)
        super.init(handle: handle, bodyA: a, bodyB: b)
    }

    /// The anchor on body A. The corresponding C function is `cpDampedSpringGetAnchorA`.
    public var anchorA: Vector {
        Vector(cpDampedSpringGetAnchorA(handle))
    }
    /// The anchor on body B. The corresponding C function is `cpDampedSpringGetAnchorB`.
    public var anchorB: Vector {
        Vector(cpDampedSpringGetAnchorB(handle))
    }
    /// The length at rest. The corresponding C function is `cpDampedSpringGetRestLength`.
    public var restLength: Double {
        cpDampedSpringGetRestLength(handle)
    }
    /// Changes the rest length. The corresponding C function is `cpDampedSpringSetRestLength`.
    public func setRestLength(_ value: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(value, "rest length")
        cpDampedSpringSetRestLength(handle, value)
    }
    /// The spring constant. The corresponding C function is `cpDampedSpringGetStiffness`.
    public var stiffness: Double {
        cpDampedSpringGetStiffness(handle)
    }
    /// Changes the spring constant. The corresponding C function is `cpDampedSpringSetStiffness`.
    public func setStiffness(_ value: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(value, "stiffness")
        cpDampedSpringSetStiffness(handle, value)
    }
    /// The damping. The corresponding C function is `cpDampedSpringGetDamping`.
    public var damping: Double {
        cpDampedSpringGetDamping(handle)
    }
    /// Changes the damping. The corresponding C function is `cpDampedSpringSetDamping`.
    public func setDamping(_ value: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(value, "damping")
        cpDampedSpringSetDamping(handle, value)
    }

    /// Replaces Hooke's law: given the spring and the current distance between the
    /// anchors, return the force. A non-finite result counts as 0 and makes ``Space/step(_:)``
    /// throw once the step ends. `nil` restores the default, `(restLength - distance) * stiffness`.
    /// The corresponding C function is `cpDampedSpringSetSpringForceFunc`.
    public var forceFunction: ((DampedSpring, Double) throws -> Double)? {
        didSet {
            cpDampedSpringSetSpringForceFunc(handle, forceFunction == nil ? defaultForce : { spring, distance in
                let this = Constraint.from(spring!) as! DampedSpring
                return this.callback(orOnError: 0) { _ in
                    let force = try this.forceFunction?(this, distance) ?? 0
                    guard force.isFinite else {
                        throw ChipmunkError.invalidValue(property: "spring force", value: "\(force)", rule: "finite")
                    }
                    return force
                }
            })
        }
    }

    /// The engine's own law, captured before any closure replaces it.
    private let defaultForce: cpDampedSpringForceFunc?
}
