internal import CChipmunk

/// A line segment with rounded ends of `radius`; the usual shape for walls and ground.
/// The corresponding C type is `cpSegmentShape`.
///
/// ```swift
/// let floor = try Segment(body: space.staticBody, from: [0, 0], to: [300, 0], radius: 1)
/// ```
public final class Segment: Shape {
    /// Creates a segment on `body` between two points in body coordinates.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for non-finite
    ///   points, a negative or non-finite radius, or a bad friction or elasticity.
    /// The corresponding C function is `cpSegmentShapeNew`.
    public init(
        body: Body, from a: Vector, to b: Vector, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: UInt = 0
    ) throws(ChipmunkError) {
        try requireFinite(a, "segment start")
        try requireFinite(b, "segment end")
        try requireNonNegativeFinite(radius, "radius")
        super.init(handle: cpSegmentShapeNew(body.handle, a.cp, b.cp, radius), body: body)
        try configure(friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// The first end, in body coordinates. The corresponding C function is `cpSegmentShapeGetA`.
    public var start: Vector {
        Vector(cpSegmentShapeGetA(handle))
    }
    /// The second end, in body coordinates. The corresponding C function is `cpSegmentShapeGetB`.
    public var end: Vector {
        Vector(cpSegmentShapeGetB(handle))
    }
    /// The unit normal, in body coordinates. The corresponding C function is `cpSegmentShapeGetNormal`.
    public var normal: Vector {
        Vector(cpSegmentShapeGetNormal(handle))
    }
    /// The rounding radius. The corresponding C function is `cpSegmentShapeGetRadius`.
    public var radius: Double {
        cpSegmentShapeGetRadius(handle)
    }
}
