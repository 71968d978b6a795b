import Chipmunk

// Format version 2: what the API builds without closures (constraints, shape filters,
// sensors, masses, surface velocities, the broad phase) and collision behaviour as data.
// docs/scene-format.md describes every key.

/// A shape filter: `{"group": 1, "categories": 2, "mask": 5}`; each key optional.
public struct FilterDescription: Hashable, Sendable, Codable {
    public var group: UInt?
    public var categories: UInt32?
    public var mask: UInt32?

    private enum CodingKeys: String, CodingKey, CaseIterable { case group, categories, mask }

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
    public var cellSize: Double
    public var count: Int

    private enum Outer: String, CodingKey, CaseIterable { case spatialHash }
    private enum Inner: String, CodingKey, CaseIterable { case cellSize, count }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Outer.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Outer.self)
        let inner = try c.superDecoder(forKey: .spatialHash)
        try inner.rejectUnknownKeys(Inner.allCases.map(\.rawValue))
        let f = try inner.container(keyedBy: Inner.self)
        cellSize = try f.decode(Double.self, forKey: .cellSize)
        count = try f.decodeWholeNumberIfPresent(forKey: .count, in: 1...10_000_000) ?? 1000
    }

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
    public var type: String
    public var a: String
    public var b: String
    /// Every number the constraint takes, by key.
    public var values: [String: Double]
    public var vectors: [String: Vector]
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

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        type = try c.decode(String.self, forKey: Key("type"))
        guard let own = Self.typeKeys[type] else {
            throw DecodingError.dataCorruptedError(
                forKey: Key("type"), in: c,
                debugDescription:
                    "unknown constraint type '\(type)'; expected one of \(Self.typeKeys.keys.sorted().joined(separator: ", "))"
            )
        }
        try decoder.rejectUnknownKeys(
            ["type", "a", "b", "collideBodies"] + own.numbers + own.vectors + Self.commonNumbers)
        a = try c.decode(String.self, forKey: Key("a"))
        b = try c.decode(String.self, forKey: Key("b"))
        collideBodies = try c.decodeIfPresent(Bool.self, forKey: Key("collideBodies"))
        values = [:]
        for key in own.numbers + Self.commonNumbers {
            values[key] = try c.decodeIfPresent(Double.self, forKey: Key(key))
        }
        vectors = [:]
        for key in own.vectors { vectors[key] = try c.decodeIfPresent(Vector.self, forKey: Key(key)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: Key("type"))
        try c.encode(a, forKey: Key("a"))
        try c.encode(b, forKey: Key("b"))
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
    public var types: [UInt]
    public var oneWay: Vector?
    public var friction: Double?
    public var elasticity: Double?
    public var log: Bool?

    private enum CodingKeys: String, CodingKey, CaseIterable { case types, oneWay, friction, elasticity, log }

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
    /// "begin" or "separate".
    public var kind: String
    /// The step during which it happened (1 for the first step).
    public var step: Int
    /// The bodies, as output names them (their `id`, or their index in the file).
    public var bodyA: String
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
        let a = try body("a", self.a)
        let b = try body("b", self.b)
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
                    scene?.logEvent("begin", arbiter)
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
            separate: log ? { arbiter in scene?.logEvent("separate", arbiter) } : nil)
    }
}

/// Version 2: something done to the scene at a time, the general form of `gravitySchedule`:
/// `{"time": 1.5, "impulse": {"body": "ball", "impulse": [0, 500], "at": [0, 0]}}`, and
/// likewise `velocity` (`{"body", "velocity"}`, such as a kinematic body's new speed),
/// `angularVelocity` (`{"body", "angularVelocity"}`), `gravity` (`[x, y]`), `add` (a body,
/// with an `id`) and `remove` (a body's id; its shapes and constraints go with it).
public struct TimedInput: Hashable, Sendable, Codable {
    public enum Action: Hashable, Sendable {
        case impulse(body: String, impulse: Vector, at: Vector)
        case velocity(body: String, velocity: Vector)
        case angularVelocity(body: String, angularVelocity: Double)
        case gravity(Vector)
        case add(BodyDescription)
        case remove(body: String)
    }

    public var time: Double
    public var action: Action

    private enum Key: String, CodingKey, CaseIterable {
        case time, impulse, velocity, angularVelocity, gravity, add, remove
    }
    private enum Field: String, CodingKey, CaseIterable { case body, impulse, at, velocity, angularVelocity }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Key.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Key.self)
        time = try c.decode(Double.self, forKey: .time)
        let actions = c.allKeys.filter { $0 != .time }
        guard actions.count == 1, let key = actions.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "give one action: impulse, velocity, angularVelocity, gravity, add or remove"))
        }
        func fields(_ allowed: [Field]) throws -> KeyedDecodingContainer<Field> {
            try c.superDecoder(forKey: key).rejectUnknownKeys(allowed.map(\.rawValue))
            return try c.nestedContainer(keyedBy: Field.self, forKey: key)
        }
        switch key {
        case .impulse:
            let f = try fields([.body, .impulse, .at])
            action = .impulse(
                body: try f.decode(String.self, forKey: .body), impulse: try f.decode(Vector.self, forKey: .impulse),
                at: try f.decodeIfPresent(Vector.self, forKey: .at) ?? .zero)
        case .velocity:
            let f = try fields([.body, .velocity])
            action = .velocity(
                body: try f.decode(String.self, forKey: .body), velocity: try f.decode(Vector.self, forKey: .velocity))
        case .angularVelocity:
            let f = try fields([.body, .angularVelocity])
            action = .angularVelocity(
                body: try f.decode(String.self, forKey: .body),
                angularVelocity: try f.decode(Double.self, forKey: .angularVelocity))
        case .gravity: action = .gravity(try c.decode(Vector.self, forKey: .gravity))
        case .add:
            let body = try c.decode(BodyDescription.self, forKey: .add)
            guard body.id != nil, body.generate == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .add, in: c, debugDescription: "an added body needs an id, and no generate")
            }
            action = .add(body)
        default: action = .remove(body: try c.decode(String.self, forKey: .remove))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(time, forKey: .time)
        switch action {
        case let .impulse(body, impulse, at):
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .impulse)
            try f.encode(body, forKey: .body)
            try f.encode(impulse, forKey: .impulse)
            try f.encode(at, forKey: .at)
        case let .velocity(body, velocity):
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .velocity)
            try f.encode(body, forKey: .body)
            try f.encode(velocity, forKey: .velocity)
        case let .angularVelocity(body, angularVelocity):
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .angularVelocity)
            try f.encode(body, forKey: .body)
            try f.encode(angularVelocity, forKey: .angularVelocity)
        case .gravity(let gravity): try c.encode(gravity, forKey: .gravity)
        case .add(let body): try c.encode(body, forKey: .add)
        case .remove(let body): try c.encode(body, forKey: .remove)
        }
    }

    /// Checks the input's values and body names against the names that exist by then
    /// (`names` is updated for `add` and `remove`).
    func check(_ check: SceneCheck, at location: String, names: inout Set<String>) throws(SceneError) {
        guard time >= 0, time.isFinite else {
            throw SceneError(
                source: check.source, location: "\(location).time",
                reason: "must be zero or more, and finite (got \(time))")
        }
        func known(_ name: String, _ key: String) throws(SceneError) {
            guard names.contains(name), name != "static" else {
                throw SceneError(
                    source: check.source, location: "\(location).\(key)",
                    reason:
                        "no body named '\(name)' exists at \(time) s (\(name == "static" ? "the static body cannot be moved" : "names: \(names.subtracting(["static"]).sorted().prefix(20).joined(separator: ", "))"))"
                )
            }
        }
        switch action {
        case let .impulse(body, impulse, at):
            try known(body, "impulse.body")
            _ = try check(.appliedImpulse, impulse, at: "\(location).impulse", key: "impulse")
            _ = try check(.applicationPoint, at, at: "\(location).impulse", key: "at")
        case let .velocity(body, velocity):
            try known(body, "velocity.body")
            _ = try check(.bodyVelocity, velocity, at: "\(location).velocity", key: "velocity")
        case let .angularVelocity(body, value):
            try known(body, "angularVelocity.body")
            _ = try check(.bodyAngularVelocity, value, at: "\(location).angularVelocity", key: "angularVelocity")
        case .gravity(let gravity): _ = try check(.spaceGravity, gravity, at: location, key: "gravity")
        case .add(let body):
            _ = try body.makeBody(check: check, at: "\(location).add")
            for (index, shape) in (body.shapes ?? []).enumerated() {
                _ = try shape.makeShape(on: Body(kind: .static), check: check, at: "\(location).add.shapes[\(index)]")
            }
            guard names.insert(body.id!).inserted else {
                throw SceneError(
                    source: check.source, location: "\(location).add.id",
                    reason: "'\(body.id!)' is taken by another body")
            }
        case .remove(let body):
            try known(body, "remove")
            names.remove(body)
        }
    }
}

extension Scene {
    /// Applies a timed input now. Names and values were checked when the scene loaded.
    func apply(_ input: TimedInput) {
        func body(_ name: String) -> Body? { space.bodies.first { self.name(of: $0) == name } }
        switch input.action {
        case let .impulse(name, impulse, at): body(name)?.applyImpulse(impulse, at: at)
        case let .velocity(name, velocity): body(name)?.velocity = velocity
        case let .angularVelocity(name, value): body(name)?.angularVelocity = value
        case .gravity(let gravity): space.gravity = gravity
        case .add(let description):
            let check = SceneCheck(source: name)
            guard let body = try? description.makeBody(check: check, at: "add") else { return }
            space.add(body)
            for shape in description.shapes ?? [] {
                if let made = try? shape.makeShape(on: body, check: check, at: "add") { space.add(made) }
            }
            bodyNames?[ObjectIdentifier(body)] = description.id
        case .remove(let name):
            guard let body = body(name) else { return }
            for constraint in space.constraints where constraint.bodyA === body || constraint.bodyB === body {
                space.remove(constraint)
            }
            for shape in space.shapes where shape.body === body { space.remove(shape) }
            space.remove(body)
        }
    }
}
