internal import CChipmunk

/// Queries find shapes by position. They follow the engine's rules: shapes whose
/// ``Shape/filter`` the query's `filter` rejects are skipped, and sensors are found like
/// any other shape. Results come in the engine's spatial-index order, which is the same
/// run after run for the same scene.
extension Space {
    /// Every shape within `maxDistance` of `point` (0: the shapes containing it).
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a non-finite point or a
    ///   negative or non-finite distance. The corresponding C function is `cpSpacePointQuery`.
    public func pointQuery(_ point: Vector, maxDistance: Double, filter: ShapeFilter = .all) throws(ChipmunkError) -> [PointQueryInfo] {
        try requireFinite(point, "query point")
        try requireNonNegativeFinite(maxDistance, "max distance")
        var results: [PointQueryInfo] = []
        withUnsafeMutablePointer(to: &results) { list in
            cpSpacePointQuery(handle, point.cp, maxDistance, filter.cp, { shape, point, distance, gradient, list in
                let info = cpPointQueryInfo(shape: shape, point: point, distance: distance, gradient: gradient)
                list!.assumingMemoryBound(to: [PointQueryInfo].self).pointee
                    .append(PointQueryInfo(shape: Shape.from(shape!), info))
            }, list)
        }
        return results
    }

    /// The shape nearest to `point` within `maxDistance`, if any (infinity: anywhere).
    ///
    /// - Throws: as ``pointQuery(_:maxDistance:filter:)``, except that infinity is allowed.
    /// The corresponding C function is `cpSpacePointQueryNearest`.
    public func pointQueryNearest(_ point: Vector, maxDistance: Double, filter: ShapeFilter = .all) throws(ChipmunkError) -> PointQueryInfo? {
        try requireFinite(point, "query point")
        guard maxDistance >= 0 else {
            throw .invalidValue(property: "max distance", value: "\(maxDistance)", rule: "zero or more")
        }
        var info = cpPointQueryInfo()
        guard let shape = cpSpacePointQueryNearest(handle, point.cp, maxDistance, filter.cp, &info) else { return nil }
        return PointQueryInfo(shape: Shape.from(UnsafeMutablePointer(mutating: shape)), info)
    }

    /// Every shape a segment from `start` to `end`, swept with `radius`, touches, in no
    /// particular order (sort by ``SegmentQueryInfo/alpha`` for the order along it).
    ///
    /// The engine finds candidates along the thin segment's path through shapes' bounding
    /// boxes; `radius` widens the hit test but not that search, so a fat segment passing
    /// beside a shape's box misses it.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for non-finite ends or
    ///   a negative or non-finite radius. The corresponding C function is `cpSpaceSegmentQuery`.
    public func segmentQuery(from start: Vector, to end: Vector, radius: Double = 0, filter: ShapeFilter = .all) throws(ChipmunkError) -> [SegmentQueryInfo] {
        try requireFinite(start, "segment start")
        try requireFinite(end, "segment end")
        try requireNonNegativeFinite(radius, "radius")
        var results: [SegmentQueryInfo] = []
        withUnsafeMutablePointer(to: &results) { list in
            cpSpaceSegmentQuery(handle, start.cp, end.cp, radius, filter.cp, { shape, point, normal, alpha, list in
                list!.assumingMemoryBound(to: [SegmentQueryInfo].self).pointee
                    .append(SegmentQueryInfo(shape: Shape.from(shape!), point: point, normal: normal, alpha: alpha))
            }, list)
        }
        return results
    }

    /// The first shape a segment from `start` to `end` hits, if any.
    ///
    /// - Throws: as ``segmentQuery(from:to:radius:filter:)``. The corresponding C function is `cpSpaceSegmentQueryFirst`.
    public func segmentQueryFirst(from start: Vector, to end: Vector, radius: Double = 0, filter: ShapeFilter = .all) throws(ChipmunkError) -> SegmentQueryInfo? {
        try requireFinite(start, "segment start")
        try requireFinite(end, "segment end")
        try requireNonNegativeFinite(radius, "radius")
        var info = cpSegmentQueryInfo()
        guard let shape = cpSpaceSegmentQueryFirst(handle, start.cp, end.cp, radius, filter.cp, &info) else { return nil }
        return SegmentQueryInfo(shape: Shape.from(UnsafeMutablePointer(mutating: shape)), info)
    }

    /// Every shape whose bounding box overlaps `box`.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a non-finite box.
    /// The corresponding C function is `cpSpaceBBQuery`.
    public func boundingBoxQuery(_ box: BoundingBox, filter: ShapeFilter = .all) throws(ChipmunkError) -> [Shape] {
        guard box.left.isFinite, box.bottom.isFinite, box.right.isFinite, box.top.isFinite else {
            throw .invalidValue(property: "query box", value: "\(box)", rule: "finite")
        }
        var results: [Shape] = []
        withUnsafeMutablePointer(to: &results) { list in
            cpSpaceBBQuery(handle, box.cp, filter.cp, { shape, list in
                list!.assumingMemoryBound(to: [Shape].self).pointee.append(Shape.from(shape!))
            }, list)
        }
        return results
    }

    /// Every shape in the space that overlaps `shape`, with the contact points. The query
    /// shape need not be in a space; its position comes from its body, and its own
    /// ``Shape/filter`` picks what it finds. The corresponding C function is `cpSpaceShapeQuery`.
    public func shapeQuery(_ shape: Shape) -> [ShapeQueryInfo] {
        var results: [ShapeQueryInfo] = []
        withUnsafeMutablePointer(to: &results) { list in
            _ = cpSpaceShapeQuery(handle, shape.handle, { shape, points, list in
                list!.assumingMemoryBound(to: [ShapeQueryInfo].self).pointee
                    .append(ShapeQueryInfo(shape: Shape.from(shape!), contacts: ContactPointSet(points!.pointee)))
            }, list)
        }
        return results.filter { $0.shape !== shape }
    }
}
