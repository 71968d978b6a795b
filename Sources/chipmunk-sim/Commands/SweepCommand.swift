import ArgumentParser
import Chipmunk
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
        help: ArgumentHelp(
            "name=1,2,5 | name=lin:FROM:TO:COUNT | name=log:FROM:TO:COUNT; repeat for more parameters (each parameter, and each value, once).",
            valueName: "name=values"),
        transform: SweepAxis.argument)
    var axes: [SweepAxis] = []

    @OptionGroup var runLength: RunLength  // default: 5 seconds

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
            valueName: "quantity"), transform: TrackedQuantity.argument)
    var tracked: [TrackedQuantity] = []

    @Option(
        name: .customLong("body"),
        help: ArgumentHelp(
            "A body whose final state every run stores (its name in output: id, or index).", valueName: "name"))
    var recordedBodies: [String] = []

    // Optional, so that --help prints the default once, in words, not this machine's count too.
    @Option(
        name: .customLong("jobs"), parsing: .unconditional, help: "Worker threads (default: one per core).",
        transform: WholeNumber.parser(1...256, "threads"))
    var jobsGiven: Int?

    /// --jobs, or one per core (at most 256).
    var jobs: Int { jobsGiven ?? min(ProcessInfo.processInfo.activeProcessorCount, 256) }

    @Option(help: "The results database (SQLite); created if missing, resumed if not.") var db: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Run only shard I of N (I from 0), such as 2/4. Default: from Slurm or Kubernetes, else 0/1.",
            valueName: "I/N"), transform: { try Shard.parse($0) })
    var shard: Shard?

    func validate() throws {
        // SQLite takes an empty name for a private temporary database: nothing would be kept.
        if db.isEmpty { throw ValidationError("--db is empty: give the results database's file") }
        try Output.refuseOverwriting(
            db, option: "--db",
            inputs: [
                ("the scene file being read", scene), ("the sweep file", sweep), ("the snapshot being read", from),
            ])
        if sweep == nil {
            if scene == nil { throw ValidationError("give a scene file and --param, or --sweep FILE") }
            if axes.isEmpty { throw ValidationError("give at least one --param name=values (or --sweep FILE)") }
            // The command line's own mistakes are usage errors (64), named by the option.
            var seen = Set<String>()
            for axis in axes where !seen.insert(axis.name).inserted {
                throw ValidationError("--param \(axis.name) is given twice; give each parameter once")
            }
            do {
                try SweepDesign.grid(axes).checkSize()
            } catch {
                throw ValidationError("\(error)")
            }
        } else if scene != nil || !axes.isEmpty {
            throw ValidationError("--sweep FILE names its scene and runs; give no scene or --param with it")
        }
        for (option, names) in [("--track", tracked.map(\.name)), ("--body", recordedBodies)] {
            var seen = Set<String>()
            for name in names where !seen.insert(name).inserted {
                throw ValidationError("\(option) \(name) is given twice; give each once")
            }
        }
        _ = try shardToRun()
    }

    /// The sweep file as its errors name it: its name, as `SweepFile.load`'s errors do.
    var sweepFileName: String { sweep.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "the sweep file" }

    /// --shard, or the scheduler's, or the whole sweep.
    func shardToRun() throws -> Shard {
        try shard ?? Shard.fromScheduler(ProcessInfo.processInfo.environment) ?? .whole
    }

    /// The scene's name in results and its JSON: a built-in scene's file (as in `Scenes/`,
    /// carried in the binary), or the file named on the command line or in the sweep file.
    /// A built-in name wins over a file of the same name, as in `run`: write ./crates for the file.
    func sceneData(file: SweepFile?) throws -> (source: String, data: Data) {
        // A sweep file's scene is a built-in name only when no file of that name is beside it.
        let builtInName =
            file.map { FileManager.default.fileExists(atPath: $0.scene.path) ? nil : $0.sceneAsGiven } ?? scene
        if let name = builtInName, let entry = SceneCatalog.builtIn.first(where: { $0.name == name }) {
            guard let data = SceneCatalog.sceneFile(named: name) else {
                let why =
                    "\(name) is a built-in scene that needs code (\(entry.summary)), so it has no scene file to sweep; sweeping takes the built-in scenes with a file in Scenes/"
                // Named in the sweep file, the file is what is wrong (bad data, 65), not the command line.
                if file != nil { throw RunError("\(sweepFileName): scene: \(why)") }
                throw ValidationError(why)
            }
            return ("\(name).json", data)
        }
        guard let url = file?.scene ?? scene.map({ URL(fileURLWithPath: $0) }) else {
            throw ValidationError("give a scene file and --param, or --sweep FILE")  // validate() asks first
        }
        return (url.lastPathComponent, try SceneDescription.read(contentsOf: url))
    }

    /// A swept time step (the scene's `timeStep` is a swept parameter) rules out two things:
    /// a time step given for every run (`--dt`, the file's `timeStep`), which would replace
    /// the swept one, so that every run stepped alike with no word; and a duration in
    /// seconds, which is one step count from the default time step (dt=0.001 simulated
    /// 0.1 s, dt=0.1 10 s, with no word).
    func checkSweptTimeStep(plan: SweepPlan, file: SweepFile?, timeStep: Double?) throws {
        let swept = Set(plan.runs.flatMap(\.values.keys))
        guard let name = plan.template.parameters(referencedBy: "timeStep").intersection(swept).sorted().first else {
            return
        }
        if let timeStep {
            let why =
                "the scene's timeStep is the swept parameter \(name); a time step for every run would replace it, and every run would step at \(timeStep)"
            if let dt = runLength.dt {
                throw ValidationError("--dt \(dt.seconds): \(why); drop --dt or sweep another parameter")
            }
            throw RunError("\(sweepFileName): timeStep: \(why); remove timeStep")
        }
        guard runLength.steps == nil, file?.steps == nil || runLength.seconds != nil else { return }
        let why =
            "the scene's timeStep is the swept parameter \(name), so a duration in seconds is a different number of steps in each run"
        if let seconds = runLength.seconds {
            throw ValidationError("--seconds \(seconds): \(why); give --steps")
        } else if file?.seconds != nil {
            throw RunError("\(sweepFileName): seconds: \(why); give steps")
        } else {
            throw ValidationError("a sweep runs 5 s unless told: \(why); give --steps")
        }
    }

    func run() throws {
        let plan = try makePlan()
        let shard = try shardToRun()
        let store = try SweepStore(path: db)
        let reporter = ProgressReporter(label: "runs")
        let summary = try Sweep.run(plan, store: store, jobs: jobs, shard: (shard.index, shard.count)) {
            done, total, diverged, failed in
            reporter.report(done: done, total: total, diverged: diverged, failed: failed)
        }
        reporter.finish()
        let shardText =
            shard.count > 1 ? " (shard \(shard.index)/\(shard.count): \(counted(summary.inShard, "run")))" : ""
        Output.note(
            """
            sweep: \(counted(summary.planned, "run")) planned\(shardText); \(summary.alreadyStored) already in \(db), \(summary.ran) run now \
            in \(String(format: "%.1f", summary.seconds)) s on \(counted(jobs, "thread")): \
            \(summary.ok) ok, \(summary.diverged) diverged, \(summary.failed) failed

            """)
    }

    /// The sweep's plan from the options and the sweep file, every input checked before
    /// any database is opened: the scene, the duration, the start state, the runs, and the
    /// quantities and bodies to follow.
    func makePlan() throws -> SweepPlan {
        let file = try sweep.map { try SweepFile.load(contentsOf: URL(fileURLWithPath: $0)) }
        let (source, data) = try sceneData(file: file)
        // The file parsed once, and the scene as its defaults build it, once: its time step,
        // and the names checked below.
        let template = try SceneTemplate(data, source: source)
        let description = try template.description()
        description.warnings.forEach(Output.warning)
        let example = try description.makeScene(source: source)
        // The command line's duration wins over the file's.
        let timeStep = runLength.dt?.seconds ?? file?.timeStep
        let steps = try stepCount(file: file, dt: timeStep ?? example.timeStep)
        let snapshot = from ?? file?.from?.path
        let start = try snapshot.map { try SceneCatalog.loadSnapshot(contentsOf: URL(fileURLWithPath: $0)) }
        if let start, let snapshot {
            try check(start, named: snapshot, fits: description, source: source)
        }
        var plan: SweepPlan
        do {
            plan = try SweepPlan(
                template: template, sceneData: data, design: file?.design ?? .grid(axes), steps: steps,
                timeStep: timeStep, start: start)
        } catch {
            // A table's row or a random draw is the sweep file's, named as its other keys are.
            guard sweep != nil, case .badInput = error else { throw error }
            throw RunError("\(sweepFileName): \(error)")
        }
        try checkSweptTimeStep(plan: plan, file: file, timeStep: timeStep)
        // A time step equal to the scene's own changes no run: the same runs, keys and sweep
        // as without it (--dt 0.008333… of crates was another sweep than crates).
        if let given = plan.timeStep, given.bitPattern == example.timeStep.bitPattern { plan.timeStep = nil }
        try follow(in: &plan, file: file, names: Set(example.bodyNamesOverTime), source: source)
        return plan
    }

    /// Refuses a start snapshot of another scene: each run failed alone, and the sweep
    /// exited 0 with its database bound to that plan. The scene as its defaults build it
    /// must take it (parameters set numbers, never how many bodies, shapes or joints there
    /// are), so it is restored into a scene of its own, built here for the check.
    func check(_ start: Snapshot, named snapshot: String, fits description: SceneDescription, source: String) throws {
        let probe = try description.makeScene(source: source)
        do {
            try probe.restore(start.applyingConfiguration(of: probe.snapshot()))
        } catch {
            throw RunError("--from \(snapshot) is not a snapshot of \(source): \(error)")
        }
    }

    /// Sets the quantities and bodies each run records: the command line's, then the sweep
    /// file's, each given once, and every body name one the scene has (`names`, bodies that
    /// inputs add included), checked before any run; a name from the sweep file is named by
    /// its file and key.
    func follow(in plan: inout SweepPlan, file: SweepFile?, names: Set<String>, source: String) throws {
        let fileTracked = try (file?.tracked ?? []).map { try TrackedQuantity(parsing: $0) }  // checked by load
        let fileBodies = file?.bodies ?? []
        for (option, key, given, inFile) in [
            ("--track", "track", tracked.map(\.name), fileTracked.map(\.name)),
            ("--body", "bodies", recordedBodies, fileBodies),
        ] {
            for name in given where inFile.contains(name) {
                throw ValidationError("\(option) \(name) is in \(sweepFileName)'s \(key) too; give it once")
            }
        }
        let inFile = { (key: String) in sweep == nil ? "" : "\(sweepFileName): \(key): " }
        let given =
            tracked.compactMap { $0.body.map { ("", $0) } } + recordedBodies.map { ("", $0) }
            + fileTracked.enumerated().compactMap { index, quantity in
                quantity.body.map { (inFile("track[\(index)]"), $0) }
            }
            + fileBodies.enumerated().map { (inFile("bodies[\($0)]"), $1) }
        for (origin, name) in given where !names.contains(name) {
            throw RunError(  // the scene's business: bad data (65), as an undeclared --param is
                "\(origin)\(source) has no body named '\(name.excerpt())' (names: \(names.sorted().prefix(20).map { $0.excerpt() }.joined(separator: ", ")))"
            )
        }
        plan.tracked = tracked + fileTracked
        plan.recordedBodies = recordedBodies + fileBodies
    }

    /// Every run's number of steps at time step `dt`: the command line's duration, else the
    /// sweep file's (steps or seconds), else 5 s.
    func stepCount(file: SweepFile?, dt: Double) throws -> Int {
        guard let file, runLength.steps == nil, runLength.seconds == nil else {
            return try runLength.stepCount(dt: dt, defaultSeconds: 5)
        }
        // A sweep file gives steps or seconds (SweepFile.load checks that it gives one).
        do {
            return try file.steps ?? RunLength.stepCount(seconds: file.seconds ?? 5, dt: dt)
        } catch {
            throw RunError("\(sweepFileName): seconds: \(error)")  // the file's data: 65
        }
    }
}
