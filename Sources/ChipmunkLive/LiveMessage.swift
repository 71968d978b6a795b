import Chipmunk
import Foundation
import ChipmunkScenes

/// What a viewer's page sends, one JSON object per WebSocket text message
/// (docs/live.md lists them): `{"type": "grab", "x": 120, "y": 80}`.
package enum LiveMessage: Equatable, Sendable {
    /// Ask for the scene's description again (sent on connecting, and when a frame names a
    /// structure the page has not seen).
    case hello
    /// Take hold of the dynamic body at a world point, with one of the viewer's hands: a
    /// finger on a touch screen (0 to 9; the mouse is 0). Each finger holds its own body.
    case grab(Vector, finger: Int = 0)
    /// Move a finger's hand to a world point.
    case move(Vector, finger: Int = 0)
    /// A finger lets go.
    case release(finger: Int = 0)
    /// A flick: the body at a point gains a velocity there.
    case push(at: Vector, velocity: Vector)
    /// Gravity, from a phone's tilt or the arrow keys.
    case tilt(Vector)
    case pause
    case resume
    case step
    case speed(Double)
    case restart
    /// Go back to the latest kept state at or before a step, paused.
    case scrub(step: Int)
    /// Describe the body at a world point.
    case inspect(Vector)
    /// Snap mode's tap: on a body, choose it; elsewhere, snap the chosen body there.
    case snap(Vector)

    /// The fingers a viewer may hold bodies with at once: ten, as a touch screen has.
    package static let fingers = 0...9
    /// The most bytes a message may have: a message is a few numbers.
    package static let maximumBytes = 1024
    /// Coordinates and vectors beyond this are refused: no scene is that large, and the
    /// hand's speed (a distance over one step) stays far from overflowing.
    package static let maximumCoordinate = 1e7
    /// A flick's velocity change, at most, in units per second.
    package static let maximumPushSpeed = 1e4
    /// Gravity from a tilt, at most: the space's own bound (``Parameter/spaceGravity``). The
    /// page turns the scene's own gravity, so a bound of its own (it was 1e5) disconnected
    /// a viewer of a scene whose gravity was stronger at the first ↓ (a helper's attack).
    package static let maximumGravity = Parameter.maxCoordinate

    /// Why a message was refused: what was wrong, and the value.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Over ``maximumBytes``.
        case tooLarge(bytes: Int)
        /// Not a JSON object.
        case notJSON
        /// A binary message: the page sends text.
        case binary
        /// `type` is missing or unknown.
        case unknownType(String?)
        /// `type` is there, but not a string (or one JSON escapes make no text of: "\ud800").
        case typeNotAString
        /// A field is missing or not a number.
        case missing(field: String, type: String)
        /// A number a `Double` cannot hold (`1e400`, `1e-400`): JSON has no limit, a Double does.
        case unrepresentable(field: String, type: String)
        /// A key given twice in the message (`{"type":"pause","type":"grab"}`): JSON decoders
        /// keep one of the two without a word.
        case duplicateKey(String)
        /// A number outside its range.
        case outOfRange(field: String, value: Double, range: ClosedRange<Double>)
        /// A fraction where a count is meant (a finger, a step).
        case notWhole(field: String, value: Double)

        package var description: String {
            switch self {
            case .tooLarge(let bytes): "message of \(bytes) bytes (at most \(LiveMessage.maximumBytes))"
            case .notJSON: "not a JSON object"
            case .binary: "binary message (send JSON text)"
            case .unknownType(let type):
                // Quoted as Swift writes a string: a NUL or a line break shows as \0 or \n.
                type.map { "unknown type \(String(reflecting: String($0.prefix(40))))" } ?? "no \"type\""
            case .typeNotAString: "\"type\" is not a string of text"
            case .missing(let field, let type): "\(type): \"\(field)\" missing or not a number"
            case .unrepresentable(let field, let type):
                "\(type): \"\(field)\" is a number a Double cannot hold (beyond ±1.8e308, or nearer 0 than 5e-324), "
                    + "which no field takes"
            case .duplicateKey(let key): "\"\(key)\" is given twice"
            case .outOfRange(let field, let value, let range):
                "\"\(field)\" is \(value), outside \(range.lowerBound)...\(range.upperBound)"
            case .notWhole(let field, let value): "\"\(field)\" is \(value), not a whole number"
            }
        }
    }

    /// `reason` as a WebSocket close frame carries it: at most 123 bytes of UTF-8, cut
    /// after a whole character.
    package static func closeReason(_ reason: String) -> String {
        var kept = ""
        for character in reason {
            guard kept.utf8.count + character.utf8.count <= 123 else { break }
            kept.append(character)
        }
        return kept
    }

    /// Reads a message.
    ///
    /// - Throws: ``Problem``, naming the field.
    package init(text: String) throws(Problem) {
        let count = text.utf8.count
        guard count <= Self.maximumBytes else { throw .tooLarge(bytes: count) }
        guard let object = try? JSONDecoder().decode([String: Field].self, from: Data(text.utf8)) else {
            throw .notJSON
        }
        if let key = DuplicateKeys.first(in: Array(text.utf8)) { throw .duplicateKey(key) }
        guard let typeField = object["type"] else { throw .unknownType(nil) }
        guard case .string(let type) = typeField else { throw .typeNotAString }
        func number(_ field: String, _ range: ClosedRange<Double>) throws(Problem) -> Double {
            if case .huge = object[field] { throw .unrepresentable(field: field, type: type) }
            guard case .number(let value) = object[field] else { throw .missing(field: field, type: type) }
            guard range.contains(value) else { throw .outOfRange(field: field, value: value, range: range) }
            return value
        }
        func whole(_ field: String, _ range: ClosedRange<Int>) throws(Problem) -> Int {
            let value = try number(field, Double(range.lowerBound)...Double(range.upperBound))
            guard value == value.rounded(.towardZero) else { throw .notWhole(field: field, value: value) }
            return Int(value)
        }
        /// The hand's finger: 0 when the message names none (a mouse, an older page).
        func finger() throws(Problem) -> Int { object["finger"] == nil ? 0 : try whole("finger", Self.fingers) }
        let c = -Self.maximumCoordinate...Self.maximumCoordinate
        func point() throws(Problem) -> Vector { Vector(x: try number("x", c), y: try number("y", c)) }
        switch type {
        case "hello": self = .hello
        case "grab": self = .grab(try point(), finger: try finger())
        case "move": self = .move(try point(), finger: try finger())
        case "release": self = .release(finger: try finger())
        case "push":
            let s = -Self.maximumPushSpeed...Self.maximumPushSpeed
            self = .push(at: try point(), velocity: Vector(x: try number("vx", s), y: try number("vy", s)))
        case "tilt":
            let g = -Self.maximumGravity...Self.maximumGravity
            self = .tilt(Vector(x: try number("gx", g), y: try number("gy", g)))
        case "pause": self = .pause
        case "resume": self = .resume
        case "step": self = .step
        case "speed": self = .speed(try number("value", LiveSession.speeds))
        case "restart": self = .restart
        case "scrub": self = .scrub(step: try whole("step", 0...1_000_000_000_000))
        case "inspect": self = .inspect(try point())
        case "snap": self = .snap(try point())
        default: throw .unknownType(type)
        }
    }

    /// A member's value: a number, a string, a number too large for a Double, or anything
    /// else (which no field takes).
    private enum Field: Decodable {
        case number(Double)
        case string(String)
        case huge
        case other

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let value = try? c.decode(Bool.self) {
                _ = value
                self = .other
            } else if let value = try? c.decode(Double.self) {
                self = .number(value)
            } else if let value = try? c.decode(String.self) {
                self = .string(value)
            } else if c.decodeNil() || (try? c.decode([Field].self)) != nil
                || (try? c.decode([String: Field].self)) != nil
            {
                self = .other
            } else {
                self = .huge  // a JSON number, but none a Double holds
            }
        }
    }
}
