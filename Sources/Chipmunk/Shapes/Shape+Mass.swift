internal import CChipmunk

extension Shape {
    /// The mass this shape gives its body (0 unless set); rule: ``Parameter/shapeMass``.
    ///
    /// Once the shape is in a space, its body's mass, moment and centre of gravity are
    /// summed from its shapes that have mass, replacing any set on the body directly. A
    /// shape with no area (a segment of radius 0) cannot carry mass: that is a
    /// programming error, as it would give its body a NaN centre of gravity.
    ///
    /// The corresponding C functions are `cpShapeGetMass` and `cpShapeSetMass`.
    public var mass: Double {
        get { cpShapeGetMass(handle) }
        set {
            Parameter.shapeMass.require(newValue)
            if newValue > 0 { requireArea("mass") }
            if space != nil { requireSaneBodyMass(withMass: newValue, adding: false) }
            cpShapeSetMass(handle, newValue)
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
            if newValue > 0 { requireArea("density") }
            if space != nil { requireSaneBodyMass(withMass: newValue * area, adding: false) }
            cpShapeSetDensity(handle, newValue)
            space?.massMayHaveChanged(for: body)
        }
    }

    /// Stops the program unless the body's mass properties, summed from its shapes in the
    /// space as the engine sums them (`cpBodyAccumulateMassFromShapes`), stay finite and
    /// within ``Parameter/massRange`` with this shape's mass set to `mass`: the engine
    /// asserts "Body's moment is NaN" otherwise (two shapes of mass 1.7e308, or density on
    /// a circle offset by 1e200).
    func requireSaneBodyMass(withMass mass: Double, adding: Bool) {
        guard body.kind == .dynamic else { return }
        var m = 0.0
        var i = 0.0
        var cog = Vector.zero
        var shapes = body.shapes
        if adding { shapes.append(self) }
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
        ensure(
            m == 0 || (range.contains(m) && range.contains(i) && cog.isFinite),
            "Shape.mass: the body's mass properties, summed from its shapes, would not be finite "
                + "and within Parameter.massRange (mass \(m), moment \(i), centre of gravity \(cog))")
    }

    private func requireArea(_ property: String) {
        ensure(
            area > 0 && centerOfGravity.isFinite,
            "Shape.\(property) needs a shape with an area (this one has area \(area))")
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
