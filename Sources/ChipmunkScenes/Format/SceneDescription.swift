import Chipmunk

/// A scene as data: the JSON files in `Scenes/`.
///
/// Objects are created in file order: first `staticShapes` on the space's static body,
/// then each of `bodies`, each body added before its own shapes. Unknown keys are
/// errors. See `docs/scene-format.md` for the whole format.
///
/// ```json
/// {
///   "name": "crate",
///   "gravity": [0, -1000],
///   "bodies": [{
///     "mass": 100, "moment": {"box": {"width": 100, "height": 100}}, "position": [150, 250],
///     "shapes": [{"type": "polygon", "vertices": [[0, 0], [0, 100], [100, 100], [100, 0]],
///                 "offset": [-50, -50], "friction": 0.5, "elasticity": 0.8}]
///   }]
/// }
/// ```
public struct SceneDescription: Hashable, Sendable, Codable {
    /// The format version; 1, the only one so far, when absent.
    public var version: Int?
    /// The scene's name.
    public var name: String
    /// One line on what the scene shows.
    public var summary: String?
    /// The time step the scene is meant to run at; 1/120 s when absent.
    public var timeStep: Double?
    /// Gravity; `[0, 0]` when absent.
    public var gravity: Vector?
    /// Solver iterations; 10 when absent.
    public var iterations: Int?
    /// The fraction of velocity kept per second; 1 when absent.
    public var damping: Double?
    /// The overlap allowed; 0.1 when absent.
    public var collisionSlop: Double?
    /// The overlap left after one second; the engine's default when absent.
    public var collisionBias: Double?
    /// Steps contact data is kept; 3 when absent.
    public var collisionPersistence: Int?
    /// The speed below which a body is idle; 0 (from gravity) when absent.
    public var idleSpeedThreshold: Double?
    /// Absent means infinity: sleeping off, the engine's default.
    public var sleepTimeThreshold: Double?
    /// Gravity changes over simulated time.
    public var gravitySchedule: [GravityChange]?
    /// Shapes on the space's static body, created first.
    public var staticShapes: [ShapeDescription]?
    /// The bodies, each added before its shapes.
    public var bodies: [BodyDescription]?
    /// Version 2: joints, springs and motors between bodies named by `id`.
    public var constraints: [ConstraintDescription]?
    /// Version 2: collision behaviour as data, by collision types.
    public var collisions: [CollisionRule]?
    /// Version 2: inputs over time: impulses, velocities, gravity, bodies added and removed.
    public var inputs: [TimedInput]?
    /// Version 2: the broad phase: `{"spatialHash": {"cellSize": s, "count": n}}`; the tree when absent.
    public var broadPhase: BroadPhaseDescription?
    /// What reading the file noticed but did not refuse, one line each with its path (a
    /// declared parameter no number refers to); not part of the file.
    public var warnings: [String] = []

    /// An empty scene named `name`.
    public init(name: String) { self.name = name }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case version, name, summary, timeStep, gravity, iterations, damping, collisionSlop, collisionBias,
            collisionPersistence, idleSpeedThreshold, sleepTimeThreshold, gravitySchedule, staticShapes, bodies,
            constraints, collisions, broadPhase, inputs
    }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue) + ["$schema"])  // $schema: for editors
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decodeIfPresent(Int.self, forKey: .version)
        if let version, version != 1, version != 2 {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: c,
                debugDescription: "format version \(version) is not supported; this build reads versions 1 and 2")
        }
        name = try c.decode(String.self, forKey: .name)
        summary = try c.decodeIfPresent(String.self, forKey: .summary)
        timeStep = try c.decodeIfPresent(Double.self, forKey: .timeStep)
        gravity = try c.decodeIfPresent(Vector.self, forKey: .gravity)
        iterations = try c.decodeWholeNumberIfPresent(forKey: .iterations, in: 1...Parameter.maxIterations)
        damping = try c.decodeIfPresent(Double.self, forKey: .damping)
        collisionSlop = try c.decodeIfPresent(Double.self, forKey: .collisionSlop)
        collisionBias = try c.decodeIfPresent(Double.self, forKey: .collisionBias)
        collisionPersistence = try c.decodeWholeNumberIfPresent(forKey: .collisionPersistence, in: 1...Int(UInt32.max))
        idleSpeedThreshold = try c.decodeIfPresent(Double.self, forKey: .idleSpeedThreshold)
        sleepTimeThreshold = try c.decodeIfPresent(Double.self, forKey: .sleepTimeThreshold)
        gravitySchedule = try c.decodeIfPresent([GravityChange].self, forKey: .gravitySchedule)
        staticShapes = try c.decodeIfPresent([ShapeDescription].self, forKey: .staticShapes)
        bodies = try c.decodeIfPresent([BodyDescription].self, forKey: .bodies)
        constraints = try c.decodeIfPresent([ConstraintDescription].self, forKey: .constraints)
        collisions = try c.decodeIfPresent([CollisionRule].self, forKey: .collisions)
        broadPhase = try c.decodeIfPresent(BroadPhaseDescription.self, forKey: .broadPhase)
        inputs = try c.decodeIfPresent([TimedInput].self, forKey: .inputs)
        if (version ?? 1) < 2 {
            for key in [CodingKeys.constraints, .collisions, .broadPhase, .inputs] where c.contains(key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "needs \"version\": 2 (this file is version 1)")
            }
        }
    }
}

/// A body and its shapes.
public struct BodyDescription: Hashable, Sendable, Codable {
    /// `dynamic` (the default), `kinematic` or `static`.
    public var kind: Kind?
    /// Required for a dynamic body.
    public var mass: Double?
    /// Required for a dynamic body: a number, or the moment of a shape for `mass`.
    public var moment: MomentDescription?
    /// The body's position; the origin when absent.
    public var position: Vector?
    /// The starting velocity; zero when absent.
    public var velocity: Vector?
    /// The starting angle in radians; 0 when absent.
    public var angle: Double?
    /// The starting angular velocity; 0 when absent.
    public var angularVelocity: Double?
    /// The body's shapes, added right after it.
    public var shapes: [ShapeDescription]?
    /// Version 2: the name constraints and output use for the body ("static" names the space's own).
    public var id: String?
    /// Version 2: this entry stands for many bodies in a pattern (see ``GeneratorDescription``).
    public var generate: GeneratorDescription?
    /// Version 2, with `generate`: a joint between neighbouring generated bodies (see
    /// ``ConnectDescription``): a chain, a rope, a grid of springs.
    public var connect: ConnectDescription?

    /// A body's kind as a scene file spells it.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Moved by forces and collisions: it needs a mass and a moment.
        case dynamic
        /// Moved only by its velocity, which the scene sets; pushes dynamic bodies.
        case kinematic
        /// Never moves.
        case `static`
    }

    /// Creates a body description.
    public init(
        kind: Kind? = nil, mass: Double? = nil, moment: MomentDescription? = nil, position: Vector? = nil,
        shapes: [ShapeDescription]? = nil
    ) {
        self.kind = kind
        self.mass = mass
        self.moment = moment
        self.position = position
        self.shapes = shapes
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, mass, moment, position, velocity, angle, angularVelocity, shapes, id, generate, connect
    }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decodeIfPresent(Kind.self, forKey: .kind)
        mass = try c.decodeIfPresent(Double.self, forKey: .mass)
        moment = try c.decodeIfPresent(MomentDescription.self, forKey: .moment)
        position = try c.decodeIfPresent(Vector.self, forKey: .position)
        velocity = try c.decodeIfPresent(Vector.self, forKey: .velocity)
        angle = try c.decodeIfPresent(Double.self, forKey: .angle)
        angularVelocity = try c.decodeIfPresent(Double.self, forKey: .angularVelocity)
        shapes = try c.decodeIfPresent([ShapeDescription].self, forKey: .shapes)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        generate = try c.decodeIfPresent(GeneratorDescription.self, forKey: .generate)
        if c.contains(.connect) {
            guard generate != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .connect, in: c, debugDescription: "joins generated bodies: give 'generate' too")
            }
            connect = ConnectDescription(
                constraint: try ConstraintDescription(from: try c.superDecoder(forKey: .connect), namesBodies: false))
        }
        if generate != nil, position != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .position, in: c, debugDescription: "a generated body takes its positions from 'generate'")
        }
    }

    /// The bodies this entry stands for, with their names: itself, or one per generated
    /// position (ids numbered from 0).
    func expanded(index: Int) -> [(body: BodyDescription, name: String, id: String?)] {
        guard let generate else { return [(self, id ?? String(index), id)] }
        return generate.positions.enumerated().map { k, position in
            var body = self
            body.generate = nil
            body.connect = nil
            body.position = position
            body.id = id.map { "\($0)\(k)" }
            body.shapes = body.shapes?.map { shape in
                var shape = shape
                shape.id = shape.id.map { "\($0)\(k)" }
                return shape
            }
            return (body, body.id ?? "\(index).\(k)", body.id)
        }
    }
}

/// A moment of inertia: a number, `"infinity"` (a body that never turns), or computed for
/// the body's mass from a shape, such as `{"box": {"width": 100, "height": 100}}`.
public enum MomentDescription: Hashable, Sendable, Codable {
    /// The moment itself; `.infinity` is written `"infinity"`.
    case value(Double)
    /// The moment of a solid box: `{"box": {"width": w, "height": h}}`.
    case box(width: Double, height: Double)
    /// The moment of a circle or ring: `{"circle": {"innerRadius": r1, "outerRadius": r2, "offset": [x, y]}}`.
    case circle(innerRadius: Double, outerRadius: Double, offset: Vector)
    /// The moment of a segment: `{"segment": {"from": [x, y], "to": [x, y], "radius": r}}`.
    case segment(from: Vector, to: Vector, radius: Double)
    /// The moment of a polygon: `{"polygon": {"vertices": [...], "offset": [x, y], "radius": r}}`.
    case polygon(vertices: [Vector], offset: Vector, radius: Double)

    private enum Kind: String, CodingKey, CaseIterable { case box, circle, segment, polygon }
    private enum Field: String, CodingKey, CaseIterable {
        case width, height, innerRadius, outerRadius, offset, from, to, radius, vertices
    }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        if let value = try? decoder.singleValueContainer().decode(Double.self) {
            self = .value(value)
            return
        }
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            guard text == "infinity" else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "a moment given as text must be \"infinity\" (got \"\(text)\")"))
            }
            self = .value(.infinity)
            return
        }
        try decoder.rejectUnknownKeys(Kind.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Kind.self)
        guard c.allKeys.count == 1, let kind = c.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "a moment is a number, \"infinity\", or an object with one key: 'box', 'circle', 'segment' "
                        + "or 'polygon'"))
        }
        let f = try c.nestedContainer(keyedBy: Field.self, forKey: kind)
        let allowed: [Field]
        switch kind {
        case .box:
            allowed = [.width, .height]
            self = .box(
                width: try f.decode(Double.self, forKey: .width), height: try f.decode(Double.self, forKey: .height))
        case .circle:
            allowed = [.innerRadius, .outerRadius, .offset]
            self = .circle(
                innerRadius: try f.decodeIfPresent(Double.self, forKey: .innerRadius) ?? 0,
                outerRadius: try f.decode(Double.self, forKey: .outerRadius),
                offset: try f.decodeIfPresent(Vector.self, forKey: .offset) ?? .zero)
        case .segment:
            allowed = [.from, .to, .radius]
            self = .segment(
                from: try f.decode(Vector.self, forKey: .from), to: try f.decode(Vector.self, forKey: .to),
                radius: try f.decodeIfPresent(Double.self, forKey: .radius) ?? 0)
        case .polygon:
            allowed = [.vertices, .offset, .radius]
            self = .polygon(
                vertices: try f.decode([Vector].self, forKey: .vertices),
                offset: try f.decodeIfPresent(Vector.self, forKey: .offset) ?? .zero,
                radius: try f.decodeIfPresent(Double.self, forKey: .radius) ?? 0)
        }
        let nested = try c.superDecoder(forKey: kind)
        try nested.rejectUnknownKeys(allowed.map(\.rawValue))
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .value(let value):
            var c = encoder.singleValueContainer()
            if value == .infinity { try c.encode("infinity") } else { try c.encode(value) }
        case let .box(width, height):
            var c = encoder.container(keyedBy: Kind.self)
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .box)
            try f.encode(width, forKey: .width)
            try f.encode(height, forKey: .height)
        case let .circle(inner, outer, offset):
            var c = encoder.container(keyedBy: Kind.self)
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .circle)
            try f.encode(inner, forKey: .innerRadius)
            try f.encode(outer, forKey: .outerRadius)
            try f.encode(offset, forKey: .offset)
        case let .segment(a, b, radius):
            var c = encoder.container(keyedBy: Kind.self)
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .segment)
            try f.encode(a, forKey: .from)
            try f.encode(b, forKey: .to)
            try f.encode(radius, forKey: .radius)
        case let .polygon(vertices, offset, radius):
            var c = encoder.container(keyedBy: Kind.self)
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .polygon)
            try f.encode(vertices, forKey: .vertices)
            try f.encode(offset, forKey: .offset)
            try f.encode(radius, forKey: .radius)
        }
    }

    /// The moment for a body of `mass`.
    public func moment(forMass mass: Double) -> Double {
        switch self {
        case .value(let value): return value
        case let .box(width, height): return Moment.box(mass: mass, width: width, height: height)
        case let .circle(inner, outer, offset):
            return Moment.circle(mass: mass, innerRadius: inner, outerRadius: outer, offset: offset)
        case let .segment(a, b, radius): return Moment.segment(mass: mass, from: a, to: b, radius: radius)
        case let .polygon(vertices, offset, radius):
            return Moment.polygon(mass: mass, vertices: vertices, offset: offset, radius: radius)
        }
    }
}

/// A shape: `{"type": "circle" | "segment" | "polygon" | "box", ...}` with the fields of its type,
/// and optional `friction`, `elasticity` and `collisionType` (default 0).
public struct ShapeDescription: Hashable, Sendable, Codable {
    /// The shape's type and the fields of that type.
    public enum Geometry: Hashable, Sendable {
        /// A circle centred at `offset` in body coordinates.
        case circle(radius: Double, offset: Vector)
        /// A segment with rounded ends.
        case segment(from: Vector, to: Vector, radius: Double)
        /// `transform` places the vertices; the file gives it as `offset` (a translation) or `transform`.
        case polygon(vertices: [Vector], transform: Transform, radius: Double)
        /// A box centred on the body.
        case box(width: Double, height: Double, radius: Double)
    }

    /// What kind of shape, and its size and place.
    public var geometry: Geometry
    /// Friction; 0 when absent.
    public var friction: Double?
    /// Elasticity; 0 when absent.
    public var elasticity: Double?
    /// Collision type; 0 when absent.
    public var collisionType: UInt?
    /// Version 2: the name output uses for the shape (contact events), such as "ground" or
    /// "sensor"; a generated body's shapes number it as the body's id is numbered.
    public var id: String?
    /// Version 2: the shape's own mass, or its density (mass per area); the body's mass
    /// is then summed from its shapes.
    public var mass: Double?
    /// Version 2: the shape's density (mass per area), instead of `mass`.
    public var density: Double?
    /// Version 2: a sensor detects contacts (for handlers and logs) without colliding.
    public var sensor: Bool?
    /// Version 2: `{"group": g, "categories": c, "mask": m}`.
    public var filter: FilterDescription?
    /// Version 2: the surface's own velocity, such as a conveyor belt's.
    public var surfaceVelocity: Vector?

    /// Creates a shape description.
    public init(_ geometry: Geometry, friction: Double? = nil, elasticity: Double? = nil, collisionType: UInt? = nil) {
        self.geometry = geometry
        self.friction = friction
        self.elasticity = elasticity
        self.collisionType = collisionType
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case type, radius, offset, from, to, vertices, transform, width, height, friction, elasticity, collisionType
        case mass, density, sensor, filter, surfaceVelocity, id
    }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        let own: [CodingKeys]
        switch type {
        case "circle":
            own = [.radius, .offset]
            geometry = .circle(
                radius: try c.decode(Double.self, forKey: .radius),
                offset: try c.decodeIfPresent(Vector.self, forKey: .offset) ?? .zero)
        case "segment":
            own = [.from, .to, .radius]
            geometry = .segment(
                from: try c.decode(Vector.self, forKey: .from), to: try c.decode(Vector.self, forKey: .to),
                radius: try c.decodeIfPresent(Double.self, forKey: .radius) ?? 0)
        case "polygon":
            own = [.vertices, .offset, .transform, .radius]
            let offset = try c.decodeIfPresent(Vector.self, forKey: .offset)
            // Checked here, where it is still an offset: built, it is the transform's
            // translation, and its error named `transform`, a key the file did not write.
            for value in [offset?.x, offset?.y].compactMap({ $0 }) {
                do { try Parameter.polygonTransform.check(value) } catch {
                    throw DecodingError.dataCorruptedError(forKey: .offset, in: c, debugDescription: error.reason)
                }
            }
            let transform = try c.decodeIfPresent(StrictTransform.self, forKey: .transform)?.transform
            if offset != nil, transform != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: .transform, in: c, debugDescription: "give 'offset' or 'transform', not both")
            }
            geometry = .polygon(
                vertices: try c.decode([Vector].self, forKey: .vertices),
                transform: transform ?? offset.map(Transform.translation) ?? .identity,
                radius: try c.decodeIfPresent(Double.self, forKey: .radius) ?? 0)
        case "box":
            own = [.width, .height, .radius]
            geometry = .box(
                width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height),
                radius: try c.decodeIfPresent(Double.self, forKey: .radius) ?? 0)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c,
                debugDescription: "unknown shape type '\(type)'; expected 'circle', 'segment', 'polygon' or 'box'")
        }
        try decoder.rejectUnknownKeys(
            (own + [
                .type, .friction, .elasticity, .collisionType, .mass, .density, .sensor, .filter, .surfaceVelocity, .id,
            ])
            .map(\.rawValue))
        friction = try c.decodeIfPresent(Double.self, forKey: .friction)
        elasticity = try c.decodeIfPresent(Double.self, forKey: .elasticity)
        collisionType = try c.decodeWholeNumberIfPresent(forKey: .collisionType).map(UInt.init)
        mass = try c.decodeIfPresent(Double.self, forKey: .mass)
        density = try c.decodeIfPresent(Double.self, forKey: .density)
        if mass != nil, density != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .density, in: c, debugDescription: "give 'mass' or 'density', not both")
        }
        sensor = try c.decodeIfPresent(Bool.self, forKey: .sensor)
        filter = try c.decodeIfPresent(FilterDescription.self, forKey: .filter)
        surfaceVelocity = try c.decodeIfPresent(Vector.self, forKey: .surfaceVelocity)
        id = try c.decodeIfPresent(String.self, forKey: .id)
    }

    /// Whether the shape uses a field of format version 2.
    var usesVersion2: Bool {
        mass != nil || density != nil || sensor != nil || filter != nil || surfaceVelocity != nil || id != nil
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch geometry {
        case let .circle(radius, offset):
            try c.encode("circle", forKey: .type)
            try c.encode(radius, forKey: .radius)
            try c.encode(offset, forKey: .offset)
        case let .segment(a, b, radius):
            try c.encode("segment", forKey: .type)
            try c.encode(a, forKey: .from)
            try c.encode(b, forKey: .to)
            try c.encode(radius, forKey: .radius)
        case let .polygon(vertices, transform, radius):
            try c.encode("polygon", forKey: .type)
            try c.encode(vertices, forKey: .vertices)
            try c.encode(transform, forKey: .transform)
            try c.encode(radius, forKey: .radius)
        case let .box(width, height, radius):
            try c.encode("box", forKey: .type)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(radius, forKey: .radius)
        }
        try c.encodeIfPresent(friction, forKey: .friction)
        try c.encodeIfPresent(elasticity, forKey: .elasticity)
        try c.encodeIfPresent(collisionType, forKey: .collisionType)
        try c.encodeIfPresent(mass, forKey: .mass)
        try c.encodeIfPresent(density, forKey: .density)
        try c.encodeIfPresent(sensor, forKey: .sensor)
        try c.encodeIfPresent(filter, forKey: .filter)
        try c.encodeIfPresent(surfaceVelocity, forKey: .surfaceVelocity)
        try c.encodeIfPresent(id, forKey: .id)
    }
}
