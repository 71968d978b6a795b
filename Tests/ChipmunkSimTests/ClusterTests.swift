import ChipmunkBatch
import ChipmunkScenes
import Foundation
import Testing
import ChipmunkTestSupport

/// Sweeps on clusters: shards from the scheduler's environment, balanced shards, databases
/// that know their sweep, and merges and charts that say what they combine and plot.
@Suite final class ClusterTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("cluster") }
    deinit { folder.remove() }

    /// 161 runs: 23 speeds × 7 elasticities, each 60 steps (a second at 1/60 s).
    static let sweep = [
        "Scenes/drop.json", "--param", "speed=log:1:1e20:23", "--param", "elasticity=0.1,0.2,0.3,0.5,0.6,0.8,0.9",
        "--steps", "60",
    ]

    /// The test's environment without any scheduler's shard variables, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS"] {
            environment[name] = nil
        }
        return environment.merging(extra) { $1 }
    }

    @Test(
        "A shard from the environment needs both index and count; one alone is an error naming the missing one",
        arguments: [
            (["SLURM_ARRAY_TASK_ID": "1"], "SLURM_ARRAY_TASK_COUNT is not set"),
            (["SLURM_ARRAY_TASK_COUNT": "3"], "SLURM_ARRAY_TASK_ID is not set"),
            (["JOB_COMPLETION_INDEX": "1"], "JOB_COMPLETIONS is not set"),
            (["JOB_COMPLETIONS": "3"], "JOB_COMPLETION_INDEX is not set"),
        ])
    func shardNeedsBoth(variables: [String: String], message: String) throws {
        let db = folder.path("x.sqlite")
        let result = try Tool.run(
            "chipmunk-sim", ["sweep"] + Self.sweep + ["--db", db], environment: Self.environment(variables))
        #expect(result.status != 0, "an index alone used to run every run in every task")
        #expect(result.stderr.contains(message) && result.stderr.contains("a shard needs both"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "nothing ran")
    }

    @Test("With both variables set, Slurm's and Kubernetes' shards are the same as --shard's")
    func shardFromEnvironment() throws {
        for variables in [
            ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"],
            ["JOB_COMPLETION_INDEX": "1", "JOB_COMPLETIONS": "3"],
        ] {
            let result = try Tool.run(
                "chipmunk-sim", ["sweep"] + Self.sweep + ["--db", folder.path("\(variables.count)-\(UUID()).sqlite")],
                environment: Self.environment(variables))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("161 runs planned (shard 1/3: 54 runs)"), "\(result.stderr)")
        }
    }

    @Test("161 runs in 3 shards are 54, 54 and 53 (they were 46, 43 and 72); merged they are the unsharded sweep")
    func balancedShards() throws {
        var sizes: [Int] = []
        var shards: [String] = []
        for index in 0..<3 {
            let db = folder.path("shard-\(index).sqlite")
            let result = try Tool.run(
                "chipmunk-sim", ["sweep"] + Self.sweep + ["--shard", "\(index)/3", "--db", db],
                environment: Self.environment([:]))
            #expect(result.status == 0, "\(result.stderr)")
            sizes.append(try SweepStore(path: db).count())
            shards.append(db)
        }
        #expect(sizes == [54, 54, 53])
        let merged = try Tool.sim("merge", folder.path("all.sqlite"), shards[0], shards[1], shards[2])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr == "merge: 161 runs in \(folder.path("all.sqlite")), all of the sweep's 161\n")
        let partial = try Tool.sim("merge", folder.path("part.sqlite"), shards[0], shards[2])
        #expect(partial.stderr == "merge: 107 runs in \(folder.path("part.sqlite")), of the sweep's 161: 54 missing\n")
    }

    @Test("A database records its sweep (scene hash and plan); a sweep of another plan is refused in it")
    func databaseRecordsItsSweep() throws {
        let db = folder.path("drop.sqlite")
        #expect(try Tool.run("chipmunk-sim", ["sweep"] + Self.sweep + ["--db", db]).status == 0)
        let sweeps = try SweepStore(path: db, readOnly: true).sweeps()
        #expect(sweeps.count == 1)
        let scene = try Data(contentsOf: Tool.packageRoot.appendingPathComponent("Scenes/drop.json"))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a 64 of the file, as SweepPlan defines the scene hash
        for byte in scene { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        #expect(sweeps.first?.sceneHash == String(hash, radix: 16).leftPadded(to: 16))
        #expect(sweeps.first?.scene == "drop.json")
        #expect(sweeps.first?.plan.runs == 161 && sweeps.first?.plan.steps == 60)
        #expect(sweeps.first?.plan.parameters == ["elasticity", "speed"])

        let other = try Tool.sim("sweep", "Scenes/drop.json", "--param", "speed=1,2", "--steps", "60", "--db", db)
        #expect(other.status != 0)
        #expect(other.stderr.contains("\(db) holds another sweep: drop.json"), "\(other.stderr)")
        #expect(other.stderr.contains("161 runs of 60 steps") && other.stderr.contains("2 runs of 60 steps"))
        #expect(try SweepStore(path: db).count() == 161, "nothing added")

        // The same runs in another order, at a --dt equal to the scene's own, are the same sweep
        // (each was "another sweep": the plan hashed its keys in order, and --dt into them).
        let sceneTimeStep = try SceneDescription.decode(scene, source: "drop.json").makeScene().timeStep
        let reordered = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "elasticity=0.1,0.2,0.3,0.5,0.6,0.8,0.9", "--param",
            "speed=log:1:1e20:23", "--steps", "60", "--dt", "\(sceneTimeStep)", "--db", db)
        #expect(reordered.status == 0, "\(reordered.stderr)")
        #expect(reordered.stderr.contains("161 already in \(db), 0 run now"), "\(reordered.stderr)")
    }

    @Test(
        "merge refuses databases of different sweeps, naming both, unless --allow-mixed; the chart then says what it left out"
    )
    func mergeRefusesMixedSweeps() throws {
        let drop = folder.path("drop.sqlite")
        let spring = folder.path("spring.sqlite")
        #expect(try Tool.run("chipmunk-sim", ["sweep"] + Self.sweep + ["--db", drop]).status == 0)
        #expect(try Tool.sim("sweep", "Scenes/spring.json", "--param", "stiffness=10,100", "--db", spring).status == 0)

        let all = folder.path("all.sqlite")
        let refused = try Tool.sim("merge", all, drop, spring)
        #expect(refused.status != 0)
        #expect(
            refused.stderr.hasPrefix("chipmunk-sim: \(spring) is from another sweep than \(drop): "),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("spring.json (scene ") && refused.stderr.contains("drop.json (scene "))
        #expect(refused.stderr.contains("--allow-mixed"))
        // Issue 28: it left an empty 20 KB database where the output was to go.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("all.") }
        #expect(left.isEmpty, "nothing was merged, and no database is left: \(left)")

        let mixed = try Tool.sim("merge", "--allow-mixed", all, drop, spring)
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(mixed.stderr == "merge: 163 runs of 2 sweeps in \(all)\n")
        #expect(try SweepStore(path: all).sweeps().map(\.scene).sorted() == ["drop.json", "spring.json"])
        // A refused merge into a database that was there keeps it as it was.
        let again = try Tool.sim("merge", all, drop)
        #expect(again.status != 0 && again.stderr.contains("Nothing was merged"), "\(again.stderr)")
        #expect(try SweepStore(path: all).count() == 163)

        // A database of two sweeps is a third sweep's mixture: merging it with one of them is refused too.
        #expect(try Tool.sim("merge", folder.path("again.sqlite"), all, drop).status != 0)

        let chart = try Tool.sim("results", all, "--chart", "speed:steps", "-o", folder.path("c.svg"))
        #expect(chart.status == 0, "\(chart.stderr)")
        #expect(
            chart.stderr.hasPrefix(
                "results: steps against speed for 161 of 163 runs (42 not ok; left out: 2 have no speed) in "),
            "\(chart.stderr)")
        let svg = try String(contentsOfFile: folder.path("c.svg"), encoding: .utf8)
        #expect(svg.contains("161 of 163 runs plotted"), "the chart's title says it too")
    }

    @Test("The chart counts ok runs without the metric as left out")
    func chartLeavesOutRunsWithoutTheMetric() throws {
        let db = folder.path("drop.sqlite")
        #expect(try Tool.run("chipmunk-sim", ["sweep"] + Self.sweep + ["--db", db]).status == 0)
        // error_step is empty in every ok run: only the 42 diverged runs have one.
        let chart = try Tool.sim("results", db, "--chart", "speed:error_step", "-o", folder.path("e.svg"))
        #expect(chart.status == 0, "\(chart.stderr)")
        #expect(
            chart.stderr.hasPrefix(
                "results: error_step against speed for 42 of 161 runs (42 not ok; left out: 119 ok runs have no error_step) in "
            ), "\(chart.stderr)")
    }

    @Test("The chart program is a file that runs alone, and a chart is the same bytes each time it is drawn")
    func chartProgramAlone() throws {
        let request = folder.url.appendingPathComponent("request.json")
        let points = [
            #"{"x": 1, "y": 2, "group": "", "outcome": "ok"}"#, #"{"x": 1000, "y": 3, "group": "", "outcome": "ok"}"#,
            #"{"x": 5000, "group": "", "outcome": "diverged", "errorStep": 7}"#,
        ]
        let chart = #""scene": "s.json", "parameter": "k", "metric": "m", "runCount": 3"#
        try Data(#"{"format": "svg", "chart": {\#(chart), "points": [\#(points.joined(separator: ", "))]}}"#.utf8)
            .write(to: request)
        let script = Tool.packageRoot.appendingPathComponent("Sources/chipmunk-sim/Chart/chart.py").path
        let drawn = try Tool.run("/bin/sh", ["-c", "python3 '\(script)' < '\(request.path)'"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(
            drawn.stdout.hasPrefix("<?xml") && drawn.stdout.contains("s.json: m against k (3 of 3 runs plotted, 2 ok)"))
        #expect(drawn.stdout.contains("diverged (1 run; from k = 5000, step 7)"))
        let again = try Tool.run("/bin/sh", ["-c", "python3 '\(script)' < '\(request.path)'"])
        #expect(again.stdout == drawn.stdout, "matplotlib's SVG ids are salted with a fixed string")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
