import Chipmunk

// Format version 2: collision behaviour as data, and installing it on a space (docs/scene-format.md).

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
        // The engine's wildcard: a rule for it would be a pair handler that calls itself.
        if let wildcard = types.first(where: { $0 == CollisionType.wildcard.rawValue }) {
            throw DecodingError.dataCorruptedError(
                forKey: .types, in: c,
                debugDescription:
                    "\(wildcard) is the engine's wildcard type; give types below it (one type means with any shape)")
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
