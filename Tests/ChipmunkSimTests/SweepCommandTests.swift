import ChipmunkBatch
import Foundation
import Testing
import ChipmunkTestSupport

@Suite struct SweepCommandTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The exported rows without the wall time, which differs run to run.
    func rowsWithoutWallTime(_ db: String) throws -> [String] {
        let result = try Tool.sim("results", db, "--format", "csv")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { line in
            // wall_ms is the last column, and no earlier field here ends a line.
            String(line[..<line.lastIndex(of: ",")!])
        }
    }

    @Test(
        "--jobs 1 and --jobs 2 store the same rows; 4 shards merged equal the unsharded run; diverged runs are results")
    func jobsAndShards() throws {
        let sweep = [
            "Scenes/drop.json", "--param", "speed=log:1:1e20:21", "--param", "elasticity=0.2,0.8", "--seconds", "2",
        ]
        let one = try Tool.run("chipmunk-sim", ["sweep"] + sweep + ["--jobs", "1", "--db", path("one.sqlite")])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.contains("42 runs planned"))
        #expect(one.stderr.contains("30 ok, 12 diverged, 0 failed"), "\(one.stderr)")
        // Issue 28: progress said "12 failed" (diverged and failed together) where the summary
        // said "0 failed"; it counts them apart, in the summary's words.
        let last = try #require(one.stderrLines.last { $0.hasPrefix("progress: 42/42 runs, ") })
        #expect(last.hasSuffix(", 12 diverged, 0 failed"), "\(last)")
        let two = try Tool.run("chipmunk-sim", ["sweep"] + sweep + ["--jobs", "2", "--db", path("two.sqlite")])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(try rowsWithoutWallTime(path("one.sqlite")) == rowsWithoutWallTime(path("two.sqlite")))

        var shards: [String] = []
        var total = 0
        for index in 0..<4 {
            let db = path("shard-\(index).sqlite")
            let result = try Tool.run("chipmunk-sim", ["sweep"] + sweep + ["--shard", "\(index)/4", "--db", db])
            #expect(result.status == 0, "\(result.stderr)")
            total += try SweepStore(path: db).count()
            shards.append(db)
        }
        #expect(total == 42, "shards must not overlap")
        let merged = try Tool.run("chipmunk-sim", ["merge", path("merged.sqlite")] + shards)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try rowsWithoutWallTime(path("merged.sqlite")) == rowsWithoutWallTime(path("one.sqlite")))

        // The diverged runs name their step.
        let rows = try rowsWithoutWallTime(path("one.sqlite")).filter { $0.contains(",diverged,") }
        #expect(rows.count == 12)
        #expect(rows.allSatisfy { $0.contains("the simulation diverged") })
    }

    /// A body of moment "infinity" given a spin has an infinite energy: kinetic_energy is
    /// null, as the tracked energy's values are; JSON Lines wrote the string "Infinity".
    @Test("An infinite energy is null in the results, like every value that is not finite")
    func anInfiniteEnergyIsNull() throws {
        let scene = path("spin.json")
        try Data(
            (#"{"name": "spin", "gravity": [0, -100], "parameters": {"w": 0}, "bodies": [{"mass": 1, "#
                + #""moment": "infinity", "angularVelocity": {"$param": "w"}, "shapes": [{"type": "box", "#
                + #""width": 10, "height": 10}]}]}"#).utf8
        ).write(to: URL(fileURLWithPath: scene))
        let run = try Tool.sim(
            "sweep", scene, "--param", "w=0,2", "--steps", "30", "--track", "energy", "--db", path("spin.sqlite"))
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try Tool.sim("results", path("spin.sqlite"), "--format", "jsonl").stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows[0].contains(#""kinetic_energy":312.49"#), "\(rows[0])")  // falling 30 steps, not spinning
        #expect(
            rows[1].contains(#""kinetic_energy":null"#)
                && rows[1].contains(#""energy":{"final":null,"max":null,"min":null}"#), "\(rows[1])")
    }

    @Test("A sweep killed with SIGKILL, run again, completes only the missing runs")
    func killAndResume() throws {
        // 40 balls in a box, never sleeping: long enough runs to kill the sweep among them.
        let balls = (0..<40).map { i in
            #"{"mass": 1, "moment": {"circle": {"innerRadius": 0, "outerRadius": 5}}, "position": [\#(20 + (i % 8) * 20), \#(20 + (i / 8) * 20)], "velocity": [\#(i == 0 ? #"{"$param": "speed"}"# : "0"), 0], "shapes": [{"type": "circle", "radius": 5, "elasticity": 0.9}]}"#
        }
        let walls =
            #"{"type": "segment", "from": [0, 0], "to": [200, 0], "radius": 1}, {"type": "segment", "from": [200, 0], "to": [200, 200], "radius": 1}, {"type": "segment", "from": [200, 200], "to": [0, 200], "radius": 1}, {"type": "segment", "from": [0, 200], "to": [0, 0], "radius": 1}"#
        let scene = folder.appendingPathComponent("box.json")
        try Data(
            #"{"name": "box", "parameters": {"speed": 0}, "gravity": [0, -100], "staticShapes": [\#(walls)], "bodies": [\#(balls.joined(separator: ","))]}"#
                .utf8
        ).write(to: scene)
        let db = path("killed.sqlite")
        let arguments = [
            "sweep", scene.path, "--param", "speed=lin:1:300:120", "--seconds", "10", "--jobs", "2", "--db", db,
        ]
        let process = Process()
        process.executableURL = Tool.productsFolder.appendingPathComponent("chipmunk-sim")
        process.arguments = arguments
        process.currentDirectoryURL = Tool.packageRoot
        process.standardError = FileHandle.nullDevice
        try process.run()
        var stored = 0
        let deadline = Date().addingTimeInterval(Patience.seconds)
        while stored < 10, Date() < deadline, process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
            if FileManager.default.fileExists(atPath: db) {
                stored = (try? SweepStore(path: db, readOnly: true).count()) ?? stored
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the sweep should still have been running")
        let partial = try SweepStore(path: db).count()
        #expect(partial >= 10 && partial < 120, "killed part-way (\(partial) of 120 stored)")

        let resumed = try Tool.run("chipmunk-sim", arguments)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("\(partial) already in"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("\(120 - partial) run now"), "\(resumed.stderr)")
        let clean = try Tool.run("chipmunk-sim", Array(arguments.dropLast()) + [path("clean.sqlite")])
        #expect(clean.status == 0)
        #expect(try rowsWithoutWallTime(db) == rowsWithoutWallTime(path("clean.sqlite")))
    }

    @Test("--from: every run continues a saved state with its own parameters; the defaults give the plain continuation")
    func branchFromSnapshot() throws {
        let snapshot = path("drop-120.snapshot")
        #expect(try Tool.sim("snapshot", "Scenes/drop.json", "--at", "120", "-o", snapshot).status == 0)
        let db = path("from.sqlite")
        let sweep = try Tool.sim(
            "sweep", "Scenes/drop.json", "--from", snapshot, "--param", "elasticity=0.2,0.5,0.8", "--steps", "240",
            "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        // final_hash is the column before kinetic_energy and guarded_collisions, the last ones here.
        let hashes = try rowsWithoutWallTime(db).dropFirst().map { $0.split(separator: ",").dropLast(2).last! }
        #expect(Set(hashes).count == 3, "elasticity changes each run")
        let plain = try Tool.sim("run", snapshot, "--steps", "240", "--every", "240", "--hash")
        let plainHash = rows(plain.stdout).last!.last!
        #expect(hashes[1] == plainHash, "elasticity 0.5 is the file's default: the same as continuing the snapshot")
    }

    @Test("Parameter mistakes are errors that name the parameter and where")
    func parameterErrors() throws {
        let unknown = try Tool.sim("sweep", "Scenes/drop.json", "--param", "sped=1,2", "--db", path("x.sqlite"))
        #expect(unknown.status != 0)
        #expect(
            unknown.stderr.contains("sped") && unknown.stderr.contains("declares: elasticity, speed"),
            "\(unknown.stderr)")
        let badRange = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "speed=log:0:10:3", "--db", path("x.sqlite"))
        #expect(badRange.stderr.contains("above zero"), "\(badRange.stderr)")

        let undeclared = folder.appendingPathComponent("undeclared.json")
        try Data(#"{"name": "u", "parameters": {"g": 1}, "gravity": [0, {"$param": "h"}]}"#.utf8).write(to: undeclared)
        let run = try Tool.sim("run", undeclared.path, "--steps", "1")
        #expect(run.stderr.contains("gravity[1]") && run.stderr.contains("'h'"), "\(run.stderr)")

        let unused = folder.appendingPathComponent("unused.json")
        try Data(#"{"name": "u", "parameters": {"g": 1, "spare": 2}, "gravity": [0, {"$param": "g"}]}"#.utf8).write(
            to: unused)
        // A warning, and the run goes on (issue 28); a sweep of it changes nothing: refused
        // before any run, with no database left.
        let run2 = try Tool.sim("run", unused.path, "--steps", "1")
        #expect(run2.status == 0 && run2.stdout.hasPrefix("step,"), "\(run2.stderr)")
        #expect(
            run2.stderr.hasPrefix("chipmunk-sim: warning: unused.json: parameters.spare: is declared"), "\(run2.stderr)"
        )
        let sweep2 = try Tool.sim("sweep", unused.path, "--param", "spare=1,2", "--db", path("spare.sqlite"))
        #expect(sweep2.status == 65, "\(sweep2.stderr)")
        #expect(sweep2.stderr.contains("parameters.spare") && sweep2.stderr.contains("so setting it changes nothing"))
        #expect(!FileManager.default.fileExists(atPath: path("spare.sqlite")))

        // SQLite alone says "unable to open database file".
        let nowhere = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "speed=1,2", "--db", "/nonexistent-folder/x.sqlite")
        #expect(nowhere.stderr == "chipmunk-sim: /nonexistent-folder/x.sqlite: no folder /nonexistent-folder\n")
        _ = try SweepStore(path: path("shard.sqlite"))
        let merged = try Tool.sim("merge", "/nonexistent-folder/m.sqlite", path("shard.sqlite"))
        #expect(merged.stderr == "chipmunk-sim: /nonexistent-folder/m.sqlite: no folder /nonexistent-folder\n")
    }
}

@Suite struct SweepReadmeTests {
    @Test(
        "The sweep examples of the README and docs/sweeps.md run and print the summary they show",
        arguments: ["README.md", "docs/sweeps.md"])
    func readmeSweep(file: String) throws {
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent(file), encoding: .utf8)
        let block = try #require(text.components(separatedBy: "<!-- sweep-example").dropFirst().first)
        let lines = block.split(separator: "\n")
        let command = lines.first { $0.hasPrefix("$ chipmunk-sim sweep ") }!
        let summary = lines.first { $0.hasPrefix("sweep: ") }!
        let folder = try TemporaryFolder("readme")
        defer { folder.remove() }
        var arguments = command.dropFirst("$ chipmunk-sim ".count).split(separator: " ").map(String.init)
        let db = arguments.firstIndex(of: "--db")! + 1
        arguments[db] = folder.url.appendingPathComponent(arguments[db]).path
        let result = try Tool.run("chipmunk-sim", arguments)
        #expect(result.status == 0, "\(result.stderr)")
        // All but the database's folder, the wall time and the threads (one per core).
        let machine = #" in [0-9.]+ s on [0-9]+ threads?"#
        let expected = summary.replacingOccurrences(of: machine, with: "", options: .regularExpression)
        let got = result.stderrLines.last.map(String.init)!.replacingOccurrences(of: folder.url.path + "/", with: "")
            .replacingOccurrences(of: machine, with: "", options: .regularExpression)
        #expect(got == expected)
    }
}

@Suite struct SpringSweepTests {
    @Test("A spring stiffness sweep from 10 to 1e6 (log) finishes and records the diverged runs with their step")
    func divergingStiffness() throws {
        let folder = try TemporaryFolder("spring")
        defer { folder.remove() }
        let db = folder.url.appendingPathComponent("spring.sqlite").path
        let sweep = try Tool.sim(
            "sweep", "Scenes/spring.json", "--param", "stiffness=log:10:1e6:11", "--seconds", "10", "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        #expect(sweep.stderr.contains("11 runs planned"))
        let lines = try Tool.sim("results", db, "--format", "jsonl").stdout.split(separator: "\n")
        let diverged = lines.filter { $0.contains(#""outcome":"diverged""#) }
        #expect(diverged.count >= 3, "the stiffest springs diverge at 1/60 s")
        #expect(diverged.allSatisfy { $0.contains(#""error_step":"#) && !$0.contains(#""error_step":null"#) })
        #expect(lines.contains { $0.contains(#""stiffness":10}"#) && $0.contains(#""outcome":"ok""#) })
    }

    @Test("The diverging-spring sweep file (with track) charts box.y.min against stiffness, diverged runs marked")
    func springChart() throws {
        let folder = try TemporaryFolder("chart")
        defer { folder.remove() }
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let db = path("spring.sqlite")
        let sweep = try Tool.sim("sweep", "--sweep", "Sweeps/spring-stiffness.json", "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        #expect(sweep.stderr.contains("82 runs planned"), "\(sweep.stderr)")
        let svg = path("spring.svg")
        let chart = try Tool.sim("results", db, "--chart", "stiffness:box.y.min", "-o", svg)
        #expect(chart.status == 0, "\(chart.stderr)")
        #expect(chart.stderr.contains("for 82 of 82 runs (30 not ok)"), "\(chart.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        for label in [
            "stiffness", "box.y.min", "ok (damping=0.5)", "ok (damping=5)",
            "diverged (30 runs; from stiffness = 1.778e+04",
        ] {
            #expect(text.contains(label), "the chart shows \(label)")
        }
        #expect(try Tool.sim("results", db, "--chart", "stiffness:box.y.min", "-o", path("c.png")).status == 0)
        // error_step is only a not-ok run's: those runs are the chart, at their steps. With no ok
        // run to fit, the y axis once took a log scale with nothing on it, and matplotlib's
        // ValueError came out as the error.
        for name in ["e.svg", "e.png"] {
            let steps = try Tool.sim("results", db, "--chart", "stiffness:error_step", "-o", path(name))
            #expect(steps.status == 0, "\(steps.stderr)")
        }
        let steps = try String(contentsOfFile: path("e.svg"), encoding: .utf8)
        #expect(steps.contains("error_step") && steps.contains("diverged (30 runs; from stiffness = 1.778e+04"))
        #expect(FileManager.default.contents(atPath: path("c.png"))?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(try Tool.sim("results", db, "--chart", "stiffness:box.y.min", "-o", path("c.pdf")).status == 0)
        #expect(FileManager.default.contents(atPath: path("c.pdf"))?.starts(with: Array("%PDF".utf8)) == true)
        let nowhere = try Tool.sim("results", db, "--chart", "stiffness:box.y.min", "-o", "/nonexistent-folder/c.svg")
        #expect(
            nowhere.stderr == "chipmunk-sim: cannot write -o /nonexistent-folder/c.svg: no folder /nonexistent-folder\n"
        )

        let unknownParameter = try Tool.sim("results", db, "--chart", "stiff:box.y.min", "-o", svg)
        #expect(
            unknownParameter.stderr.contains("no parameter stiff in")
                && unknownParameter.stderr.contains("damping, stiffness"))
        let unknownMetric = try Tool.sim("results", db, "--chart", "stiffness:box.x.min", "-o", svg)
        #expect(unknownMetric.stderr.contains("no metric box.x.min; known: steps,"), "\(unknownMetric.stderr)")
        #expect(try Tool.sim("results", db, "--chart", "stiffness").stderr.contains("must be PARAM:METRIC"))
        #expect(
            try Tool.sim("results", db, "--chart", "a:b", "-o", "x.gif").stderr.contains("ending in .svg, .png or .pdf")
        )
    }

    @Test("--track stores min, max and final of a quantity; --body a body's final state")
    func trackedQuantities() throws {
        let folder = try TemporaryFolder("track")
        defer { folder.remove() }
        let db = folder.url.appendingPathComponent("t.sqlite").path
        let sweep = try Tool.sim(
            "sweep", "Scenes/pendulum.json", "--param", "length=100", "--db", db)
        #expect(sweep.stderr.contains("declares no parameters"), "\(sweep.stderr)")
        let run = try Tool.sim(
            "sweep", "Scenes/spring.json", "--param", "stiffness=10,100", "--track", "box.y", "--track", "energy",
            "--body", "box", "--seconds", "5", "--db", db)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try Tool.sim("results", db, "--format", "jsonl").stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let quantities = try #require(row["quantities"] as? [String: [String: Double]], "\(line)")
            // The box starts at rest at y = -50 and first falls: its highest y is the start.
            let y = try #require(quantities["box.y"])
            #expect(y["max"] == -50 && y["min"]! < -50 && y["final"] != nil, "\(line)")
            #expect(quantities["energy"]?.keys.sorted() == ["final", "max", "min"], "\(line)")
            let box = try #require((row["bodies"] as? [String: [String: Double]])?["box"], "\(line)")
            #expect(box.keys.sorted() == ["angle", "vx", "vy", "w", "x", "y"] && box["x"] == 0, "\(line)")
        }
        let wrong = try Tool.sim(
            "sweep", "Scenes/spring.json", "--param", "stiffness=10", "--track", "bx.y", "--db", db)
        #expect(wrong.status != 0 && wrong.stderr.contains("no body named 'bx' (names: box)"), "\(wrong.stderr)")
    }

    @Test("Version-2 output names bodies by id; --kinematic adds kinematic bodies")
    func namedOutput() throws {
        let run = try Tool.sim("run", "Scenes/pendulum.json", "--steps", "2")
        #expect(rows(run.stdout).dropFirst().allSatisfy { $0[1] == "bob" })
        let v1 = try Tool.sim("run", "Scenes/crates.json", "--steps", "1")
        #expect(
            rows(v1.stdout).dropFirst().map { $0[1] } == ["0", "1", "2", "3", "4"], "version-1 output is unchanged")
        let jsonl = try Tool.sim("run", "Scenes/pendulum.json", "--steps", "1", "--format", "jsonl")
        #expect(jsonl.stdout.contains(#""body":"bob""#))
    }
}

@Suite struct OlderDatabaseTests {
    /// Databases written before runs were records held `quantities` and `bodies` in the
    /// plan's order with numbers such as `-50.0`; records write them with sorted keys
    /// (`-50`). Both are the same values: such a database reads, charts and merges with a
    /// new one of the same sweep without a conflict.
    @Test func aDatabaseWrittenBeforeRecordsReadsAndMerges() throws {
        let folder = try TemporaryFolder("older-db")
        defer { folder.remove() }
        let arguments = [
            "sweep", "Scenes/spring.json", "--param", "stiffness=10,100", "--track", "box.y", "--body", "box",
            "--seconds", "1",
        ]
        let old = folder.path("old.sqlite")
        let new = folder.path("new.sqlite")
        #expect(try Tool.run("chipmunk-sim", arguments + ["--db", old]).status == 0)
        #expect(try Tool.run("chipmunk-sim", arguments + ["--db", new]).status == 0)
        // Rewrite the old database's JSON columns as the string-built writer wrote them.
        let rewrite = try Tool.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import json, sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                def number(v): return 'null' if v is None else repr(float(v))
                for key, q, b in c.execute('SELECT key, quantities, bodies FROM runs').fetchall():
                    q = json.loads(q); b = json.loads(b)
                    qs = '{' + ','.join('"%s":{"min":%s,"max":%s,"final":%s}' % (n, number(v['min']), number(v['max']), number(v['final'])) for n, v in q.items()) + '}'
                    bs = '{' + ','.join('"%s":{%s}' % (n, ','.join('"%s":%s' % (f, number(v[f])) for f in ['x', 'y', 'angle', 'vx', 'vy', 'w'])) for n, v in b.items()) + '}'
                    c.execute('UPDATE runs SET quantities = ?, bodies = ? WHERE key = ?', (qs, bs, key))
                c.commit()
                """,
                old,
            ])
        #expect(rewrite.status == 0, "\(rewrite.stderr)")
        let before = try Tool.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT quantities FROM runs').fetchone()[0])",
                old,
            ])
        #expect(before.stdout.contains(#""max":-50.0,"final":"#), "\(before.stdout)")
        let exported = try Tool.sim("results", old, "--format", "jsonl")
        #expect(exported.status == 0, "\(exported.stderr)")
        func stable(_ text: String) -> String {
            text.replacingOccurrences(of: #""wall_ms":[0-9.e+-]+"#, with: "", options: .regularExpression)
        }
        #expect(stable(exported.stdout) == stable(try Tool.sim("results", new, "--format", "jsonl").stdout))
        let chart = try Tool.sim("results", old, "--chart", "stiffness:box.y.min", "-o", folder.path("c.svg"))
        #expect(chart.status == 0, "\(chart.stderr)")
        let merged = try Tool.sim("merge", folder.path("all.sqlite"), old, new)
        #expect(merged.status == 0, "\(merged.stderr)")
    }
}
