import Chipmunk

// Format version 2: joints, springs and motors as data, and building them (docs/scene-format.md).

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
            let (grooveA, grooveB) = (try vector("grooveA", .grooveEnd), try vector("grooveB", .grooveEnd))
            guard GrooveJoint.hasLength(from: grooveA, to: grooveB) else {
                throw SceneError(
                    source: check.source, location: "\(location).grooveB",
                    reason: "must differ from grooveA \(grooveA): a groove of no length has no direction")
            }
            constraint = GrooveJoint(a: a, b: b, grooveA: grooveA, grooveB: grooveB, anchorB: try vector("anchorB"))
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
                    space.addPostStepCallback(forKey: .object(joint)) { space in
                        if space.contains(joint) { space.remove(joint) }
                    }
                }
            }
        }
        return constraint
    }
}
