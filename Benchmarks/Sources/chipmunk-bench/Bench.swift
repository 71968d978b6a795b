import ArgumentParser
import Chipmunk
import ChipmunkBench
import ChipmunkBenchWorlds
import ChipmunkScenes
import Dispatch
import Foundation

/// `chipmunk-bench`: the benchmark worlds, timed alone or by turns with their raw-C twins.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chipmunk-bench",
        abstract: "Time a benchmark world and print one JSON line per scene and mode.",
        discussion: """
            Worlds: \(BenchScene.allCases.map(\.rawValue).joined(separator: ", ")), or 'all'; and growthN, a \
            pyramid of N rows (1 to 200) stepped at 1/60 s, for scripts/bench.sh's growth table. Modes: \
            \(BenchMode.allCases.map(\.rawValue).joined(separator: ", ")), or 'all'. Each line has scene, mode, \
            bodies, \
            steps, ms_per_step (the median of the repeats), and hash: FNV-1a 64 over the little-endian \
            bytes of x, y and angle of every dynamic body after the last step, which the raw C \
            engine (chipmunk-bench-c) matches. scripts/bench.sh runs Swift, C and pymunk side by side. \
            --state and --synctest time rollback instead: saving, restoring and copying a world, or a \
            synctest against the plain run (scripts/bench.sh --state).

            Examples: chipmunk-bench pyramid40 --mode reads --repeat 5 --against-c
                      chipmunk-bench all --synctest --depth 1 8 --built-in-scenes
            """
    )

    @Argument(help: "A benchmark world, or 'all'.")
    var scene: Selection<BenchScene>

    @Option(help: "Steps per run. Default: the world's own (500, or 200 for pyramid100 and jointgrid50).")
    var steps: Int?

    @Option(help: "What each step does besides stepping, or 'all'.")
    var mode: Selection<BenchMode> = .one(.plain)

    @Option(help: "Solver threads: 1 (the plain solver) or 2 (the engine's threaded solver; not deterministic).")
    var threads: Int = 1

    @Option(help: "Independent worlds stepped at once, one thread each; reports their total throughput.")
    var parallel: Int = 1

    @Option(help: "Runs per scene and mode; ms_per_step is their median.")
    var `repeat`: Int = 3

    @Flag(help: ArgumentHelp(Self.againstCHelp))
    var againstC = false

    @Flag(
        help: """
            Print the state hash after every step instead of timing (one world, plain mode): {"scene", "first_step", "step_hashes"}. chipmunk-bench-c --trace prints the raw C engine's.
            """)
    var trace = false

    @Option(help: "With --trace: after this step, write a snapshot of the world to --save-to.")
    var saveAt: Int?

    @Option(help: "With --save-at: the snapshot file to write.")
    var saveTo: String?

    @Option(
        help: """
            With --trace: build the world, restore this snapshot (from --save-at) into it, and run on from its step to --steps.
            """)
    var restore: String?

    @Flag(
        help: """
            Time saving and restoring state instead of stepping: SpaceState's save(into:) and \
            restore(_:), snapshot(), reading its bytes back, restoring what was read, copy() and freeing the copy, each \
            against a step, after --steps steps (default 300). One JSON line per world; --rounds \
            rounds, medians in microseconds.
            """)
    var state = false

    @Flag(
        help: """
            Time a synctest instead of stepping: every frame saved, stepped and hashed, then rolled back --depth \
            frames and simulated again, against the plain run of the same frames (stepped alone), --repeat times \
            each, by turns. One JSON line per world and depth: plain_ms, synctest_ms (medians), ratio, and \
            passed (false with the first differing frame in failure).
            """)
    var synctest = false

    @Option(
        parsing: .upToNextOption,
        help: "With --synctest: the depths to run, 1 to 600, e.g. --depth 1 8 (default: 8).")
    var depth: [Int] = []

    @Option(
        help: """
            With --synctest: frames per run. Default: the world's own (300; pyramid100 60, jointgrid50 10), \
            and 600 for a built-in scene.
            """)
    var frames: Int?

    @Flag(help: "With --state or --synctest: also every built-in scene (crates, pyramid-topple, ui-heavy, ...).")
    var builtInScenes = false

    @Option(help: "With --state: save, step and restore rounds per world (the full snapshot's: a tenth, at least 5).")
    var rounds: Int = 200

    private static let againstCHelp =
        "Also step the raw C engine's twin of the world in this process, by turns with the Swift world, "
        + "one step at a time, so that noise on the machine falls on both alike; "
        + "adds c_ms_per_step, swift_c_ratio and c_hash."

    func validate() throws {
        if let steps, steps < 1 { throw ValidationError("--steps must be at least 1 (got \(steps))") }
        if threads != 1, threads != 2 {
            throw ValidationError(
                "--threads must be 1 or 2 (got \(threads)); the engine's threaded solver has at most 2")
        }
        if !(1...64).contains(parallel) { throw ValidationError("--parallel must be 1 to 64 (got \(parallel))") }
        if !(1...1000).contains(`repeat`) { throw ValidationError("--repeat must be 1 to 1000 (got \(`repeat`))") }
        if !trace, saveAt != nil || saveTo != nil || restore != nil {
            throw ValidationError("--save-at, --save-to and --restore go with --trace")
        }
        if trace, threads != 1 || parallel != 1 || againstC || mode.items != [.plain] || scene.items.count != 1 {
            throw ValidationError("--trace steps one world of one scene in plain mode, on the plain solver")
        }
        if (saveAt == nil) != (saveTo == nil) { throw ValidationError("--save-at and --save-to go together") }
        if let saveAt, saveAt < 0 { throw ValidationError("--save-at must be at least 0 (got \(saveAt))") }
        if !state, rounds != 200 { throw ValidationError("--rounds goes with --state") }
        if !state, !synctest, builtInScenes {
            throw ValidationError("--built-in-scenes goes with --state or --synctest")
        }
        if !synctest, !depth.isEmpty || frames != nil {
            throw ValidationError("--depth and --frames go with --synctest")
        }
        if synctest,
            state || trace || againstC || threads != 1 || parallel != 1 || mode.items != [.plain] || steps != nil
        {
            throw ValidationError("--synctest runs one world at a time on the plain solver: use it without other modes")
        }
        if let bad = depth.first(where: { !(1...600).contains($0) }) {
            throw ValidationError("--depth must be 1 to 600 (got \(bad))")
        }
        if let frames, !(1...1_000_000).contains(frames) {
            throw ValidationError("--frames must be 1 to 1000000 (got \(frames))")
        }
        if state, trace || againstC || threads != 1 || parallel != 1 || mode.items != [.plain] {
            throw ValidationError("--state times one world at a time on the plain solver: use it alone")
        }
        if !(1...100_000).contains(rounds) { throw ValidationError("--rounds must be 1 to 100000 (got \(rounds))") }
        if againstC, threads != 1 || parallel != 1 {
            throw ValidationError(
                "--against-c compares one world on the plain solver: use it without --threads and --parallel")
        }
    }

    func run() throws {
        // The first space made in a process prints Debian's banner on stdout unless it is a
        // Swift `Space`, which silences it; the C twin's spaces come after this one.
        _ = Space()
        if trace { return try runTrace(scene.items[0]) }
        if state { return try runState() }
        if synctest { return try runSyncTest() }
        for scene in scene.items {
            for mode in mode.items {
                let steps = self.steps ?? scene.defaultSteps
                if againstC {
                    var pairs: [Pair] = []
                    for _ in 0..<`repeat` { pairs.append(try measureAgainstC(scene, mode, steps)) }
                    print(Self.line(scene: scene, mode: mode, steps: steps, pairs: pairs))
                    continue
                }
                var runs: [Run] = []
                for _ in 0..<`repeat` { runs.append(try measure(scene, mode, steps)) }
                print(
                    Self.line(scene: scene, mode: mode, steps: steps, runs: runs, threads: threads, parallel: parallel))
            }
        }
    }

    /// One repeat: `parallel` worlds at once, each on its own thread.
    struct Run {
        var wallSeconds: Double
        var results: [BenchResult]
    }

    func measure(_ scene: BenchScene, _ mode: BenchMode, _ steps: Int) throws -> Run {
        let threads = self.threads
        if parallel == 1 {
            let result = try BenchRunner.run(scene, mode: mode, steps: steps, threads: threads)
            return Run(wallSeconds: result.seconds, results: [result])
        }
        // Each world is built and stepped on its own thread; worlds share nothing. All are
        // built first, then start stepping together, and the wall time runs from that start
        // to the last world's end: building is not timed, as for a single world.
        let parallel = self.parallel
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let outcomes = Locked<[Result<(result: BenchResult, end: Double), any Error>]>([])
        let starts = Locked<Double>(0)
        DispatchQueue.global().async {
            for _ in 0..<parallel { ready.wait() }
            starts.withLock { $0 = BenchRunner.monotonicSeconds() }
            for _ in 0..<parallel { go.signal() }
        }
        DispatchQueue.concurrentPerform(iterations: parallel) { _ in
            let world = Result { try BenchRunner.PreparedWorld(scene, mode: mode, threads: threads) }
            ready.signal()
            go.wait()
            let outcome = Result { () throws -> (result: BenchResult, end: Double) in
                let result = try world.get().run(steps: steps)
                return (result, BenchRunner.monotonicSeconds())
            }
            outcomes.withLock { $0.append(outcome) }
        }
        let finished = try outcomes.withLock { try $0.map { try $0.get() } }
        let start = starts.withLock { $0 }
        let wall = finished.map(\.end).max()! - start
        return Run(wallSeconds: wall, results: finished.map(\.result))
    }

    /// One repeat of a Swift world and its C twin stepped by turns.
    struct Pair {
        var swiftSeconds: Double
        var cSeconds: Double
        var hash: UInt64
        var cHash: UInt64
        var bodies: Int
        var readSeconds: Double
        var cReadSeconds: Double
        var callbacks: Int
        var cCallbacks: Int
    }

    func measureAgainstC(_ scene: BenchScene, _ mode: BenchMode, _ steps: Int) throws -> Pair {
        // The C world is built first: the world built second lands in a heap already
        // churned by the first, which costs it a few per cent in large worlds; this way any
        // such bias counts against the binding, not for it.
        guard let c = bench_world_new(scene.rawValue, mode.rawValue) else {
            throw ValidationError("the C twin does not know \(scene.rawValue) in mode \(mode.rawValue)")
        }
        let swift = try BenchRunner.PreparedWorld(scene, mode: mode)
        defer { bench_world_free(c) }
        let chunk = 1
        var swiftSeconds = 0.0
        var cSeconds = 0.0
        var done = 0
        var swiftFirst = true
        while done < steps {
            let n = Swift.min(chunk, steps - done)
            if swiftFirst {
                swiftSeconds += try swift.runChunk(steps: n)
                cSeconds += bench_world_run(c, Int32(n))
            } else {
                cSeconds += bench_world_run(c, Int32(n))
                swiftSeconds += try swift.runChunk(steps: n)
            }
            swiftFirst.toggle()
            done += n
        }
        let result = try swift.run(steps: 0)
        return Pair(
            swiftSeconds: swiftSeconds, cSeconds: cSeconds, hash: swift.hash, cHash: bench_world_hash(c),
            bodies: swift.bodyCount, readSeconds: result.readSeconds, cReadSeconds: bench_world_read_seconds(c),
            callbacks: result.callbacks, cCallbacks: bench_world_callbacks(c))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2] / 2 + sorted[(sorted.count - 1) / 2] / 2
    }

    static func line(scene: BenchScene, mode: BenchMode, steps: Int, pairs: [Pair]) -> String {
        let swift = median(pairs.map { $0.swiftSeconds * 1000 / Double(steps) })
        let c = median(pairs.map { $0.cSeconds * 1000 / Double(steps) })
        let ratio = median(pairs.map { $0.swiftSeconds / $0.cSeconds })
        var fields: [(String, String)] = [
            ("scene", "\"\(scene.rawValue)\""), ("mode", "\"\(mode.rawValue)\""), ("bodies", "\(pairs[0].bodies)"),
            ("steps", "\(steps)"), ("ms_per_step", "\(swift)"), ("c_ms_per_step", "\(c)"),
            ("swift_c_ratio", "\(ratio)"),
            ("hash", "\"\(hex(pairs[0].hash))\""), ("c_hash", "\"\(hex(pairs[0].cHash))\""),
            ("threads", "1"), ("parallel", "1"), ("repeat", "\(pairs.count)"), ("chunk", "1"),
        ]
        if pairs.contains(where: { $0.hash != $0.cHash }) { fields.append(("hashes_differ", "true")) }
        if mode == .reads {
            fields.append(("read_ms_per_step", "\(median(pairs.map { $0.readSeconds * 1000 / Double(steps) }))"))
            fields.append(("c_read_ms_per_step", "\(median(pairs.map { $0.cReadSeconds * 1000 / Double(steps) }))"))
        }
        if mode == .callbacks {
            fields.append(("callbacks_per_step", "\(Double(pairs[0].callbacks) / Double(steps))"))
            fields.append(("c_callbacks_per_step", "\(Double(pairs[0].cCallbacks) / Double(steps))"))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func line(scene: BenchScene, mode: BenchMode, steps: Int, runs: [Run], threads: Int, parallel: Int) -> String
    {
        let perStep = runs.map { $0.wallSeconds * 1000 / Double(steps) }.sorted()
        let median = perStep[perStep.count / 2] / 2 + perStep[(perStep.count - 1) / 2] / 2
        let first = runs[0].results[0]
        let hashes = Set(runs.flatMap { $0.results.map(\.hash) })
        let throughput = Double(parallel * steps) / (median * Double(steps) / 1000)
        var fields: [(String, String)] = [
            ("scene", "\"\(scene.rawValue)\""), ("mode", "\"\(mode.rawValue)\""), ("bodies", "\(first.bodies)"),
            ("steps", "\(steps)"), ("ms_per_step", "\(median)"), ("ms_per_step_min", "\(perStep[0])"),
            ("hash", "\"\(hex(first.hash))\""), ("threads", "\(threads)"), ("parallel", "\(parallel)"),
            ("repeat", "\(runs.count)"), ("steps_per_second", "\(throughput)"),
        ]
        if hashes.count > 1 { fields.append(("hashes_differ", "true")) }
        if mode == .callbacks { fields.append(("callbacks_per_step", "\(Double(first.callbacks) / Double(steps))")) }
        if mode == .reads {
            let readTimes = runs.flatMap { $0.results.map { $0.readSeconds * 1000 / Double(steps) } }.sorted()
            fields.append(("read_ms_per_step", "\(readTimes[readTimes.count / 2])"))
            fields.append(("read_sum", "\(first.readSum)"))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// One item of a `CaseIterable` choice given by name on the command line, or `all`.
enum Selection<Item: RawRepresentable & CaseIterable & Sendable>: ExpressibleByArgument, Sendable
where Item.RawValue == String {
    case all
    case one(Item)

    init?(argument: String) {
        if argument == "all" {
            self = .all
        } else if let item = Item(rawValue: argument) {
            self = .one(item)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { Item.allCases.map(\.rawValue) + ["all"] }

    var defaultValueDescription: String {
        switch self {
        case .all: return "all"
        case .one(let item): return item.rawValue
        }
    }

    /// The items chosen, in their declared order.
    var items: [Item] {
        switch self {
        case .all: return Array(Item.allCases)
        case .one(let item): return [item]
        }
    }
}

/// A value shared by threads, behind an `NSLock`. (Not `Synchronization.Mutex`: on Linux
/// it waits on a futex that ThreadSanitizer does not see, and TSan, which
/// `scripts/sanitize.sh` runs on this command, then reports a race.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A hash as 16 hexadecimal digits, most significant first, as chipmunk-sim writes state hashes.
private func hex(_ hash: UInt64) -> String { String(format: "%016llx", hash) }

extension Bench {
    /// `--trace`: steps one world (restored from `--restore` if given) to `--steps`, saving a
    /// snapshot after `--save-at`, and prints each step's state hash.
    func runTrace(_ scene: BenchScene) throws {
        let world = try BenchRunner.PreparedWorld(scene, mode: .plain)
        if let restore {
            let bytes: [UInt8]
            do {
                bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: restore)))
            } catch {
                throw ValidationError("cannot read the snapshot \(restore): \(error.localizedDescription)")
            }
            do {
                try world.restore(Snapshot(bytes: bytes))
            } catch {
                throw ValidationError("\(restore): \(error)")
            }
        }
        let first = world.stepsTaken + 1
        let last = steps ?? scene.defaultSteps
        var hashes: [String] = []
        if first <= last {
            for step in first...last {
                _ = try world.runChunk(steps: 1)
                hashes.append(hex(world.hash))
                if step == saveAt, let saveTo {
                    do {
                        try Data(world.snapshot().bytes).write(to: URL(fileURLWithPath: saveTo))
                    } catch {
                        throw ValidationError("cannot write \(saveTo): \(error.localizedDescription)")
                    }
                }
            }
        }
        let list = hashes.map { "\"\($0)\"" }.joined(separator: ",")
        print("{\"scene\":\"\(scene.rawValue)\",\"first_step\":\(first),\"step_hashes\":[\(list)]}")
    }
}
