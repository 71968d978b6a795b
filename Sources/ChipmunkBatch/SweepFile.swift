import Chipmunk
import ChipmunkScenes
import Foundation

/// A sweep written as a JSON file (schema: `schemas/sweep.schema.json`):
///
/// ```json
/// {"scene": "drop.json", "seconds": 5,
///  "random": {"count": 100, "seed": 7, "ranges": {"speed": {"log": [1, 1e6]}, "elasticity": [0.1, 0.9]}}}
/// ```
///
/// `scene` (and `from`, a snapshot) are paths relative to the sweep file; `scene` may also
/// be a built-in scene's name (`crates`) when no file of that name is there. Give `steps` or
/// `seconds`, optionally `timeStep`, and exactly one of `grid`, `random` and `table`.
package struct SweepFile: Sendable {
    package var scene: URL
    /// `scene` as the file gives it: a built-in scene's name, when no file is at ``scene``.
    package var sceneAsGiven: String
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
            data = try InputFile.read(url.path, kind: "sweep file")
        } catch {
            throw .file(url.path, "\(error)")
        }
        let name = url.lastPathComponent
        if let problem = SceneDescription.leniencyProblem(in: data) { throw .file(name, problem) }
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: data)
        } catch let error as SweepError {
            throw .file(name, "\(error)")
        } catch let error as DecodingError {
            // The words of a scene file's and a recording's errors: a path into the file and
            // the rule, or where the JSON breaks (Foundation called a step of 1.5 "not valid JSON").
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw .file(
                    name,
                    WholeNumbers.firstProblem(in: data, keys: ["steps", "count"])
                        ?? SceneDescription.jsonProblem(in: data))
            }
            throw .scene(SceneError(decoding: error, source: name))
        } catch {
            throw .file(name, "\(error)")
        }
        // Foundation keeps one of two values for a key given twice, without a word.
        if let repeated = DuplicateKeys.first(in: Array(data)) {
            throw .file(name, "\(repeated): appears twice in one object; give each key once")
        }
        let folder = url.deletingLastPathComponent()
        let designs = [raw.grid.map { SweepDesign.grid($0) }, raw.random, raw.table.map { SweepDesign.table($0) }]
            .compactMap { $0 }
        guard designs.count == 1 else {
            throw .file(name, "give exactly one of grid, random and table")
        }
        // The file's own mistakes name the file and its key, not a command-line option.
        do {
            try designs[0].checkSize(grid: .fileKey("grid"))
        } catch {
            throw .file(name, "\(error)")
        }
        for (index, text) in (raw.track ?? []).enumerated() {
            do {
                _ = try TrackedQuantity(parsing: text)
            } catch {
                guard case .badInput(_, let problem) = error else { throw .file(name, "\(error)") }
                throw .file(name, "\(SweepError.badInput(.fileKey("track[\(index)]"), problem))")
            }
        }
        // A quantity or body given twice was stored twice under one name.
        let trackedNames = (raw.track ?? []).map { (try? TrackedQuantity(parsing: $0))?.name ?? $0 }
        for (key, items) in [("track", trackedNames), ("bodies", raw.bodies ?? [])] {
            var first: [String: Int] = [:]
            for (index, item) in items.enumerated() {
                if let earlier = first[item] {
                    throw .file(name, "\(key)[\(index)]: repeats \(key)[\(earlier)] ('\(item)'); give each once")
                }
                first[item] = index
            }
        }
        guard (raw.steps == nil) != (raw.seconds == nil) else {
            throw .file(name, "give steps or seconds (one of them)")
        }
        if let steps = raw.steps, !(1...100_000_000).contains(steps) {
            throw .file(name, "steps: must be from 1 to 100000000 (got \(steps))")
        }
        if let seconds = raw.seconds, !(seconds > 0 && seconds.isFinite) {
            throw .file(name, "seconds: must be positive and finite (got \(seconds))")
        }
        if let dt = raw.timeStep, !Parameter.spaceTimeStep.accepts(dt) {
            throw .file(name, "timeStep: \(ChipmunkError.invalidValue(.spaceTimeStep, dt).reason)")
        }
        return SweepFile(
            scene: URL(fileURLWithPath: raw.scene, relativeTo: folder).standardizedFileURL, sceneAsGiven: raw.scene,
            from: raw.from.map { URL(fileURLWithPath: $0, relativeTo: folder).standardizedFileURL },
            steps: raw.steps, seconds: raw.seconds, timeStep: raw.timeStep, design: designs[0],
            tracked: raw.track ?? [], bodies: raw.bodies ?? [])
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

        /// A seed: a whole number from 0 to 2^64 - 1 (Foundation called -1 and 1.5 "not valid JSON").
        private static func seed(_ value: JSONTree) throws(SweepError) -> UInt64 {
            switch value {
            case .integer(let seed) where seed >= 0: return UInt64(seed)
            case .unsigned(let seed): return seed
            default: throw .badInput(.random(key: "seed"), .notASeed(value))
            }
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
                    seed: try Self.seed(random.decode(JSONTree.self, forKey: AnyCodingKey("seed"))),
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
            // A list's items decoded one by one, so that a bad one is named (grid.speed[0]).
            if var items = try? decoder.unkeyedContainer() {
                var list: [Double] = []
                while !items.isAtEnd { list.append(try items.decode(Double.self)) }
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
                var seen = Set<Double>()
                for value in values where !seen.insert(value).inserted {
                    throw .badInput(.axis(name), .repeatedValue(value))
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
                    if case .badInput(_, .repeatedValue(let value)) = error {
                        throw .badInput(.axis(name), .repeatedValue(value))
                    }
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
