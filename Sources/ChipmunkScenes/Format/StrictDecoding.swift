import Chipmunk

/// A coding key for any string: used to list the keys a JSON object really has, and to
/// read objects whose keys are data (input actions, parameters, constraint fields).
package struct AnyCodingKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ string: String) { stringValue = string }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

extension Decoder {
    /// Rejects keys other than `known`, so that a misspelt field ("fricton") is an
    /// error naming it rather than a silently ignored value.
    func rejectUnknownKeys(_ known: [String]) throws {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            let expected = known.map { "'\($0)'" }.joined(separator: ", ")
            let shown = key.stringValue.excerpt()
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [AnyCodingKey(shown)],
                    debugDescription: "unknown key '\(shown)'; expected one of \(expected)"))
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a whole number in `range` (by default `0...UInt32.max`) as a JSON number, so
    /// that `1.5` or `-1` is an error at its path, naming the range the value really has,
    /// rather than a bare "not in the correct format".
    func decodeWholeNumberIfPresent(forKey key: Key, in range: ClosedRange<Int> = 0...Int(UInt32.max)) throws -> Int? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.rounded() == value else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "must be a whole number (got \(value))")
        }
        guard value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            let shown = abs(value) < 1e18 ? "\(Int(value))" : "\(value)"
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription:
                    "must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \(shown))")
        }
        return Int(value)
    }
}

/// A transform as a scene file spells it, `{"a":…, "b":…, "c":…, "d":…, "tx":…, "ty":…}`,
/// with unknown keys rejected.
struct StrictTransform: Decodable {
    var transform: Transform

    private enum CodingKeys: String, CodingKey, CaseIterable { case a, b, c, d, tx, ty }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transform = Transform(
            a: try c.decode(Double.self, forKey: .a), b: try c.decode(Double.self, forKey: .b),
            c: try c.decode(Double.self, forKey: .c), d: try c.decode(Double.self, forKey: .d),
            tx: try c.decode(Double.self, forKey: .tx), ty: try c.decode(Double.self, forKey: .ty))
    }
}
