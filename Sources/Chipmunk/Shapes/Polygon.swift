internal import CChipmunk

/// A convex polygon with optionally rounded corners. The corresponding C type is `cpPolyShape`.
///
/// The engine keeps the convex hull of the vertices you give, so their winding does not
/// matter. `transform` places them on the body; `Transform.translation(offset)` is
/// Chipmunk 6's polygon offset.
///
/// ```swift
/// // The book's crate: corners (0,0)…(w,h), shifted to centre the box on the body.
/// let shape = try Polygon(body: body, vertices: [[0, 0], [0, 100], [100, 100], [100, 0]],
///                         transform: .translation([-50, -50]))
/// ```
public final class Polygon: Shape {
    /// Creates a polygon from the convex hull of `vertices`, placed by `transform`.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for fewer than three
    ///   vertices, non-finite vertices or transform, a negative or non-finite radius, or a
    ///   bad friction or elasticity. The corresponding C function is `cpPolyShapeNew`.
    public init(
        body: Body, vertices: [Vector], transform: Transform = .identity, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: UInt = 0
    ) throws(ChipmunkError) {
        guard vertices.count >= 3 else {
            throw .invalidValue(property: "polygon vertices", value: "\(vertices.count)", rule: "at least 3")
        }
        for vertex in vertices { try requireFinite(vertex, "polygon vertex") }
        guard transform.isFinite else {
            throw .invalidValue(property: "polygon transform", value: "\(transform)", rule: "finite")
        }
        try requireNonNegativeFinite(radius, "radius")
        // A hull with no area (all points on one line) gives the engine NaN centroids.
        let hull = ConvexHull(of: vertices)
        guard hull.count >= 3, Area.polygon(vertices: hull.vertices) > 0 else {
            throw .invalidValue(property: "polygon vertices", value: "\(hull.count) hull points with no area", rule: "not all on one line")
        }
        let handle = vertices.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: cpVect.self) {
                cpPolyShapeNew(body.handle, Int32($0.count), $0.baseAddress, transform.cp, radius)!
            }
        }
        super.init(handle: handle, body: body)
        try configure(friction: friction, elasticity: elasticity, collisionType: collisionType)
    }


    /// A `width` × `height` box centred on the body's origin.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a negative or
    ///   non-finite size or radius, or a bad friction or elasticity.
    /// The corresponding C function is `cpBoxShapeNew`.
    public static func box(
        body: Body, width: Double, height: Double, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: UInt = 0
    ) throws(ChipmunkError) -> Polygon {
        try requireNonNegativeFinite(width, "box width")
        try requireNonNegativeFinite(height, "box height")
        try requireNonNegativeFinite(radius, "radius")
        let box = Polygon(boxHandle: cpBoxShapeNew(body.handle, width, height, radius), body: body)
        try box.configure(friction: friction, elasticity: elasticity, collisionType: collisionType)
        return box
    }

    /// A box covering `box`, in body coordinates.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a non-finite or
    ///   inside-out box, or a bad radius, friction or elasticity.
    /// The corresponding C function is `cpBoxShapeNew2`.
    public static func box(
        body: Body, boundingBox box: BoundingBox, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: UInt = 0
    ) throws(ChipmunkError) -> Polygon {
        guard box.left.isFinite, box.right.isFinite, box.bottom.isFinite, box.top.isFinite,
              box.left <= box.right, box.bottom <= box.top else {
            throw .invalidValue(property: "box", value: "\(box)", rule: "finite, with left ≤ right and bottom ≤ top")
        }
        try requireNonNegativeFinite(radius, "radius")
        let shape = Polygon(boxHandle: cpBoxShapeNew2(body.handle, box.cp, radius), body: body)
        try shape.configure(friction: friction, elasticity: elasticity, collisionType: collisionType)
        return shape
    }

    private init(boxHandle handle: UnsafeMutablePointer<cpShape>, body: Body) {
        super.init(handle: handle, body: body)
    }

    /// The hull's vertices, in body coordinates, counter-clockwise.
    /// The corresponding C functions are `cpPolyShapeGetCount` and `cpPolyShapeGetVert`.
    public var vertices: [Vector] {
        (0..<cpPolyShapeGetCount(handle)).map { Vector(cpPolyShapeGetVert(handle, $0)) }
    }

    /// The rounding radius. The corresponding C function is `cpPolyShapeGetRadius`.
    public var radius: Double {
        cpPolyShapeGetRadius(handle)
    }
}
