import Chipmunk
import Foundation

extension SceneDescription {
    /// Reads a scene file.
    ///
    /// - Throws: ``SceneError`` naming the file, where in it, and what was wrong.
    public static func load(contentsOf url: URL) throws(SceneError) -> SceneDescription {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "cannot be read"
            throw SceneError(source: url.path, reason: "cannot read the file (\(reason))")
        }
        return try decode(data, source: url.lastPathComponent)
    }

    /// Decodes a scene from JSON; `source` names it in errors.
    public static func decode(_ data: Data, source: String) throws(SceneError) -> SceneDescription {
        do {
            return try JSONDecoder().decode(SceneDescription.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw SceneError(source: source, reason: "not valid JSON: \(syntaxProblem(in: data))")
            }
            throw SceneError(decoding: error, source: source)
        } catch {
            throw SceneError(source: source, reason: "\(error)")
        }
    }

    /// Foundation's JSONDecoder says only "not valid JSON"; JSONSerialization says what and
    /// where, as a character offset, which this turns into a line and column.
    private static func syntaxProblem(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "the data is not in the correct format"
        } catch {
            var detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            if detail.hasSuffix(".") { detail.removeLast() }
            if let range = detail.range(of: "around character "), let offset = Int(detail[range.upperBound...]) {
                let prefix = data.prefix(offset)
                let line = prefix.filter { $0 == UInt8(ascii: "\n") }.count + 1
                let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
                detail = detail[..<range.lowerBound] + "at line \(line), column \(column)"
            }
            return detail
        }
    }

    /// Builds the scene: a new ``Space`` with everything in the description.
    ///
    /// - Parameter source: names the scene in errors, such as its file name; the scene's name by default.
    /// - Throws: ``SceneError`` naming the first value the engine would reject.
    public func makeScene(source: String? = nil) throws(SceneError) -> Scene {
        let source = source ?? name
        let space = Space()
        func fail(_ location: String, _ error: ChipmunkError) -> SceneError {
            let field = error.property.map { "\(location).\($0)" } ?? location
            return SceneError(source: source, location: field, reason: error.reason)
        }
        if let gravity { space.gravity = gravity }
        if let collisionSlop { space.collisionSlop = collisionSlop }
        if let collisionBias { space.collisionBias = collisionBias }
        if let collisionPersistence { space.collisionPersistence = collisionPersistence }
        if let idleSpeedThreshold { space.idleSpeedThreshold = idleSpeedThreshold }
        if let sleepTimeThreshold { space.sleepTimeThreshold = sleepTimeThreshold }
        if let iterations {
            do { try space.setIterations(iterations) } catch { throw SceneError(source: source, location: "iterations", reason: error.reason) }
        }
        if let damping {
            do { try space.setDamping(damping) } catch { throw SceneError(source: source, location: "damping", reason: error.reason) }
        }
        // The step checks these too; checking now names the field.
        for (field, ok) in [("gravity", space.gravity.isFinite),
                            ("collisionSlop", space.collisionSlop >= 0 && space.collisionSlop.isFinite),
                            ("collisionBias", space.collisionBias >= 0 && space.collisionBias.isFinite),
                            ("idleSpeedThreshold", space.idleSpeedThreshold >= 0 && space.idleSpeedThreshold.isFinite),
                            ("sleepTimeThreshold", space.sleepTimeThreshold >= 0)] where !ok {
            throw SceneError(source: source, location: field, reason: "must be finite and not negative")
        }
        for (index, shape) in (staticShapes ?? []).enumerated() {
            do { try space.add(shape.makeShape(on: space.staticBody)) } catch { throw fail("staticShapes[\(index)]", error) }
        }
        for (index, description) in (bodies ?? []).enumerated() {
            let location = "bodies[\(index)]"
            let body: Body
            do { body = try description.makeBody() } catch { throw SceneError(source: source, location: "\(location).\(error.location)", reason: error.reason) }
            do { try space.add(body) } catch { throw fail(location, error) }
            for (shapeIndex, shape) in (description.shapes ?? []).enumerated() {
                do { try space.add(shape.makeShape(on: body)) } catch { throw fail("\(location).shapes[\(shapeIndex)]", error) }
            }
        }
        do {
            return try Scene(name: name, space: space, gravitySchedule: gravitySchedule ?? [], timeStep: timeStep ?? 1.0 / 120.0)
        } catch {
            throw SceneError(source: source, location: error.location, reason: error.reason)
        }
    }
}

extension BodyDescription {
    /// Creates the body (not yet in a space). Errors carry the field that was wrong.
    func makeBody() throws(FieldError) -> Body {
        let body: Body
        switch kind ?? .dynamic {
        case .dynamic:
            guard let mass else { throw FieldError(location: "mass", reason: "is required for a dynamic body") }
            guard let moment else { throw FieldError(location: "moment", reason: "is required for a dynamic body") }
            do { body = try Body(mass: mass, moment: moment.moment(forMass: mass)) }
            catch { throw FieldError(location: error.property ?? "mass", reason: error.reason) }
        case .kinematic, .static:
            if mass != nil || moment != nil {
                throw FieldError(location: mass != nil ? "mass" : "moment", reason: "only a dynamic body has one")
            }
            body = Body(kind: kind == .kinematic ? .kinematic : .static)
        }
        do {
            if let position { try body.setPosition(position) }
            if let velocity { try body.setVelocity(velocity) }
            if let angle { try body.setAngle(angle) }
            if let angularVelocity { try body.setAngularVelocity(angularVelocity) }
        } catch {
            throw FieldError(location: error.property ?? "body", reason: error.reason)
        }
        return body
    }

    struct FieldError: Error {
        var location: String
        var reason: String
    }
}

extension ShapeDescription {
    /// Creates the shape on `body`.
    public func makeShape(on body: Body) throws(ChipmunkError) -> Shape {
        let friction = friction ?? 0, elasticity = elasticity ?? 0, type = collisionType ?? 0
        switch geometry {
        case let .circle(radius, offset):
            return try Circle(body: body, radius: radius, offset: offset, friction: friction, elasticity: elasticity, collisionType: type)
        case let .segment(a, b, radius):
            return try Segment(body: body, from: a, to: b, radius: radius, friction: friction, elasticity: elasticity, collisionType: type)
        case let .polygon(vertices, transform, radius):
            return try Polygon(body: body, vertices: vertices, transform: transform, radius: radius, friction: friction, elasticity: elasticity, collisionType: type)
        case let .box(width, height, radius):
            return try Polygon.box(body: body, width: width, height: height, radius: radius, friction: friction, elasticity: elasticity, collisionType: type)
        }
    }
}

extension ChipmunkError {
    /// The property named by an invalid-value error, as a scene file spells it.
    var property: String? {
        guard case .invalidValue(let property, _, _) = self else { return nil }
        let fileKeys = ["polygon vertices": "vertices", "polygon vertex": "vertices", "polygon transform": "transform",
                        "segment start": "from", "segment end": "to", "box width": "width", "box height": "height"]
        if let key = fileKeys[property] { return key }
        let words = property.split(separator: " ")
        guard let first = words.first else { return nil }
        return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The error without the property name, for messages that give the location first.
    var reason: String {
        guard case let .invalidValue(_, value, rule) = self else { return description }
        return "must be \(rule) (got \(value))"
    }
}

extension SceneError {
    /// A one-line error from a JSON decoding failure, with the path to the bad value.
    init(decoding error: DecodingError, source: String) {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" }
                else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text
        }
        switch error {
        case let .typeMismatch(type, context):
            // Foundation says "Expected to decode Double but found a string instead."
            var found = ""
            if let range = context.debugDescription.range(of: "but found ") {
                found = ", found " + context.debugDescription[range.upperBound...]
                    .replacingOccurrences(of: " instead.", with: "")
            }
            self.init(source: source, location: path(context.codingPath), reason: "expected \(Self.describe(type))\(found)")
        case let .valueNotFound(type, context):
            self.init(source: source, location: path(context.codingPath), reason: "expected \(Self.describe(type)), found null")
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
