import Foundation

/// A JSON document as a tree that keeps integers exact (collision types are 64-bit).
package enum JSONTree: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([(key: String, value: JSONTree)])

    package static func == (a: JSONTree, b: JSONTree) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.integer(x), .integer(y)): x == y
        case let (.unsigned(x), .unsigned(y)): x == y
        case let (.number(x), .number(y)): x.bitPattern == y.bitPattern
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        default: false
        }
    }

    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    private typealias Key = AnyCodingKey

    package init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            self = .object(try object.allKeys.map { ($0.stringValue, try object.decode(JSONTree.self, forKey: $0)) })
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [JSONTree] = []
            while !array.isAtEnd { items.append(try array.decode(JSONTree.self)) }
            self = .array(items)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? value.decode(Int64.self) {
                self = .integer(integer)
            } else if let unsigned = try? value.decode(UInt64.self) {
                self = .unsigned(unsigned)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let bool):
            var value = encoder.singleValueContainer()
            try value.encode(bool)
        case .integer(let integer):
            var value = encoder.singleValueContainer()
            try value.encode(integer)
        case .unsigned(let unsigned):
            var value = encoder.singleValueContainer()
            try value.encode(unsigned)
        case .number(let number):
            var value = encoder.singleValueContainer()
            try value.encode(number)
        case .string(let string):
            var value = encoder.singleValueContainer()
            try value.encode(string)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(item) }
        case .object(let members):
            var object = encoder.container(keyedBy: Key.self)
            for (key, value) in members { try object.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    /// The tree with every `{"$param": name}` replaced by the named value.
    func replacingReferences(
        _ values: [String: Double], used: inout Set<String>, path: String, source: String
    ) throws(SceneError) -> JSONTree {
        switch self {
        case .array(let items):
            var result: [JSONTree] = []
            for (index, item) in items.enumerated() {
                result.append(
                    try item.replacingReferences(values, used: &used, path: "\(path)[\(index)]", source: source))
            }
            return .array(result)
        case .object(let members):
            if let reference = members.first(where: { $0.key == "$param" })?.value {
                // {"$param": name} or {"$param": name, "scale": k}: the value times k.
                var scale = 1.0
                for (key, value) in members where key != "$param" {
                    guard key == "scale", let number = value.number, number.isFinite else {
                        throw SceneError(
                            source: source, location: path.isEmpty ? key : "\(path).\(key)",
                            reason: key == "scale"
                                ? "must be a finite number" : "a {\"$param\": …} takes only \"scale\" beside it")
                    }
                    scale = number
                }
                guard case .string(let name) = reference else {
                    throw SceneError(source: source, location: path, reason: "$param must name a parameter (a string)")
                }
                guard let value = values[name] else {
                    let known = values.keys.sorted().map { $0.excerpt() }.joined(separator: ", ")
                    throw SceneError(
                        source: source, location: path,
                        reason:
                            "refers to parameter '\(name.excerpt())', which `parameters` does not declare (it declares: \(known))"
                    )
                }
                used.insert(name)
                guard scale != 1 else { return .number(value) }
                let scaled = value * scale
                guard scaled.isFinite else {
                    throw SceneError(
                        source: source, location: path,
                        reason: "parameter '\(name.excerpt())' (\(value)) times scale \(scale) is not finite")
                }
                return .number(scaled)
            }
            var result: [(key: String, value: JSONTree)] = []
            for (key, value) in members {
                let inner = path.isEmpty ? key : "\(path).\(key)"
                result.append((key, try value.replacingReferences(values, used: &used, path: inner, source: source)))
            }
            return .object(result)
        default:
            return self
        }
    }
}
