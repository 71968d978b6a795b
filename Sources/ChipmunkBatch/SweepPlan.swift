import Chipmunk
import ChipmunkScenes
import Foundation

/// One parameter's values in a sweep, as `chipmunk-sim sweep --param` spells them:
/// `name=1,2,5` (a list), `name=lin:FROM:TO:COUNT`, `name=log:FROM:TO:COUNT` (evenly
/// spaced in the logarithm; both ends positive).
package struct SweepAxis: Sendable, Equatable {
    package var name: String
    package var values: [Double]

    package init(name: String, values: [Double]) {
        self.name = name
        self.values = values
    }

    /// Parses `name=spec`; the error says what was wrong with it.
    package init(parsing text: String) throws(SweepError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .badAxis("--param \(text)", "write name=values, such as speed=1,2,5 or k=log:10:1e6:11")
        }
        name = String(text[..<equals])
        let spec = String(text[text.index(after: equals)...])
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 4, parts[0] == "lin" || parts[0] == "log" {
            guard let from = Double(parts[1]), let to = Double(parts[2]), let count = Int(parts[3]),
                from.isFinite, to.isFinite, (1...1_000_000).contains(count)
            else {
                throw .badAxis(
                    "--param \(text)",
                    "\(parts[0]):FROM:TO:COUNT needs two finite numbers and a count from 1 to 1000000")
            }
            if parts[0] == "log" {
                guard from > 0, to > 0 else {
                    throw .badAxis("--param \(text)", "a log range needs FROM and TO above zero")
                }
                // Powers of ten, so that log:1:1e20:21 gives exactly 1, 10, 100, …
                let (a, b) = (log10(from), log10(to))
                values = (0..<count).map { count == 1 ? from : pow(10, a + (b - a) * Double($0) / Double(count - 1)) }
                if count > 1 {
                    values[0] = from
                    values[count - 1] = to
                }
            } else if (to - from).isFinite {
                values = (0..<count).map { count == 1 ? from : from + (to - from) * Double($0) / Double(count - 1) }
            } else {
                // From -1.8e308 to 1.8e308 the span overflows (a parameter of -inf was planned):
                // the weighted sum of the ends cannot.
                values = (0..<count).map { index in
                    let t = count == 1 ? 0 : Double(index) / Double(count - 1)
                    return from * (1 - t) + to * t
                }
            }
            guard values.allSatisfy(\.isFinite) else {
                throw .badAxis("--param \(text)", "the range gives a value that is not finite")
            }
        } else {
            var list: [Double] = []
            for item in spec.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = Double(item.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                    throw .badAxis(
                        "--param \(text)",
                        "'\(item)' is not a finite number (a list is 1,2,5; ranges are lin:… and log:…)")
                }
                list.append(value)
            }
            values = list
        }
    }
}

/// The parameter values of one run, by name.
package struct ParameterSet: Sendable, Hashable {
    package var values: [String: Double]

    package init(_ values: [String: Double]) { self.values = values }

    /// `{"a":1,"b":0.5}`: names sorted, numbers as shortest round-trip decimals.
    package var json: String {
        "{" + values.keys.sorted().map { "\"\($0)\":\(Self.number(values[$0]!))" }.joined(separator: ",") + "}"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) <= 0x1p53 ? String(Int64(value)) : "\(value)"
    }
}

/// A quantity a sweep follows through each run: `energy` (the dynamic bodies' total
/// kinetic energy) or `BODY.q`, q one of x, y, vx, vy, speed, angle, w.
package struct TrackedQuantity: Sendable, Hashable {
    package enum Measure: String, Sendable, CaseIterable { case x, y, vx, vy, speed, angle, w }

    package var name: String
    /// nil for `energy`.
    package var body: String?
    package var measure: Measure?

    package init(parsing text: String) throws(SweepError) {
        name = text
        if text == "energy" { return }
        guard let dot = text.lastIndex(of: "."),
            let measure = Measure(rawValue: String(text[text.index(after: dot)...])),
            dot != text.startIndex
        else {
            throw .badAxis(
                "--track \(text)",
                "give energy or BODY.q with q one of \(Measure.allCases.map(\.rawValue).joined(separator: ", ")) (BODY: a body's name in output)"
            )
        }
        body = String(text[..<dot])
        self.measure = measure
    }
}

/// Which parameter sets a sweep runs.
package enum SweepDesign: Sendable {
    /// Every combination of the axes' values; the last axis varies fastest.
    case grid([SweepAxis])
    /// `count` samples, each parameter drawn from its range with the project's splitmix64
    /// seeded with `seed`: the same seed gives the same runs on every machine.
    case random(count: Int, seed: UInt64, ranges: [SweepRange])
    /// The parameter sets, as listed.
    case table([[String: Double]])

    /// The runs, in order.
    package func parameterSets() throws(SweepError) -> [ParameterSet] {
        switch self {
        case .grid(let axes):
            var seen = Set<String>()
            for axis in axes where !seen.insert(axis.name).inserted { throw .badAxis(axis.name, "is given twice") }
            let total = axes.reduce(1.0) { $0 * Double($1.values.count) }
            guard total <= 10_000_000 else { throw .badAxis("--param", "\(Int(total)) runs is more than 10,000,000") }
            var runs: [[String: Double]] = [[:]]
            for axis in axes {
                runs = runs.flatMap { partial in axis.values.map { partial.merging([axis.name: $0]) { $1 } } }
            }
            return runs.map(ParameterSet.init)
        case let .random(count, seed, ranges):
            guard (1...10_000_000).contains(count) else {
                throw .badAxis("random", "count must be from 1 to 10,000,000")
            }
            var generator = SplitMix64(seed: seed)
            let ordered = ranges.sorted { $0.name < $1.name }
            return (0..<count).map { _ in
                ParameterSet(Dictionary(uniqueKeysWithValues: ordered.map { ($0.name, $0.sample(&generator)) }))
            }
        case .table(let rows):
            guard !rows.isEmpty, rows.count <= 10_000_000 else {
                throw .badAxis("table", "must list 1 to 10,000,000 runs")
            }
            for (index, row) in rows.enumerated() where row.values.contains(where: { !$0.isFinite }) {
                throw .badAxis("table[\(index)]", "every value must be a finite number")
            }
            return rows.map(ParameterSet.init)
        }
    }
}

/// A parameter's range for random samples: uniform, or uniform in the logarithm.
package struct SweepRange: Sendable, Equatable {
    package var name: String
    package var low: Double
    package var high: Double
    package var logarithmic: Bool

    package init(name: String, low: Double, high: Double, logarithmic: Bool) throws(SweepError) {
        guard low.isFinite, high.isFinite, low <= high else {
            throw .badAxis(name, "a range needs finite low <= high (got \(low) to \(high))")
        }
        guard !logarithmic || low > 0 else { throw .badAxis(name, "a log range needs low above zero") }
        (self.name, self.low, self.high, self.logarithmic) = (name, low, high, logarithmic)
    }

    func sample(_ generator: inout SplitMix64) -> Double {
        let unit = generator.nextUnit()
        return logarithmic ? pow(10, log10(low) + (log10(high) - log10(low)) * unit) : low + (high - low) * unit
    }
}

/// A sweep: one scene file, the runs' parameter sets in a fixed order, and how long each runs.
package struct SweepPlan: Sendable {
    package var sceneSource: String
    /// The scene file's bytes; every run loads the scene from these.
    package var sceneData: Data
    /// FNV-1a 64 of the scene file's bytes, in hex.
    package var sceneHash: String
    package var runs: [ParameterSet]
    package var steps: Int
    /// The time step; nil: the scene's own.
    package var timeStep: Double?
    /// The saved state every run starts from (`--from`), if any: each run builds the
    /// scene with its parameters, takes its configuration, and continues this state.
    package var start: Snapshot?
    /// Quantities to follow in every run (min, max and final): `energy`, or `BODY.q` with
    /// q one of x, y, vx, vy, speed, angle, w, and BODY a body's name in output.
    package var tracked: [TrackedQuantity] = []
    /// Bodies whose final state every run records, by their names in output.
    package var recordedBodies: [String] = []

    /// The runs of `design`, each checked against the parameters the scene declares.
    package init(
        sceneSource: String, sceneData: Data, design: SweepDesign, steps: Int, timeStep: Double?,
        start: Snapshot? = nil
    ) throws(SweepError) {
        let declared: [String: Double]
        do {
            declared = try SceneParameters.declared(in: sceneData, source: sceneSource)
        } catch {
            throw .scene(error)
        }
        let runs = try design.parameterSets()
        for name in Set(runs.flatMap(\.values.keys)).sorted() where declared[name] == nil {
            throw .badAxis(
                "parameter \(name)",
                declared.isEmpty
                    ? "the scene declares no parameters (add \"parameters\" to the scene file)"
                    : "the scene declares no parameter '\(name)' (it declares: \(declared.keys.sorted().joined(separator: ", ")))"
            )
        }
        self.sceneSource = sceneSource
        self.sceneData = sceneData
        self.sceneHash = FNV1a.hash(sceneData).hexDigits
        self.runs = runs
        self.steps = steps
        self.timeStep = timeStep
        self.start = start
    }

    /// A run's key: FNV-1a 64 of the scene's hash, the steps and time step, and the
    /// parameter set, in hex. The same run has the same key in every shard and process.
    package func key(of run: ParameterSet) -> String {
        let dt = timeStep.map { String($0.bitPattern, radix: 16) } ?? "scene"
        let from = start.map { FNV1a.hash($0.bytes).hexDigits } ?? "-"
        let records = tracked.map(\.name).joined(separator: ",") + ";" + recordedBodies.joined(separator: ",")
        return FNV1a.hash("\(sceneHash)|\(steps)|\(dt)|\(from)|\(records)|\(run.json)".utf8).hexDigits
    }

    /// Whether the run at `runIndex` belongs to shard `index` of `count`: runs are dealt out
    /// in turn (run i to shard i mod count), so shards never overlap, together hold every
    /// run, and differ in size by at most one run. Dealing in turn rather than in blocks
    /// also spreads a grid's slow corner (such as its stiffest springs) over every shard.
    package func belongs(runAt runIndex: Int, toShard index: Int, of count: Int) -> Bool {
        runIndex % count == index
    }

    /// The sweep this plan makes: its scene's content and its runs. Every shard of one
    /// sweep has the same identity, and a results database records it.
    package var identity: SweepIdentity {
        let parameters = Set(runs.flatMap(\.values.keys)).sorted()
        let from = start.map { FNV1a.hash($0.bytes).hexDigits }
        let plan = SweepIdentity.Plan(
            runs: runs.count, steps: steps, timeStep: timeStep, parameters: parameters,
            tracked: tracked.map(\.name), bodies: recordedBodies, from: from)
        // Each run's key already hashes the scene, the duration, the start and what is
        // recorded; the keys in order hash the whole plan.
        let planHash = FNV1a.hash(runs.map { key(of: $0) }.joined(separator: ",").utf8).hexDigits
        return SweepIdentity(scene: sceneSource, sceneHash: sceneHash, planHash: planHash, plan: plan)
    }
}

/// Which sweep a results database belongs to: the scene file's content hash and the plan's.
///
/// Two databases belong to the same sweep when both hashes agree (the scene file's name
/// may differ from machine to machine). `plan` says in words what the plan hash covers.
package struct SweepIdentity: Sendable, Hashable, CustomStringConvertible {
    /// What a plan is, in numbers and names.
    package struct Plan: Sendable, Hashable, Codable {
        /// How many runs the whole sweep has (every shard's).
        package var runs: Int
        /// The steps each run takes.
        package var steps: Int
        /// nil: the scene's own time step.
        package var timeStep: Double?
        /// The names of the parameters the runs set, sorted.
        package var parameters: [String]
        /// The quantities each run follows (`--track`).
        package var tracked: [String]
        /// The bodies whose final state each run stores (`--body`).
        package var bodies: [String]
        /// The hash of the snapshot every run starts from, if any.
        package var from: String?
    }

    /// The scene file's name, as the sweep was given it.
    package var scene: String
    /// FNV-1a 64 of the scene file's bytes, in hex.
    package var sceneHash: String
    /// FNV-1a 64 of every run's key in order, in hex.
    package var planHash: String
    package var plan: Plan

    package static func == (a: Self, b: Self) -> Bool { a.sceneHash == b.sceneHash && a.planHash == b.planHash }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(sceneHash)
        hasher.combine(planHash)
    }

    /// `drop.json (scene fbbec0f9939b824f; plan 58f428dad6314560: 63 runs of 600 steps over elasticity, speed)`.
    package var description: String {
        let over = plan.parameters.isEmpty ? "" : " over \(plan.parameters.joined(separator: ", "))"
        return "\(scene) (scene \(sceneHash); plan \(planHash): \(plan.runs) runs of \(plan.steps) steps\(over))"
    }
}

/// What is wrong with a sweep's input or its database.
package enum SweepError: Error, CustomStringConvertible, Sendable {
    case badAxis(String, String)
    case scene(SceneError)
    case database(String, String)
    case mergeConflict(key: String, file: String)
    case file(String, String)
    /// A database holds runs of another sweep than the one being run into it.
    case otherSweep(database: String, holds: [SweepIdentity], wanted: SweepIdentity)
    /// `merge` was given databases of different sweeps (without `--allow-mixed`).
    case mixedSweeps(first: String, firstSweeps: [SweepIdentity], other: String, otherSweeps: [SweepIdentity])

    /// The sweeps a database records, in words.
    static func describe(_ sweeps: [SweepIdentity]) -> String {
        sweeps.isEmpty
            ? "no recorded sweep (made before databases recorded theirs)"
            : sweeps.map(\.description).joined(separator: " and ")
    }

    package var description: String {
        switch self {
        case let .badAxis(what, reason): "\(what): \(reason)"
        case .scene(let error): "\(error)"
        case let .database(path, reason): "\(path): \(reason)"
        case let .file(file, reason): "\(file): \(reason)"
        case let .otherSweep(database, holds, wanted):
            "\(database) holds another sweep: \(Self.describe(holds)); this one is \(wanted). Give another --db"
        case let .mixedSweeps(first, firstSweeps, other, otherSweeps):
            "\(other) is from another sweep than \(first): \(other) has \(Self.describe(otherSweeps)); \(first) has \(Self.describe(firstSweeps)). Nothing was merged; --allow-mixed merges them anyway"
        case let .mergeConflict(key, file):
            "\(file): run \(key) has a different result than the same run in an earlier file (were they made by different builds?)"
        }
    }
}
