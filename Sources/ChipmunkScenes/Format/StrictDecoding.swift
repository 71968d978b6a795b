/// A coding key for any string: used to list the keys a JSON object really has.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Rejects keys other than `known`, so that a misspelt field ("fricton") is an
    /// error naming it rather than a silently ignored value.
    func rejectUnknownKeys(_ known: [String]) throws {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            let expected = known.map { "'\($0)'" }.joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [key],
                debugDescription: "unknown key '\(key.stringValue)'; expected one of \(expected)"))
        }
    }
}
