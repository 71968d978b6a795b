import Foundation
import Testing
import ChipmunkTestSupport

/// Issue 19: `merge` converted a 0-byte file or another program's SQLite database given as
/// an input into a results database (in place, WAL mode, an empty `runs`) and reported
/// success; `results` hung on a recursive view named `runs` and printed SQLite's own error
/// text; JSON lines held `inf`. Inputs are read-only now, checked, and refused in one line.
@Suite struct BadDatabaseTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("bad-db") }

    private func sqlite(_ name: String, _ statements: String) throws -> String {
        let file = folder.path(name)
        let result = try Tool.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", file,
                statements,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        return file
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func mergeNeverWritesItsInputs() throws {
        defer { folder.remove() }
        let good = folder.path("good.sqlite")
        let swept = try Tool.sim("sweep", "Scenes/drop.json", "--param", "speed=1,2", "--steps", "10", "--db", good)
        #expect(swept.status == 0, "\(swept.stderr)")
        let empty = folder.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let other = try sqlite("other.sqlite", "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('ada');")
        let otherBefore = bytes(other)
        for (input, message) in [
            (empty, "\(empty): is empty, not a results database"),
            (other, "\(other): is not a results database (it has no table 'runs')"),
        ] {
            let merged = try Tool.sim("merge", folder.path("out.sqlite"), good, input)
            #expect(merged.status != 0)
            #expect(merged.stderr == "chipmunk-sim: \(message)\n", "\(merged.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out.sqlite")), "nothing was made")
        }
        #expect(bytes(empty) == Data(), "the empty file is still empty")
        #expect(bytes(other) == otherBefore, "the other program's database is unchanged")
        #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
    }

    /// Found by ReaderFuzzer: a `sweeps` row whose `plan` is NULL trapped inside GRDB's
    /// `row["plan"] as String`; `merge` and `sweep --db` now say which stored value cannot be read.
    @Test func aDamagedSweepsTableIsAnError() throws {
        defer { folder.remove() }
        let good = folder.path("good.sqlite")
        let swept = try Tool.sim("sweep", "Scenes/drop.json", "--param", "speed=1,2", "--steps", "10", "--db", good)
        #expect(swept.status == 0, "\(swept.stderr)")
        let damaged = folder.path("damaged.sqlite")
        try FileManager.default.copyItem(atPath: good, toPath: damaged)
        _ = try sqlite(
            "damaged.sqlite",
            "CREATE TABLE s2 AS SELECT * FROM sweeps; DROP TABLE sweeps; "
                + "CREATE TABLE sweeps AS SELECT scene, scene_hash, plan_hash, NULL AS plan FROM s2; DROP TABLE s2;"
        )
        let merged = try Tool.sim("merge", folder.path("out.sqlite"), good, damaged)
        #expect(merged.status == 65, "\(merged.stderr)")
        #expect(merged.stderr.hasSuffix("a stored value cannot be read (plan: no value (NULL))\n"), "\(merged.stderr)")
        let resumed = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "speed=1,2", "--steps", "10", "--db", damaged)
        #expect(resumed.status == 65, "\(resumed.stderr)")
        #expect(
            resumed.stderr.hasSuffix("a stored value cannot be read (plan: no value (NULL))\n"), "\(resumed.stderr)")
    }

    @Test(.timeLimit(.minutes(5))) func resultsRefusesWhatIsNotAResultsDatabase() throws {
        defer { folder.remove() }
        let view = try sqlite(
            "view.sqlite",
            "CREATE VIEW runs AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x AS key FROM r;"
        )
        let junk = folder.path("junk.sqlite")
        #expect(
            FileManager.default.createFile(atPath: junk, contents: Data("not a database at all, but long enough".utf8)))
        let partial = try sqlite("partial.sqlite", "CREATE TABLE runs (key TEXT, run_index INTEGER);")
        for (file, message) in [
            (view, "is not a results database (it has no table 'runs')"),
            (junk, "is damaged or not an SQLite database"),
            (partial, "is not a results database (its table 'runs' lacks scene, scene_hash, parameters"),
        ] {
            let result = try Tool.sim("results", file)
            #expect(result.status != 0)
            #expect(result.stderr.hasPrefix("chipmunk-sim: \(file): \(message)"), "\(result.stderr)")
            #expect(!result.stderr.contains("SQLite error") && !result.stderr.contains("while executing"))
        }
    }

    /// A sweep at speeds of ±1.7e308 diverges; its rows, and a `lin` range whose span
    /// overflows (it planned a parameter of -inf), give JSON lines that parse.
    @Test func jsonLinesAreValidJSON() throws {
        defer { folder.remove() }
        let db = folder.path("extreme.sqlite")
        let swept = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "speed=lin:-1.7e308:1.7e308:3", "--steps", "10", "--db", db)
        #expect(swept.status == 0, "\(swept.stderr)")
        let stored = try sqlite(
            "extreme.sqlite",
            "UPDATE runs SET kinetic_energy = 9e999 WHERE run_index = 1; UPDATE runs SET quantities = '{broken' WHERE run_index = 2;"
        )
        let lines = try Tool.sim("results", stored, "--format", "jsonl")
        #expect(lines.status == 0, "\(lines.stderr)")
        let rows = lines.stdout.split(separator: "\n")
        #expect(rows.count == 3)
        for row in rows {
            let object = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any]
            #expect(object != nil, "\(row)")
        }
        #expect(rows[0].contains(#""parameters":{"speed":-1.7e+308}"#))
        #expect(rows[1].contains(#""kinetic_energy":"Infinity""#), "\(rows[1])")
        #expect(rows[2].contains(#""quantities":"{broken""#), "\(rows[2])")
    }

    /// A parameter from -1.7e308 to 1.7e308 made matplotlib fail in its own words ("Axis
    /// limits cannot be NaN or Inf"); the chart is refused in ours.
    @Test func aChartWiderThanAnAxisIsRefused() throws {
        defer { folder.remove() }
        let db = folder.path("wide.sqlite")
        let swept = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "speed=lin:-1.7e308:1.7e308:3", "--steps", "10", "--db", db)
        #expect(swept.status == 0, "\(swept.stderr)")
        let chart = try Tool.sim("results", db, "--chart", "speed:kinetic_energy", "-o", folder.path("c.png"))
        #expect(chart.status != 0)
        #expect(
            chart.stderr
                == "chipmunk-sim: --chart: speed spans -1.7e+308 to 1.7e+308, wider than a chart axis can hold; sweep a narrower range\n",
            "\(chart.stderr)")
    }
}
