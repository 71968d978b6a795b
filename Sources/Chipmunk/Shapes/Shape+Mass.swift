internal import CChipmunk

extension Shape {
    /// The mass this shape gives its body (0 unless set); rule: ``Parameter/shapeMass``.
    ///
    /// Once the shape is in a space, its body's mass, moment and centre of gravity are
    /// summed from its shapes that have mass, replacing any set on the body directly. A
    /// shape with no area (a segment of radius 0) cannot carry mass, and the body's summed
    /// mass and moment must stay within ``Parameter/massRange``: both are programming
    /// errors; check data first with ``check(mass:)``.
    ///
    /// The corresponding C functions are `cpShapeGetMass` and `cpShapeSetMass`.
    public var mass: Double {
        get { cpShapeGetMass(handle) }
        set {
            Parameter.shapeMass.require(newValue)
            requireSaneMass(newValue, "mass")
            cpShapeSetMass(handle, newValue)
            settingsChanged()
            space?.massMayHaveChanged(for: body)
        }
    }

    /// The density (mass per unit area); setting it sets ``mass`` to `density × area`.
    /// Rule: ``Parameter/shapeDensity``.
    ///
    /// The corresponding C functions are `cpShapeGetDensity` and `cpShapeSetDensity`.
    public var density: Double {
        get { cpShapeGetDensity(handle) }
        set {
            Parameter.shapeDensity.require(newValue)
            requireSaneMass(newValue * area, "density", positive: newValue > 0)
            cpShapeSetDensity(handle, newValue)
            settingsChanged()
            space?.massMayHaveChanged(for: body)
        }
    }

    /// Throws unless `mass` keeps ``Parameter/shapeMass`` and this shape can carry it: the
    /// check for masses that arrive as data, which the ``mass`` setter would stop on.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(_:_:)``, or ``ChipmunkError/invalidMass(_:)``
    ///   when the shape has no area or its body's summed mass would leave the range.
    public func check(mass: Double) throws(ChipmunkError) {
        try Parameter.shapeMass.check(mass)
        if let problem = massProblem(withMass: mass) { throw .invalidMass(problem) }
    }

    /// Throws unless `density` keeps ``Parameter/shapeDensity`` and this shape can carry
    /// it (see ``check(mass:)``).
    public func check(density: Double) throws(ChipmunkError) {
        try Parameter.shapeDensity.check(density)
        if let problem = massProblem(withMass: density * area, positive: density > 0) {
            throw .invalidMass(problem)
        }
    }

    /// Stops the program unless this shape can carry `mass` (see ``massProblem(withMass:positive:)``).
    func requireSaneMass(_ mass: Double, _ property: String, positive: Bool? = nil) {
        if let problem = massProblem(withMass: mass, positive: positive) { stop("Shape.\(property): \(problem)") }
    }

    /// Why this shape cannot carry `mass`, or nil. A shape with no area (a segment or circle
    /// of radius 0) cannot carry any: its body's centre of gravity would be NaN. And the
    /// body's mass properties, summed from its shapes (those in the space, with this one
    /// counted with `mass`) as the engine sums them (`cpBodyAccumulateMassFromShapes`),
    /// must stay finite and within ``Parameter/massRange``: the engine asserts "Body's
    /// moment is NaN" otherwise (two shapes of mass 1.7e308, density on a circle offset by
    /// 1e200), and a mass of 1e-300 overflows its inverse.
    func massProblem(withMass mass: Double, positive: Bool? = nil) -> MassProblem? {
        guard positive ?? (mass > 0) else { return nil }
        guard area > 0, centerOfGravity.isFinite else { return .noArea(area: area) }
        guard body.kind == .dynamic else { return nil }
        var m = 0.0
        var i = 0.0
        var cog = Vector.zero
        var shapes = body.shapes
        if space == nil { shapes.append(self) }
        for shape in shapes {
            let info = shape.handle.pointee.massInfo
            let sm = shape === self ? mass : info.m
            guard sm > 0 else { continue }
            let sum = m + sm
            let shapeCog = Vector(info.cog)
            i += sm * info.i + cog.distanceSquared(to: shapeCog) * (sm * m) / sum
            cog = cog.interpolated(to: shapeCog, by: sm / sum)
            m = sum
        }
        let range = Parameter.massRange
        guard m == 0 || (range.contains(m) && range.contains(i) && cog.isFinite) else {
            return .bodyOutOfRange(mass: m, moment: i)
        }
        return nil
    }

    /// The moment of inertia this shape adds to its body.
    ///
    /// The corresponding C function is `cpShapeGetMoment`.
    public var moment: Double {
        cpShapeGetMoment(handle)
    }

    /// The area, including rounding.
    ///
    /// The corresponding C function is `cpShapeGetArea`.
    public var area: Double {
        cpShapeGetArea(handle)
    }

    /// The centroid, in body coordinates.
    ///
    /// The corresponding C function is `cpShapeGetCenterOfGravity`.
    public var centerOfGravity: Vector {
        Vector(cpShapeGetCenterOfGravity(handle))
    }
}
