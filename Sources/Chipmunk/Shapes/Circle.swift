internal import CChipmunk

/// A circle, optionally offset from its body's origin. The corresponding C type is `cpCircleShape`.
///
/// ```swift
/// let ball = try Circle(body: body, radius: 5, friction: 0.9)
/// ```
public final class Circle: Shape {
    /// Creates a circle on `body`.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a negative or
    ///   non-finite radius, a non-finite offset, or a bad friction or elasticity.
    /// The corresponding C function is `cpCircleShapeNew`.
    public init(
        body: Body, radius: Double, offset: Vector = .zero,
        friction: Double = 0, elasticity: Double = 0, collisionType: UInt = 0
    ) throws(ChipmunkError) {
        try requireNonNegativeFinite(radius, "radius")
        try requireFinite(offset, "offset")
        super.init(handle: cpCircleShapeNew(body.handle, radius, offset.cp), body: body)
        try configure(friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// The radius. The corresponding C function is `cpCircleShapeGetRadius`.
    public var radius: Double {
        cpCircleShapeGetRadius(handle)
    }

    /// The centre, in body coordinates. The corresponding C function is `cpCircleShapeGetOffset`.
    public var offset: Vector {
        Vector(cpCircleShapeGetOffset(handle))
    }
}
