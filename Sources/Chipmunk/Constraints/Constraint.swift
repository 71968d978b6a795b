internal import CChipmunk

/// A joint, spring or motor between two bodies: one of the ten kinds in this folder.
///
/// Every initialiser names its bodies `a:` and `b:`, and every parameter is a property
/// checked against its ``Parameter`` rule:
///
/// ```swift
/// let hinge = PivotJoint(a: space.staticBody, b: door, pivot: [0, 100])
/// hinge.maxForce = 10_000
/// space.add(hinge)
/// ```
///
/// A constraint holds both its bodies strongly; the space holds the constraint. Its two
/// bodies must differ, be in the space before it, and at least one must be dynamic.
///
/// The corresponding C type is `cpConstraint`.
public class Constraint: SpaceObject, CObjectOwner {
    /// `constraint`: a constraint is one of the three kinds of ``SpaceObject``.
    public var spaceObjectKind: SpaceObjectKind { SpaceObjectKind(.constraint) }

    let handle: UnsafeMutablePointer<cpConstraint>

    /// The first body.
    public let bodyA: Body
    /// The second body.
    public let bodyB: Body

    /// The space the constraint is in, if any. Weak: the space holds the constraint.
    public internal(set) weak var space: Space?

    var cSpace: OwnedCSpace?

    /// The number the space gave this object when it was added (0, 1, 2, … in add order,
    /// shared by bodies, shapes and constraints); snapshots match objects by it. -1 outside a space.
    var serial = -1

    /// Wraps a C constraint made by a subclass; `a` and `b` must be two different bodies
    /// (the engine crashes removing a constraint whose bodies are the same).
    init(_ makeHandle: () -> UnsafeMutablePointer<cpConstraint>, a: Body, b: Body) {
        ensure(a !== b, "\(Self.self): a constraint joins two different bodies (a and b are the same body)")
        self.handle = makeHandle()
        self.bodyA = a
        self.bodyB = b
        cpConstraintSetUserData(handle, unretainedPointer)
    }

    deinit { releaseCObject() }

    static func freeCObject(_ object: UnsafeMutablePointer<cpConstraint>) {
        cpConstraintDestroy(object)
        StructSlab.release(object)
    }

    /// The largest force the constraint may apply: infinite by default
    /// (rule: ``Parameter/constraintMaxForce``).
    ///
    /// The corresponding C functions are `cpConstraintGetMaxForce` and `cpConstraintSetMaxForce`.
    public var maxForce: Double {
        get { cpConstraintGetMaxForce(handle) }
        set {
            Parameter.constraintMaxForce.require(newValue)
            cpConstraintSetMaxForce(handle, newValue)
        }
    }

    /// The fraction of error left uncorrected after one second. The default is
    /// 0.0017970074436457143: the engine computes `pow(1 - 0.1, 60)` from single-precision
    /// literals (rule: ``Parameter/constraintErrorBias``).
    ///
    /// The corresponding C functions are `cpConstraintGetErrorBias` and `cpConstraintSetErrorBias`.
    public var errorBias: Double {
        get { cpConstraintGetErrorBias(handle) }
        set {
            Parameter.constraintErrorBias.require(newValue)
            cpConstraintSetErrorBias(handle, newValue)
        }
    }

    /// The fastest the constraint corrects error: infinite by default
    /// (rule: ``Parameter/constraintMaxBias``).
    ///
    /// The corresponding C functions are `cpConstraintGetMaxBias` and `cpConstraintSetMaxBias`.
    public var maxBias: Double {
        get { cpConstraintGetMaxBias(handle) }
        set {
            Parameter.constraintMaxBias.require(newValue)
            cpConstraintSetMaxBias(handle, newValue)
        }
    }

    /// Whether the two bodies still collide with each other: `true` by default.
    ///
    /// The corresponding C functions are `cpConstraintGetCollideBodies` and `cpConstraintSetCollideBodies`.
    public var collideBodies: Bool {
        get { cpConstraintGetCollideBodies(handle) != 0 }
        set { cpConstraintSetCollideBodies(handle, newValue ? 1 : 0) }
    }

    /// The impulse applied in the last step; divide by the step for a force.
    ///
    /// The corresponding C function is `cpConstraintGetImpulse`.
    public var impulse: Double {
        CChipmunkConstraintImpulse(handle)
    }

    /// Runs before the solver each step, inside ``Space/step(_:)``; change the constraint here.
    ///
    /// The corresponding C function is `cpConstraintSetPreSolveFunc`.
    public var preSolve: ((Constraint) throws -> Void)? {
        didSet {
            cpConstraintSetPreSolveFunc(
                handle,
                preSolve == nil
                    ? nil
                    : { constraint, _ in
                        Constraint.from(constraint!).callback(orOnError: ()) { try $0.preSolve?($0) }
                    })
        }
    }

    /// Runs after the solver each step, inside ``Space/step(_:)``: read ``impulse`` here,
    /// for example to break a joint under load (remove it; the removal is deferred).
    ///
    /// The corresponding C function is `cpConstraintSetPostSolveFunc`.
    public var postSolve: ((Constraint) throws -> Void)? {
        didSet {
            cpConstraintSetPostSolveFunc(
                handle,
                postSolve == nil
                    ? nil
                    : { constraint, _ in
                        Constraint.from(constraint!).callback(orOnError: ()) { try $0.postSolve?($0) }
                    })
        }
    }

    /// Runs a closure as an engine callback of this constraint's space.
    func callback<Result>(orOnError fallback: Result, _ body: (Constraint) throws -> Result) -> Result {
        guard let state = cSpace?.callbacks, !state.isTearingDown else { return fallback }
        return state.run(orOnError: fallback) { try body(self) }
    }

    @inline(__always)
    static func from(_ handle: UnsafeMutablePointer<cpConstraint>) -> Constraint {
        owner(of: cpConstraintGetUserData(handle))
    }
}

@available(*, unavailable, message: "A Constraint wraps a C object; use it from one task at a time, one space per task")
extension Constraint: Sendable {}
