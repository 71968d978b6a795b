import ArgumentParser
import ChipmunkBatch
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a scene file once per parameter set, on every core, into a SQLite database.",
        discussion: """
            The scene file declares parameters with defaults ("parameters": {"speed": 100}) and \
            refers to them where numbers go ({"$param": "speed"}). Each --param gives one \
            parameter's values; the sweep runs every combination. A run that diverges or fails is \
            stored as a result with its error and step; the sweep goes on.

            Each result is committed as soon as its run ends, keyed by a hash of the scene file, \
            the duration and the parameter set. Run the same command again after it was \
            interrupted (even by kill -9) and it does only the runs that are missing. Results are \
            the same whatever --jobs and --shard are.

            --shard I/N runs every Nth run from run I: shards differ in size by at most one run. \
            Inside a Slurm array job the shard comes from SLURM_ARRAY_TASK_ID and \
            SLURM_ARRAY_TASK_COUNT (an array 0-(N-1)), inside a Kubernetes Indexed Job from \
            JOB_COMPLETION_INDEX and JOB_COMPLETIONS (set it in the job to the completions \
            count); one of a pair without the other is an error. The database records the \
            sweep (the scene file's hash and the plan's) and refuses runs of another. \
            `chipmunk-sim merge` combines shard databases; `chipmunk-sim results` exports one.

            A built-in name sweeps the scene's file as Scenes/ holds it (the binary carries \
            it): crates, crate and crates-tilt declare friction, elasticity and gravity (and \
            crates-tilt tilt), pyramid-stack, pyramid-topple and tumble friction and gravity, \
            one-way, joints, theo-jansen and chains gravity. With their defaults they give the \
            built-in scenes' bits.

            Examples:
              chipmunk-sim sweep Scenes/drop.json --param speed=log:1:1e20:21 --param elasticity=0.2,0.8 --db drop.sqlite
              chipmunk-sim sweep crates --param friction=0,0.5,1 --param gravity=-500,-1000 --db crates.sqlite
              chipmunk-sim results drop.sqlite --format csv
            """
    )

    @Argument(
        help:
            "A built-in scene name (its file in Scenes/, such as crates: friction, elasticity, gravity) or a scene file that declares parameters (not with --sweep, whose file names its scene)."
    )
    var scene: String?

    @Option(
        help: ArgumentHelp(
            "A sweep file (JSON; schemas/sweep.schema.json): its scene, duration and a grid, seeded random samples or a table of runs.",
            valueName: "file"))
    var sweep: String?

    @Option(
        name: .customLong("param"),
        help: "name=1,2,5 | name=lin:FROM:TO:COUNT | name=log:FROM:TO:COUNT; repeat for more parameters.")
    var axes: [String] = []

    @OptionGroup var duration: Duration  // default: 5 seconds

    @Option(
        help: ArgumentHelp(
            "Start every run from this snapshot (from `chipmunk-sim snapshot` of the same scene file).",
            discussion:
                "Each run builds the scene with its parameters, keeps that configuration (gravity, materials, masses, joint parameters) and continues the saved positions, velocities and contacts; parameters that only set a starting state have no effect then."
        ))
    var from: String?

    @Option(
        name: .customLong("track"),
        help: ArgumentHelp(
            "A quantity to follow in every run, stored as its min, max and final: energy (total kinetic energy), or BODY.q with q one of x, y, vx, vy, speed, angle, w.",
            valueName: "quantity"))
    var tracked: [String] = []

    @Option(
        name: .customLong("body"),
        help: ArgumentHelp(
            "A body whose final state every run stores (its name in output: id, or index).", valueName: "name"))
    var recordedBodies: [String] = []

    // Optional, so that --help prints the default once, in words, not this machine's count too.
    @Option(name: .customLong("jobs"), parsing: .unconditional, help: "Worker threads (default: one per core).")
    var jobsGiven: Int?

    /// --jobs, or one per core (at most 256).
    var jobs: Int { jobsGiven ?? min(ProcessInfo.processInfo.activeProcessorCount, 256) }

    @Option(help: "The results database (SQLite); created if missing, resumed if not.") var db: String

    @Option(help: "Run only shard I of N (I from 0), such as 2/4. Default: from Slurm or Kubernetes, else 0/1.")
    var shard: String?

    func validate() throws {
        if !(1...256).contains(jobs) { throw ValidationError("--jobs must be from 1 to 256 (got \(jobs))") }
        if sweep == nil {
            if scene == nil { throw ValidationError("give a scene file and --param, or --sweep FILE") }
            if axes.isEmpty { throw ValidationError("give at least one --param name=values (or --sweep FILE)") }
        } else if scene != nil || !axes.isEmpty {
            throw ValidationError("--sweep FILE names its scene and runs; give no scene or --param with it")
        }
        _ = try resolvedShard()
        // Malformed --param and --track values are usage errors (exit 64), found before any
        // file is read; whether the scene has the parameter or body is bad data (65).
        for text in axes {
            do { _ = try SweepAxis(parsing: text) } catch { throw ValidationError(error.description) }
        }
        for text in tracked {
            do { _ = try TrackedQuantity(parsing: text) } catch { throw ValidationError(error.description) }
        }
    }

    /// --shard, or the scheduler's environment, or 0/1.
    func resolvedShard() throws -> (index: Int, count: Int) {
        let environment = ProcessInfo.processInfo.environment
        let text: String
        let origin: String
        if let shard {
            (text, origin) = (shard, "--shard")
        } else if let pair = try Self.environmentShard(environment) {
            (text, origin) = pair
        } else {
            return (0, 1)
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, count <= 100_000,
            (0..<count).contains(index)
        else {
            throw ValidationError("\(origin) must be I/N with 0 <= I < N <= 100000 (got \(text))")
        }
        return (index, count)
    }

    /// The scheduler's index and count, and their names, when it sets either. A shard
    /// needs both: an index alone would run every run in every task, so it is an error
    /// that names the missing variable.
    static func environmentShard(_ environment: [String: String]) throws -> (text: String, origin: String)? {
        let pairs = [
            (
                "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT",
                "a Slurm job array sets both; run inside one, or give --shard I/N"
            ),
            (
                "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS",
                "set JOB_COMPLETIONS in the Job to its spec.completions, as deploy/k8s/sweep-job.yaml does, or give --shard I/N"
            ),
        ]
        for (indexName, countName, advice) in pairs {
            switch (environment[indexName], environment[countName]) {
            case (nil, nil): continue
            case let (index?, count?): return ("\(index)/\(count)", "\(indexName)/\(countName)")
            case (let index?, nil):
                throw ValidationError(
                    "\(indexName) is \(index) but \(countName) is not set: a shard needs both (\(advice))")
            case (nil, let count?):
                throw ValidationError(
                    "\(countName) is \(count) but \(indexName) is not set: a shard needs both (\(advice))")
            }
        }
        return nil
    }

    /// The scene's name in results and its JSON: a built-in scene's file (as in `Scenes/`,
    /// carried in the binary), or the file named on the command line or in the sweep file.
    /// A built-in name wins over a file of the same name, as in `run`: write ./crates for the file.
    func sceneData(file: SweepFile?) throws -> (source: String, data: Data) {
        if file == nil, let name = scene, let entry = SceneCatalog.builtIn.first(where: { $0.name == name }) {
            guard let data = SceneCatalog.sceneFile(named: name) else {
                throw ValidationError(
                    "\(name) is a built-in scene that needs code (\(entry.summary)), so it has no scene file to sweep; sweeping takes the built-in scenes with a file in Scenes/"
                )
            }
            return ("\(name).json", data)
        }
        let url = file?.scene ?? URL(fileURLWithPath: scene!)
        _ = try SceneDescription.load(contentsOf: url)  // names the file in any problem with it
        return (url.lastPathComponent, try Data(contentsOf: url))
    }

    func run() throws {
        let file = try sweep.map { try SweepFile.load(contentsOf: URL(fileURLWithPath: $0)) }
        let (source, data) = try sceneData(file: file)
        // The scene as its defaults build it, once: its time step, and the names checked below.
        let description = try SceneDescription.decode(data, source: source)
        description.warnings.forEach(Output.warning)
        let example = try description.makeScene(source: source)
        let defaultDt = example.timeStep
        // The command line's duration wins over the file's.
        let timeStep = duration.dt?.seconds ?? file?.timeStep
        let dt = timeStep ?? defaultDt
        let steps: Int
        if duration.steps != nil || duration.seconds != nil || file == nil {
            steps = try duration.stepCount(dt: dt, defaultSeconds: 5)
        } else if let fileSteps = file?.steps {
            steps = fileSteps
        } else {
            steps = try Duration.stepCount(seconds: file!.seconds!, dt: dt)
        }
        let snapshot = from ?? file?.from?.path
        let start = try snapshot.map { try SceneCatalog.loadSnapshot(contentsOf: URL(fileURLWithPath: $0)) }
        let design = try file?.design ?? .grid(axes.map { try SweepAxis(parsing: $0) })
        var plan = try SweepPlan(
            sceneSource: source, sceneData: data, design: design, steps: steps, timeStep: timeStep,
            start: start)
        plan.tracked = try (tracked + (file?.tracked ?? [])).map { try TrackedQuantity(parsing: $0) }
        plan.recordedBodies = recordedBodies + (file?.bodies ?? [])
        // Names are checked on the scene as the defaults build it, before any run.
        let names = Set(example.bodyNamesOverTime)  // bodies added by inputs too
        for name in plan.tracked.compactMap(\.body) + plan.recordedBodies where !names.contains(name) {
            throw RunError(  // the scene's business: bad data (65), as an undeclared --param is
                "\(source) has no body named '\(name)' (names: \(names.sorted().prefix(20).joined(separator: ", ")))"
            )
        }
        let shard = try resolvedShard()
        let store = try SweepStore(path: db)
        let reporter = ProgressReporter(label: "runs")
        let summary = try Sweep.run(plan, store: store, jobs: jobs, shard: shard) { done, total, diverged, failed in
            reporter.report(done: done, total: total, diverged: diverged, failed: failed)
        }
        reporter.finish()
        let shardText = shard.count > 1 ? " (shard \(shard.index)/\(shard.count): \(summary.inShard) runs)" : ""
        Output.note(
            """
            sweep: \(summary.planned) runs planned\(shardText); \(summary.alreadyStored) already in \(db), \(summary.ran) run now \
            in \(String(format: "%.1f", summary.seconds)) s on \(jobs) thread\(jobs == 1 ? "" : "s"): \
            \(summary.ok) ok, \(summary.diverged) diverged, \(summary.failed) failed

            """)
    }
}

struct ResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Export a sweep's results database as CSV or JSON lines, or chart a metric against a parameter.",
        discussion: """
            Columns: \(SweepStore.columns.joined(separator: ", ")). parameters is a JSON object; \
            outcome is ok, diverged or failed. The database is plain SQLite: \
            sqlite3 DB "SELECT json_extract(parameters, '$.speed'), outcome FROM runs" works too.

            --chart PARAM:METRIC draws METRIC against the parameter PARAM with matplotlib \
            (pip install matplotlib) to -o FILE (.svg, .png or .pdf): ok runs as lines, one per \
            combination of the other parameters; diverged runs as red crosses and failed ones \
            as black, with a dashed line where they start. Metrics: \
            \(SweepChart.columnMetrics.joined(separator: ", ")), and NAME.min, NAME.max, \
            NAME.final for each quantity the sweep tracked (--track).

            Examples:
              chipmunk-sim results drop.sqlite > drop.csv
              chipmunk-sim results drop.sqlite --format jsonl -o drop.jsonl
              chipmunk-sim results spring.sqlite --chart stiffness:box.y.min -o spring.svg
            """
    )

    @Argument(help: "The results database.") var db: String
    @Option(help: "The export's format.") var format: ExportFormat = .csv
    @Option(help: ArgumentHelp("Chart a metric against a parameter.", valueName: "param:metric"))
    var chart: String?
    @Option(
        name: [.short, .long],
        help: "Write the export to this file instead of stdout ('-' is stdout), or the chart (.svg, .png or .pdf).")
    var output: String?

    func validate() throws {
        if let chart {
            guard chart.split(separator: ":", omittingEmptySubsequences: false).count == 2,
                !chart.hasPrefix(":"), !chart.hasSuffix(":")
            else {
                throw ValidationError("--chart must be PARAM:METRIC, such as stiffness:energy.max (got \(chart))")
            }
            guard let output, [".svg", ".png", ".pdf"].contains(where: { output.lowercased().hasSuffix($0) }) else {
                throw ValidationError("--chart needs -o FILE ending in .svg, .png or .pdf")
            }
        }
    }

    func run() throws {
        // A missing database is bad data (exit 65), as a damaged one is: not a usage error.
        guard FileManager.default.fileExists(atPath: db) else { throw RunError("no such database: \(db)") }
        let store = try SweepStore(path: db, readOnly: true)
        guard let chart, let output else {
            try Output.file(Array(try store.export(asCSV: format == .csv).utf8), to: output ?? "-", option: "-o")
            return
        }
        let parts = chart.split(separator: ":").map(String.init)
        let data = try store.chart(parameter: parts[0], metric: parts[1])
        try ChartDrawer.draw(data, to: output)
        Output.note("results: \(data.summary) in \(output)\n")
    }
}

/// What `results` exports.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, jsonl
}

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine shard databases of one sweep into one.",
        discussion: """
            Every input must belong to the same sweep (the same scene file content and plan, \
            which each database records), or nothing is written and both databases are named \
            with their sweeps; --allow-mixed merges them anyway. Runs found in several inputs \
            must agree (wall time aside), or nothing is written and the run is named. Merging \
            into an existing database adds what it lacks.

            Example: chipmunk-sim merge all.sqlite shard-0.sqlite shard-1.sqlite shard-2.sqlite shard-3.sqlite
            """
    )

    @Argument(help: "The database to write (created if missing).") var output: String
    @Argument(help: "The shard databases.") var inputs: [String]
    @Flag(help: "Merge databases of different sweeps (different scene content or plan).") var allowMixed = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one shard database to merge") }
    }

    func run() throws {
        for input in inputs where !FileManager.default.fileExists(atPath: input) {
            throw RunError("no such database: \(input)")
        }
        // Inputs are opened read-only, and first: merge never writes to them, and a bad one
        // stops it before the output is made.
        let shards = try inputs.map { try SweepStore(path: $0, readOnly: true) }
        // A refused merge into a new database leaves no database behind (it left an empty
        // 20 KB one where the output was to go).
        let isNew = !FileManager.default.fileExists(atPath: output)
        let note: String
        do {
            note = try merge(shards)
        } catch {
            if isNew {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: output + suffix)
                }
            }
            throw error
        }
        Output.note(note + "\n")
    }

    /// Merges `shards` into the output, and says what it holds then. The output database is
    /// closed when this returns.
    private func merge(_ shards: [SweepStore]) throws -> String {
        let store = try SweepStore(path: output)
        try SweepStore.merge(shards, into: store, allowMixed: allowMixed)
        let sweeps = try store.sweeps()
        let count = try store.count()
        var note = "merge: \(count) runs"
        if sweeps.count > 1 {
            note += " of \(sweeps.count) sweeps in \(output)"
        } else if let planned = sweeps.first?.plan.runs {
            // A shard that never ran (or was left off the command) shows here.
            note +=
                " in \(output), "
                + (count == planned
                    ? "all of the sweep's \(planned)" : "of the sweep's \(planned): \(planned - count) missing")
        } else {
            note += " in \(output)"
        }
        return note
    }
}

/// A progress bar on a terminal (done/total, rate, ETA, diverged and failed runs, in the
/// summary's words), or a plain line every
/// few seconds when stderr is a file or a pipe.
final class ProgressReporter: @unchecked Sendable {
    private let lock = NSLock()
    private let isTerminal = isatty(FileHandle.standardError.fileDescriptor) != 0
    private let start = Date()
    private var lastPrint = Date.distantPast
    private var printedBar = false
    private let label: String

    init(label: String) { self.label = label }

    func report(done: Int, total: Int, diverged: Int, failed: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let interval = isTerminal ? 0.1 : 5
        guard done == total || now.timeIntervalSince(lastPrint) >= interval else { return }
        lastPrint = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let numbers =
            "\(done)/\(total) \(label), \(String(format: "%.1f", rate))/s, ETA \(String(format: "%.0f", eta)) s, \(diverged) diverged, \(failed) failed"
        if isTerminal {
            let width = 30
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            Output.note("\r\(bar) \(numbers)\u{1B}[K")
            printedBar = true
        } else {
            Output.note("progress: \(numbers)\n")
        }
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if printedBar { Output.note("\n") }
    }
}
