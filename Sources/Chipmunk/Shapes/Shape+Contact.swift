internal import CChipmunk

extension Shape {
    /// A sensor detects contacts (its handlers run) but never pushes back.
    ///
    /// The corresponding C functions are `cpShapeGetSensor` and `cpShapeSetSensor`.
    public var isSensor: Bool {
        get { cpShapeGetSensor(handle) != 0 }
        set {
            cpShapeSetSensor(handle, newValue ? 1 : 0)
            settingsChanged()
        }
    }

    /// The velocity of the shape's surface, for conveyor belts; only its tangential part
    /// counts. Rule: ``Parameter/shapeSurfaceVelocity``.
    ///
    /// The corresponding C functions are `cpShapeGetSurfaceVelocity` and `cpShapeSetSurfaceVelocity`.
    public var surfaceVelocity: Vector {
        get { Vector(cpShapeGetSurfaceVelocity(handle)) }
        set {
            Parameter.shapeSurfaceVelocity.require(newValue)
            cpShapeSetSurfaceVelocity(handle, newValue.cp)
            settingsChanged()
        }
    }

    /// Which shapes this one collides with and which queries find it.
    ///
    /// The corresponding C functions are `cpShapeGetFilter` and `cpShapeSetFilter`.
    public var filter: ShapeFilter {
        get { ShapeFilter(cpShapeGetFilter(handle)) }
        set {
            cpShapeSetFilter(handle, newValue.cp)
            settingsChanged()
        }
    }
}
