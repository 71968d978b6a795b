internal import CChipmunk

extension Shape {
    /// The engine queries a shape through its world-space geometry, which a space caches
    /// as it adds and steps the shape. A shape in no space had none until
    /// ``cacheBoundingBox()`` was called (its body's position was ignored: two circles 141
    /// units apart "collided" at the origin with a zero normal), so the queries below cache
    /// it first from the body's current position. A shape in a space is queried as the
    /// space last placed it, as the engine does.
    private func cacheIfInNoSpace() {
        if space == nil { cpShapeCacheBB(handle) }
    }

    /// The nearest point of the shape to `point`: its distance (negative inside) and the
    /// gradient of the distance.
    ///
    /// The corresponding C function is `cpShapePointQuery`.
    public func pointQuery(_ point: Vector) -> PointQueryInfo {
        Parameter.queryPoint.require(point, as: "Shape.pointQuery point")
        cacheIfInNoSpace()
        var info = cpPointQueryInfo()
        cpShapePointQuery(handle, point.cp, &info)
        return PointQueryInfo(shape: self, info)
    }

    /// Where a segment from `start` to `end`, swept with `radius`, first hits the shape.
    ///
    /// The corresponding C function is `cpShapeSegmentQuery`.
    public func segmentQuery(from start: Vector, to end: Vector, radius: Double = 0) -> SegmentQueryInfo? {
        Parameter.queryPoint.require(start, as: "Shape.segmentQuery from")
        Parameter.queryPoint.require(end, as: "Shape.segmentQuery to")
        Parameter.queryRadius.require(radius, as: "Shape.segmentQuery radius")
        cacheIfInNoSpace()
        var info = cpSegmentQueryInfo()
        guard cpShapeSegmentQuery(handle, start.cp, end.cp, radius, &info) != 0 else { return nil }
        return SegmentQueryInfo(shape: self, info)
    }

    /// The contact points between this shape and another, as the engine would find them
    /// (count 0 when they do not touch). A shape in no space is taken where its body is now.
    ///
    /// The corresponding C function is `cpShapesCollide`.
    public func collide(with other: Shape) -> ContactPointSet {
        cacheIfInNoSpace()
        other.cacheIfInNoSpace()
        return ContactPointSet(cpShapesCollide(handle, other.handle))
    }
}
