@testable import ChipmunkBatch
import ChipmunkTestSupport
import Foundation
import GRDB
import Testing

/// Shards of a plan, without the command line.
@Suite struct ShardTests {
    @Test("Every plan's shards differ in size by at most one run, and hold every run once")
    func shardSizes() throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Scenes/drop.json"))
        for runs in 1...40 {
            let plan = try SweepPlan(
                sceneSource: "drop.json", sceneData: data,
                design: .grid([SweepAxis(name: "speed", values: (1...runs).map(Double.init))]), steps: 1,
                timeStep: nil)
            for count in 1...9 {
                let owners = (0..<runs).map { run in
                    (0..<count).filter { plan.belongs(runAt: run, toShard: $0, of: count) }
                }
                #expect(owners.allSatisfy { $0.count == 1 }, "\(runs) runs, \(count) shards: each run in one shard")
                let sizes = (0..<count).map { shard in owners.filter { $0 == [shard] }.count }
                #expect(sizes.max()! - sizes.min()! <= 1, "\(runs) runs in \(count) shards: \(sizes)")
            }
        }
    }
}

/// Databases made before databases recorded their sweep: they hold runs and no sweep.
@Suite struct UnrecordedSweepTests {
    /// A plan over `speeds` of Scenes/drop.json, 10 steps a run.
    static func plan(_ speeds: [Double]) throws -> SweepPlan {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Scenes/drop.json"))
        return try SweepPlan(
            sceneSource: "drop.json", sceneData: data, design: .grid([SweepAxis(name: "speed", values: speeds)]),
            steps: 10, timeStep: nil)
    }

    /// A database holding the first run of `plan` and no recorded sweep, as older builds made them.
    static func unrecorded(_ plan: SweepPlan, at path: String) throws -> SweepStore {
        let store = try SweepStore(path: path)
        try store.insert(plan.run(at: 0))
        #expect(try store.sweeps().isEmpty && store.count() == 1)
        return store
    }

    @Test("A sweep resumes into an unrecorded database only if every run in it is one of its own")
    func resumeUnrecorded() throws {
        let folder = try TemporaryFolder("unrecorded")
        defer { folder.remove() }
        let plan = try Self.plan([1, 2, 3])
        let own = try Self.unrecorded(plan, at: folder.path("own.sqlite"))
        let summary = try Sweep.run(plan, store: own, jobs: 1)
        #expect(summary.alreadyStored == 1 && summary.ran == 2)
        #expect(try own.sweeps() == [plan.identity], "the sweep is recorded now")

        let other = try Self.unrecorded(Self.plan([7]), at: folder.path("other.sqlite"))
        #expect {
            try Sweep.run(plan, store: other, jobs: 1)
        } throws: { error in
            "\(error)".hasPrefix(
                "\(other.path) holds another sweep: no recorded sweep (made before databases recorded theirs)")
        }
    }

    @Test("An unrecorded database and a recorded one are different sweeps to merge")
    func mergeUnrecorded() throws {
        let folder = try TemporaryFolder("unrecorded")
        defer { folder.remove() }
        let plan = try Self.plan([1, 2])
        let recorded = try SweepStore(path: folder.path("recorded.sqlite"))
        _ = try Sweep.run(plan, store: recorded, jobs: 1)
        let unrecorded = try Self.unrecorded(plan, at: folder.path("old.sqlite"))
        let output = try SweepStore(path: folder.path("all.sqlite"))
        #expect(throws: SweepError.self) { try SweepStore.merge([recorded, unrecorded], into: output) }
        #expect(try output.count() == 0)
        try SweepStore.merge([recorded, unrecorded], into: output, allowMixed: true)
        #expect(try output.count() == 2 && output.sweeps() == [plan.identity])
    }
}

/// A merge is one transaction.
@Suite struct MergeTransactionTests {
    /// A conflict found in the second input left the first input's runs in the output,
    /// which then looked like a finished merge (as a merge killed between inputs did); the
    /// whole merge is one transaction now, checked before anything is written.
    @Test func aConflictInALaterInputWritesNothing() throws {
        let folder = try TemporaryFolder("merge-transaction")
        defer { folder.remove() }
        let plan = try UnrecordedSweepTests.plan([1, 2])
        let first = try SweepStore(path: folder.path("first.sqlite"))
        _ = try Sweep.run(plan, store: first, jobs: 1)
        let second = try SweepStore(path: folder.path("second.sqlite"))
        var changed = plan.run(at: 0)
        changed.finalHash = "0000000000000000"
        try second.insert(changed)
        let output = try SweepStore(path: folder.path("all.sqlite"))
        #expect {
            try SweepStore.merge([first, second], into: output, allowMixed: true)
        } throws: { "\($0)".contains(second.path) }
        #expect(try output.count() == 0)
        #expect(try output.sweeps().isEmpty)
    }
}

/// The store itself, in process: in memory, and the schema's migrations.
@Suite struct SweepStoreTests {
    @Test("A sweep runs into a store in memory: no file, and the same results as a file's")
    func inMemory() throws {
        let plan = try UnrecordedSweepTests.plan([1, 2, 3])
        let memory = try SweepStore()
        let summary = try Sweep.run(plan, store: memory, jobs: 2)
        #expect(summary.ran == 3 && summary.ok == 3)
        #expect(try memory.count() == 3 && memory.sweeps() == [plan.identity] && memory.path == ":memory:")
        let folder = try TemporaryFolder("memory")
        defer { folder.remove() }
        let file = try SweepStore(path: folder.path("r.sqlite"))
        _ = try Sweep.run(plan, store: file, jobs: 1)
        let strip = { (results: [RunResult]) in
            results.map {
                var r = $0
                r.wallMilliseconds = 0
                return r
            }
        }
        #expect(try strip(memory.results()) == strip(file.results()))
        #expect(try memory.storedKeys() == Set(plan.runs.map { plan.key(of: $0) }))
    }

    @Test("A database written by a newer version (a migration this one does not know) is refused, both ways")
    func newerSchema() throws {
        let folder = try TemporaryFolder("newer")
        defer { folder.remove() }
        let path = folder.path("newer.sqlite")
        _ = try SweepStore(path: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('a column from the future')")
        }
        try queue.close()
        for readOnly in [false, true] {
            #expect {
                try SweepStore(path: path, readOnly: readOnly)
            } throws: { error in
                guard case .database(let file, .newerSchema) = error as? SweepError else { return false }
                return file == path
            }
        }
    }

    @Test("A database written before the migrator (no record of migrations) opens, and is migrated once")
    func beforeTheMigrator() throws {
        let folder = try TemporaryFolder("premigrator")
        defer { folder.remove() }
        let path = folder.path("old.sqlite")
        let plan = try UnrecordedSweepTests.plan([4])
        _ = try Sweep.run(plan, store: try SweepStore(path: path), jobs: 1)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "DROP TABLE grdb_migrations") }
        try queue.close()
        let reopened = try SweepStore(path: path)
        #expect(try reopened.count() == 1 && reopened.sweeps() == [plan.identity])
        let identifiers = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(identifiers == ["runs and sweeps", "runs count the engine guard's answers"])
    }

    @Test("A database's folder is read from its path without Foundation, which trapped on `.` and `x`")
    func folderOfAPath() {
        let cases = [
            ".": "", "./": "", "x": "", "x/": "", "t.sqlite": "", "a/b": "a", "a/b/": "a", "./x": ".", "/x": "/",
            "/": "/", "//": "/", "/a/b/c.sqlite": "/a/b",
        ]
        for (path, folder) in cases { #expect(SweepStore.folder(of: path) == folder, "\(path)") }
    }

    @Test("What is wrong with a database is a case a program can switch on")
    func problemsAreCases() throws {
        let folder = try TemporaryFolder("problems")
        defer { folder.remove() }
        func problem(_ path: String, readOnly: Bool = true) -> SweepError.DatabaseProblem? {
            do {
                _ = try SweepStore(path: path, readOnly: readOnly)
                return nil
            } catch {
                guard case .database(let file, let problem) = error, file == path else { return nil }
                return problem
            }
        }
        #expect(problem(folder.path("missing.sqlite")) == .noSuchFile)
        #expect(problem(folder.path(".")) == .isFolder)
        #expect(problem(folder.path("."), readOnly: false) == .isFolder)
        #expect(problem("/dev/zero") == .notAFile)
        #expect(problem("/dev/null", readOnly: false) == .notAFile)
        #expect(problem(folder.path("no/folder/r.sqlite"), readOnly: false) == .noFolder(folder.path("no/folder")))
        let empty = folder.path("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(problem(empty) == .empty)
        let garbage = folder.path("garbage.sqlite")
        _ = FileManager.default.createFile(atPath: garbage, contents: Data(repeating: 0x41, count: 4096))
        #expect(problem(garbage) == .damaged)
        let other = folder.path("other.sqlite")
        try DatabaseQueue(path: other).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        #expect(problem(other) == .noRunsTable)
        #expect {
            try SweepStore().chart(parameter: "x", metric: "steps")
        } throws: { error in
            guard case .database(":memory:", .noRuns) = error as? SweepError else { return false }
            return true
        }
    }
}
