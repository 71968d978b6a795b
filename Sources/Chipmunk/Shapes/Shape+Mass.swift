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
            cpShapeSetDensity(handle, newValue)
            space?.massMayHaveChanged(for: body)
        }
    }

    private func requireArea(_ property: String) {
        precondition(
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
