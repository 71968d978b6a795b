internal import CChipmunk

/// The collision geometry attached to a body: ``Circle``, ``Segment`` or ``Polygon``.
///
/// A shape holds its body strongly; the C shape is freed in `deinit`. Values the engine
/// checks on assignment (friction, elasticity) are set through throwing methods.
/// The corresponding C type is `cpShape`.
public class Shape {
    let handle: UnsafeMutablePointer<cpShape>

    /// The body the shape is attached to.
    public let body: Body

    /// The space the shape is in, if any. Weak: the space holds the shape.
    public internal(set) weak var space: Space?

    /// The C space the engine has this shape in (it can lag ``space`` during a step).
    var engineSpace: SpaceStorage?

    init(handle: UnsafeMutablePointer<cpShape>, body: Body) {
        self.handle = handle
        self.body = body
        cpShapeSetUserData(handle, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let engineSpace { engineSpace.adopt(handle) } else { cpShapeFree(handle) }
    }

    /// The friction coefficient (Coulomb); the contact uses the product of both shapes'.
    /// The corresponding C function is `cpShapeGetFriction`.
    public var friction: Double {
        cpShapeGetFriction(handle)
    }

    /// Sets the friction coefficient.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    /// The corresponding C function is `cpShapeSetFriction`.
    public func setFriction(_ friction: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(friction, "friction")
        cpShapeSetFriction(handle, friction)
    }

    /// The elasticity: 0 gives no bounce, 1 a perfect bounce; the contact uses the product of both shapes'.
    /// The corresponding C function is `cpShapeGetElasticity`.
    public var elasticity: Double {
        cpShapeGetElasticity(handle)
    }

    /// Sets the elasticity.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    /// The corresponding C function is `cpShapeSetElasticity`.
    public func setElasticity(_ elasticity: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(elasticity, "elasticity")
        cpShapeSetElasticity(handle, elasticity)
    }

    /// A number that collision handlers use to pick the shapes they handle.
    /// The corresponding C functions are `cpShapeGetCollisionType` and `cpShapeSetCollisionType`.
    public var collisionType: UInt {
        get { cpShapeGetCollisionType(handle) }
        set { cpShapeSetCollisionType(handle, newValue) }
    }

    /// The bounding box, as of the last step or reindex. The corresponding C function is `cpShapeGetBB`.
    public var boundingBox: BoundingBox {
        BoundingBox(cpShapeGetBB(handle))
    }

    /// Sets friction, elasticity and collision type together, checking each first.
    func configure(friction: Double, elasticity: Double, collisionType: UInt) throws(ChipmunkError) {
        try setFriction(friction)
        try setElasticity(elasticity)
        self.collisionType = collisionType
    }

    @inline(__always)
    static func from(_ handle: UnsafeMutablePointer<cpShape>) -> Shape {
        Unmanaged<Shape>.fromOpaque(cpShapeGetUserData(handle)!).takeUnretainedValue()
    }
}

@available(*, unavailable, message: "A Shape wraps a C object; use it from one task at a time, one space per task")
extension Shape: Sendable {}
