import Foundation
import Testing
import ChipmunkTestSupport

/// The sweep layer's inputs that an attack (report 14) found mishandled: each is refused in
/// one line, with the exit status of the exit table, and before any database is made.
@Suite struct SweepInputTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("sweep-input") }

    /// Runs chipmunk-sim in the test's folder.
    private func sim(_ arguments: String...) throws -> Tool.Result { try sim(arguments) }

    private func sim(_ arguments: [String]) throws -> Tool.Result {
        try Tool.run("chipmunk-sim", arguments, directory: folder.url)
    }

    private let drop = Tool.packageRoot.appendingPathComponent("Scenes/drop.json").path

    /// A sweep file may name a built-in scene, as the command line may ("scene": "crates"
    /// was "cannot read the file"); a file of that name beside it still wins.
    @Test func aSweepFileMayNameABuiltInScene() throws {
        defer { folder.remove() }
        try Data(#"{"scene": "crates", "steps": 10, "grid": {"friction": [0, 1]}}"#.utf8)
            .write(to: folder.url.appendingPathComponent("s.json"))
        let swept = try sim("sweep", "--sweep", "s.json", "--db", "s.sqlite")
        #expect(swept.status == 0, "\(swept.stderr)")
        #expect(try sim("results", "s.sqlite").stdout.contains(",crates.json,"))
        try FileManager.default.copyItem(atPath: drop, toPath: folder.path("crates"))
        let file = try sim("sweep", "--sweep", "s.json", "--db", "t.sqlite")
        #expect(file.status == 65 && file.stderr.contains("friction"), "the file named crates is swept: \(file.stderr)")
    }

    /// D1: `.` (and any one-character name) trapped in NSString.deletingLastPathComponent.
    @Test func aFolderOrAOneCharacterNameIsNoCrash() throws {
        defer { folder.remove() }
        let swept = try sim("sweep", drop, "--param", "speed=1", "--steps", "10", "--db", ".")
        #expect(swept.status == 65)
        #expect(swept.stderr == "chipmunk-sim: .: is a folder, not a results database file\n", "\(swept.stderr)")
        let slash = try sim("sweep", drop, "--param", "speed=1", "--steps", "10", "--db", "./")
        #expect(slash.status == 65)
        #expect(slash.stderr == "chipmunk-sim: ./: is a folder, not a results database file\n", "\(slash.stderr)")
        let results = try sim("results", ".")
        #expect(results.status == 65)
        #expect(results.stderr == "chipmunk-sim: .: is a folder, not a results database file\n", "\(results.stderr)")
        let short = try sim("sweep", drop, "--param", "speed=1", "--steps", "10", "--db", "x")
        #expect(short.status == 0, "\(short.stderr)")
        let merged = try sim("merge", "out.sqlite", ".")
        #expect(merged.status == 65)
        #expect(merged.stderr == "chipmunk-sim: .: is a folder, not a results database file\n", "\(merged.stderr)")
        let into = try sim("merge", ".", "x")
        #expect(into.status == 65)
        #expect(into.stderr == "chipmunk-sim: .: is a folder, not a results database file\n", "\(into.stderr)")
        let one = try sim("merge", "y", "x")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try sim("results", "y").status == 0)
    }

    /// SQLite reads `:memory:` as a database in memory and `file:…` as a URI (which may say
    /// mode=memory): a sweep there reported its runs done and kept none, and a merge into
    /// `:memory:` counted runs it then dropped.
    @Test func namesThatSQLiteKeepsInMemoryAreRefused() throws {
        defer { folder.remove() }
        let memory =
            "is SQLite's name for a database in memory, which would keep nothing: give a file's path (such as ./name.sqlite)"
        let uri =
            "is read by SQLite as a URI, not a file's path, which would keep nothing: give a file's path (such as ./name.sqlite)"
        let swept = try sim("sweep", drop, "--param", "speed=1", "--steps", "3", "--db", ":memory:")
        #expect(swept.status == 65 && swept.stderr == "chipmunk-sim: :memory:: \(memory)\n", "\(swept.stderr)")
        let file = try sim("sweep", drop, "--param", "speed=1", "--steps", "3", "--db", "file:x.sqlite?mode=memory")
        #expect(
            file.status == 65 && file.stderr == "chipmunk-sim: file:x.sqlite?mode=memory: \(uri)\n", "\(file.stderr)")
        #expect(try sim("sweep", drop, "--param", "speed=1", "--steps", "3", "--db", "kept.sqlite").status == 0)
        let merged = try sim("merge", ":memory:", "kept.sqlite")
        #expect(merged.status == 65 && merged.stderr == "chipmunk-sim: :memory:: \(memory)\n", "\(merged.stderr)")
        #expect(try sim("results", ":memory:").status == 65)
        // A file of that name is a path like any other.
        let named = try sim("sweep", drop, "--param", "speed=1", "--steps", "3", "--db", "./:memory:")
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path(":memory:")))
    }

    /// Writes a sweep file into the test's folder; `SCENE` in `json` becomes drop.json's path.
    private func sweepFile(_ name: String, _ json: String) throws {
        try Data(json.replacingOccurrences(of: "SCENE", with: drop).utf8).write(
            to: folder.url.appendingPathComponent(name))
    }

    /// Runs `sweep --sweep NAME` and expects it refused with exit 65, `message` after the
    /// file's name as its one line, and no database made.
    private func expectRefused(
        sweepFile name: String, _ message: String, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let swept = try sim("sweep", "--sweep", name, "--db", "t.sqlite")
        #expect(swept.status == 65, comment, sourceLocation: sourceLocation)
        #expect(
            swept.stderr == "chipmunk-sim: \(name): \(message)\n", "\(swept.stderr)", sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: folder.path("t.sqlite")), "no database is made",
            sourceLocation: sourceLocation)
    }

    /// D11: a random range whose span overflows sampled infinities, and the sweep failed
    /// writing them with a database error, leaving the database bound to the sweep.
    @Test func aRandomRangeWiderThanANumberIsRefusedBeforeTheDatabase() throws {
        defer { folder.remove() }
        try sweepFile(
            "rinf.json",
            #"{"scene": "SCENE", "steps": 10, "random": {"count": 2, "seed": 1, "ranges": {"speed": [-1e308, 1e308]}}}"#
        )
        try expectRefused(
            sweepFile: "rinf.json",
            "random.ranges.speed: the range from -1e+308 to 1e+308 is wider than a number can hold (high - low must be finite)"
        )
        try sweepFile(
            "rbig.json",
            #"{"scene": "SCENE", "steps": 10, "random": {"count": 2, "seed": 1, "ranges": {"speed": [0, 1e308]}}}"#)
        #expect(try sim("sweep", "--sweep", "rbig.json", "--db", "t.sqlite").status == 0, "a span that fits runs")
    }

    /// D22: a snapshot of another scene failed every run alone, the sweep exited 0, and the
    /// database was bound to that plan.
    @Test func aSnapshotOfAnotherSceneIsRefusedBeforeTheDatabase() throws {
        defer { folder.remove() }
        #expect(try sim("snapshot", "crates", "--at", "10", "-o", "crates10.snapshot").status == 0)
        let swept = try sim(
            "sweep", drop, "--param", "speed=1,2", "--steps", "5", "--from", "crates10.snapshot", "--db", "t.sqlite")
        #expect(swept.status == 65)
        #expect(
            swept.stderr.hasPrefix(
                "chipmunk-sim: --from crates10.snapshot is not a snapshot of drop.json: the snapshot does not fit this space: "
            ), "\(swept.stderr)")
        #expect(swept.stderrLines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path("t.sqlite")), "no database is made")
        #expect(try sim("snapshot", drop, "--at", "10", "-o", "drop10.snapshot").status == 0)
        let fits = try sim(
            "sweep", drop, "--param", "speed=1,2", "--steps", "5", "--from", "drop10.snapshot", "--db", "t.sqlite")
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(fits.stderr.contains("2 ok, 0 diverged, 0 failed"), "\(fits.stderr)")
    }

    /// D26: with the scene's timeStep a swept parameter, a duration in seconds took its step
    /// count from the default time step, so each run simulated another span of time.
    @Test func secondsAreRefusedWhenTheTimeStepIsSwept() throws {
        defer { folder.remove() }
        let scene = try String(contentsOfFile: drop, encoding: .utf8).replacingOccurrences(
            of: #""parameters": {"speed": 100, "elasticity": 0.5},"#,
            with: #""parameters": {"speed": 100, "elasticity": 0.5, "dt": 0.01}, "timeStep": {"$param": "dt"},"#)
        try Data(scene.utf8).write(to: folder.url.appendingPathComponent("dtp.json"))
        let why =
            "the scene's timeStep is the swept parameter dt, so a duration in seconds is a different number of steps in each run"
        let seconds = try sim("sweep", "dtp.json", "--param", "dt=0.001,0.01,0.1", "--seconds", "1", "--db", "t.sqlite")
        #expect(seconds.status == 64)
        #expect(seconds.stderr == "chipmunk-sim: --seconds 1.0: \(why); give --steps\n", "\(seconds.stderr)")
        let byDefault = try sim("sweep", "dtp.json", "--param", "dt=0.001,0.01,0.1", "--db", "t.sqlite")
        #expect(byDefault.status == 64)
        #expect(
            byDefault.stderr == "chipmunk-sim: a sweep runs 5 s unless told: \(why); give --steps\n",
            "\(byDefault.stderr)")
        try Data(#"{"scene": "dtp.json", "seconds": 1, "grid": {"dt": [0.001, 0.1]}}"#.utf8).write(
            to: folder.url.appendingPathComponent("sw.json"))
        try expectRefused(sweepFile: "sw.json", "seconds: \(why); give steps")
        // Steps, or a time step given for every run, are one duration.
        #expect(try sim("sweep", "--sweep", "sw.json", "--steps", "10", "--db", "t.sqlite").status == 0)
        let other = try sim("sweep", "dtp.json", "--param", "speed=1,2", "--seconds", "0.1", "--db", "u.sqlite")
        #expect(other.status == 0, "another parameter swept: the time step is the default in every run")
    }

    /// A swept time step replaced by one for every run: `--dt` and a sweep file's
    /// `timeStep` made every run step alike, and the sweep over dt ran the same run N times.
    @Test func aTimeStepForEveryRunIsRefusedWhenTheTimeStepIsSwept() throws {
        defer { folder.remove() }
        let scene = try String(contentsOfFile: drop, encoding: .utf8).replacingOccurrences(
            of: #""parameters": {"speed": 100, "elasticity": 0.5},"#,
            with: #""parameters": {"speed": 100, "elasticity": 0.5, "dt": 0.01}, "timeStep": {"$param": "dt"},"#)
        try Data(scene.utf8).write(to: folder.url.appendingPathComponent("dtp.json"))
        let why =
            "the scene's timeStep is the swept parameter dt; a time step for every run would replace it, and every run would step at 0.01"
        let dt = try sim(
            "sweep", "dtp.json", "--param", "dt=0.001,0.1", "--steps", "10", "--dt", "0.01", "--db", "t.sqlite")
        #expect(dt.status == 64)
        #expect(dt.stderr == "chipmunk-sim: --dt 0.01: \(why); drop --dt or sweep another parameter\n", "\(dt.stderr)")
        try Data(#"{"scene": "dtp.json", "steps": 10, "timeStep": 0.01, "grid": {"dt": [0.001, 0.1]}}"#.utf8).write(
            to: folder.url.appendingPathComponent("sw.json"))
        try expectRefused(sweepFile: "sw.json", "timeStep: \(why); remove timeStep")
        // From another folder, the file is named as its other errors name it: by its name.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("sweeps"), withIntermediateDirectories: true)
        try Data(#"{"scene": "../dtp.json", "steps": 10, "timeStep": 0.01, "grid": {"dt": [0.001, 0.1]}}"#.utf8).write(
            to: folder.url.appendingPathComponent("sweeps/sw.json"))
        let elsewhere = try sim("sweep", "--sweep", "sweeps/sw.json", "--db", "t.sqlite")
        #expect(elsewhere.stderr == "chipmunk-sim: sw.json: timeStep: \(why); remove timeStep\n", "\(elsewhere.stderr)")
        let other = try sim(
            "sweep", "dtp.json", "--param", "speed=1,2", "--steps", "10", "--dt", "0.02", "--db", "u.sqlite")
        #expect(other.status == 0, "another parameter swept: --dt sets every run's time step")
    }

    /// A sweep that names the same run twice: a table row given twice, random ranges too
    /// narrow for the count, and a grid of no parameters, which ran once. Each run is stored
    /// once, by its parameters, so the second was counted and never kept.
    @Test func aRunGivenTwiceOrAGridOfNothingIsRefused() throws {
        defer { folder.remove() }
        let cases: [(String, String)] = [
            (
                #""table": [{"speed": 1}, {"speed": 2}, {"speed": 1.0}]"#,
                "table[2]: repeats table[0]; give each run once (a run is stored once, and the same parameters give the same bits)"
            ),
            (
                // Both leave out elasticity, which another row gives: the same row, not a default.
                #""table": [{"elasticity": 0.7, "speed": 2}, {"speed": 1}, {"speed": 1}]"#,
                "table[2]: repeats table[1]; give each run once (a run is stored once, and the same parameters give the same bits)"
            ),
            (
                #""random": {"count": 3, "seed": 1, "ranges": {"speed": [5, 5]}}"#,
                "random.ranges: run 1 draws the same parameters as run 0; widen a range or lower the count (a run is stored once)"
            ),
            (
                #""random": {"count": 2, "seed": 1, "ranges": {}}"#,
                "random.ranges: run 1 draws the same parameters as run 0; widen a range or lower the count (a run is stored once)"
            ),
            (#""grid": {}"#, "grid: give at least one parameter to sweep"),
            (
                // drop.json's elasticity is 0.5: two keys for one run (a helper's attack).
                #""table": [{"speed": 1}, {"elasticity": 0.5, "speed": 1}]"#,
                "table[1]: is table[0] once the scene's own values fill in what one of them leaves out (elasticity 0.5); "
                    + "give each run once (a run is stored once, and the same parameters give the same bits)"
            ),
        ]
        for (index, (design, message)) in cases.enumerated() {
            try sweepFile("s\(index).json", #"{"scene": "SCENE", "steps": 10, \#(design)}"#)
            try expectRefused(sweepFile: "s\(index).json", message, "\(design)")
        }
        try sweepFile(
            "one.json",
            #"{"scene": "SCENE", "steps": 10, "random": {"count": 1, "seed": 1, "ranges": {"speed": [5, 5]}}}"#)
        #expect(try sim("sweep", "--sweep", "one.json", "--db", "t.sqlite").status == 0, "one draw of one value")
    }

    /// A shard that starts with a minus sign was read as an option: "Missing value".
    @Test func aNegativeShardIsNamed() throws {
        defer { folder.remove() }
        let swept = try sim("sweep", drop, "--param", "speed=1", "--steps", "10", "--shard", "-1/3", "--db", "t.sqlite")
        #expect(swept.status == 64)
        #expect(
            swept.stderr.contains("--shard must be I/N with 0 <= I < N <= 100000 (got -1/3)"), "\(swept.stderr)")
    }

    /// D8, D9, D10: a sweep file's mistakes named the file, its key and the rule, as a scene
    /// file's do, with exit 65: Foundation's "not valid JSON" for a step of 1.5, Swift's
    /// decoder wording, a key given twice kept silently, and errors that named `--param`
    /// and `--track`, which were not given.
    @Test func aSweepFilesMistakesNameTheFileAndTheKey() throws {
        defer { folder.remove() }
        let grid = #""grid": {"speed": [1]}"#
        let random = #""random": {"count": 1, "seed": 1, "ranges": {"speed": [0, 1]}}"#
        let cases: [(String, String)] = [
            (#""steps": 1.5, \#(grid)"#, "steps: expected a whole number, found 1.5"),
            (#""steps": 1e20, \#(grid)"#, "steps: expected a whole number, found 1e+20 (too large)"),
            (#""steps": "10", \#(grid)"#, "steps: expected a number, found a string"),
            (#""steps": 10, "grid": {"speed": ["1"]}"#, "grid.speed[0]: expected a number, found a string"),
            (
                #""steps": 10, "grid": {"speed": {"lin": [0, "a", 3]}}"#,
                "grid.speed.lin[1]: expected a number, found a string"
            ),
            (#""steps": 10, "table": [{"speed": "x"}]"#, "table[0].speed: expected a number, found a string"),
            (
                #""steps": 10, \#(random.replacingOccurrences(of: "\"seed\": 1", with: "\"seed\": -1"))"#,
                "random.seed: expected a whole number from 0 to 18446744073709551615, found -1"
            ),
            (
                #""steps": 10, \#(random.replacingOccurrences(of: "\"count\": 1", with: "\"count\": 1.5"))"#,
                "random.count: expected a whole number, found 1.5"
            ),
            (#""steps": 10, "steps": 20, \#(grid)"#, "steps: appears twice in one object; give each key once"),
            (
                #""steps": 10, "grid": {"speed": [1], "speed": [2]}"#,
                "grid.speed: appears twice in one object; give each key once"
            ),
            (
                #""steps": 10, "grid": {"speed": [1, 2]}, "gr\u0069d": {"speed": [3]}"#,
                "grid: appears twice in one object; give each key once"
            ),
            (
                #""steps": 10, "grid": {"speed": {"lin": [0, 1, 10000]}, "elasticity": {"lin": [0, 1, 10000]}}"#,
                "grid: 100000000 runs is more than 10,000,000"
            ),
            (
                #""steps": 10, \#(grid), "track": ["energy", "zz"]"#,
                "track[1]: give energy or BODY.q with q one of x, y, vx, vy, speed, angle, w (BODY: a body's name in output)"
            ),
            (
                #""seconds": 1e300, \#(grid)"#,
                "seconds: 1e+300 s at a time step of 0.008333333333333333 s is not a usable number of steps"
            ),
            (
                #""steps": 10, \#(random.replacingOccurrences(of: "\"count\": 1", with: "\"count\": 0"))"#,
                "random.count: must be from 1 to 10,000,000"
            ),
            (#""steps": 10, "table": []"#, "table: must list 1 to 10,000,000 runs"),
            (
                #""steps": 10, \#(grid), "track": ["nosuch.x"]"#,
                "track[0]: drop.json has no body named 'nosuch' (names: 0)"
            ),
            (
                #""steps": 10, \#(grid), "bodies": ["nosuch"]"#,
                "bodies[0]: drop.json has no body named 'nosuch' (names: 0)"
            ),
            (
                #""steps": 10, \#(grid), "track": ["0.y", "energy", "0.y"]"#,
                "track[2]: repeats track[0] ('0.y'); give each once"
            ),
            (#""steps": 10, \#(grid), "bodies": ["0", "0"]"#, "bodies[1]: repeats bodies[0] ('0'); give each once"),
            (#""steps": 10,"#, "not valid JSON: Unexpected end of file during JSON parse"),
        ]
        for (body, message) in cases {
            try sweepFile("sw.json", #"{"scene": "SCENE", \#(body)"# + (body.hasSuffix(",") ? "" : "}"))
            try expectRefused(sweepFile: "sw.json", message, "\(body)")
        }
        try sweepFile("sw.json", #"{"scene": "SCENE", "steps": 10, \#(grid), "track": ["energy"]}"#)
        #expect(try sim("sweep", "--sweep", "sw.json", "--db", "t.sqlite").status == 0)
    }

    /// D12, D13: a parameter given twice and a grid too large exited 65 without naming the
    /// option; a value listed twice was counted as two runs and stored as one.
    @Test func parameterMistakesAreUsageErrorsNamingTheOption() throws {
        defer { folder.remove() }
        func sweep(_ params: String...) throws -> Tool.Result {
            try sim(["sweep", drop] + params.flatMap { ["--param", $0] } + ["--steps", "10", "--db", "t.sqlite"])
        }
        let twice = try sweep("speed=1", "speed=2")
        #expect(twice.status == 64)
        #expect(twice.stderr == "chipmunk-sim: --param speed is given twice; give each parameter once\n")
        // A quantity or body given twice was stored twice under one name (a helper's attack).
        for (options, message) in [
            (["--track", "0.y", "--track", "0.y"], "--track 0.y is given twice; give each once"),
            (["--body", "0", "--body", "0"], "--body 0 is given twice; give each once"),
        ] {
            let given = try sim(["sweep", drop, "--param", "speed=1", "--steps", "10", "--db", "t.sqlite"] + options)
            #expect(given.status == 64)
            #expect(given.stderr == "chipmunk-sim: \(message)\n", "\(given.stderr)")
        }
        try sweepFile("b.json", #"{"scene": "SCENE", "steps": 10, "grid": {"speed": [1]}, "bodies": ["0"]}"#)
        let both = try sim("sweep", "--sweep", "b.json", "--db", "t.sqlite", "--body", "0")
        #expect(both.status == 64)
        #expect(both.stderr == "chipmunk-sim: --body 0 is in b.json's bodies too; give it once\n", "\(both.stderr)")
        let many = try sweep("speed=lin:0:1:10000", "elasticity=lin:0:1:10000")
        #expect(many.status == 64)
        #expect(many.stderr == "chipmunk-sim: --param: 100000000 runs is more than 10,000,000\n")
        for (param, value) in [("speed=1,1,2", "1"), ("speed=lin:1:1:3", "1"), ("speed=0,-0", "0")] {
            let repeated = try sweep(param)
            #expect(repeated.status == 64)
            #expect(
                repeated.stderr.hasSuffix(
                    "--param \(param): the value \(value) is given twice; give each value once (a run is stored once)\n"
                ),
                "\(repeated.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("t.sqlite")))
        try sweepFile("sw.json", #"{"scene": "SCENE", "steps": 10, "grid": {"speed": [2, 1, 2]}}"#)
        try expectRefused(
            sweepFile: "sw.json", "grid.speed: the value 2 is given twice; give each value once (a run is stored once)")
        let ok = try sweep("speed=1,2")
        #expect(ok.stderr.contains("2 runs planned") && ok.status == 0, "\(ok.stderr)")
    }

    /// D14: a log axis of 600 decades passed matplotlib's "OverflowError: cannot convert float
    /// infinity to integer" through; it is named as an axis wider than a double is.
    @Test func aChartOfTooManyDecadesIsRefusedInOurWords() throws {
        defer { folder.remove() }
        #expect(
            try sim("sweep", drop, "--param", "elasticity=1e-300,1e300", "--steps", "10", "--db", "e.sqlite").status
                == 0)
        let chart = try sim("results", "e.sqlite", "--chart", "elasticity:steps", "-o", "c.svg")
        #expect(chart.status == 65)
        #expect(
            chart.stderr
                == "chipmunk-sim: --chart: elasticity spans 1e-300 to 1e+300, wider than a chart axis can hold; sweep a narrower range\n",
            "\(chart.stderr)")
        #expect(try sim("sweep", drop, "--param", "elasticity=1e-3,1", "--steps", "10", "--db", "f.sqlite").status == 0)
        let drawn = try sim("results", "f.sqlite", "--chart", "elasticity:steps", "-o", "c.svg")
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(try String(contentsOfFile: folder.path("c.svg"), encoding: .utf8).hasPrefix("<?xml"))
    }

    /// D23: /dev/zero reads as size 0, and merge called it "empty".
    @Test func aDeviceIsNotADatabase() throws {
        defer { folder.remove() }
        let message = "is not a regular file (a device, pipe or socket), not a results database"
        let merged = try sim("merge", "m.sqlite", "/dev/zero")
        #expect(merged.status == 65)
        #expect(merged.stderr == "chipmunk-sim: /dev/zero: \(message)\n", "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("m.sqlite")))
        let swept = try sim("sweep", drop, "--param", "speed=1", "--steps", "3", "--db", "/dev/null")
        #expect(swept.status == 65)
        #expect(swept.stderr == "chipmunk-sim: /dev/null: \(message)\n", "\(swept.stderr)")
    }

    /// D23: merge read a kinetic energy of 'abc' as 0.0 and wrote it, and refused an outcome
    /// of 'weird' or steps of -5 as "cannot be read", naming no run or column.
    @Test func mergeNamesAStoredValueItNeverWrites() throws {
        defer { folder.remove() }
        #expect(try sim("sweep", drop, "--param", "speed=1,2", "--steps", "10", "--db", "c.sqlite").status == 0)
        let key = try #require(
            try sim("results", "c.sqlite").stdout.split(separator: "\n").dropFirst().first?.split(separator: ",").first)
        func damaged(_ name: String, _ statement: String) throws {
            try FileManager.default.copyItem(atPath: folder.path("c.sqlite"), toPath: folder.path(name))
            let result = try Tool.run(
                "/usr/bin/env",
                [
                    "python3", "-c",
                    "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
                    folder.path(name), statement,
                ])
            #expect(result.status == 0, "\(result.stderr)")
        }
        for (name, statement, problem) in [
            ("e.sqlite", "UPDATE runs SET kinetic_energy = 'abc'", "kinetic_energy is 'abc', not a number or null"),
            ("o.sqlite", "UPDATE runs SET outcome = 'weird'", "outcome is 'weird', not ok, diverged or failed"),
            ("s.sqlite", "UPDATE runs SET steps = -5", "steps is -5, not a whole number from 0"),
            (
                "p.sqlite", "UPDATE runs SET parameters = '{broken'",
                "parameters is '{broken', not a JSON object of finite numbers"
            ),
            // Valid JSON of the wrong shape was "cannot be read as a results database" (a helper's attack).
            (
                "q.sqlite", #"UPDATE runs SET parameters = '{"speed":"x"}'"#,
                #"parameters is '{"speed":"x"}', not a JSON object of finite numbers"#
            ),
            (
                "r.sqlite", "UPDATE runs SET parameters = '[1]'",
                "parameters is '[1]', not a JSON object of finite numbers"
            ),
            // SQLite calls 1e400 a real (infinity); decoding it failed with Foundation's words.
            (
                "u.sqlite", #"UPDATE runs SET parameters = '{"speed":1e400}'"#,
                #"parameters is '{"speed":1e400}', not a JSON object of finite numbers"#
            ),
            (
                "t.sqlite", #"UPDATE runs SET quantities = '{"e":1}'"#,
                #"quantities is '{"e":1}', not a JSON object of objects, or null"#
            ),
        ] {
            try damaged(name, statement)
            let merged = try sim("merge", "m.sqlite", name)
            #expect(merged.status == 65)
            #expect(merged.stderr == "chipmunk-sim: \(name): run \(key): \(problem)\n", "\(merged.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("m.sqlite")), "nothing is written")
            // The other readers share the rule: a chart said "a stored value cannot be read
            // (The given data was not valid JSON.)", and a resumed sweep took the run as done.
            let chart = try sim("results", name, "--chart", "speed:steps", "-o", "x.svg")
            #expect(chart.status == 65 && chart.stderr == merged.stderr, "\(chart.stderr)")
            let resumed = try sim("sweep", drop, "--param", "speed=1,2", "--steps", "10", "--db", name)
            #expect(resumed.status == 65 && resumed.stderr == merged.stderr, "\(resumed.stderr)")
            let exported = try sim("results", name)
            #expect(exported.status == 0 && exported.stdout.contains(key))
            #expect(exported.stderr == "chipmunk-sim: warning: \(name): run \(key): \(problem) (exported as stored)\n")
        }
        #expect(try sim("merge", "m.sqlite", "c.sqlite").status == 0)
        // A row of `sweeps` no sweep records: a plan of -5 runs was printed as "-5 runs", and a
        // hash of 300,000 bytes whole, in "holds another sweep".
        for (name, statement, problem) in [
            (
                "n.sqlite", "UPDATE sweeps SET plan = json_set(plan, '$.runs', -5)",
                "its table 'sweeps' holds plan's runs -5, not from 1 to 10000000"
            ),
            (
                "h.sqlite", "UPDATE sweeps SET scene_hash = printf('%.300000c', 'E')",
                "its table 'sweeps' holds scene_hash " + String(repeating: "E", count: 60)
                    + "… (300000 bytes), not 16 lowercase hex digits"
            ),
        ] {
            try damaged(name, statement)
            for arguments in [
                ["merge", "m2.sqlite", name], ["sweep", drop, "--param", "speed=1,2", "--steps", "10", "--db", name],
            ] {
                let result = try Tool.run("chipmunk-sim", arguments, directory: folder.url)
                #expect(result.status == 65)
                #expect(result.stderr == "chipmunk-sim: \(name): \(problem)\n", "\(result.stderr.prefix(300))")
            }
        }
    }

    /// D2: SQLite took an empty name for a private temporary database, and the sweep kept nothing.
    @Test func anEmptyDatabasePathIsAUsageError() throws {
        defer { folder.remove() }
        let swept = try sim("sweep", drop, "--param", "speed=1,2", "--steps", "10", "--db", "")
        #expect(swept.status == 64)
        #expect(swept.stderr == "chipmunk-sim: --db is empty: give the results database's file\n", "\(swept.stderr)")
        #expect(try sim("sweep", drop, "--param", "speed=1", "--steps", "10", "--db", "x").status == 0)
        let results = try sim("results", "")
        #expect(results.status == 64)
        #expect(results.stderr == "chipmunk-sim: the results database's path is empty\n", "\(results.stderr)")
        let into = try sim("merge", "", "x")
        #expect(into.status == 64)
        #expect(into.stderr == "chipmunk-sim: the output database's path is empty\n", "\(into.stderr)")
        let from = try sim("merge", "m", "x", "")
        #expect(from.status == 64)
        #expect(from.stderr == "chipmunk-sim: a shard database's path is empty\n", "\(from.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("m")))
    }
}
