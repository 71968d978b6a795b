import Chipmunk

// Format version 2: the broad phase as data (docs/scene-format.md).

/// `{"spatialHash": {"cellSize": 20, "count": 1000}}`: the engine's spatial hash instead of its tree.
public struct BroadPhaseDescription: Hashable, Sendable, Codable {
    /// The hash cell's size, in the scene's units.
    public var cellSize: Double
    /// The number of hash buckets to start with.
    public var count: Int

    private enum Outer: String, CodingKey, CaseIterable { case spatialHash }
    private enum Inner: String, CodingKey, CaseIterable { case cellSize, count }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Outer.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Outer.self)
        let inner = try c.superDecoder(forKey: .spatialHash)
        try inner.rejectUnknownKeys(Inner.allCases.map(\.rawValue))
        let f = try inner.container(keyedBy: Inner.self)
        cellSize = try f.decode(Double.self, forKey: .cellSize)
        count = try f.decodeWholeNumberIfPresent(forKey: .count, in: 1...10_000_000) ?? 1000
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Outer.self)
        var f = c.nestedContainer(keyedBy: Inner.self, forKey: .spatialHash)
        try f.encode(cellSize, forKey: .cellSize)
        try f.encode(count, forKey: .count)
    }
}
