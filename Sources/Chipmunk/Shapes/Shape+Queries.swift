internal import CChipmunk

extension Shape {
    /// The nearest point of the shape to `point`: its distance (negative inside) and the
    /// gradient of the distance.
    ///
    /// The corresponding C function is `cpShapePointQuery`.
    public func pointQuery(_ point: Vector) -> PointQueryInfo {
        Parameter.queryPoint.require(point)
        var info = cpPointQueryInfo()
        cpShapePointQuery(handle, point.cp, &info)
        return PointQueryInfo(shape: self, info)
    }

    /// Where a segment from `start` to `end`, swept with `radius`, first hits the shape.
    ///
    /// The corresponding C function is `cpShapeSegmentQuery`.
    public func segmentQuery(from start: Vector, to end: Vector, radius: Double = 0) -> SegmentQueryInfo? {
        Parameter.queryPoint.require(start)
        Parameter.queryPoint.require(end)
        Parameter.queryRadius.require(radius)
        var info = cpSegmentQueryInfo()
        guard cpShapeSegmentQuery(handle, start.cp, end.cp, radius, &info) != 0 else { return nil }
        return SegmentQueryInfo(shape: self, info)
    }

    /// The contact points between this shape and another, as the engine would find them
    /// (count 0 when they do not touch).
    ///
    /// The corresponding C function is `cpShapesCollide`.
    public func collide(with other: Shape) -> ContactPointSet {
        ContactPointSet(cpShapesCollide(handle, other.handle))
    }
}
