internal import CChipmunk

/// A spring with a damper between two anchor points.
///
/// ```swift
/// let spring = DampedSpring(a: a, b: b, restLength: 50, stiffness: 20, damping: 0.3)
/// spring.forceFunction = { spring, distance in (spring.restLength - distance) * spring.stiffness * 2 }
/// ```
///
/// A spring too stiff for the time step (about 4m/dt² and up with no damping) diverges:
/// ``Space/step(_:)`` then throws ``ChipmunkError/diverged(step:body:quantity:value:)``.
///
/// The corresponding C type is `cpDampedSpring`.
public final class DampedSpring: Constraint {
    /// Joins `anchorA` on `a` and `anchorB` on `b` (body coordinates) with a spring.
    ///
    /// Rules: ``Parameter/anchor``, ``Parameter/springRestLength``,
    /// ``Parameter/springStiffness``, ``Parameter/springDamping``.
    ///
    /// The corresponding C function is `cpDampedSpringNew`.
    public init(
        a: Body, b: Body, anchorA: Vector = .zero, anchorB: Vector = .zero,
        restLength: Double, stiffness: Double, damping: Double
    ) {
        Parameter.anchor.require(anchorA)
        Parameter.anchor.require(anchorB)
        Parameter.springRestLength.require(restLength)
        Parameter.springStiffness.require(stiffness)
        Parameter.springDamping.require(damping)
        super.init(
            {
                SlabArena.current.dampedSprings.build {
                    cpDampedSpringInit($0, a.handle, b.handle, anchorA.cp, anchorB.cp, restLength, stiffness, damping)
                }
            },
            a: a, b: b)
        cpDampedSpringSetSpringForceFunc(handle, CChipmunkGuardedSpringForce)
    }

    /// The anchor on body A, in its coordinates.
    ///
    /// The corresponding C functions are `cpDampedSpringGetAnchorA` and `cpDampedSpringSetAnchorA`.
    public var anchorA: Vector {
        get { Vector(cpDampedSpringGetAnchorA(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpDampedSpringSetAnchorA(handle, newValue.cp)
        }
    }

    /// The anchor on body B, in its coordinates.
    ///
    /// The corresponding C functions are `cpDampedSpringGetAnchorB` and `cpDampedSpringSetAnchorB`.
    public var anchorB: Vector {
        get { Vector(cpDampedSpringGetAnchorB(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpDampedSpringSetAnchorB(handle, newValue.cp)
        }
    }

    /// The length at rest (rule: ``Parameter/springRestLength``).
    ///
    /// The corresponding C functions are `cpDampedSpringGetRestLength` and `cpDampedSpringSetRestLength`.
    public var restLength: Double {
        get { cpDampedSpringGetRestLength(handle) }
        set {
            Parameter.springRestLength.require(newValue)
            cpDampedSpringSetRestLength(handle, newValue)
        }
    }

    /// The spring constant (rule: ``Parameter/springStiffness``).
    ///
    /// The corresponding C functions are `cpDampedSpringGetStiffness` and `cpDampedSpringSetStiffness`.
    public var stiffness: Double {
        get { cpDampedSpringGetStiffness(handle) }
        set {
            Parameter.springStiffness.require(newValue)
            cpDampedSpringSetStiffness(handle, newValue)
        }
    }

    /// The damping (rule: ``Parameter/springDamping``).
    ///
    /// The corresponding C functions are `cpDampedSpringGetDamping` and `cpDampedSpringSetDamping`.
    public var damping: Double {
        get { cpDampedSpringGetDamping(handle) }
        set {
            Parameter.springDamping.require(newValue)
            cpDampedSpringSetDamping(handle, newValue)
        }
    }

    /// Replaces Hooke's law: given the spring and the current distance between the
    /// anchors, return the force. A non-finite result counts as 0 and makes
    /// ``Space/step(_:)`` throw ``ChipmunkError/invalidValue(_:_:)`` with
    /// ``Parameter/springForce`` once the step ends. `nil` restores the default,
    /// `(restLength - distance) * stiffness`, computed as the engine computes it, but
    /// refusing an impulse that would make a body's velocity overflow (the step then
    /// throws ``ChipmunkError/diverged(step:body:quantity:value:)``).
    ///
    /// The corresponding C function is `cpDampedSpringSetSpringForceFunc`.
    public var forceFunction: ((DampedSpring, Double) throws -> Double)? {
        didSet {
            guard forceFunction != nil else {
                return cpDampedSpringSetSpringForceFunc(handle, CChipmunkGuardedSpringForce)
            }
            cpDampedSpringSetSpringForceFunc(handle) { spring, distance in
                let this = Constraint.from(spring!) as! DampedSpring
                return this.callback(orOnError: 0) { _ in
                    let force = try this.forceFunction?(this, distance) ?? 0
                    try Parameter.springForce.check(force)
                    return force
                }
            }
        }
    }
}
