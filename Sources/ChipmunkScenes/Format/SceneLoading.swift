import Chipmunk
import Foundation

extension SceneDescription {
    /// Reads a scene file.
    ///
    /// - Throws: ``SceneError`` naming the file, where in it, and what was wrong.
    /// `parameters` sets the file's declared parameters (`SceneParameters` reads them); the rest
    /// keep their defaults.
    public static func load(contentsOf url: URL, parameters: [String: Double] = [:]) throws(SceneError)
        -> SceneDescription
    {
        try decode(read(contentsOf: url), source: url.lastPathComponent, parameters: parameters)
    }

    /// A scene file's bytes, read only when it is a regular file no larger than
    /// ``maxFileSize``.
    ///
    /// - Throws: ``SceneError`` naming the file.
    package static func read(contentsOf url: URL) throws(SceneError) -> Data {
        do {
            return try InputFile.read(url.path, kind: "scene file", maxBytes: maxFileSize)
        } catch {
            throw SceneError(source: url.path, reason: error.description)
        }
    }

    /// The largest scene file read: 64 MiB.
    public static let maxFileSize = 64 << 20

    /// Decodes a scene from JSON; `source` names it in errors, and `parameters` sets its
    /// declared parameters.
    public static func decode(
        _ data: Data, source: String, parameters: [String: Double] = [:]
    ) throws(SceneError) -> SceneDescription {
        try SceneTemplate(data, source: source).description(parameters: parameters)
    }

    /// The keys a scene file gives whole numbers for: named when a file gives another number.
    static let wholeNumberKeys: Set<String> = ["version", "iterations", "collisionPersistence", "count"]

    /// Why `data` does not parse as JSON, as one phrase: Foundation's JSONDecoder says only
    /// "not valid JSON"; JSONSerialization says what and where, as a character offset, which
    /// this turns into a line and column. A number too large for a `Double` (1e400), which is
    /// valid JSON, it calls "not representable in Swift", with no place: that is told as the
    /// number, where it is, and the range a number has.
    package static func jsonProblem(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "not valid JSON: the data is not in the correct format"
        } catch {
            var detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            if detail.hasSuffix(".") { detail.removeLast() }
            let unrepresentable = (prefix: "Number ", suffix: " is not representable in Swift")
            if detail.hasPrefix(unrepresentable.prefix), detail.hasSuffix(unrepresentable.suffix) {
                let number = String(
                    detail.dropFirst(unrepresentable.prefix.count).dropLast(unrepresentable.suffix.count))
                let at = offset(ofNumber: number, in: data).map { " " + place(ofOffset: $0, in: data) } ?? ""
                return "the number \(number)\(at) is beyond what a Double holds (magnitudes up to about 1.8e308)"
            }
            if let range = detail.range(of: "around character "), let offset = Int(detail[range.upperBound...]) {
                detail = detail[..<range.lowerBound] + place(ofOffset: offset, in: data)
            }
            return "not valid JSON: " + detail
        }
    }

    /// What Foundation's reader accepts that JSON does not: a comma before a closing `}` or
    /// `]` (`"height": 20,}` ran, and failed the schema check: a helper's attack). Nil for
    /// data without one; the other readers' checks come after this one.
    package static func leniencyProblem(in data: Data) -> String? {
        // The last byte that is not white space (a string counts as its opening quote).
        var previous: (index: Int, byte: UInt8)?
        var problem: Int?
        forEachByteOutsideStrings(in: data) { index, byte in
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): return true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let previous, previous.byte == UInt8(ascii: ",") {
                    problem = previous.index
                    return false
                }
            case UInt8(ascii: ","):
                // A comma after a comma or an opening bracket: not JSON even to Foundation,
                // whose own message says where.
                if previous == nil || "[{,".utf8.contains(previous!.byte) { return false }
            default: break
            }
            previous = (index, byte)
            return true
        }
        return problem.map {
            "not valid JSON: a comma before the closing bracket \(place(ofOffset: $0, in: data)) (JSON allows none there)"
        }
    }

    /// Calls `body` with each byte of `data` outside string literals (and each literal's
    /// opening quote) and its offset, until `body` returns false.
    private static func forEachByteOutsideStrings(in data: Data, _ body: (Int, UInt8) -> Bool) {
        var inString = false
        var escaped = false
        for (index, byte) in data.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                if !body(index, byte) { return }
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
    }

    /// "at line L, column C" of the byte `offset` bytes into `data` (a slice of other data too).
    private static func place(ofOffset offset: Int, in data: Data) -> String {
        let prefix = data.prefix(offset)
        let line = prefix.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 - data.startIndex } ?? 0
        return "at line \(line), column \(offset - lineStart + 1)"
    }

    /// Where the number literal `number` first stands in `data` as a number of its own (not
    /// inside a string, nor part of a longer number).
    private static func offset(ofNumber number: String, in data: Data) -> Int? {
        let bytes = [UInt8](data)
        let literal = Array(number.utf8)
        guard !literal.isEmpty else { return nil }
        func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.eE".utf8.contains(byte)
        }
        var found: Int?
        var afterNumberByte = false
        forEachByteOutsideStrings(in: data) { index, byte in
            defer { afterNumberByte = isNumberByte(byte) }
            guard isNumberByte(byte), !afterNumberByte else { return true }
            var end = index
            while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
            guard bytes[index..<end].elementsEqual(literal) else { return true }
            found = index
            return false
        }
        return found
    }

    /// Builds the scene: a new `Space` with everything in the description.
    ///
    /// Every value is checked with `Parameter/check(_:)-(Double)` (and polygons with
    /// `Polygon/check(vertices:transform:radius:)`) before it reaches the API, so no
    /// file can stop the program.
    ///
    /// - Parameter source: names the scene in errors, such as its file name; the scene's name by default.
    /// - Throws: ``SceneError`` naming the first value the engine would reject, by its path.
    public func makeScene(source: String? = nil) throws(SceneError) -> Scene {
        let check = SceneCheck(source: source ?? name)
        let space = Space()
        if let gravity { space.gravity = try check(.spaceGravity, gravity, at: "") }
        if let collisionSlop { space.collisionSlop = try check(.spaceCollisionSlop, collisionSlop, at: "") }
        if let collisionBias { space.collisionBias = try check(.spaceCollisionBias, collisionBias, at: "") }
        if let collisionPersistence {
            space.collisionPersistence = Int(
                try check(.spaceCollisionPersistence, Double(collisionPersistence), at: ""))
        }
        if let idleSpeedThreshold {
            space.idleSpeedThreshold = try check(.spaceIdleSpeedThreshold, idleSpeedThreshold, at: "")
        }
        if let sleepTimeThreshold {
            space.sleepTimeThreshold = try check(.spaceSleepTimeThreshold, sleepTimeThreshold, at: "")
        }
        if let iterations { space.iterations = Int(try check(.spaceIterations, Double(iterations), at: "")) }
        if let damping { space.damping = try check(.spaceDamping, damping, at: "") }
        let timeStep = try check(.spaceTimeStep, self.timeStep ?? 1.0 / 120.0, at: "")
        for (index, change) in (gravitySchedule ?? []).enumerated() {
            let location = "gravitySchedule[\(index)]"
            _ = try check(.spaceGravity, change.gravity, at: location)
            guard change.time >= 0, change.time.isFinite else {
                throw SceneError(
                    source: check.source, location: "\(location).time",
                    reason: "must be zero or more, and finite (got \(change.time))")
            }
        }
        let isVersion2 = (version ?? 1) >= 2
        if let broadPhase {
            let cellSize = try check(
                .spatialHashCellSize, broadPhase.cellSize, at: "broadPhase.spatialHash", key: "cellSize")
            let count = try check(
                .spatialHashCount, Double(broadPhase.count), at: "broadPhase.spatialHash", key: "count")
            space.useSpatialHash(cellSize: cellSize, count: Int(count))
        }
        var shapeNames: [ObjectIdentifier: String] = [:]
        var shapeIDs: Set<String> = []
        func register(_ made: Shape, _ shape: ShapeDescription, at location: String) throws(SceneError) {
            guard let id = shape.id else { return }
            guard !id.isEmpty, shapeIDs.insert(id).inserted else {
                throw SceneError(
                    source: check.source, location: "\(location).id",
                    reason: "'\(id)' is empty or taken by another shape")
            }
            shapeNames[ObjectIdentifier(made)] = id
        }
        let total = (bodies ?? []).reduce(0) { $0 + ($1.generate?.count ?? 1) }
        guard total <= GeneratorDescription.maxCount else {
            throw SceneError(
                source: check.source, location: "bodies",
                reason: "makes \(total) bodies; a scene may have at most \(GeneratorDescription.maxCount)")
        }
        // Pairs of shapes that could collide, counted before each add: the engine records
        // them as each shape is added, so a pile on one point is refused before it claims
        // the memory.
        let overlapLimit = Self.startingOverlapLimit(bodies: total)
        var overlapping = 0
        func admit(_ made: Shape, at location: String) throws(SceneError) {
            overlapping += space.overlappingPairs(with: made, limit: overlapLimit - overlapping)
            guard overlapping <= overlapLimit else {
                throw SceneError(
                    source: check.source, location: location,
                    reason: "with this shape, more than \(overlapLimit) pairs of shapes overlap before the first "
                        + "step, each moving shape with the way it covers in a tenth of a second (the engine would "
                        + "keep and solve a contact for each, about 560 bytes); spread the bodies out")
            }
            space.add(made)
        }
        for (index, shape) in (staticShapes ?? []).enumerated() {
            let location = "staticShapes[\(index)]"
            if shape.usesVersion2, !isVersion2 { throw check.needsVersion2(at: location) }
            let made = try shape.makeShape(on: space.staticBody, check: check, at: location)
            try register(made, shape, at: location)
            try admit(made, at: location)
        }
        var bodiesByID: [String: Body] = ["static": space.staticBody]
        var names: [ObjectIdentifier: String] = [ObjectIdentifier(space.staticBody): "static"]
        var connected:
            [(location: String, connect: ConnectDescription, generator: GeneratorDescription, bodies: [Body])] = []
        for (index, entry) in (bodies ?? []).enumerated() {
            let location = "bodies[\(index)]"
            if let connect = entry.connect, let generate = entry.generate {
                connected.append(("\(location).connect", connect, generate, []))
            }
            if entry.id != nil, !isVersion2 { throw check.needsVersion2(at: "\(location).id") }
            if entry.generate != nil, !isVersion2 { throw check.needsVersion2(at: "\(location).generate") }
            for (description, name, id) in entry.expanded(index: index) {
                if let id {
                    guard !id.isEmpty, bodiesByID[id] == nil else {
                        throw SceneError(
                            source: check.source, location: "\(location).id",
                            reason: id == "static"
                                ? "'static' names the space's static body" : "'\(id)' is empty or taken by another body"
                        )
                    }
                }
                let massFromShapes =
                    isVersion2 && description.mass == nil && description.moment == nil
                    && !(description.shapes ?? []).isEmpty
                    && (description.shapes ?? []).allSatisfy { $0.mass != nil || $0.density != nil }
                let body = massFromShapes ? Body(kind: .dynamic) : try description.makeBody(check: check, at: location)
                if massFromShapes { try description.setMotion(of: body, check: check, at: location) }
                space.add(body)
                if entry.connect != nil { connected[connected.count - 1].bodies.append(body) }
                if let id { bodiesByID[id] = body }
                names[ObjectIdentifier(body)] = name
                for (shapeIndex, shape) in (description.shapes ?? []).enumerated() {
                    let shapeLocation = "\(location).shapes[\(shapeIndex)]"
                    if shape.usesVersion2, !isVersion2 { throw check.needsVersion2(at: shapeLocation) }
                    let made = try shape.makeShape(on: body, check: check, at: shapeLocation)
                    try register(made, shape, at: shapeLocation)
                    try admit(made, at: shapeLocation)
                }
            }
        }
        for (location, connect, generator, made) in connected {
            for (first, second) in ConnectDescription.pairs(for: generator) {
                space.add(try connect.constraint.make(a: made[first], b: made[second], check: check, at: location))
            }
        }
        let scene = Scene(name: name, space: space, gravitySchedule: gravitySchedule ?? [], timeStep: timeStep)
        scene.shapeNames = shapeNames
        if isVersion2 {
            scene.bodyNames = names
            try addVersion2(to: space, scene: scene, bodies: bodiesByID, check: check)
            if let inputs {
                var names = Set(names.values)
                let ordered = inputs.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                for (index, input) in ordered { try input.check(check, at: "inputs[\(index)]", names: &names) }
                // A hand holds only a dynamic body: a body the file places is known by its kind
                // here (one an input adds is dynamic unless it says otherwise).
                var kinds = Dictionary(names.map { ($0, Body.Kind.dynamic) }, uniquingKeysWith: { a, _ in a })
                for (body, name) in scene.bodyNames ?? [:] {
                    if let made = space.bodies.first(where: { ObjectIdentifier($0) == body }) {
                        kinds[name] = made.kind
                    }
                }
                for (index, input) in ordered {
                    if case .add(let description) = input.action, let id = description.id {
                        kinds[id] = (try? description.makeBody(check: check, at: ""))?.kind ?? .dynamic
                    }
                    guard case .grab(_, let body, _, _) = input.action, let kind = kinds[body], kind != .dynamic else {
                        continue
                    }
                    throw SceneError(
                        source: check.source, location: "inputs[\(index)].grab.body",
                        reason: "'\(body)' is \(kind), and only a dynamic body can be grabbed")
                }
                // A body an input adds must fit the spatial hash too: checked here, where the space is known.
                for (index, input) in ordered {
                    guard case .add(let description) = input.action, space.usesSpatialHash else { continue }
                    let body = try description.makeBody(check: check, at: "inputs[\(index)].add")
                    for (shapeIndex, shape) in (description.shapes ?? []).enumerated() {
                        let location = "inputs[\(index)].add.shapes[\(shapeIndex)]"
                        let made = try shape.makeShape(on: body, check: check, at: location)
                        do { try space.checkSpatialHashFit(of: made) } catch { throw check.error(error, at: location) }
                    }
                }
                scene.setInputs(inputs)
            }
        }
        return scene
    }

    /// The most pairs of shapes a file's space may start with overlapping: 100,000, or 16
    /// a body in larger scenes (a grid of touching boxes has about 4 a body). A pile on one
    /// point claims memory and time with the square of its size (docs/scene-format.md).
    static func startingOverlapLimit(bodies: Int) -> Int { max(100_000, 16 * bodies) }
}

/// Checks the values of one scene file, naming each by its path in the file.
struct SceneCheck {
    let source: String

    /// The JSON key of each parameter a scene file can set: the one table that turns an
    /// API parameter into a path in the file.
    static let jsonKeys: [Parameter: String] = [
        .spaceGravity: "gravity", .spaceCollisionSlop: "collisionSlop", .spaceCollisionBias: "collisionBias",
        .spaceCollisionPersistence: "collisionPersistence", .spaceIdleSpeedThreshold: "idleSpeedThreshold",
        .spaceSleepTimeThreshold: "sleepTimeThreshold", .spaceIterations: "iterations", .spaceDamping: "damping",
        .spaceTimeStep: "timeStep",
        .bodyMass: "mass", .bodyMoment: "moment", .bodyPosition: "position", .bodyVelocity: "velocity",
        .bodyAngle: "angle", .bodyAngularVelocity: "angularVelocity",
        .shapeFriction: "friction", .shapeElasticity: "elasticity", .circleRadius: "radius", .circleOffset: "offset",
        .segmentEnd: "from", .segmentRadius: "radius", .polygonVertex: "vertices", .polygonTransform: "transform",
        .polygonRadius: "radius", .boxSize: "width",
        .shapeMass: "mass", .shapeDensity: "density", .shapeSurfaceVelocity: "surfaceVelocity",
    ]

    /// The error for a version-2 key in a version-1 file.
    func needsVersion2(at location: String) -> SceneError {
        SceneError(
            source: source, location: location, reason: "uses keys of format version 2; add \"version\": 2 to the file")
    }

    /// The path of `parameter` under `location`.
    func path(_ parameter: Parameter, at location: String, key: String? = nil) -> String {
        let key = key ?? Self.jsonKeys[parameter] ?? parameter.rawValue
        return location.isEmpty ? key : "\(location).\(key)"
    }

    /// The error for `error`, raised by the value at `location`.
    func error(_ error: ChipmunkError, at location: String, key: String? = nil) -> SceneError {
        switch error {
        case .invalidValue(let parameter, _):
            return SceneError(source: source, location: path(parameter, at: location, key: key), reason: error.reason)
        default:
            return SceneError(
                source: source, location: key.map { "\(location).\($0)" } ?? location, reason: error.reason)
        }
    }

    /// Returns `value` if it keeps the rule of `parameter`; throws an error at its path otherwise.
    func callAsFunction(_ parameter: Parameter, _ value: Double, at location: String, key: String? = nil)
        throws(SceneError) -> Double
    {
        do { try parameter.check(value) } catch { throw self.error(error, at: location, key: key) }
        return value
    }

    /// Returns `value` if both components keep the rule of `parameter`.
    func callAsFunction(_ parameter: Parameter, _ value: Vector, at location: String, key: String? = nil)
        throws(SceneError) -> Vector
    {
        do { try parameter.check(value) } catch { throw self.error(error, at: location, key: key) }
        return value
    }
}

extension BodyDescription {
    /// Creates the body (not yet in a space), every value checked.
    func makeBody(check: SceneCheck, at location: String) throws(SceneError) -> Body {
        let body: Body
        switch kind ?? .dynamic {
        case .dynamic:
            guard let mass else {
                throw SceneError(
                    source: check.source, location: "\(location).mass", reason: "is required for a dynamic body")
            }
            guard let moment else {
                throw SceneError(
                    source: check.source, location: "\(location).moment", reason: "is required for a dynamic body")
            }
            body = Body(
                mass: try check(.bodyMass, mass, at: location),
                moment: try check(
                    .bodyMoment, moment.checkedMoment(forMass: mass, check: check, at: location), at: location))
        case .kinematic, .static:
            if mass != nil || moment != nil {
                throw SceneError(
                    source: check.source, location: "\(location).\(mass != nil ? "mass" : "moment")",
                    reason: "only a dynamic body has one")
            }
            body = Body(kind: kind == .kinematic ? .kinematic : .static)
        }
        try setMotion(of: body, check: check, at: location)
        return body
    }

    /// Sets the body's position, velocity, angle and angular velocity, every value checked.
    func setMotion(of body: Body, check: SceneCheck, at location: String) throws(SceneError) {
        if let position { body.position = try check(.bodyPosition, position, at: location) }
        if let velocity { body.velocity = try check(.bodyVelocity, velocity, at: location) }
        if let angle { body.angle = try check(.bodyAngle, angle, at: location) }
        if let angularVelocity { body.angularVelocity = try check(.bodyAngularVelocity, angularVelocity, at: location) }
    }
}

extension MomentDescription {
    /// The moment for a body of `mass`, every number checked first by the rule of the shape
    /// it describes (a box of width -32 stopped `Moment.box` before).
    func checkedMoment(forMass mass: Double, check: SceneCheck, at location: String) throws(SceneError) -> Double {
        let here = "\(location).moment"
        switch self {
        case .value: break
        case let .box(width, height):
            _ = try check(.boxSize, width, at: "\(here).box", key: "width")
            _ = try check(.boxSize, height, at: "\(here).box", key: "height")
        case let .circle(inner, outer, offset):
            _ = try check(.circleRadius, inner, at: "\(here).circle", key: "innerRadius")
            _ = try check(.circleRadius, outer, at: "\(here).circle", key: "outerRadius")
            _ = try check(.circleOffset, offset, at: "\(here).circle", key: "offset")
        case let .segment(a, b, radius):
            _ = try check(.segmentEnd, a, at: "\(here).segment", key: "from")
            _ = try check(.segmentEnd, b, at: "\(here).segment", key: "to")
            _ = try check(.segmentRadius, radius, at: "\(here).segment", key: "radius")
        case let .polygon(vertices, offset, radius):
            for vertex in vertices { _ = try check(.polygonVertex, vertex, at: "\(here).polygon", key: "vertices") }
            _ = try check(.polygonTransform, offset, at: "\(here).polygon", key: "offset")
            _ = try check(.polygonRadius, radius, at: "\(here).polygon", key: "radius")
            let area = vertices.count == 2 ? 1 : Area.polygon(vertices: vertices)
            guard area != 0, area.isFinite else {
                throw SceneError(
                    source: check.source, location: "\(here).polygon.vertices",
                    reason: "must be 2 points or enclose an area (got \(vertices.count) points with area \(area))")
            }
        }
        return moment(forMass: mass)
    }
}

extension ShapeDescription {
    /// Creates the shape on `body`, every value checked.
    func makeShape(on body: Body, check: SceneCheck, at location: String) throws(SceneError) -> Shape {
        let shape = try makeGeometry(on: body, check: check, at: location)
        if let space = body.space {
            do { try space.checkSpatialHashFit(of: shape) } catch { throw check.error(error, at: location) }
        }
        if let mass {
            do { try shape.check(mass: mass) } catch { throw check.error(error, at: location, key: "mass") }
            shape.mass = mass
        }
        if let density {
            do { try shape.check(density: density) } catch { throw check.error(error, at: location, key: "density") }
            shape.density = density
        }
        if let sensor { shape.isSensor = sensor }
        if let filter { shape.filter = filter.filter }
        if let surfaceVelocity {
            shape.surfaceVelocity = try check(.shapeSurfaceVelocity, surfaceVelocity, at: location)
        }
        return shape
    }

    private func makeGeometry(on body: Body, check: SceneCheck, at location: String) throws(SceneError) -> Shape {
        let friction = try check(.shapeFriction, friction ?? 0, at: location)
        let elasticity = try check(.shapeElasticity, elasticity ?? 0, at: location)
        let type = CollisionType(rawValue: collisionType ?? 0)
        switch geometry {
        case let .circle(radius, offset):
            return Circle(
                body: body, radius: try check(.circleRadius, radius, at: location),
                offset: try check(.circleOffset, offset, at: location),
                friction: friction, elasticity: elasticity, collisionType: type)
        case let .segment(a, b, radius):
            return Segment(
                body: body, from: try check(.segmentEnd, a, at: location, key: "from"),
                to: try check(.segmentEnd, b, at: location, key: "to"),
                radius: try check(.segmentRadius, radius, at: location),
                friction: friction, elasticity: elasticity, collisionType: type)
        case let .polygon(vertices, transform, radius):
            do {
                try Polygon.check(vertices: vertices, transform: transform, radius: radius)
            } catch {
                throw check.error(error, at: location, key: error.isAboutVertices ? "vertices" : nil)
            }
            return Polygon(
                body: body, vertices: vertices, transform: transform, radius: radius,
                friction: friction, elasticity: elasticity, collisionType: type)
        case let .box(width, height, radius):
            return Polygon.box(
                body: body, width: try check(.boxSize, width, at: location, key: "width"),
                height: try check(.boxSize, height, at: location, key: "height"),
                radius: try check(.polygonRadius, radius, at: location),
                friction: friction, elasticity: elasticity, collisionType: type)
        }
    }
}

extension ChipmunkError {
    /// Whether a polygon check failed on the vertex list as a whole.
    fileprivate var isAboutVertices: Bool {
        if case .invalidGeometry = self { return true }
        return false
    }
}

extension SceneError {
    /// A one-line error from a JSON decoding failure, with the path to the bad value.
    package init(decoding error: DecodingError, source: String) {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }
        switch error {
        case let .typeMismatch(type, context):
            // Foundation says "Expected to decode Double but found a string instead."
            var found = ""
            if let range = context.debugDescription.range(of: "but found ") {
                found =
                    ", found "
                    + context.debugDescription[range.upperBound...]
                    .replacingOccurrences(of: " instead.", with: "")
            }
            self.init(
                source: source, location: path(context.codingPath), reason: "expected \(Self.describe(type))\(found)")
        case let .valueNotFound(type, context):
            self.init(
                source: source, location: path(context.codingPath),
                reason: "expected \(Self.describe(type)), found null")
        case let .keyNotFound(key, context):
            self.init(source: source, location: path(context.codingPath + [key]), reason: "is required")
        case let .dataCorrupted(context):
            self.init(source: source, location: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self.init(source: source, reason: "\(error)")
        }
        self.reason = self.reason.replacingOccurrences(of: "\n", with: " ")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is UInt.Type: return "a number"
        case is String.Type: return "a string"
        case is Vector.Type: return "a vector [x, y]"
        case is [String: Any].Type: return "a JSON object"
        case is [Any].Type: return "a JSON array"
        default: return "\(type)"
        }
    }
}
