import Chipmunk

// Format version 2: what the API builds without closures (constraints, shape filters,
// sensors, masses, surface velocities, the broad phase) and collision behaviour as data.
// docs/scene-format.md describes every key.

/// A shape filter: `{"group": 1, "categories": 2, "mask": 5}`; each key optional.
public struct FilterDescription: Hashable, Sendable, Codable {
    /// Shapes of the same non-zero group never collide; nil is 0.
    public var group: UInt?
    /// The categories the shape is in, a bitmask; nil is all.
    public var categories: UInt32?
    /// The categories the shape collides with, a bitmask; nil is all.
    public var mask: UInt32?

    private enum CodingKeys: String, CodingKey, CaseIterable { case group, categories, mask }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        group = try c.decodeWholeNumberIfPresent(forKey: .group).map(UInt.init)
        for key in [CodingKeys.categories, .mask] {
            if let value = try c.decodeWholeNumberIfPresent(forKey: key), value > Int(UInt32.max) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "must be a whole number from 0 to 4294967295 (32 bits)")
            }
        }
        categories = try c.decodeWholeNumberIfPresent(forKey: .categories).map(UInt32.init)
        mask = try c.decodeWholeNumberIfPresent(forKey: .mask).map(UInt32.init)
    }

    var filter: ShapeFilter {
        ShapeFilter(
            group: .init(rawValue: group ?? 0), categories: .init(rawValue: categories ?? UInt32.max),
            mask: .init(rawValue: mask ?? UInt32.max))
    }
}

/// `{"spatialHash": {"cellSize": 20, "count": 1000}}`: the engine's spatial hash instead of its tree.
public struct BroadPhaseDescription: Hashable, Sendable, Codable {
    /// The hash cell's size, in the scene's units.
    public var cellSize: Double
    /// The number of hash buckets to start with.
    public var count: Int

    private enum Outer: String, CodingKey, CaseIterable { case spatialHash }
    private enum Inner: String, CodingKey, CaseIterable { case cellSize, count }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Outer.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Outer.self)
        let inner = try c.superDecoder(forKey: .spatialHash)
        try inner.rejectUnknownKeys(Inner.allCases.map(\.rawValue))
        let f = try inner.container(keyedBy: Inner.self)
        cellSize = try f.decode(Double.self, forKey: .cellSize)
        count = try f.decodeWholeNumberIfPresent(forKey: .count, in: 1...10_000_000) ?? 1000
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Outer.self)
        var f = c.nestedContainer(keyedBy: Inner.self, forKey: .spatialHash)
        try f.encode(cellSize, forKey: .cellSize)
        try f.encode(count, forKey: .count)
    }
}

/// A joint, spring or motor between bodies `a` and `b`, named by their `id` ("static" is
/// the space's static body). The keys besides `type`, `a` and `b` depend on the type.
public struct ConstraintDescription: Hashable, Sendable, Codable {
    /// The kind, such as "pin", "slide", "pivot", "dampedSpring" or "motor".
    public var type: String
    /// The first body's `id`.
    public var a: String
    /// The second body's `id`.
    public var b: String
    /// Every number the constraint takes, by key.
    public var values: [String: Double]
    /// Every point or vector the constraint takes (anchors, pivots, grooves), by key.
    public var vectors: [String: Vector]
    /// Whether the two bodies still collide with each other; nil is true.
    public var collideBodies: Bool?

    /// The keys of each type, beyond the common ones.
    static let typeKeys: [String: (numbers: [String], vectors: [String])] = [
        "pin": (["distance"], ["anchorA", "anchorB"]),
        "slide": (["min", "max"], ["anchorA", "anchorB"]),
        "pivot": ([], ["pivot", "anchorA", "anchorB"]),
        "groove": ([], ["grooveA", "grooveB", "anchorB"]),
        "dampedSpring": (["restLength", "stiffness", "damping"], ["anchorA", "anchorB"]),
        "dampedRotarySpring": (["restAngle", "stiffness", "damping"], []),
        "rotaryLimit": (["min", "max"], []),
        "ratchet": (["phase", "ratchet"], []),
        "gear": (["phase", "ratio"], []),
        "simpleMotor": (["rate"], []),
    ]
    static let commonNumbers = ["maxForce", "errorBias", "maxBias", "breakImpulse", "breakForce"]

    private typealias Key = AnyCodingKey

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws { try self.init(from: decoder, namesBodies: true) }

    /// Decodes a constraint; without `namesBodies` (a generator's `connect`), `a` and `b`
    /// are not keys of it but the bodies it joins, left empty here.
    init(from decoder: any Decoder, namesBodies: Bool) throws {
        let c = try decoder.container(keyedBy: Key.self)
        type = try c.decode(String.self, forKey: Key("type"))
        guard let own = Self.typeKeys[type] else {
            throw DecodingError.dataCorruptedError(
                forKey: Key("type"), in: c,
                debugDescription:
                    "unknown constraint type '\(type)'; expected one of \(Self.typeKeys.keys.sorted().joined(separator: ", "))"
            )
        }
        // A connect's pivot joint takes anchors: one world point would be every pair's.
        let vectorKeys = namesBodies ? own.vectors : own.vectors.filter { $0 != "pivot" }
        try decoder.rejectUnknownKeys(
            (namesBodies ? ["type", "a", "b"] : ["type"]) + ["collideBodies"] + own.numbers + vectorKeys
                + Self.commonNumbers)
        a = namesBodies ? try c.decode(String.self, forKey: Key("a")) : ""
        b = namesBodies ? try c.decode(String.self, forKey: Key("b")) : ""
        collideBodies = try c.decodeIfPresent(Bool.self, forKey: Key("collideBodies"))
        values = [:]
        for key in own.numbers + Self.commonNumbers {
            values[key] = try c.decodeIfPresent(Double.self, forKey: Key(key))
        }
        vectors = [:]
        for key in own.vectors { vectors[key] = try c.decodeIfPresent(Vector.self, forKey: Key(key)) }
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: Key("type"))
        if !a.isEmpty { try c.encode(a, forKey: Key("a")) }  // empty in a generator's connect
        if !b.isEmpty { try c.encode(b, forKey: Key("b")) }
        try c.encodeIfPresent(collideBodies, forKey: Key("collideBodies"))
        for (key, value) in values.sorted(by: { $0.key < $1.key }) { try c.encode(value, forKey: Key(key)) }
        for (key, value) in vectors.sorted(by: { $0.key < $1.key }) { try c.encode(value, forKey: Key(key)) }
    }
}

/// Collision behaviour as data, for shapes of collision types `types` (one type: with any
/// shape). `oneWay`: the first type's shapes let others pass along this direction.
/// `friction`, `elasticity`: override the contact's. `log`: record begin and separate
/// events (sensors entered and left) for `chipmunk-sim run --events`.
public struct CollisionRule: Hashable, Sendable, Codable {
    /// The collision types the rule is for: one (with any shape) or two.
    public var types: [UInt]
    /// The direction the first type's shapes let others pass along, or nil.
    public var oneWay: Vector?
    /// The contact's friction instead of the shapes', or nil.
    public var friction: Double?
    /// The contact's elasticity instead of the shapes', or nil.
    public var elasticity: Double?
    /// Whether to record begin and separate events (``Scene/events``).
    public var log: Bool?

    private enum CodingKeys: String, CodingKey, CaseIterable { case types, oneWay, friction, elasticity, log }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        types = try c.decode([UInt].self, forKey: .types)
        guard types.count == 1 || types.count == 2 else {
            throw DecodingError.dataCorruptedError(
                forKey: .types, in: c, debugDescription: "give one collision type (with any other) or two")
        }
        oneWay = try c.decodeIfPresent(Vector.self, forKey: .oneWay)
        friction = try c.decodeIfPresent(Double.self, forKey: .friction)
        elasticity = try c.decodeIfPresent(Double.self, forKey: .elasticity)
        log = try c.decodeIfPresent(Bool.self, forKey: .log)
        if oneWay == nil, friction == nil, elasticity == nil, log != true {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "give oneWay, friction, elasticity or log"))
        }
    }
}

/// A contact event a `log` rule records.
public struct CollisionEvent: Hashable, Sendable {
    /// Whether the shapes began or stopped touching.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The shapes began touching (a sensor was entered).
        case begin
        /// The shapes stopped touching (a sensor was left).
        case separate
    }

    /// Whether the shapes began or stopped touching; its raw value is how output spells it.
    public var kind: Kind
    /// The step during which it happened (1 for the first step).
    public var step: Int
    /// The shapes, as output names them: their `id`, or else their body's name.
    public var shapeA: String
    /// The other shape, named as `shapeA` is.
    public var shapeB: String
    /// The shapes' bodies, as output names them (their `id`, or their index in the file;
    /// "static" for the space's static body).
    public var bodyA: String
    /// The other shape's body, named as `bodyA` is.
    public var bodyB: String
}

extension SceneDescription {
    /// Adds version 2's constraints and collision rules to a built space. `bodies` maps ids.
    func addVersion2(
        to space: Space, scene: Scene, bodies: [String: Body], check: SceneCheck
    ) throws(SceneError) {
        for (index, description) in (constraints ?? []).enumerated() {
            let location = "constraints[\(index)]"
            let constraint = try description.make(bodies: bodies, check: check, at: location)
            space.add(constraint)
        }
        for (index, rule) in (collisions ?? []).enumerated() {
            try rule.install(in: space, scene: scene, check: check, at: "collisions[\(index)]")
        }
    }
}

extension ConstraintDescription {
    func make(bodies: [String: Body], check: SceneCheck, at location: String) throws(SceneError) -> Constraint {
        func body(_ key: String, _ id: String) throws(SceneError) -> Body {
            guard let body = bodies[id] else {
                let known = bodies.keys.sorted().joined(separator: ", ")
                throw SceneError(
                    source: check.source, location: "\(location).\(key)",
                    reason: "no body has id '\(id)' (ids: \(known))")
            }
            return body
        }
        return try make(a: try body("a", self.a), b: try body("b", self.b), check: check, at: location)
    }

    /// The constraint between `a` and `b`, every value checked.
    func make(a: Body, b: Body, check: SceneCheck, at location: String) throws(SceneError) -> Constraint {
        guard a !== b else {
            throw SceneError(
                source: check.source, location: "\(location).b", reason: "a constraint joins two different bodies")
        }
        guard a.kind == .dynamic || b.kind == .dynamic else {
            throw SceneError(
                source: check.source, location: location, reason: "a constraint needs at least one dynamic body")
        }
        func number(_ key: String, _ parameter: Parameter, default value: Double? = nil) throws(SceneError) -> Double {
            guard let given = values[key] ?? value else {
                throw SceneError(
                    source: check.source, location: "\(location).\(key)", reason: "is required for a \(type) joint")
            }
            return try check(parameter, given, at: location, key: key)
        }
        func vector(_ key: String, _ parameter: Parameter = .anchor) throws(SceneError) -> Vector {
            try check(parameter, vectors[key] ?? .zero, at: location, key: key)
        }
        func range(_ parameter: Parameter) throws(SceneError) -> ClosedRange<Double> {
            let low = try number("min", parameter)
            let high = try number("max", parameter)
            guard low <= high else {
                throw SceneError(
                    source: check.source, location: "\(location).max", reason: "must be at least min (\(low))")
            }
            return low...high
        }
        let constraint: Constraint
        switch type {
        case "pin":
            let pin = PinJoint(a: a, b: b, anchorA: try vector("anchorA"), anchorB: try vector("anchorB"))
            if let distance = values["distance"] {
                pin.distance = try check(.pinDistance, distance, at: location, key: "distance")
            }
            constraint = pin
        case "slide":
            constraint = SlideJoint(
                a: a, b: b, anchorA: try vector("anchorA"), anchorB: try vector("anchorB"),
                distance: try range(.slideDistance))
        case "pivot":
            if let pivot = vectors["pivot"] {
                guard vectors["anchorA"] == nil, vectors["anchorB"] == nil else {
                    throw SceneError(
                        source: check.source, location: "\(location).pivot",
                        reason: "give 'pivot' or 'anchorA' and 'anchorB', not both")
                }
                constraint = PivotJoint(a: a, b: b, pivot: try check(.pivot, pivot, at: location, key: "pivot"))
            } else {
                constraint = PivotJoint(a: a, b: b, anchorA: try vector("anchorA"), anchorB: try vector("anchorB"))
            }
        case "groove":
            // The groove's ends are required (docs and schema); zero defaults made a groove of no length.
            for key in ["grooveA", "grooveB"] where vectors[key] == nil {
                throw SceneError(
                    source: check.source, location: "\(location).\(key)", reason: "is required for a groove joint")
            }
            constraint = GrooveJoint(
                a: a, b: b, grooveA: try vector("grooveA", .grooveEnd), grooveB: try vector("grooveB", .grooveEnd),
                anchorB: try vector("anchorB"))
        case "dampedSpring":
            constraint = DampedSpring(
                a: a, b: b, anchorA: try vector("anchorA"), anchorB: try vector("anchorB"),
                restLength: try number("restLength", .springRestLength),
                stiffness: try number("stiffness", .springStiffness),
                damping: try number("damping", .springDamping))
        case "dampedRotarySpring":
            constraint = DampedRotarySpring(
                a: a, b: b, restAngle: try number("restAngle", .rotarySpringRestAngle),
                stiffness: try number("stiffness", .springStiffness), damping: try number("damping", .springDamping))
        case "rotaryLimit": constraint = RotaryLimitJoint(a: a, b: b, angle: try range(.rotaryLimitAngle))
        case "ratchet":
            constraint = RatchetJoint(
                a: a, b: b, phase: try number("phase", .ratchetPhase, default: 0),
                ratchet: try number("ratchet", .ratchetInterval))
        case "gear":
            constraint = GearJoint(
                a: a, b: b, phase: try number("phase", .gearPhase, default: 0), ratio: try number("ratio", .gearRatio))
        default: constraint = SimpleMotor(a: a, b: b, rate: try number("rate", .motorRate))
        }
        if let value = values["maxForce"] {
            constraint.maxForce = try check(.constraintMaxForce, value, at: location, key: "maxForce")
        }
        if let value = values["errorBias"] {
            constraint.errorBias = try check(.constraintErrorBias, value, at: location, key: "errorBias")
        }
        if let value = values["maxBias"] {
            constraint.maxBias = try check(.constraintMaxBias, value, at: location, key: "maxBias")
        }
        if let collideBodies { constraint.collideBodies = collideBodies }
        let breakImpulse = try values["breakImpulse"].map { value throws(SceneError) in
            try check(.constraintMaxForce, value, at: location, key: "breakImpulse")
        }
        let breakForce = try values["breakForce"].map { value throws(SceneError) in
            try check(.constraintMaxForce, value, at: location, key: "breakForce")
        }
        if breakImpulse != nil || breakForce != nil {
            // Removed after the step in which it first carries more; as Chipmunk's
            // breakable-chains demo does, and without holding the space.
            constraint.postSolve = { joint in
                guard let space = joint.space else { return }
                let impulse = joint.impulse
                if impulse > breakImpulse ?? .infinity || impulse / space.currentTimeStep > breakForce ?? .infinity {
                    space.addPostStepCallback(forKey: ObjectIdentifier(joint)) { space in
                        if space.contains(joint) { space.remove(joint) }
                    }
                }
            }
        }
        return constraint
    }
}

extension CollisionRule {
    func install(in space: Space, scene: Scene, check: SceneCheck, at location: String) throws(SceneError) {
        let friction = try self.friction.map { value throws(SceneError) in
            try check(.arbiterFriction, value, at: location, key: "friction")
        }
        let elasticity = try self.elasticity.map { value throws(SceneError) in
            try check(.arbiterRestitution, value, at: location, key: "elasticity")
        }
        if let oneWay {
            guard oneWay.x.isFinite, oneWay.y.isFinite, oneWay != .zero else {
                throw SceneError(
                    source: check.source, location: "\(location).oneWay", reason: "must be a finite, non-zero direction"
                )
            }
        }
        let a = CollisionType(rawValue: types[0])
        let b = types.count == 2 ? CollisionType(rawValue: types[1]) : nil
        let oneWay = self.oneWay
        let log = self.log == true
        weak let scene = scene
        space.onCollision(
            between: a, and: b,
            begin: log
                ? { arbiter in
                    scene?.logEvent(.begin, arbiter)
                    return true
                } : nil,
            preSolve: oneWay != nil || friction != nil || elasticity != nil
                ? { arbiter in
                    // The first type's shape is the arbiter's first: the normal points from it.
                    if let oneWay, arbiter.normal.dot(oneWay) < 0 {
                        arbiter.ignore()
                        return false
                    }
                    if let friction { arbiter.friction = friction }
                    if let elasticity { arbiter.restitution = elasticity }
                    return true
                } : nil,
            separate: log ? { arbiter in scene?.logEvent(.separate, arbiter) } : nil)
    }
}
