internal import CChipmunk

/// A contact between two shapes, as a collision handler sees it.
///
/// An arbiter is valid only inside the callback that received it (or, for
/// ``Body/eachArbiter(_:)``, inside the closure); using one afterwards stops the program
/// with a message saying so, rather than reading engine memory that has moved on. Copy
/// out the values you need. The corresponding C type is `cpArbiter`.
///
/// ```swift
/// space.collisionHandler(between: ball, and: floor).postSolve = { arbiter in
///     if arbiter.isFirstContact { hits += arbiter.totalImpulse.length }
/// }
/// ```
public struct Arbiter {
    private let raw: UnsafeMutablePointer<cpArbiter>
    private let gate: CallbackState
    private let epoch: UInt64

    init(_ handle: UnsafeMutablePointer<cpArbiter>, state: CallbackState) {
        raw = handle
        gate = state
        epoch = state.epoch
    }

    /// The C arbiter, after checking that this value is still inside its callback.
    @inline(__always)
    private var handle: UnsafeMutablePointer<cpArbiter> {
        guard gate.epoch == epoch, gate.space != nil else {
            preconditionFailure("An Arbiter is valid only inside the callback that received it; copy the values you need out of it")
        }
        return raw
    }

    /// The space the contact is in.
    public var space: Space {
        _ = handle
        return gate.space!
    }

    /// The two shapes, in the order of the handler's collision types.
    /// The corresponding C function is `cpArbiterGetShapes`.
    public var shapes: (Shape, Shape) {
        var a: UnsafeMutablePointer<cpShape>?, b: UnsafeMutablePointer<cpShape>?
        cpArbiterGetShapes(handle, &a, &b)
        return (Shape.from(a!), Shape.from(b!))
    }

    /// The two bodies, in the order of ``shapes``. The corresponding C function is `cpArbiterGetBodies`.
    public var bodies: (Body, Body) {
        var a: UnsafeMutablePointer<cpBody>?, b: UnsafeMutablePointer<cpBody>?
        cpArbiterGetBodies(handle, &a, &b)
        return (Body.from(a!), Body.from(b!))
    }

    /// The contact points and normal. The corresponding C function is `cpArbiterGetContactPointSet`.
    public var contactPointSet: ContactPointSet {
        ContactPointSet(cpArbiterGetContactPointSet(handle))
    }

    /// Replaces the contact points (in `preSolve`), to move or deepen contacts.
    ///
    /// - Throws: ``ChipmunkError/contactCountMismatch(expected:got:)`` if the count differs
    ///   ("The number of contact points cannot be changed"), or
    ///   ``ChipmunkError/invalidValue(property:value:rule:)`` for non-finite values.
    /// The corresponding C function is `cpArbiterSetContactPointSet`.
    public func setContactPointSet(_ set: ContactPointSet) throws(ChipmunkError) {
        let count = Int(cpArbiterGetCount(handle))
        guard set.count == count else { throw .contactCountMismatch(expected: count, got: set.count) }
        guard set.isFinite else { throw .invalidValue(property: "contact point set", value: "non-finite values", rule: "finite") }
        var c = set.cp
        cpArbiterSetContactPointSet(handle, &c)
    }

    /// The number of contact points, 0 to 2. The corresponding C function is `cpArbiterGetCount`.
    public var count: Int {
        Int(cpArbiterGetCount(handle))
    }

    /// The collision normal, from the first shape to the second. The corresponding C function is `cpArbiterGetNormal`.
    public var normal: Vector {
        Vector(cpArbiterGetNormal(handle))
    }

    /// The impulse the solver applied this step (meaningful in `postSolve`).
    /// The corresponding C function is `cpArbiterTotalImpulse`.
    public var totalImpulse: Vector {
        Vector(cpArbiterTotalImpulse(handle))
    }

    /// The energy lost to the collision this step (meaningful in `postSolve`).
    /// The corresponding C function is `cpArbiterTotalKE`.
    public var totalKineticEnergy: Double {
        cpArbiterTotalKE(handle)
    }

    /// The restitution used for this contact; set it in `preSolve` to override the shapes'.
    /// The corresponding C function is `cpArbiterGetRestitution`.
    public var restitution: Double {
        cpArbiterGetRestitution(handle)
    }

    /// Overrides the restitution. The corresponding C function is `cpArbiterSetRestitution`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    public func setRestitution(_ value: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(value, "restitution")
        cpArbiterSetRestitution(handle, value)
    }

    /// The friction used for this contact. The corresponding C function is `cpArbiterGetFriction`.
    public var friction: Double {
        cpArbiterGetFriction(handle)
    }

    /// Overrides the friction. The corresponding C function is `cpArbiterSetFriction`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    public func setFriction(_ value: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(value, "friction")
        cpArbiterSetFriction(handle, value)
    }

    /// The relative surface velocity used for this contact. The corresponding C function is `cpArbiterGetSurfaceVelocity`.
    public var surfaceVelocity: Vector {
        Vector(cpArbiterGetSurfaceVelocity(handle))
    }

    /// Overrides the surface velocity. The corresponding C function is `cpArbiterSetSurfaceVelocity`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless finite.
    public func setSurfaceVelocity(_ value: Vector) throws(ChipmunkError) {
        try requireFinite(value, "surface velocity")
        cpArbiterSetSurfaceVelocity(handle, value.cp)
    }

    /// Whether this is the first step the shapes touch. The corresponding C function is `cpArbiterIsFirstContact`.
    public var isFirstContact: Bool {
        cpArbiterIsFirstContact(handle) != 0
    }

    /// Whether `separate` runs because a shape was removed, not because the shapes parted.
    /// The corresponding C function is `cpArbiterIsRemoval`.
    public var isRemoval: Bool {
        cpArbiterIsRemoval(handle) != 0
    }

    /// Ignores the contact until the shapes separate (no more `preSolve` or `postSolve`).
    /// Return `false` from `begin` or `preSolve` as well to skip the current step.
    /// The corresponding C function is `cpArbiterIgnore`.
    public func ignore() {
        _ = cpArbiterIgnore(handle)
    }

    /// Runs the wildcard `begin` handler of the first (`.a`) or second shape's type, as a
    /// handler that replaces the default should. The corresponding C functions are
    /// `cpArbiterCallWildcardBeginA` and `cpArbiterCallWildcardBeginB`.
    public func callWildcardBegin(_ side: Side) -> Bool {
        let space = self.space
        return (side == .a ? cpArbiterCallWildcardBeginA(handle, space.handle) : cpArbiterCallWildcardBeginB(handle, space.handle)) != 0
    }

    /// Runs a wildcard `preSolve` handler. The corresponding C functions are `cpArbiterCallWildcardPreSolveA` and `…B`.
    public func callWildcardPreSolve(_ side: Side) -> Bool {
        let space = self.space
        return (side == .a ? cpArbiterCallWildcardPreSolveA(handle, space.handle) : cpArbiterCallWildcardPreSolveB(handle, space.handle)) != 0
    }

    /// Runs a wildcard `postSolve` handler. The corresponding C functions are `cpArbiterCallWildcardPostSolveA` and `…B`.
    public func callWildcardPostSolve(_ side: Side) {
        let space = self.space
        if side == .a { cpArbiterCallWildcardPostSolveA(handle, space.handle) } else { cpArbiterCallWildcardPostSolveB(handle, space.handle) }
    }

    /// Runs a wildcard `separate` handler. The corresponding C functions are `cpArbiterCallWildcardSeparateA` and `…B`.
    public func callWildcardSeparate(_ side: Side) {
        let space = self.space
        if side == .a { cpArbiterCallWildcardSeparateA(handle, space.handle) } else { cpArbiterCallWildcardSeparateB(handle, space.handle) }
    }

    /// Which of an arbiter's two shapes.
    public enum Side: Sendable { case a, b }
}

@available(*, unavailable, message: "An Arbiter is valid only inside its callback, on its space's thread")
extension Arbiter: Sendable {}
