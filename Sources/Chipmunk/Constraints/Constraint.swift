internal import CChipmunk

/// A joint, spring or motor between two bodies: one of the ten kinds in this folder.
///
/// A constraint holds both its bodies strongly; the space holds the constraint. Add it
/// to a space after both bodies; at least one must be dynamic. Values the engine checks
/// are set through throwing methods. The corresponding C type is `cpConstraint`.
///
/// ```swift
/// let hinge = try PivotJoint(space.staticBody, door, pivot: [0, 100])
/// try space.add(hinge)
/// ```
public class Constraint {
    let handle: UnsafeMutablePointer<cpConstraint>

    /// The first body.
    public let bodyA: Body
    /// The second body.
    public let bodyB: Body

    /// The space the constraint is in, if any. Weak: the space holds the constraint.
    public internal(set) weak var space: Space?

    /// The C space the engine has this constraint in (it can lag ``space`` during a step).
    var engineSpace: SpaceStorage?

    init(handle: UnsafeMutablePointer<cpConstraint>, bodyA: Body, bodyB: Body) {
        self.handle = handle
        self.bodyA = bodyA
        self.bodyB = bodyB
        cpConstraintSetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let engineSpace { engineSpace.adopt(handle) } else { cpConstraintFree(handle) }
    }

    /// The largest force the constraint may apply: infinite by default.
    /// The corresponding C function is `cpConstraintGetMaxForce`.
    public var maxForce: Double {
        cpConstraintGetMaxForce(handle)
    }

    /// Limits the force. The corresponding C function is `cpConstraintSetMaxForce`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more (infinity allowed).
    public func setMaxForce(_ force: Double) throws(ChipmunkError) {
        guard force >= 0 else { throw .invalidValue(property: "max force", value: "\(force)", rule: "zero or more") }
        cpConstraintSetMaxForce(handle, force)
    }

    /// The fraction of error left uncorrected after one second. The default is
    /// 0.0017970074436457143: the engine computes `pow(1 - 0.1, 60)` from single-precision
    /// literals.
    /// The corresponding C function is `cpConstraintGetErrorBias`.
    public var errorBias: Double {
        cpConstraintGetErrorBias(handle)
    }

    /// Sets the error bias. The corresponding C function is `cpConstraintSetErrorBias`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    public func setErrorBias(_ bias: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(bias, "error bias")
        cpConstraintSetErrorBias(handle, bias)
    }

    /// The fastest the constraint corrects error: infinite by default.
    /// The corresponding C function is `cpConstraintGetMaxBias`.
    public var maxBias: Double {
        cpConstraintGetMaxBias(handle)
    }

    /// Sets the max bias. The corresponding C function is `cpConstraintSetMaxBias`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more (infinity allowed).
    public func setMaxBias(_ bias: Double) throws(ChipmunkError) {
        guard bias >= 0 else { throw .invalidValue(property: "max bias", value: "\(bias)", rule: "zero or more") }
        cpConstraintSetMaxBias(handle, bias)
    }

    /// Whether the two bodies still collide with each other: `true` by default.
    /// The corresponding C functions are `cpConstraintGetCollideBodies` and `cpConstraintSetCollideBodies`.
    public var collideBodies: Bool {
        get { cpConstraintGetCollideBodies(handle) != 0 }
        set { cpConstraintSetCollideBodies(handle, newValue ? 1 : 0) }
    }

    /// The impulse applied in the last step; divide by the step for a force.
    /// The corresponding C function is `cpConstraintGetImpulse`.
    public var impulse: Double {
        cpConstraintGetImpulse(handle)
    }

    /// Runs before the solver each step, inside ``Space/step(_:)``; change the constraint here.
    /// The corresponding C function is `cpConstraintSetPreSolveFunc`.
    public var preSolve: ((Constraint) throws -> Void)? {
        didSet {
            cpConstraintSetPreSolveFunc(handle, preSolve == nil ? nil : { constraint, _ in
                Constraint.from(constraint!).callback(orOnError: ()) { try $0.preSolve?($0) }
            })
        }
    }

    /// Runs after the solver each step, inside ``Space/step(_:)``: read ``impulse`` here,
    /// for example to break a joint under load (remove it; the removal is deferred).
    /// The corresponding C function is `cpConstraintSetPostSolveFunc`.
    public var postSolve: ((Constraint) throws -> Void)? {
        didSet {
            cpConstraintSetPostSolveFunc(handle, postSolve == nil ? nil : { constraint, _ in
                Constraint.from(constraint!).callback(orOnError: ()) { try $0.postSolve?($0) }
            })
        }
    }

    /// Runs a closure as an engine callback of this constraint's space.
    func callback<Result>(orOnError fallback: Result, _ body: (Constraint) throws -> Result) -> Result {
        guard let state = engineSpace?.callbacks, !state.isTearingDown else { return fallback }
        return state.run(orOnError: fallback) { try body(self) }
    }

    @inline(__always)
    static func from(_ handle: UnsafeMutablePointer<cpConstraint>) -> Constraint {
        Unmanaged<Constraint>.fromOpaque(cpConstraintGetUserData(handle)!).takeUnretainedValue()
    }
}

@available(*, unavailable, message: "A Constraint wraps a C object; use it from one task at a time, one space per task")
extension Constraint: Sendable {}
