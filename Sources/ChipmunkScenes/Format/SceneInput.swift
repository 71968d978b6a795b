import Chipmunk
import Foundation

/// Something done to a running scene from outside the simulation, in the words of a scene
/// file's `inputs`: what a scene schedules by time (``TimedInput``) and what a recording
/// logs by step (``InputRecording``).
///
/// ```json
/// {"impulse": {"body": "ball", "impulse": [0, 500]}}
/// {"impulse": {"body": "ball", "impulse": [0, 500], "at": [10, 0]}}
/// {"force": {"body": "ball", "force": [0, 500]}}
/// {"velocity": {"body": "paddle", "velocity": [100, 0]}}
/// {"angularVelocity": {"body": "wheel", "angularVelocity": 3}}
/// {"gravity": [0, -500]}
/// {"add": {"id": "ball2", "mass": 2, "moment": 5, "shapes": [...]}}
/// {"remove": "ball"}
/// {"grab": {"hand": "hand1", "body": "ball", "at": [12, 30], "maxForce": 50000}}
/// ```
///
/// Bodies are named as output names them (`Scene.name(of:)`): a version-2 scene's
/// `id`s (or a body's index in the file), and for other scenes the body's index in
/// `space.bodies` at that moment, such as `"2"`. Vectors are in world coordinates. An
/// impulse or force without `at` acts at the body's centre of gravity, so it turns nothing.
public enum SceneInput: Hashable, Sendable {
    /// An impulse in world coordinates at the world point `at` (nil: the body's centre of
    /// gravity): `Body.applyImpulse(_:at:)`.
    case impulse(body: String, impulse: Vector, at: Vector?)
    /// A force in world coordinates at the world point `at` (nil: the centre of gravity),
    /// for the next step only (the step clears forces): `Body.applyForce(_:at:)`.
    case force(body: String, force: Vector, at: Vector?)
    /// A body's velocity is set, such as a kinematic body's new speed.
    case velocity(body: String, velocity: Vector)
    /// A body's angular velocity is set.
    case angularVelocity(body: String, angularVelocity: Double)
    /// Gravity changes.
    case gravity(Vector)
    /// A body with an `id` (and its shapes) joins the space.
    case add(BodyDescription)
    /// A body leaves the space, with its shapes and constraints.
    case remove(body: String)
    /// A hand takes hold of a dynamic body at the world point `at`, as Chipmunk's demo app
    /// grabs with the mouse: a kinematic body named `hand` joins the space at `at`, with a
    /// `PivotJoint` to the body there whose `maxForce` is `maxForce` (and whose error bias
    /// is the demo's, `pow(1 - 0.15, 60)`). The hand moves by `velocity` inputs and lets go
    /// by `remove`, which removes its joint with it.
    case grab(hand: String, body: String, at: Vector, maxForce: Double)

    /// The action keys, as a file spells them.
    static let keys = ["impulse", "force", "velocity", "angularVelocity", "gravity", "add", "remove", "grab"]

    /// The error bias of a hand's joint: Chipmunk's demo app's, `pow(1 - 0.15, 60)`.
    public static let handErrorBias = pow(1 - 0.15, 60.0)

    private typealias Key = AnyCodingKey

    /// The body an input names, if it names one.
    public var body: String? {
        switch self {
        case .impulse(let body, _, _), .force(let body, _, _), .velocity(let body, _),
            .angularVelocity(let body, _), .remove(let body), .grab(_, let body, _, _):
            body
        case .gravity: nil
        case .add(let description): description.id
        }
    }

    /// Decodes the one action of `decoder`'s object, which may also hold `extraKeys`
    /// (a timed input's `time`).
    init(from decoder: any Decoder, extraKeys: [String]) throws {
        try decoder.rejectUnknownKeys(Self.keys + extraKeys)
        let c = try decoder.container(keyedBy: Key.self)
        let actions = c.allKeys.filter { !extraKeys.contains($0.stringValue) }
        guard actions.count == 1, let key = actions.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "give one action: impulse, force, velocity, angularVelocity, gravity, add, remove or grab"
                ))
        }
        func fields(_ allowed: [String]) throws -> KeyedDecodingContainer<Key> {
            try c.superDecoder(forKey: key).rejectUnknownKeys(allowed)
            return try c.nestedContainer(keyedBy: Key.self, forKey: key)
        }
        switch key.stringValue {
        case "impulse", "force":
            let name = key.stringValue
            let f = try fields(["body", name, "at"])
            let body = try f.decode(String.self, forKey: Key("body"))
            let vector = try f.decode(Vector.self, forKey: Key(name))
            let at = try f.decodeIfPresent(Vector.self, forKey: Key("at"))
            self =
                name == "impulse"
                ? .impulse(body: body, impulse: vector, at: at) : .force(body: body, force: vector, at: at)
        case "velocity":
            let f = try fields(["body", "velocity"])
            self = .velocity(
                body: try f.decode(String.self, forKey: Key("body")),
                velocity: try f.decode(Vector.self, forKey: Key("velocity")))
        case "angularVelocity":
            let f = try fields(["body", "angularVelocity"])
            self = .angularVelocity(
                body: try f.decode(String.self, forKey: Key("body")),
                angularVelocity: try f.decode(Double.self, forKey: Key("angularVelocity")))
        case "gravity": self = .gravity(try c.decode(Vector.self, forKey: key))
        case "add":
            let body = try c.decode(BodyDescription.self, forKey: key)
            guard body.id != nil, body.generate == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "an added body needs an id, and no generate")
            }
            self = .add(body)
        case "grab":
            let f = try fields(["hand", "body", "at", "maxForce"])
            self = .grab(
                hand: try f.decode(String.self, forKey: Key("hand")),
                body: try f.decode(String.self, forKey: Key("body")),
                at: try f.decode(Vector.self, forKey: Key("at")),
                maxForce: try f.decode(Double.self, forKey: Key("maxForce")))
        default: self = .remove(body: try c.decode(String.self, forKey: key))
        }
    }

    /// Encodes the action as one member of `encoder`'s object.
    func encodeAction(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case let .impulse(body, vector, at), let .force(body, vector, at):
            let name = if case .impulse = self { "impulse" } else { "force" }
            var f = c.nestedContainer(keyedBy: Key.self, forKey: Key(name))
            try f.encode(body, forKey: Key("body"))
            try f.encode(vector, forKey: Key(name))
            try f.encodeIfPresent(at, forKey: Key("at"))
        case let .velocity(body, velocity):
            var f = c.nestedContainer(keyedBy: Key.self, forKey: Key("velocity"))
            try f.encode(body, forKey: Key("body"))
            try f.encode(velocity, forKey: Key("velocity"))
        case let .angularVelocity(body, angularVelocity):
            var f = c.nestedContainer(keyedBy: Key.self, forKey: Key("angularVelocity"))
            try f.encode(body, forKey: Key("body"))
            try f.encode(angularVelocity, forKey: Key("angularVelocity"))
        case .gravity(let gravity): try c.encode(gravity, forKey: Key("gravity"))
        case .add(let body): try c.encode(body, forKey: Key("add"))
        case .remove(let body): try c.encode(body, forKey: Key("remove"))
        case let .grab(hand, body, at, maxForce):
            var f = c.nestedContainer(keyedBy: Key.self, forKey: Key("grab"))
            try f.encode(hand, forKey: Key("hand"))
            try f.encode(body, forKey: Key("body"))
            try f.encode(at, forKey: Key("at"))
            try f.encode(maxForce, forKey: Key("maxForce"))
        }
    }
}

extension SceneInput: Codable {
    /// Decodes `{"ACTION": …}`, rejecting unknown keys.
    public init(from decoder: any Decoder) throws { try self.init(from: decoder, extraKeys: []) }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws { try encodeAction(to: encoder) }
}

/// Version 2: something done to the scene at a time, the general form of `gravitySchedule`:
/// `{"time": 1.5, "impulse": {"body": "ball", "impulse": [0, 500]}}`: a `time` in seconds
/// and one ``SceneInput``.
public struct TimedInput: Hashable, Sendable, Codable {
    /// The same vocabulary as a recording's inputs.
    public typealias Action = SceneInput

    /// When the input happens, in seconds of scene time.
    public var time: Double
    /// What happens.
    public var action: SceneInput

    /// An input at `time` seconds.
    public init(time: Double, action: SceneInput) {
        self.time = time
        self.action = action
    }

    private enum Key: String, CodingKey { case time }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        time = try c.decode(Double.self, forKey: .time)
        action = try SceneInput(from: decoder, extraKeys: ["time"])
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws {
        try action.encodeAction(to: encoder)
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(time, forKey: .time)
    }

    /// Checks the input's values and body names against the names that exist by then
    /// (`names` is updated for `add` and `remove`).
    func check(_ check: SceneCheck, at location: String, names: inout Set<String>) throws(SceneError) {
        guard time >= 0, time.isFinite else {
            throw SceneError(
                source: check.source, location: "\(location).time",
                reason: "must be zero or more, and finite (got \(time))")
        }
        try action.check(check, at: location, when: "at \(time) s", names: &names)
    }
}

extension SceneInput {
    /// Checks the input's values, and that the body it names is among `names` (which is
    /// updated for `add` and `remove`); `when` says when, for the message.
    func check(_ check: SceneCheck, at location: String, when: String, names: inout Set<String>) throws(SceneError) {
        let base = location.isEmpty ? "" : "\(location)."
        func known(_ name: String, _ key: String) throws(SceneError) {
            guard names.contains(name), name != "static" else {
                throw SceneError(
                    source: check.source, location: "\(base)\(key)",
                    reason:
                        "no body named '\(name.excerpt())' exists \(when) (\(name == "static" ? "the static body cannot be moved" : Self.listed(names)))"
                )
            }
        }
        switch self {
        case let .impulse(body, impulse, at):
            try known(body, "impulse.body")
            _ = try check(.appliedImpulse, impulse, at: "\(base)impulse", key: "impulse")
            if let at { _ = try check(.applicationPoint, at, at: "\(base)impulse", key: "at") }
        case let .force(body, force, at):
            try known(body, "force.body")
            _ = try check(.appliedForce, force, at: "\(base)force", key: "force")
            if let at { _ = try check(.applicationPoint, at, at: "\(base)force", key: "at") }
        case let .velocity(body, velocity):
            try known(body, "velocity.body")
            _ = try check(.bodyVelocity, velocity, at: "\(base)velocity", key: "velocity")
        case let .angularVelocity(body, value):
            try known(body, "angularVelocity.body")
            _ = try check(.bodyAngularVelocity, value, at: "\(base)angularVelocity", key: "angularVelocity")
        case .gravity(let gravity): _ = try check(.spaceGravity, gravity, at: location, key: "gravity")
        case .add(let body):
            _ = try body.makeBody(check: check, at: "\(base)add")
            for (index, shape) in (body.shapes ?? []).enumerated() {
                _ = try shape.makeShape(on: Body(kind: .static), check: check, at: "\(base)add.shapes[\(index)]")
            }
            if let problem = Self.nameProblem(body.id ?? "", of: "an added body", when: when, names: &names) {
                throw SceneError(source: check.source, location: "\(base)add.id", reason: problem)
            }
        case .remove(let body):
            try known(body, "remove")
            names.remove(body)
        case let .grab(hand, body, at, maxForce):
            try known(body, "grab.body")
            _ = try check(.pivot, at, at: "\(base)grab", key: "at")
            _ = try check(.constraintMaxForce, maxForce, at: "\(base)grab", key: "maxForce")
            guard maxForce > 0, maxForce.isFinite else {
                throw SceneError(
                    source: check.source, location: "\(base)grab.maxForce",
                    reason: "must be positive and finite (got \(maxForce))")
            }
            if let problem = Self.nameProblem(hand, of: "a hand", when: when, names: &names) {
                throw SceneError(source: check.source, location: "\(base)grab.hand", reason: problem)
            }
        }
    }

    /// What is wrong with `name` for a new body or hand (`what`), if anything; a good name
    /// is added to `names`. (One message gave all three reasons at once: a helper's attack.)
    private static func nameProblem(_ name: String, of what: String, when: String, names: inout Set<String>) -> String?
    {
        if name.isEmpty { return "\(what) needs a name that is not empty" }
        if name == "static" { return "'static' names the space's static body; give \(what) another name" }
        if !names.insert(name).inserted {
            return "'\(name.excerpt())' is taken: a body or hand of that name exists \(when)"
        }
        return nil
    }

    /// The bodies and hands `names` holds, for a message: "names: a, b", or that there are none.
    private static func listed(_ names: Set<String>) -> String {
        let named = names.subtracting(["static"]).sorted()
        return named.isEmpty
            ? "there are none" : "names: \(named.prefix(20).map { $0.excerpt() }.joined(separator: ", "))"
    }
}

extension Scene {
    /// The body that output names `name` now (see `name(of:)`), if any.
    public func body(named name: String) -> Body? {
        if name == "static" { return space.staticBody }
        for (index, body) in space.bodies.enumerated() where outputName(of: body, index: index) == name { return body }
        return nil
    }

    /// The names of the bodies in the space now, in its order.
    public var bodyNamesNow: [String] {
        space.bodies.enumerated().map { outputName(of: $1, index: $0) }
    }

    /// Every name a body of the scene has at some time in its run: those of the bodies in
    /// the space now, then the `id`s of the bodies its inputs add, in time order.
    public var bodyNamesOverTime: [String] {
        var names = bodyNamesNow
        for input in inputs {
            if case .add(let body) = input.action, let id = body.id, !names.contains(id) { names.append(id) }
            if case .grab(let hand, _, _, _) = input.action, !names.contains(hand) { names.append(hand) }
        }
        return names
    }

    /// `name(of:)` for the body at `index` in `space.bodies`, without searching for it.
    func outputName(of body: Body, index: Int) -> String {
        bodyNames?[ObjectIdentifier(body)] ?? addedName(of: body) ?? String(index)
    }

    /// Applies an input now: what a scene's timed inputs and a replay do.
    ///
    /// - Throws: ``SceneError`` for a name that names no body now (or the static body), or
    ///   a body description or vector that breaks a rule; the scene is unchanged then.
    public func apply(_ input: SceneInput) throws(SceneError) {
        var names = Set(bodyNamesNow)
        try input.check(SceneCheck(source: "input"), at: "", when: "now", names: &names)
        func body(_ name: String) -> Body {
            self.body(named: name)!  // checked above
        }
        switch input {
        case let .impulse(name, impulse, at):
            let body = body(name)
            let point = at ?? body.localToWorld(body.centerOfGravity)
            // Each value kept its rule when the scene loaded; together they can still carry the
            // body's velocity past the largest double (two impulses of 1e308).
            guard body.velocityStaysFinite(afterImpulse: impulse, at: point) else {
                throw SceneError(
                    source: self.name, location: "impulse",
                    reason: "the impulse \(impulse) on '\(name.excerpt())' would make its velocity infinite")
            }
            body.applyImpulse(impulse, at: point)
        case let .force(name, force, at):
            let body = body(name)
            body.applyForce(force, at: at ?? body.localToWorld(body.centerOfGravity))
        case let .velocity(name, velocity): body(name).velocity = velocity
        case let .angularVelocity(name, value): body(name).angularVelocity = value
        case .gravity(let gravity): space.gravity = gravity
        case .add(let description):
            let check = SceneCheck(source: "input")
            // The body joins before its shapes are made, as in a scene file; the check
            // above made each of them once already, so none fails here.
            let body = try description.makeBody(check: check, at: "add")
            space.add(body)
            for (index, shape) in (description.shapes ?? []).enumerated() {
                let made = try shape.makeShape(on: body, check: check, at: "add.shapes[\(index)]")
                space.add(made)
                if let id = shape.id { shapeNames[ObjectIdentifier(made)] = id }
            }
            nameAddedBody(body, description.id)
        case let .grab(hand, name, at, maxForce):
            let held = body(name)
            guard held.kind == .dynamic else {
                throw SceneError(
                    source: self.name, location: "grab.body",
                    reason: "'\(name.excerpt())' is \(held.kind), and only a dynamic body can be grabbed")
            }
            let handBody = Body(kind: .kinematic)
            handBody.position = at
            space.add(handBody)
            let joint = PivotJoint(a: handBody, b: held, pivot: at)
            joint.maxForce = maxForce
            joint.errorBias = SceneInput.handErrorBias
            space.add(joint)
            nameAddedBody(handBody, hand)
        case .remove(let name):
            let body = body(name)
            for constraint in space.constraints where constraint.bodyA === body || constraint.bodyB === body {
                space.remove(constraint)
            }
            for shape in space.shapes where shape.body === body { space.remove(shape) }
            space.remove(body)  // its name stays with it, for a restore that puts it back
        }
    }
}
