internal import CChipmunk

/// A contact between two shapes, as a collision handler sees it.
///
/// An arbiter is valid only inside the callback that received it (or, for
/// ``Body/forEachArbiter(_:)``, inside the closure); using one afterwards stops the program
/// with a message saying so, rather than reading engine memory that has moved on. Copy
/// out the values you need.
///
/// ```swift
/// space.onCollision(between: ball, and: floor, postSolve: { arbiter in
///     if arbiter.isFirstContact { hits += arbiter.totalImpulse.length }
/// })
/// ```
///
/// The corresponding C type is `cpArbiter`.
public struct Arbiter {
    private let raw: UnsafeMutablePointer<cpArbiter>
    /// The callback state's hot fields, by address: handing an arbiter to a callback then
    /// costs no reference counting. Callback states are never freed, only reused
    /// (``CallbackState/make()``), and their epoch only grows, so an arbiter kept past its
    /// space still finds valid memory that tells it it is stale.
    private let hot: UnsafeMutablePointer<CallbackState.Hot>
    private let epoch: UInt64

    init(_ handle: UnsafeMutablePointer<cpArbiter>, hot: UnsafeMutablePointer<CallbackState.Hot>) {
        raw = handle
        self.hot = hot
        epoch = hot.pointee.epoch
    }

    private var gate: CallbackState { hot.pointee.owner }

    /// The C arbiter, after checking that this value is still inside its callback.
    @inline(__always)
    private var handle: UnsafeMutablePointer<cpArbiter> {
        guard hot.pointee.epoch == epoch, hot.pointee.space != nil else {
            stop(
                "An Arbiter is valid only inside the callback that received it; copy the values you need out of it")
        }
        return raw
    }

    /// The space the contact is in.
    public var space: Space {
        _ = handle
        return gate.space!
    }

    /// The two shapes, in the order of the handler's collision types.
    ///
    /// The corresponding C function is `cpArbiterGetShapes`.
    public var shapes: (Shape, Shape) {
        var a: UnsafeMutablePointer<cpShape>?
        var b: UnsafeMutablePointer<cpShape>?
        cpArbiterGetShapes(handle, &a, &b)
        return (Shape.from(a!), Shape.from(b!))
    }

    /// The two bodies, in the order of ``shapes``.
    ///
    /// The corresponding C function is `cpArbiterGetBodies`.
    public var bodies: (Body, Body) {
        var a: UnsafeMutablePointer<cpBody>?
        var b: UnsafeMutablePointer<cpBody>?
        cpArbiterGetBodies(handle, &a, &b)
        return (Body.from(a!), Body.from(b!))
    }

    /// The contact points and normal; set it in `preSolve` to move or deepen contacts.
    ///
    /// A new set must keep the arbiter's point count (the engine asserts "The number of
    /// contact points cannot be changed"), finite values, and a unit normal; anything else
    /// is a programming error.
    ///
    /// The corresponding C functions are `cpArbiterGetContactPointSet` and `cpArbiterSetContactPointSet`.
    public var contactPointSet: ContactPointSet {
        get { ContactPointSet(cpArbiterGetContactPointSet(handle)) }
        nonmutating set {
            let count = Int(cpArbiterGetCount(handle))
            ensure(
                newValue.count == count,
                "Arbiter.contactPointSet must keep the arbiter's \(count) points (got \(newValue.count))")
            for point in newValue {
                Parameter.contactPoint.require(point.pointA)
                Parameter.contactPoint.require(point.pointB)
                Parameter.contactPoint.require(point.distance)
            }
            Parameter.contactPoint.require(newValue.normal)
            ensure(
                abs(newValue.normal.length - 1) < 1e-6,
                "Arbiter.contactPointSet normal must be a unit vector (got length \(newValue.normal.length))")
            var c = newValue.cp
            cpArbiterSetContactPointSet(handle, &c)
        }
    }

    /// The number of contact points, 0 to 2.
    ///
    /// The corresponding C function is `cpArbiterGetCount`.
    public var count: Int {
        Int(cpArbiterGetCount(handle))
    }

    /// The collision normal, from the first shape to the second.
    ///
    /// The corresponding C function is `cpArbiterGetNormal`.
    public var normal: Vector {
        Vector(cpArbiterGetNormal(handle))
    }

    /// The impulse the solver applied this step (meaningful in `postSolve`).
    ///
    /// The corresponding C function is `cpArbiterTotalImpulse`.
    public var totalImpulse: Vector {
        Vector(cpArbiterTotalImpulse(handle))
    }

    /// The energy lost to the collision this step (meaningful in `postSolve`).
    ///
    /// The corresponding C function is `cpArbiterTotalKE`.
    public var totalKineticEnergy: Double {
        cpArbiterTotalKE(handle)
    }

    /// The restitution used for this contact; set it in `preSolve` to override the
    /// shapes' (rule: ``Parameter/arbiterRestitution``).
    ///
    /// The corresponding C functions are `cpArbiterGetRestitution` and `cpArbiterSetRestitution`.
    public var restitution: Double {
        get { cpArbiterGetRestitution(handle) }
        nonmutating set {
            Parameter.arbiterRestitution.require(newValue)
            cpArbiterSetRestitution(handle, newValue)
        }
    }

    /// The friction used for this contact; set it in `preSolve` to override the shapes'
    /// (rule: ``Parameter/arbiterFriction``).
    ///
    /// The corresponding C functions are `cpArbiterGetFriction` and `cpArbiterSetFriction`.
    public var friction: Double {
        get { cpArbiterGetFriction(handle) }
        nonmutating set {
            Parameter.arbiterFriction.require(newValue)
            cpArbiterSetFriction(handle, newValue)
        }
    }

    /// The relative surface velocity used for this contact; set it in `preSolve` to
    /// override (rule: ``Parameter/arbiterSurfaceVelocity``).
    ///
    /// The corresponding C functions are `cpArbiterGetSurfaceVelocity` and `cpArbiterSetSurfaceVelocity`.
    public var surfaceVelocity: Vector {
        get { Vector(cpArbiterGetSurfaceVelocity(handle)) }
        nonmutating set {
            Parameter.arbiterSurfaceVelocity.require(newValue)
            cpArbiterSetSurfaceVelocity(handle, newValue.cp)
        }
    }

    /// Whether this is the first step the shapes touch.
    ///
    /// The corresponding C function is `cpArbiterIsFirstContact`.
    public var isFirstContact: Bool {
        cpArbiterIsFirstContact(handle) != 0
    }

    /// Whether `separate` runs because a shape was removed, not because the shapes parted.
    ///
    /// The corresponding C function is `cpArbiterIsRemoval`.
    public var isRemoval: Bool {
        cpArbiterIsRemoval(handle) != 0
    }

    /// Ignores the contact until the shapes separate (no more `preSolve` or `postSolve`).
    /// Return `false` from `begin` or `preSolve` as well to skip the current step.
    ///
    /// The corresponding C function is `cpArbiterIgnore`.
    public func ignore() {
        _ = cpArbiterIgnore(handle)
    }

    /// Runs the wildcard `begin` handler of the first (`.a`) or second shape's type, as a
    /// handler that replaces the default should. A wildcard handler that calls itself this
    /// way would recurse without end: that stops the program with a message.
    ///
    /// The corresponding C functions are `cpArbiterCallWildcardBeginA` and `cpArbiterCallWildcardBeginB`.
    public func callWildcardBegin(_ side: Side) -> Bool {
        callingWildcard { space in
            (side == .a ? cpArbiterCallWildcardBeginA(handle, space) : cpArbiterCallWildcardBeginB(handle, space)) != 0
        }
    }

    /// Runs a wildcard `preSolve` handler.
    ///
    /// The corresponding C functions are `cpArbiterCallWildcardPreSolveA` and `…B`.
    public func callWildcardPreSolve(_ side: Side) -> Bool {
        callingWildcard { space in
            (side == .a ? cpArbiterCallWildcardPreSolveA(handle, space) : cpArbiterCallWildcardPreSolveB(handle, space))
                != 0
        }
    }

    /// Runs a wildcard `postSolve` handler.
    ///
    /// The corresponding C functions are `cpArbiterCallWildcardPostSolveA` and `…B`.
    public func callWildcardPostSolve(_ side: Side) {
        callingWildcard { space in
            if side == .a {
                cpArbiterCallWildcardPostSolveA(handle, space)
            } else {
                cpArbiterCallWildcardPostSolveB(handle, space)
            }
        }
    }

    /// Runs a wildcard `separate` handler.
    ///
    /// The corresponding C functions are `cpArbiterCallWildcardSeparateA` and `…B`.
    public func callWildcardSeparate(_ side: Side) {
        callingWildcard { space in
            if side == .a {
                cpArbiterCallWildcardSeparateA(handle, space)
            } else {
                cpArbiterCallWildcardSeparateB(handle, space)
            }
        }
    }

    /// Counts nested wildcard calls: a handler reaches at most two levels (default, then
    /// wildcard), so a deep nesting is a handler calling itself.
    private func callingWildcard<Result>(_ body: (UnsafeMutablePointer<cpSpace>) -> Result) -> Result {
        let space = self.space
        gate.wildcardDepth += 1
        defer { gate.wildcardDepth -= 1 }
        ensure(
            gate.wildcardDepth <= 8,
            "Arbiter.callWildcard…: a wildcard handler called itself through the arbiter, "
                + "which would recurse without end"
        )
        return body(space.handle)
    }

    /// Which of an arbiter's two shapes.
    public enum Side: Sendable {
        /// The first of ``Arbiter/shapes``.
        case a
        /// The second of ``Arbiter/shapes``.
        case b
    }
}

@available(*, unavailable, message: "An Arbiter is valid only inside its callback, on its space's thread")
extension Arbiter: Sendable {}
