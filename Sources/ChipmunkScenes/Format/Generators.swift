import Chipmunk

/// Version 2: one body entry that stands for many, placed in a pattern:
/// `{"generate": {"pyramid": {"rows": 14, "origin": [0, 300], "spacing": [32, 32]}}, "mass": 1, …}`.
/// Every generated body is a copy of the entry (its shapes too) at its own position; an
/// `id` becomes a prefix, numbered from 0 in generation order ("box0", "box1", …).
public enum GeneratorDescription: Hashable, Sendable, Codable {
    /// `count` bodies at `origin + k·spacing`.
    case row(count: Int, origin: Vector, spacing: Vector)
    /// `rows` rows of `columns`, bottom row first, each left to right.
    case grid(columns: Int, rows: Int, origin: Vector, spacing: Vector)
    /// Row `i` (from 0 at the top, at `origin`) has `i + 1` bodies at
    /// `origin + (j·dx − i·dx/2, −i·dy)`: Chipmunk's pyramid demos.
    case pyramid(rows: Int, origin: Vector, spacing: Vector)
    /// `count` bodies placed uniformly in the box from `min` to `max` by the project's
    /// splitmix64 seeded with `seed` (x, then y, for each body).
    case random(count: Int, seed: UInt64, min: Vector, max: Vector)

    /// The most bodies one generator may make.
    public static let maxCount = 1_000_000

    private enum Kind: String, CodingKey, CaseIterable { case row, grid, pyramid, random }
    private enum Field: String, CodingKey, CaseIterable { case count, columns, rows, origin, spacing, seed, min, max }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Kind.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: Kind.self)
        guard c.allKeys.count == 1, let kind = c.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "give one pattern: row, grid, pyramid or random"))
        }
        let nested = try c.superDecoder(forKey: kind)
        let f = try c.nestedContainer(keyedBy: Field.self, forKey: kind)
        func count(_ key: Field) throws -> Int {
            let value = try f.decodeWholeNumberIfPresent(forKey: key) ?? -1
            guard (1...Self.maxCount).contains(value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: f, debugDescription: "must be a whole number from 1 to \(Self.maxCount)")
            }
            return value
        }
        let origin = try f.decodeIfPresent(Vector.self, forKey: .origin) ?? .zero
        switch kind {
        case .row:
            try nested.rejectUnknownKeys(["count", "origin", "spacing"])
            self = .row(count: try count(.count), origin: origin, spacing: try f.decode(Vector.self, forKey: .spacing))
        case .grid:
            try nested.rejectUnknownKeys(["columns", "rows", "origin", "spacing"])
            let columns = try count(.columns)
            let rows = try count(.rows)
            guard columns * rows <= Self.maxCount else {
                throw DecodingError.dataCorruptedError(
                    forKey: .rows, in: f, debugDescription: "makes more than \(Self.maxCount) bodies")
            }
            self = .grid(
                columns: columns, rows: rows, origin: origin, spacing: try f.decode(Vector.self, forKey: .spacing))
        case .pyramid:
            try nested.rejectUnknownKeys(["rows", "origin", "spacing"])
            let rows = try count(.rows)
            guard rows <= 1413 else {  // 1413 rows: 998,991 bodies
                throw DecodingError.dataCorruptedError(
                    forKey: .rows, in: f, debugDescription: "makes more than \(Self.maxCount) bodies")
            }
            self = .pyramid(rows: rows, origin: origin, spacing: try f.decode(Vector.self, forKey: .spacing))
        case .random:
            try nested.rejectUnknownKeys(["count", "seed", "min", "max"])
            let min = try f.decode(Vector.self, forKey: .min)
            let max = try f.decode(Vector.self, forKey: .max)
            // As a sweep file's random ranges are: low before high (a reversed box was taken).
            guard min.x <= max.x, min.y <= max.y else {
                throw DecodingError.dataCorruptedError(
                    forKey: .max, in: f,
                    debugDescription: "is below min on an axis (min [\(min.x), \(min.y)], max [\(max.x), \(max.y)])")
            }
            self = .random(count: try count(.count), seed: try f.decode(UInt64.self, forKey: .seed), min: min, max: max)
        }
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Kind.self)
        switch self {
        case let .row(count, origin, spacing):
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .row)
            try f.encode(count, forKey: .count)
            try f.encode(origin, forKey: .origin)
            try f.encode(spacing, forKey: .spacing)
        case let .grid(columns, rows, origin, spacing):
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .grid)
            try f.encode(columns, forKey: .columns)
            try f.encode(rows, forKey: .rows)
            try f.encode(origin, forKey: .origin)
            try f.encode(spacing, forKey: .spacing)
        case let .pyramid(rows, origin, spacing):
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .pyramid)
            try f.encode(rows, forKey: .rows)
            try f.encode(origin, forKey: .origin)
            try f.encode(spacing, forKey: .spacing)
        case let .random(count, seed, min, max):
            var f = c.nestedContainer(keyedBy: Field.self, forKey: .random)
            try f.encode(count, forKey: .count)
            try f.encode(seed, forKey: .seed)
            try f.encode(min, forKey: .min)
            try f.encode(max, forKey: .max)
        }
    }

    /// How many bodies it makes.
    public var count: Int {
        switch self {
        case .row(let count, _, _), .random(let count, _, _, _): count
        case .grid(let columns, let rows, _, _): columns * rows
        case .pyramid(let rows, _, _): rows * (rows + 1) / 2
        }
    }

    /// The positions, in generation order.
    public var positions: [Vector] {
        switch self {
        case let .row(count, origin, spacing):
            return (0..<count).map { origin + spacing * Double($0) }
        case let .grid(columns, rows, origin, spacing):
            return (0..<rows).flatMap { row in
                (0..<columns).map { column in origin + Vector(x: spacing.x * Double(column), y: spacing.y * Double(row))
                }
            }
        case let .pyramid(rows, origin, spacing):
            return (0..<rows).flatMap { i in
                (0...i).map { j in
                    origin + Vector(x: Double(j) * spacing.x - Double(i) * spacing.x / 2, y: -Double(i) * spacing.y)
                }
            }
        case let .random(count, seed, min, max):
            var generator = SplitMix64(seed: seed)
            return (0..<count).map { _ in
                let x = min.x + (max.x - min.x) * generator.nextUnit()
                let y = min.y + (max.y - min.y) * generator.nextUnit()
                return Vector(x: x, y: y)
            }
        }
    }
}

/// Version 2: `"connect"` in a generated body entry joins neighbouring generated bodies with
/// one kind of joint, spring or motor: a chain, a rope, a grid of springs.
///
/// ```json
/// {"id": "link", "generate": {"row": {"count": 8, "origin": [0, 300], "spacing": [30, 0]}},
///  "connect": {"type": "pivot", "anchorA": [15, 0], "anchorB": [-15, 0]},
///  "mass": 1, "moment": 100, "shapes": [{"type": "box", "width": 30, "height": 6}]}
/// ```
///
/// It takes every key of a constraint of its `type` but `a` and `b` (and a pivot's world
/// `pivot`, which would be every pair's): anchors are in each body's own coordinates, the
/// same for every pair. Each joint's `a` is the earlier body in generation order, `b` the
/// later:
/// - `row`, `pyramid`, `random`: each body and the next (n bodies, n − 1 joints);
/// - `grid`: each body and the next in its row, then each body and the one above it
///   (c × r bodies, (c − 1)·r + c·(r − 1) joints).
///
/// The joints are added after every body, before the scene's `constraints`, entry by entry
/// in that order. To hang a chain, add one constraint of your own to its first body
/// (`"b": "link0"`).
public struct ConnectDescription: Hashable, Sendable, Codable {
    /// The joint, with empty `a` and `b`.
    public var constraint: ConstraintDescription

    /// A connect made of a constraint description (its `a` and `b` are ignored).
    public init(constraint: ConstraintDescription) {
        self.constraint = constraint
        self.constraint.a = ""
        self.constraint.b = ""
    }

    /// Decodes the value, naming the key and its rule in any error.
    ///
    /// - Throws: `DecodingError` for a missing key, a wrong type or a value out of range.
    public init(from decoder: any Decoder) throws {
        self.init(constraint: try ConstraintDescription(from: decoder, namesBodies: false))
    }

    /// Encodes the value as the scene format writes it.
    public func encode(to encoder: any Encoder) throws { try constraint.encode(to: encoder) }

    /// The pairs of generated bodies it joins, as indices in generation order.
    public static func pairs(for generator: GeneratorDescription) -> [(Int, Int)] {
        switch generator {
        case let .grid(columns, rows, _, _):
            let along = (0..<rows).flatMap { row in
                (0..<(columns - 1)).map { (row * columns + $0, row * columns + $0 + 1) }
            }
            let up = (0..<(rows - 1)).flatMap { row in
                (0..<columns).map { (row * columns + $0, (row + 1) * columns + $0) }
            }
            return along + up
        default:
            return (0..<max(generator.count - 1, 0)).map { ($0, $0 + 1) }
        }
    }
}
