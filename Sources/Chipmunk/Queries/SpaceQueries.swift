internal import CChipmunk

/// Queries find shapes by position. They follow the engine's rules: shapes whose
/// ``Shape/filter`` the query's `filter` rejects are skipped, and sensors are found like
/// any other shape (except by the nearest and first queries, which skip sensors, as the
/// engine does). Results come in the engine's spatial-index order, which is the same run
/// after run for the same scene. With the spatial hash, a query that would walk more than
/// ``Space/maxSpatialHashCells`` cells tests each shape instead: the same results, in the
/// order of ``Space/shapes``.
extension Space {
    /// Every shape within `maxDistance` of `point` (0, the default: the shapes containing it).
    ///
    /// Rules: ``Parameter/queryPoint``, ``Parameter/queryRadius`` (zero or more, and finite: the
    /// box around the query must be finite, unlike ``Space/pointQueryNearest(_:maxDistance:filter:)``'s).
    ///
    /// The corresponding C function is `cpSpacePointQuery`.
    public func pointQuery(_ point: Vector, maxDistance: Double = 0, filter: ShapeFilter = .all) -> [PointQueryInfo] {
        Parameter.queryPoint.require(point, as: "Space.pointQuery point")
        Parameter.queryRadius.require(maxDistance, as: "Space.pointQuery maxDistance")
        if queryScansShapes(cpBBNewForCircle(point.cp, maxDistance)) {
            return indexedShapes(passing: filter, sensors: true).compactMap { shape in
                var info = cpPointQueryInfo()
                cpShapePointQuery(shape.handle, point.cp, &info)
                return info.distance < maxDistance ? PointQueryInfo(shape: shape, info) : nil
            }
        }
        return ResultList<PointQueryInfo>.collect {
            cpSpacePointQuery(
                handle, point.cp, maxDistance, filter.cp,
                { shape, point, distance, gradient, list in
                    let info = cpPointQueryInfo(shape: shape, point: point, distance: distance, gradient: gradient)
                    ResultList.append(PointQueryInfo(shape: Shape.from(shape!), info), to: list)
                }, $0)
        }
    }

    /// The shape nearest to `point` within `maxDistance`, if any (infinity: anywhere).
    ///
    /// Rules: ``Parameter/queryPoint``, ``Parameter/queryDistance``. With the spatial hash
    /// (``useSpatialHash(cellSize:count:)``), which walks every cell a query's box covers,
    /// an infinite distance is narrowed to the farthest corner of the shapes' bounds.
    ///
    /// The corresponding C function is `cpSpacePointQueryNearest`.
    public func pointQueryNearest(_ point: Vector, maxDistance: Double = .infinity, filter: ShapeFilter = .all)
        -> PointQueryInfo?
    {
        Parameter.queryPoint.require(point, as: "Space.pointQueryNearest point")
        Parameter.queryDistance.require(maxDistance, as: "Space.pointQueryNearest maxDistance")
        var distance = maxDistance
        if usesSpatialHash, !distance.isFinite {
            guard let bounds = shapes.map(\.boundingBox).reduce(nil, { $0?.union($1) ?? $1 }) else { return nil }
            let corners: [Vector] = [
                [bounds.left, bounds.bottom], [bounds.left, bounds.top], [bounds.right, bounds.bottom],
                [bounds.right, bounds.top],
            ]
            distance = corners.map { $0.distance(to: point) }.max()! + 1
        }
        if queryScansShapes(cpBBNewForCircle(point.cp, distance)) {
            // The engine's test, shape by shape: sensors are skipped, the nearest wins.
            var nearest: PointQueryInfo?
            var best = distance
            for shape in indexedShapes(passing: filter, sensors: false) {
                var info = cpPointQueryInfo()
                cpShapePointQuery(shape.handle, point.cp, &info)
                if info.distance < best {
                    best = info.distance
                    nearest = PointQueryInfo(shape: shape, info)
                }
            }
            return nearest
        }
        var info = cpPointQueryInfo()
        guard let shape = cpSpacePointQueryNearest(handle, point.cp, distance, filter.cp, &info) else { return nil }
        return PointQueryInfo(shape: Shape.from(UnsafeMutablePointer(mutating: shape)), info)
    }

    /// Every shape a segment from `start` to `end`, swept with `radius`, touches, in no
    /// particular order (sort by ``SegmentQueryInfo/alpha`` for the order along it).
    ///
    /// The engine finds candidates along the thin segment's path through shapes' bounding
    /// boxes; `radius` widens the hit test but not that search, so a fat segment passing
    /// beside a shape's box misses it. Rules: ``Parameter/queryPoint``, ``Parameter/queryRadius``.
    ///
    /// The corresponding C function is `cpSpaceSegmentQuery`.
    public func segmentQuery(from start: Vector, to end: Vector, radius: Double = 0, filter: ShapeFilter = .all)
        -> [SegmentQueryInfo]
    {
        Parameter.queryPoint.require(start, as: "Space.segmentQuery from")
        Parameter.queryPoint.require(end, as: "Space.segmentQuery to")
        Parameter.queryRadius.require(radius, as: "Space.segmentQuery radius")
        if segmentQueryScansShapes(from: start, to: end) {
            return indexedShapes(passing: filter, sensors: true).compactMap { shape in
                var info = cpSegmentQueryInfo()
                guard cpShapeSegmentQuery(shape.handle, start.cp, end.cp, radius, &info) != 0 else { return nil }
                return SegmentQueryInfo(shape: shape, info)
            }
        }
        return ResultList<SegmentQueryInfo>.collect {
            cpSpaceSegmentQuery(
                handle, start.cp, end.cp, radius, filter.cp,
                { shape, point, normal, alpha, list in
                    ResultList.append(
                        SegmentQueryInfo(shape: Shape.from(shape!), point: point, normal: normal, alpha: alpha),
                        to: list)
                }, $0)
        }
    }

    /// The first shape a segment from `start` to `end` hits, if any.
    ///
    /// The corresponding C function is `cpSpaceSegmentQueryFirst`.
    public func segmentQueryFirst(from start: Vector, to end: Vector, radius: Double = 0, filter: ShapeFilter = .all)
        -> SegmentQueryInfo?
    {
        Parameter.queryPoint.require(start, as: "Space.segmentQueryFirst from")
        Parameter.queryPoint.require(end, as: "Space.segmentQueryFirst to")
        Parameter.queryRadius.require(radius, as: "Space.segmentQueryFirst radius")
        if segmentQueryScansShapes(from: start, to: end) {
            // The engine's test, shape by shape: sensors are skipped, the smallest alpha wins.
            var first: SegmentQueryInfo?
            var alpha = 1.0
            for shape in indexedShapes(passing: filter, sensors: false) {
                var info = cpSegmentQueryInfo()
                if cpShapeSegmentQuery(shape.handle, start.cp, end.cp, radius, &info) != 0, info.alpha < alpha {
                    alpha = info.alpha
                    first = SegmentQueryInfo(shape: shape, info)
                }
            }
            return first
        }
        var info = cpSegmentQueryInfo()
        guard let shape = cpSpaceSegmentQueryFirst(handle, start.cp, end.cp, radius, filter.cp, &info) else {
            return nil
        }
        return SegmentQueryInfo(shape: Shape.from(UnsafeMutablePointer(mutating: shape)), info)
    }

    /// Every shape whose bounding box overlaps `box` (rule: ``Parameter/queryBox``).
    ///
    /// The corresponding C function is `cpSpaceBBQuery`.
    public func boundingBoxQuery(_ box: BoundingBox, filter: ShapeFilter = .all) -> [Shape] {
        box.requireValid(.queryBox)
        if queryScansShapes(box.cp) {
            return indexedShapes(passing: filter, sensors: true).filter {
                cpBBIntersects(box.cp, $0.handle.pointee.bb) != 0
            }
        }
        return ResultList<Shape>.collect {
            cpSpaceBBQuery(
                handle, box.cp, filter.cp, { shape, list in ResultList.append(Shape.from(shape!), to: list) }, $0)
        }
    }

    /// Every shape in the space that overlaps `shape`, with the contact points. The query
    /// shape need not be in a space; its position comes from its body, and its own
    /// ``Shape/filter`` picks what it finds.
    ///
    /// The corresponding C function is `cpSpaceShapeQuery`.
    public func shapeQuery(_ shape: Shape) -> [ShapeQueryInfo] {
        if let cellSize = spatialHash?.cellSize {
            requireSpatialHashFit(of: shape, cellSize: cellSize, "Space.shapeQuery")
        }
        return ResultList<ShapeQueryInfo>.collect {
            _ = cpSpaceShapeQuery(
                handle, shape.handle,
                { shape, points, list in
                    ResultList.append(
                        ShapeQueryInfo(shape: Shape.from(shape!), contacts: ContactPointSet(points!.pointee)), to: list)
                }, $0)
        }.filter { $0.shape !== shape }
    }
}
