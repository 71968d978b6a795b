import ChipmunkScenes
import Foundation

/// A sweep written as a JSON file (schema: `schemas/sweep.schema.json`):
///
/// ```json
/// {"scene": "drop.json", "seconds": 5,
///  "random": {"count": 100, "seed": 7, "ranges": {"speed": {"log": [1, 1e6]}, "elasticity": [0.1, 0.9]}}}
/// ```
///
/// `scene` (and `from`, a snapshot) are paths relative to the sweep file. Give `steps` or
/// `seconds`, optionally `timeStep`, and exactly one of `grid`, `random` and `table`.
package struct SweepFile: Sendable {
    package var scene: URL
    package var from: URL?
    package var steps: Int?
    package var seconds: Double?
    package var timeStep: Double?
    package var design: SweepDesign
    /// Quantities to follow (`--track`) and bodies whose final state to store (`--body`).
    package var tracked: [String] = []
    package var bodies: [String] = []

    /// Reads a sweep file; errors name the file and the key.
    package static func load(contentsOf url: URL) throws(SweepError) -> SweepFile {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .file(url.path, "cannot read the sweep file: \(error.localizedDescription)")
        }
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: data)
        } catch let error as SweepError {
            throw .file(url.lastPathComponent, "\(error)")
        } catch let DecodingError.keyNotFound(key, context) {
            throw .file(url.lastPathComponent, "\(path(context.codingPath + [key])): is required")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.dataCorrupted(context)
        {
            throw .file(url.lastPathComponent, "\(path(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw .file(url.lastPathComponent, "\(error)")
        }
        let folder = url.deletingLastPathComponent()
        let designs = [raw.grid.map { SweepDesign.grid($0) }, raw.random, raw.table.map { SweepDesign.table($0) }]
            .compactMap { $0 }
        guard designs.count == 1 else {
            throw .file(url.lastPathComponent, "give exactly one of grid, random and table")
        }
        guard (raw.steps == nil) != (raw.seconds == nil) else {
            throw .file(url.lastPathComponent, "give steps or seconds (one of them)")
        }
        if let steps = raw.steps, !(1...100_000_000).contains(steps) {
            throw .file(url.lastPathComponent, "steps: must be from 1 to 100000000 (got \(steps))")
        }
        if let seconds = raw.seconds, !(seconds > 0 && seconds.isFinite) {
            throw .file(url.lastPathComponent, "seconds: must be positive and finite (got \(seconds))")
        }
        if let dt = raw.timeStep, !(dt > 0 && dt.isFinite) {
            throw .file(url.lastPathComponent, "timeStep: must be positive and finite (got \(dt))")
        }
        return SweepFile(
            scene: URL(fileURLWithPath: raw.scene, relativeTo: folder).standardizedFileURL,
            from: raw.from.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL },
            steps: raw.steps, seconds: raw.seconds, timeStep: raw.timeStep, design: designs[0],
            tracked: raw.track ?? [], bodies: raw.bodies ?? [])
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }

    private struct Raw: Decodable {
        var scene: String
        var from: String?
        var steps: Int?
        var seconds: Double?
        var timeStep: Double?
        var grid: [SweepAxis]?
        var random: SweepDesign?
        var table: [[String: Double]]?
        var track: [String]?
        var bodies: [String]?

        private enum Key: String, CodingKey, CaseIterable {
            case schema = "$schema"
            case scene, from, steps, seconds, timeStep, grid, random, table, track, bodies
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            for key in c.allKeys where Key(rawValue: key.stringValue) == nil {
                throw SweepError.badInput(
                    .fileKey(key.stringValue), .notASweepFileKey(known: Key.allCases.map(\.rawValue)))
            }
            scene = try c.decode(String.self, forKey: AnyCodingKey("scene"))
            from = try c.decodeIfPresent(String.self, forKey: AnyCodingKey("from"))
            steps = try c.decodeIfPresent(Int.self, forKey: AnyCodingKey("steps"))
            seconds = try c.decodeIfPresent(Double.self, forKey: AnyCodingKey("seconds"))
            timeStep = try c.decodeIfPresent(Double.self, forKey: AnyCodingKey("timeStep"))
            if c.contains(AnyCodingKey("grid")) {
                let grid = try c.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("grid"))
                self.grid = try grid.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                    try SweepAxis(
                        name: key.stringValue,
                        values: grid.decode(Spec.self, forKey: key).values("grid.\(key.stringValue)"))
                }
            }
            if c.contains(AnyCodingKey("random")) {
                let random = try c.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("random"))
                for key in random.allKeys where !["count", "seed", "ranges"].contains(key.stringValue) {
                    throw SweepError.badInput(
                        .random(key: key.stringValue), .notARandomKey(known: ["count", "seed", "ranges"]))
                }
                let ranges = try random.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("ranges"))
                self.random = .random(
                    count: try random.decode(Int.self, forKey: AnyCodingKey("count")),
                    seed: try random.decode(UInt64.self, forKey: AnyCodingKey("seed")),
                    ranges: try ranges.allKeys.map { key in
                        let spec = try ranges.decode(Spec.self, forKey: key)
                        guard let (low, high, log) = spec.range else {
                            throw SweepError.badInput(.randomRange(key.stringValue), .notARandomRange)
                        }
                        do {
                            return try SweepRange(name: key.stringValue, low: low, high: high, logarithmic: log)
                        } catch SweepError.badInput(_, let problem) {
                            throw SweepError.badInput(.randomRange(key.stringValue), problem)
                        }
                    })
            }
            table = try c.decodeIfPresent([[String: Double]].self, forKey: AnyCodingKey("table"))
            track = try c.decodeIfPresent([String].self, forKey: AnyCodingKey("track"))
            bodies = try c.decodeIfPresent([String].self, forKey: AnyCodingKey("bodies"))
        }
    }

    /// `[1, 2, 5]`, `{"lin": [from, to, count]}`, `{"log": [from, to, count]}`; for random
    /// ranges `[low, high]` or `{"log": [low, high]}`.
    private enum Spec: Decodable {
        case list([Double])
        case lin([Double])
        case log([Double])

        init(from decoder: any Decoder) throws {
            if let list = try? decoder.singleValueContainer().decode([Double].self) {
                self = .list(list)
                return
            }
            let c = try decoder.container(keyedBy: AnyCodingKey.self)
            guard c.allKeys.count == 1, let key = c.allKeys.first, key.stringValue == "lin" || key.stringValue == "log"
            else {
                throw SweepError.badInput(.axis(decoder.codingPath.last?.stringValue ?? "?"), .notAnAxis)
            }
            let values = try c.decode([Double].self, forKey: key)
            self = key.stringValue == "lin" ? .lin(values) : .log(values)
        }

        func values(_ name: String) throws(SweepError) -> [Double] {
            switch self {
            case .list(let values):
                guard !values.isEmpty, values.allSatisfy(\.isFinite) else {
                    throw .badInput(.axis(name), .emptyOrNotFinite)
                }
                return values
            case .lin(let v), .log(let v):
                guard v.count == 3, let count = Int(exactly: v[2]) else {
                    throw .badInput(.axis(name), .notFromToCount)
                }
                let kind: SweepError.RangeKind = if case .lin = self { .lin } else { .log }
                do {
                    return try SweepAxis(parsing: "x=\(kind.rawValue):\(v[0]):\(v[1]):\(count)").values
                } catch {
                    throw .badInput(.axis(name), .malformedFileRange(kind))
                }
            }
        }

        var range: (Double, Double, Bool)? {
            switch self {
            case .list(let v) where v.count == 2: (v[0], v[1], false)
            case .log(let v) where v.count == 2: (v[0], v[1], true)
            default: nil
            }
        }
    }
}
