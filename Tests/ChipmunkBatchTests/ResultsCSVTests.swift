@testable import ChipmunkBatch
import ChipmunkTestSupport
import Foundation
import Testing

/// Issue 28: `results --format csv` wrote `1000000000000000` and `1e+16` in one column
/// (the parameters' JSON). Each numeric column now has one format, and every value reads
/// back as the double it was.
@Suite struct ResultsCSVTests {
    @Test func eachColumnHasOneFormat() {
        #expect(NumberFormat(for: [1, 1000, 1e15]) == .integer)
        #expect(NumberFormat(for: [0.5, 1000, 1e15]) == .decimal)
        #expect(NumberFormat(for: [1, 1e15, 1e16]) == .scientific)
        #expect(NumberFormat(for: [0.25, 5e-5]) == .scientific)
        #expect(NumberFormat(for: [Double]()) == .integer)
        let column = [1.0, 1e15, 1e16, 0.1, 123.456, 5e-5, -2.5e300]
        let texts = column.map(NumberFormat.scientific)
        #expect(texts == ["1.0e+00", "1.0e+15", "1.0e+16", "1.0e-01", "1.23456e+02", "5.0e-05", "-2.5e+300"])
        #expect(zip(column, texts).allSatisfy { Double($1) == $0 })
    }

    /// Every finite double's scientific text reads back as itself.
    @Test func scientificTextRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 1...2046) << 52))
            #expect(Double(NumberFormat.scientific(value)) == value, "\(value)")
        }
        for value in [Double.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.leastNormalMagnitude, 0.1 + 0.2] {
            #expect(Double(NumberFormat.scientific(value)) == value, "\(value)")
        }
    }

    @Test func jsonColumnsBecomeAColumnPerNumber() {
        #expect(
            ResultsCSV.numbers(inJSON: #"{"speed": 1e16, "e": 0.2}"#, prefix: "param.")
                == ["param.speed": 1e16, "param.e": 0.2])
        #expect(
            ResultsCSV.numbers(inJSON: #"{"box.y": {"min": -1, "max": null}}"#, prefix: "track.")
                == ["track.box.y.min": -1, "track.box.y.max": Double?.none])
        // Not numbers: the column stays JSON text.
        #expect(ResultsCSV.numbers(inJSON: #"{"speed": "fast"}"#, prefix: "param.") == nil)
        #expect(ResultsCSV.numbers(inJSON: "[1, 2]", prefix: "param.") == nil)
        #expect(ResultsCSV.numbers(inJSON: "{", prefix: "param.") == nil)
    }
}

/// Issue 28: runs count the engine guard's answers (`guarded_collisions`). A database
/// written before the column existed reads as 0 for its runs without being written, and
/// gains the column (0 for what it holds) when opened to be written.
@Suite struct GuardedCollisionsColumnTests {
    private func olderDatabase(at path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute('''CREATE TABLE runs (key TEXT PRIMARY KEY NOT NULL, run_index INTEGER NOT NULL,
                scene TEXT NOT NULL, scene_hash TEXT NOT NULL, parameters TEXT NOT NULL, outcome TEXT NOT NULL,
                error TEXT, error_step INTEGER, steps INTEGER NOT NULL, asleep_step INTEGER, final_hash TEXT,
                kinetic_energy REAL, quantities TEXT, bodies TEXT, wall_ms REAL NOT NULL)''')
            c.execute("INSERT INTO runs VALUES ('k0', 0, 'drop.json', 'ab', '{\\"speed\\":1}', 'ok', NULL, NULL, 10, NULL, 'cd', 1.5, NULL, NULL, 2.0)")
            c.commit()
            """,
            path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    @Test func anOlderDatabaseReadsAsZeroAndGainsTheColumn() throws {
        let folder = try TemporaryFolder("guarded-column")
        defer { folder.remove() }
        let path = folder.path("old.sqlite")
        try olderDatabase(at: path)
        let reader = try SweepStore(path: path, readOnly: true)
        #expect(try reader.results().map(\.guardedCollisions) == [0])
        let csv = try reader.export(asCSV: true).split(separator: "\n")
        #expect(csv[0].hasSuffix(",kinetic_energy,guarded_collisions,wall_ms"))
        #expect(csv[1] == "k0,0,drop.json,ab,1,ok,,,10,,cd,1.5,0,2")

        let writer = try SweepStore(path: path)
        var result = try #require(try writer.results().first)
        result.key = "k1"
        result.index = 1
        result.guardedCollisions = 3
        try writer.insert(result)
        #expect(try SweepStore(path: path, readOnly: true).results().map(\.guardedCollisions) == [0, 3])
    }
}

/// A database that is only read is left as it was: read-only, `results DB` left an empty
/// `DB-wal` and a `DB-shm` beside it (a newcomer's pass), which only a connection that may
/// write removes when it closes.
extension GuardedCollisionsColumnTests {
    @Test func aReaderLeavesNoWriteAheadLog() throws {
        let folder = try TemporaryFolder("read-leaves-nothing")
        defer { folder.remove() }
        let path = folder.path("runs.sqlite")
        try olderDatabase(at: path)
        // A writer brings it up to date (WAL), then closes: nothing but the database is left.
        do { _ = try SweepStore(path: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["runs.sqlite"])
        do {
            let reader = try SweepStore(path: path, readOnly: true)
            #expect(try reader.results().count == 1)
            // Read-only still: a write is refused.
            var other = try reader.results()[0]
            other.key = "another"
            #expect(throws: (any Error).self) { try reader.insert(other) }
            #expect(try reader.results().count == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["runs.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the database is byte for byte the same")
    }
}
