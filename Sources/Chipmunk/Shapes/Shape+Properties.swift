internal import CChipmunk

extension Shape {
    // MARK: Mass from shapes

    /// The mass this shape gives its body (0 unless set). The corresponding C function is `cpShapeGetMass`.
    public var mass: Double {
        cpShapeGetMass(handle)
    }

    /// Gives the shape a mass. Once the shape is in a space, its body's mass, moment and
    /// centre of gravity are summed from its shapes that have mass, replacing any set
    /// directly. The corresponding C function is `cpShapeSetMass`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless zero or more and finite.
    public func setMass(_ mass: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(mass, "mass")
        if mass > 0 { try requireSolidForMass() }
        cpShapeSetMass(handle, mass)
        space?.massMayHaveChanged(for: body)
    }

    /// The density (mass per unit area). The corresponding C function is `cpShapeGetDensity`.
    public var density: Double {
        cpShapeGetDensity(handle)
    }

    /// Gives the shape a mass from its area: `density × area`. See ``setMass(_:)``.
    /// The corresponding C function is `cpShapeSetDensity`.
    public func setDensity(_ density: Double) throws(ChipmunkError) {
        try requireNonNegativeFinite(density, "density")
        if density > 0 { try requireSolidForMass() }
        cpShapeSetDensity(handle, density)
        space?.massMayHaveChanged(for: body)
    }

    /// A shape with no area would give its body a NaN centre of gravity or moment.
    private func requireSolidForMass() throws(ChipmunkError) {
        guard area > 0, centerOfGravity.isFinite else {
            throw .invalidValue(property: "mass", value: "a shape of area \(area)", rule: "given to a shape with an area")
        }
    }

    /// The moment of inertia this shape adds to its body. The corresponding C function is `cpShapeGetMoment`.
    public var moment: Double {
        cpShapeGetMoment(handle)
    }

    /// The area, including rounding. The corresponding C function is `cpShapeGetArea`.
    public var area: Double {
        cpShapeGetArea(handle)
    }

    /// The centroid, in body coordinates. The corresponding C function is `cpShapeGetCenterOfGravity`.
    public var centerOfGravity: Vector {
        Vector(cpShapeGetCenterOfGravity(handle))
    }

    // MARK: Contact behaviour

    /// A sensor detects contacts (its handlers run) but never pushes back.
    /// The corresponding C functions are `cpShapeGetSensor` and `cpShapeSetSensor`.
    public var isSensor: Bool {
        get { cpShapeGetSensor(handle) != 0 }
        set { cpShapeSetSensor(handle, newValue ? 1 : 0) }
    }

    /// The velocity of the shape's surface, for conveyor belts; only its tangential part counts.
    /// The corresponding C function is `cpShapeGetSurfaceVelocity`.
    public var surfaceVelocity: Vector {
        Vector(cpShapeGetSurfaceVelocity(handle))
    }

    /// Sets the surface velocity. The corresponding C function is `cpShapeSetSurfaceVelocity`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless finite.
    public func setSurfaceVelocity(_ velocity: Vector) throws(ChipmunkError) {
        try requireFinite(velocity, "surface velocity")
        cpShapeSetSurfaceVelocity(handle, velocity.cp)
    }

    /// Which shapes this one collides with and which queries find it.
    /// The corresponding C functions are `cpShapeGetFilter` and `cpShapeSetFilter`.
    public var filter: ShapeFilter {
        get { ShapeFilter(cpShapeGetFilter(handle)) }
        set { cpShapeSetFilter(handle, newValue.cp) }
    }

    /// Recomputes and returns the bounding box from the body's current position.
    /// The corresponding C function is `cpShapeCacheBB`.
    @discardableResult
    public func cacheBoundingBox() -> BoundingBox {
        BoundingBox(cpShapeCacheBB(handle))
    }

    // MARK: Queries on one shape

    /// The nearest point of the shape to `point`: its distance (negative inside) and the
    /// gradient of the distance. The corresponding C function is `cpShapePointQuery`.
    public func pointQuery(_ point: Vector) -> PointQueryInfo {
        var info = cpPointQueryInfo()
        cpShapePointQuery(handle, point.cp, &info)
        return PointQueryInfo(shape: self, info)
    }

    /// Where a segment from `start` to `end`, swept with `radius`, first hits the shape.
    /// The corresponding C function is `cpShapeSegmentQuery`.
    public func segmentQuery(from start: Vector, to end: Vector, radius: Double = 0) -> SegmentQueryInfo? {
        var info = cpSegmentQueryInfo()
        guard cpShapeSegmentQuery(handle, start.cp, end.cp, radius, &info) != 0 else { return nil }
        return SegmentQueryInfo(shape: self, info)
    }

    /// The contact points between this shape and another, as the engine would find them
    /// (count 0 when they do not touch). The corresponding C function is `cpShapesCollide`.
    public func collide(with other: Shape) -> ContactPointSet {
        ContactPointSet(cpShapesCollide(handle, other.handle))
    }
}

extension Segment {
    /// Tells the segment where its neighbours' far ends are, so that bodies sliding along a
    /// chain of segments do not catch on the joins. The corresponding C function is `cpSegmentShapeSetNeighbors`.
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` unless both are finite.
    public func setNeighbors(previous: Vector, next: Vector) throws(ChipmunkError) {
        try requireFinite(previous, "previous neighbour")
        try requireFinite(next, "next neighbour")
        cpSegmentShapeSetNeighbors(handle, previous.cp, next.cp)
    }
}
