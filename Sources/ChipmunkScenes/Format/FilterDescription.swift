import Chipmunk

// Format version 2: a shape filter as data (docs/scene-format.md).

/// A shape filter: `{"group": 1, "categories": 2, "mask": 5}`; each key optional.
public struct FilterDescription: Hashable, Sendable, Codable {
    /// Shapes of the same non-zero group never collide; nil is 0.
    public var group: UInt?
    /// The categories the shape is in, a bitmask; nil is all.
    public var categories: UInt32?
    /// The categories the shape collides with, a bitmask; nil is all.
    public var mask: UInt32?

    private enum CodingKeys: String, CodingKey, CaseIterable { case group, categories, mask }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        group = try c.decodeWholeNumberIfPresent(forKey: .group).map(UInt.init)
        for key in [CodingKeys.categories, .mask] {
            if let value = try c.decodeWholeNumberIfPresent(forKey: key), value > Int(UInt32.max) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "must be a whole number from 0 to 4294967295 (32 bits)")
            }
        }
        categories = try c.decodeWholeNumberIfPresent(forKey: .categories).map(UInt32.init)
        mask = try c.decodeWholeNumberIfPresent(forKey: .mask).map(UInt32.init)
    }

    var filter: ShapeFilter {
        ShapeFilter(
            group: .init(rawValue: group ?? 0), categories: .init(rawValue: categories ?? UInt32.max),
            mask: .init(rawValue: mask ?? UInt32.max))
    }
}
