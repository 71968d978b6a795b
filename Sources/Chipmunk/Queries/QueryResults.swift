internal import CChipmunk

/// The nearest point of a shape to a query point.
///
/// The corresponding C type is `cpPointQueryInfo`.
public struct PointQueryInfo {
    /// The shape found.
    public let shape: Shape
    /// The nearest point on the shape's surface, in world coordinates.
    public let point: Vector
    /// The distance to the point: negative when the query point is inside the shape.
    public let distance: Double
    /// The gradient of the signed distance: the direction away from the shape.
    public let gradient: Vector

    init(shape: Shape, _ info: cpPointQueryInfo) {
        self.shape = shape
        point = Vector(info.point)
        distance = info.distance
        gradient = Vector(info.gradient)
    }
}

/// Where a segment query hit a shape.
///
/// The corresponding C type is `cpSegmentQueryInfo`.
public struct SegmentQueryInfo {
    /// The shape hit.
    public let shape: Shape
    /// The point of impact, in world coordinates.
    public let point: Vector
    /// The surface normal at the point of impact: a unit vector, or `.zero` where the engine
    /// could not tell it. The engine works at the precision of the segment's ends, so a
    /// segment far longer than the shape it hits (from -1e15 to 1e15 across a circle of
    /// radius 0.5, whose size is a few of those ends' last digits) gives a hit at the
    /// shape's centre with a zero normal; query with a segment nearer the shape's size.
    public let normal: Vector
    /// How far along the segment the hit is, from 0 (start) to 1 (end).
    public let alpha: Double

    init(shape: Shape, _ info: cpSegmentQueryInfo) {
        self.shape = shape
        point = Vector(info.point)
        normal = Vector(info.normal)
        alpha = info.alpha
    }

    init(shape: Shape, point: cpVect, normal: cpVect, alpha: Double) {
        self.shape = shape
        self.point = Vector(point)
        self.normal = Vector(normal)
        self.alpha = alpha
    }
}

/// A shape that overlaps a query shape, and where.
///
/// The corresponding C callback is `cpSpaceShapeQueryFunc`.
public struct ShapeQueryInfo {
    /// The overlapping shape.
    public let shape: Shape
    /// The contact points between the query shape and it.
    public let contacts: ContactPointSet
}

@available(*, unavailable) extension PointQueryInfo: Sendable {}
@available(*, unavailable) extension SegmentQueryInfo: Sendable {}
@available(*, unavailable) extension ShapeQueryInfo: Sendable {}
