/// What `print` and string interpolation show for the space and its objects: one line of
/// the values a reader checks first, as pymunk's `repr` does. (Before, `print(body)`
/// showed `Chipmunk.Body`, and `print(space.shapes)` a list of class names.)
///
/// ```swift
/// print(body)   // Body(dynamic, mass: 1.0, moment: 10.0, position: (0.0, 50.0), velocity: (0.0, 0.0), angle: 0.0)
/// print(shape)  // Circle(radius: 5.0, offset: (0.0, 0.0), friction: 0.5, elasticity: 0.0)
/// print(space)  // Space(2 bodies, 3 shapes, 1 constraint, gravity: (0.0, -100.0), 120 steps taken)
/// ```
extension Body: CustomStringConvertible {
    /// The kind, the mass and moment of a dynamic body, then where it is and how it moves.
    public var description: String {
        let mass = kind == .dynamic ? ", mass: \(self.mass), moment: \(moment)" : ""
        let sleeping = isSleeping ? ", sleeping" : ""
        return "Body(\(kind)\(mass), position: \(position), velocity: \(velocity), angle: \(angle)\(sleeping))"
    }
}

extension Shape: CustomStringConvertible {
    /// The shape's class and geometry (in its body's coordinates), then its material.
    public var description: String {
        let geometry =
            switch self {
            case let circle as Circle: "radius: \(circle.radius), offset: \(circle.offset)"
            case let segment as Segment: "from: \(segment.start), to: \(segment.end), radius: \(segment.radius)"
            case let polygon as Polygon:
                "\(counted(polygon.vertices.count, "vertex", plural: "vertices")), radius: \(polygon.radius)"
            // Never reached: `Shape` is public, not open, and its initialisers are internal, so
            // Circle, Segment and Polygon are the only shapes. Swift has no sealed classes,
            // though: a switch over casts of a non-final class is never exhaustive, and the
            // engine's `cpShapeType` imports as a struct, so a switch on it needs one too.
            // Taking polygons here instead (as `Shape.blank(like:)` does) would need a forced
            // cast, a trap in a description; this answer cannot trap.
            default: "?"
            }
        let sensor = isSensor ? ", sensor" : ""
        return "\(type(of: self))(\(geometry), friction: \(friction), elasticity: \(elasticity)\(sensor))"
    }
}

extension Constraint: CustomStringConvertible {
    /// The constraint's class, and the kinds and positions of the two bodies it joins.
    public var description: String {
        "\(type(of: self))(\(bodyA.kind) body at \(bodyA.position), \(bodyB.kind) body at \(bodyB.position))"
    }
}

extension Space: CustomStringConvertible {
    /// How many bodies, shapes and constraints it holds, its gravity and the steps taken.
    public var description: String {
        "Space(\(counted(bodies.count, "body", plural: "bodies")), \(counted(shapes.count, "shape")), "
            + "\(counted(constraints.count, "constraint")), gravity: \(gravity), \(counted(stepsTaken, "step")) taken)"
    }
}
