internal import CChipmunk

/// A convex polygon with optionally rounded corners.
///
/// The engine keeps the convex hull of the vertices you give, so their winding does not
/// matter. `transform` places them on the body; `Transform.translation(offset)` is
/// Chipmunk 6's polygon offset.
///
/// ```swift
/// // The book's crate: corners (0,0)…(w,h), shifted to centre the box on the body.
/// let shape = Polygon(body: body, vertices: [[0, 0], [0, 100], [100, 100], [100, 0]],
///                     transform: .translation([-50, -50]))
/// ```
///
/// The corresponding C type is `cpPolyShape`.
public final class Polygon: Shape {
    /// The most vertices a polygon takes. The engine copies them to the stack to build the
    /// hull, 16 bytes each; this keeps that under 160 KiB, safe on a worker thread's stack
    /// (the main thread overflowed at about 600,000 vertices).
    public static let maxVertexCount = 10_000

    /// Creates a polygon from the convex hull of `vertices`, placed by `transform`.
    ///
    /// The vertices must make a polygon with an area; check vertices that arrive as data
    /// with ``check(vertices:transform:radius:)`` first. Anything it would throw for is a
    /// programming error here.
    ///
    /// The corresponding C function is `cpPolyShapeNew`.
    public init(
        body: Body, vertices: [Vector], transform: Transform = .identity, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: CollisionType = .default
    ) {
        do {
            try Self.check(vertices: vertices, transform: transform, radius: radius)
        } catch {
            stop("Polygon: \(error)")
        }
        let handle: UnsafeMutablePointer<cpShape> = vertices.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: cpVect.self) { vertices in
                SlabArena.current.polygons.build {
                    cpPolyShapeInit($0, body.handle, Int32(vertices.count), vertices.baseAddress, transform.cp, radius)
                }
            }
        }
        super.init(handle: handle, body: body, friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// A blank polygon for ``Space/copy()`` (see ``Shape/blank(like:body:)``).
    override init(blank handle: UnsafeMutablePointer<cpShape>, body: Body) { super.init(blank: handle, body: body) }

    /// Throws unless the arguments make a polygon: the way to check vertices that arrive
    /// as data before ``init(body:vertices:transform:radius:friction:elasticity:collisionType:)``.
    ///
    /// - Throws: ``ChipmunkError/invalidGeometry(_:)`` for fewer than 3 or more than
    ///   ``maxVertexCount`` vertices, or a hull with no area (all points on one line after
    ///   the transform); ``ChipmunkError/invalidValue(_:_:)`` for a non-finite vertex or
    ///   transform, or a bad radius.
    public static func check(vertices: [Vector], transform: Transform = .identity, radius: Double = 0)
        throws(ChipmunkError)
    {
        guard vertices.count >= 3 else { throw .invalidGeometry(.tooFewVertices(vertices.count)) }
        guard vertices.count <= maxVertexCount else { throw .invalidGeometry(.tooManyVertices(vertices.count)) }
        for vertex in vertices { try Parameter.polygonVertex.check(vertex) }
        for value in [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty] {
            try Parameter.polygonTransform.check(value)
        }
        try Parameter.polygonRadius.check(radius)
        // A hull with no area gives the engine NaN centroids and moments.
        let placed = vertices.map { transform.apply(toPoint: $0) }
        for vertex in placed { try Parameter.polygonVertex.check(vertex) }
        let hull = ConvexHull(of: placed)
        let area = Area.polygon(vertices: hull.vertices)
        guard hull.count >= 3, area > 0, area.isFinite else { throw .invalidGeometry(.noArea) }
    }

    /// A `width` × `height` box centred on the body's origin (rule: ``Parameter/boxSize``).
    ///
    /// The corresponding C function is `cpBoxShapeNew`.
    public static func box(
        body: Body, width: Double, height: Double, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: CollisionType = .default
    ) -> Polygon {
        Parameter.boxSize.require(width)
        Parameter.boxSize.require(height)
        Parameter.polygonRadius.require(radius)
        return Polygon(
            boxHandle: SlabArena.current.polygons.build { cpBoxShapeInit($0, body.handle, width, height, radius) },
            body: body,
            friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// A box covering `box`, in body coordinates: finite, with `left < right` and
    /// `bottom < top` (rule: ``Parameter/boxBounds``).
    ///
    /// The corresponding C function is `cpBoxShapeNew2`.
    public static func box(
        body: Body, boundingBox box: BoundingBox, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: CollisionType = .default
    ) -> Polygon {
        box.requireValid(.boxBounds)
        ensure(
            box.left < box.right && box.bottom < box.top,
            "\(Parameter.boxBounds) must have an area, with left < right and bottom < top (got \(box))")
        for edge in [box.left, box.bottom, box.right, box.top] { Parameter.polygonVertex.require(edge) }
        Parameter.polygonRadius.require(radius)
        return Polygon(
            boxHandle: SlabArena.current.polygons.build { cpBoxShapeInit2($0, body.handle, box.cp, radius) },
            body: body,
            friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// A polygon with exactly these vertices, as `cpPolyShapeInitRaw` takes them: no hull,
    /// no transform. For snapshots, whose vertices came from a polygon already.
    init(rawVertices vertices: [cpVect], body: Body, radius: Double) {
        let handle: UnsafeMutablePointer<cpShape> = vertices.withUnsafeBufferPointer { vertices in
            SlabArena.current.polygons.build {
                cpPolyShapeInitRaw($0, body.handle, Int32(vertices.count), vertices.baseAddress, radius)
            }
        }
        super.init(handle: handle, body: body, friction: 0, elasticity: 0, collisionType: .default)
    }

    private init(
        boxHandle handle: UnsafeMutablePointer<cpShape>, body: Body, friction: Double, elasticity: Double,
        collisionType: CollisionType
    ) {
        super.init(handle: handle, body: body, friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// The hull's vertices, in body coordinates, counter-clockwise.
    ///
    /// The corresponding C functions are `cpPolyShapeGetCount` and `cpPolyShapeGetVert`.
    public var vertices: [Vector] {
        (0..<cpPolyShapeGetCount(handle)).map { Vector(cpPolyShapeGetVert(handle, $0)) }
    }

    /// The rounding radius.
    ///
    /// The corresponding C function is `cpPolyShapeGetRadius`.
    public var radius: Double {
        cpPolyShapeGetRadius(handle)
    }
}
