import ChipmunkScenes
import Foundation
import GRDB

/// A sweep's results: a SQLite database with one row per run, keyed by the run's key.
///
/// Each run's row is written in a transaction of its own, so a sweep killed at any moment
/// loses only the runs that were in flight, and a second run of the same command does
/// only the missing ones. Query it with any SQLite client:
///
/// ```sql
/// SELECT json_extract(parameters, '$.speed') AS speed, outcome, error_step FROM runs ORDER BY run_index;
/// SELECT json_extract(quantities, '$."ball.y".max') FROM runs;
/// ```
package final class SweepStore: Sendable {
    /// The database's file, or ":memory:" for a store in memory.
    package let path: String
    private let writer: any DatabaseWriter
    /// Whether the runs table has the `guarded_collisions` column: a database written
    /// before runs counted the engine guard's answers, opened read-only (so not brought up
    /// to date), lacks it and reads 0 for it.
    private let hasGuardedColumn: Bool
    /// Opened to be read: every write is refused (the connection may write, so that it
    /// removes the write-ahead log's files when it closes).
    private let readOnly: Bool

    /// The table's columns, as `chipmunk-sim results` exports them (in this order): a
    /// ``RunResult``'s coding keys.
    package static let columns = RunResult.CodingKeys.allCases.map(\.rawValue)

    /// Opens (creating if needed) a results database; `readOnly` opens an existing one
    /// without writing, as a second process watching a running sweep does.
    package convenience init(path: String, readOnly: Bool = false) throws(SweepError) {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(10)  // another process may be committing a run
        if !readOnly {
            // WAL with synchronous=NORMAL: a commit does not wait for fsync. A process killed
            // at any moment (even kill -9) keeps every committed run, since the OS holds the
            // log; only a power cut can lose the last few, which a resumed sweep runs again.
            // With a full fsync per run, 2 workers waited on the disk, not the CPU.
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        // SQLite takes some names as no file at all: "" and ":memory:" for a private database
        // in memory, and "file:…" as a URI (which may say mode=memory). Results written there
        // would be lost when the tool ends, with nothing said.
        if let name = Self.notAFileName(path) { throw .database(path, .notAFileName(name)) }
        // A folder (such as `.`) is no database file; SQLite says only "unable to open".
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw .database(path, .isFolder)
        }
        // SQLite says only "unable to open database file" when the folder is missing.
        let folder = Self.folder(of: path)
        if !readOnly, !folder.isEmpty,
            !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue
        {
            throw .database(path, .noFolder(folder))
        }
        // An input is read, never written: it must exist and be a results database (SQLite
        // would make an empty file, or another program's database, into one).
        var size: Int?
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        if let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) {
            // A device (/dev/zero) or a pipe reads as size 0: it was called "empty".
            if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
                throw .database(path, .notAFile)
            }
            size = (attributes[.size] as? NSNumber)?.intValue
        }
        if readOnly {
            guard let size else { throw .database(path, .noSuchFile) }
            guard size > 0 else { throw .database(path, .empty) }
            // A reader of a WAL database makes its -wal and -shm files, and only a connection
            // that may write removes them when it closes: read-only, `results DB` left both
            // beside a database it only read. So where the files may be written, it opens
            // read-write, and the store refuses every write itself (`write`); GRDB reads
            // with SQLite's query_only set.
            let manager = FileManager.default
            let resolvedFolder = Self.folder(of: resolved)
            if manager.isWritableFile(atPath: resolved),
                manager.isWritableFile(atPath: resolvedFolder.isEmpty ? "." : resolvedFolder)
            {
                configuration.readonly = false
            }
        }
        let queue = try Self.access(path) { try DatabaseQueue(path: path, configuration: configuration) }
        try self.init(writer: queue, path: path, readOnly: readOnly, isNew: (size ?? 0) == 0)
    }

    /// What SQLite reads `path` as, when that is not a file's path: "" and ":memory:" (a
    /// private database in memory) and "file:…" (a URI); nil for a file's path.
    package static func notAFileName(_ path: String) -> String? {
        if path.isEmpty { return "an empty path, SQLite's name for a private temporary database" }
        if path == ":memory:" { return "SQLite's name for a database in memory" }
        if path.hasPrefix("file:") { return "read by SQLite as a URI, not a file's path" }
        return nil
    }

    /// The folder part of `path` ("" for a name alone), by its last `/`. Foundation's
    /// `NSString.deletingLastPathComponent` trapped on a one-character name (`.`, `x`, `x/`).
    package static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// A store in memory, for tests and for a sweep whose results are not kept.
    package convenience init() throws(SweepError) {
        try self.init(writer: try Self.access(":memory:") { try DatabaseQueue() }, path: ":memory:", isNew: true)
    }

    /// A store on `writer`, a database a `DatabaseQueue` or `DatabasePool` opened: an
    /// existing database must already be a results database, and is brought up to this
    /// version's schema unless `readOnly`; one written by a newer version is refused.
    package init(writer: any DatabaseWriter, path: String, readOnly: Bool = false, isNew: Bool = false)
        throws(SweepError)
    {
        self.path = path
        self.writer = writer
        self.readOnly = readOnly
        hasGuardedColumn = try Self.access(path) { () throws -> Bool in
            // An existing file must already be a results database before anything is written.
            let columns = isNew ? nil : try Self.resultsColumns(in: writer, path: path)
            if try writer.read({ try Self.migrator.hasBeenSuperseded($0) }) {
                throw SweepError.database(path, .newerSchema)
            }
            if readOnly { return columns?.contains(RunResult.CodingKeys.guardedCollisions.rawValue) ?? true }
            try Self.migrator.migrate(writer)
            return true
        }
    }

    /// The schema, one migration per change. A database written before the migrator (by
    /// version 0.x, which wrote the same tables itself) has no record of migrations: the
    /// first one finds its tables and keeps them, the second adds what it lacks.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("runs and sweeps") { db in
            // The runs, one row each, keyed by the run's key (the columns of ``columns``).
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS runs (
                        key TEXT PRIMARY KEY NOT NULL,
                        run_index INTEGER NOT NULL,
                        scene TEXT NOT NULL,
                        scene_hash TEXT NOT NULL,
                        parameters TEXT NOT NULL,
                        outcome TEXT NOT NULL,
                        error TEXT,
                        error_step INTEGER,
                        steps INTEGER NOT NULL,
                        asleep_step INTEGER,
                        final_hash TEXT,
                        kinetic_energy REAL,
                        quantities TEXT,
                        bodies TEXT,
                        guarded_collisions INTEGER NOT NULL DEFAULT 0,
                        wall_ms REAL NOT NULL
                    )
                    """)
            // The sweep (or, after `merge --allow-mixed`, the sweeps) the runs belong to.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS sweeps (
                        scene_hash TEXT NOT NULL,
                        plan_hash TEXT NOT NULL,
                        scene TEXT NOT NULL,
                        plan TEXT NOT NULL,
                        PRIMARY KEY (scene_hash, plan_hash)
                    )
                    """)
        }
        migrator.registerMigration("runs count the engine guard's answers") { db in
            // A database written before runs counted them gains the column, 0 for its runs.
            let guarded = RunResult.CodingKeys.guardedCollisions.rawValue
            if try !db.columns(in: RunResult.databaseTableName).contains(where: { $0.name == guarded }) {
                try db.alter(table: RunResult.databaseTableName) { table in
                    table.add(column: guarded, .integer).notNull().defaults(to: 0)
                }
            }
        }
        return migrator
    }()

    /// The columns of the database's table `runs`; throws unless it is one with every
    /// column of ``columns`` (`guarded_collisions` aside, which databases written before it
    /// lack): a view (a recursive one hung `results`), another program's tables or a
    /// damaged file are refused before anything reads or writes them.
    private static func resultsColumns(in reader: any DatabaseReader, path: String) throws -> [String] {
        let columns = try reader.read { db -> [String]? in
            let type = try String.fetchOne(db, sql: "SELECT type FROM sqlite_master WHERE name = 'runs'")
            guard type == "table" else { return nil }
            return try db.columns(in: RunResult.databaseTableName).map(\.name)
        }
        guard let columns else {
            throw SweepError.database(path, .noRunsTable)
        }
        let guarded = RunResult.CodingKeys.guardedCollisions.rawValue
        let missing = Self.columns.filter { !columns.contains($0) && $0 != guarded }
        guard missing.isEmpty else {
            throw SweepError.database(path, .missingColumns(missing))
        }
        return columns
    }

    /// Runs `body`, turning a database error into ``SweepError/database(_:_:)`` that names
    /// the file and says what went wrong in words; a ``SweepError`` passes through.
    private static func access<T>(_ path: String, _ body: () throws -> T) throws(SweepError) -> T {
        do {
            return try body()
        } catch let error as SweepError {
            throw error
        } catch {
            throw .database(path, problem(error))
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws(SweepError) -> T {
        try Self.access(path) { try writer.read(body) }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(SweepError) -> T {
        guard !readOnly else { throw .database(path, .readOnly) }
        return try Self.access(path) { try writer.write(body) }
    }

    /// Every run, by run index: the columns of ``columns``, with 0 for `guarded_collisions`
    /// in a database that lacks it.
    private var allRuns: QueryInterfaceRequest<RunResult> {
        let selection: [any SQLSelectable] = RunResult.CodingKeys.allCases.map { column -> any SQLSelectable in
            if !hasGuardedColumn && column == .guardedCollisions { return 0.databaseValue.forKey(column) }
            return column
        }
        return RunResult.select(selection).order(RunResult.CodingKeys.index, RunResult.CodingKeys.key)
    }

    /// Where a stored value could not be read, and why, in a line.
    static func describe(_ error: DecodingError) -> String {
        func at(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            let path = (context.codingPath + (key.map { [$0] } ?? [])).map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "" : path + ": "
        }
        switch error {
        case .typeMismatch(let type, let context): return at(context) + "not \(type)"
        case .valueNotFound(_, let context): return at(context) + "no value (NULL)"
        case .keyNotFound(let key, let context): return at(context, key) + "missing"
        case .dataCorrupted(let context): return at(context) + context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    /// What a database error means for a results database (SQLite's and GRDB's text, the
    /// statement and the code, left out).
    static func problem(_ error: any Error) -> SweepError.DatabaseProblem {
        if let error = error as? DecodingError { return .undecodable(Self.describe(error)) }
        guard let error = error as? DatabaseError else { return .unreadable }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .damaged
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked
        case .SQLITE_CANTOPEN: return .cannotOpen
        case .SQLITE_READONLY: return .readOnly
        case .SQLITE_FULL: return .diskFull
        case .SQLITE_IOERR: return .ioError
        case .SQLITE_PERM, .SQLITE_AUTH: return .permissionDenied
        default: return .sqlite(error.resultCode.rawValue)
        }
    }

    /// The sweeps this database records, in the order of their hashes; none in a new
    /// database, or one made before databases recorded their sweep.
    package func sweeps() throws(SweepError) -> [SweepIdentity] {
        let recorded = try read { db -> [SweepIdentity] in
            guard try db.tableExists(SweepIdentity.databaseTableName) else { return [] }
            // A value that is not what its column holds (a NULL plan) is an error, not a trap.
            return try SweepIdentity.order(SweepIdentity.CodingKeys.sceneHash, SweepIdentity.CodingKeys.planHash)
                .fetchAll(db)
        }
        // Values no sweep records (a plan of -5 runs, a hash of a megabyte) were printed as
        // they were in "holds another sweep" and merge's messages.
        for sweep in recorded {
            if let (column, value, expected) = sweep.problem {
                throw .database(path, .badSweepRecord(column: column, value: value, expected: expected))
            }
        }
        return recorded
    }

    /// Makes sure this database is `plan`'s: a new one records the plan's sweep, one that
    /// records it already is fine, and one that holds another sweep is refused. A database
    /// made before databases recorded their sweep is taken when every run in it is one of
    /// the plan's.
    package func claim(for plan: SweepPlan) throws(SweepError) {
        let identity = plan.identity
        let recorded = try sweeps()
        // Resumed, its runs are counted as done: a run whose values this version never
        // writes is refused, as merge and results --chart refuse it.
        try requireValuesItWrites()
        if recorded.contains(identity) { return }
        if !recorded.isEmpty { throw .otherSweep(database: path, holds: recorded, wanted: identity) }
        let stored = try storedKeys()
        if !stored.isEmpty, !stored.isSubset(of: plan.runs.map { plan.key(of: $0) }) {
            throw .otherSweep(database: path, holds: [], wanted: identity)
        }
        try record([identity])
    }

    private func record(_ sweeps: [SweepIdentity]) throws(SweepError) {
        try write { db in
            for sweep in sweeps { try sweep.insert(db, onConflict: .ignore) }
        }
    }

    /// The keys of the runs already stored.
    package func storedKeys() throws(SweepError) -> Set<String> {
        try read { db in try String.fetchSet(db, RunResult.select(RunResult.CodingKeys.key)) }
    }

    /// Stores a run's result, in a transaction of its own; a run already stored stays as it was.
    package func insert(_ result: RunResult) throws(SweepError) {
        try write { db in try result.insert(db, onConflict: .ignore) }
    }

    /// Every run, ordered by run index, after checking that every stored value is one this
    /// version writes (``requireValuesItWrites()``): a chart of a damaged database said "a
    /// stored value cannot be read (The given data was not valid JSON.)".
    package func results() throws(SweepError) -> [RunResult] {
        try requireValuesItWrites()
        return try read { db in try allRuns.fetchAll(db) }
    }

    /// Throws for the first stored value (by run index) that this version never writes,
    /// naming the run, the column, the value and the column's rule.
    package func requireValuesItWrites() throws(SweepError) {
        if let (run, column, value, expected) = try firstBadValue() {
            throw .database(path, .badValue(run: run, column: column, value: value, expected: expected))
        }
    }

    /// Adds every run of every input to `output`, after checking that they all belong to
    /// one sweep: the same recorded sweeps in each input, and in `output` if it holds any.
    /// Otherwise nothing is written and the error names the first two databases that
    /// differ, with their sweeps, unless `allowMixed` says to merge them anyway (the
    /// output then records every sweep it holds).
    package static func merge(
        _ inputs: [SweepStore], into output: SweepStore, allowMixed: Bool = false
    ) throws(SweepError) {
        if !allowMixed {
            var reference: (path: String, sweeps: [SweepIdentity])?
            let existing = try output.sweeps()
            let outputRuns = try output.count()
            if !existing.isEmpty || outputRuns > 0 { reference = (output.path, existing) }
            for input in inputs {
                let sweeps = try input.sweeps()
                guard let first = reference else {
                    reference = (input.path, sweeps)
                    continue
                }
                if Set(sweeps) != Set(first.sweeps) {
                    throw .mixedSweeps(
                        first: first.path, firstSweeps: first.sweeps, other: input.path, otherSweeps: sweeps)
                }
            }
        }
        try output.merge(from: inputs)
    }

    /// Adds every run of `others` to this database, and the sweeps they record, in one
    /// transaction: a merge stopped part way (`kill -9`) leaves the database as it was,
    /// never half merged (one transaction per input left the first input's runs, which
    /// `results` exported as if the merge had ended). A run stored twice must have the same
    /// result (wall time aside), or the merge stops, naming it, and adds nothing. It does
    /// not compare sweeps: ``merge(_:into:allowMixed:)`` does.
    package func merge(from others: [SweepStore]) throws(SweepError) {
        var known = Dictionary(try results().map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        var added: [RunResult] = []
        var sweeps: [SweepIdentity] = []
        for other in others {
            for result in try other.results() {
                if let existing = known[result.key] {
                    guard existing.sameResult(as: result) else {
                        throw .mergeConflict(key: result.key, file: other.path)
                    }
                    continue
                }
                known[result.key] = result
                added.append(result)
            }
            sweeps += try other.sweeps()
        }
        try write { db in
            for result in added { try result.insert(db) }
            for sweep in sweeps { try sweep.insert(db, onConflict: .ignore) }
        }
    }

    /// Each column's rule, as SQL on the column's value (`$c`), and the rule in words: what this
    /// version writes. SQLite keeps any value in any column, and reading converts it
    /// (`'abc'` as a REAL read 0.0).
    private static let valueRules: [(column: RunResult.CodingKeys, sql: String, words: String)] = [
        (.key, "typeof($c) = 'text'", "text"),
        (.index, "typeof($c) = 'integer' AND $c >= 0", "a whole number from 0"),
        (.scene, "typeof($c) = 'text'", "text"),
        (.sceneHash, "typeof($c) = 'text'", "text"),
        (.parameters, jsonObject(of: "('integer', 'real')", finite: true), "a JSON object of finite numbers"),
        (.outcome, "$c IN ('ok', 'diverged', 'failed')", "ok, diverged or failed"),
        (.error, "typeof($c) IN ('text', 'null')", "text or null"),
        (.errorStep, "typeof($c) IN ('integer', 'null') AND ($c IS NULL OR $c >= 1)", "a step from 1, or null"),
        (.steps, "typeof($c) = 'integer' AND $c >= 0", "a whole number from 0"),
        (.asleepStep, "typeof($c) IN ('integer', 'null') AND ($c IS NULL OR $c >= 1)", "a step from 1, or null"),
        (.finalHash, "typeof($c) IN ('text', 'null')", "text or null"),
        (.kineticEnergy, "typeof($c) IN ('real', 'integer', 'null')", "a number or null"),
        (.quantities, "$c IS NULL OR " + jsonObject(of: "('object')"), "a JSON object of objects, or null"),
        (.bodies, "$c IS NULL OR " + jsonObject(of: "('object')"), "a JSON object of objects, or null"),
        (.guardedCollisions, "typeof($c) = 'integer' AND $c >= 0", "a whole number from 0"),
        (.wallMilliseconds, "typeof($c) IN ('real', 'integer')", "a number"),
    ]

    /// The rule of a column holding a JSON object whose members are of the JSON `types`
    /// (an SQL list: `('integer', 'real')`). The CASE keeps `json_type` off text that is not
    /// JSON, which it would refuse with an error.
    /// `finite`: no member is a number past the largest double (SQLite reads `1e400` as
    /// infinity, and calls it a real).
    private static func jsonObject(of types: String, finite: Bool = false) -> String {
        let infinite = finite ? " OR (json_each.type = 'real' AND abs(json_each.value) > 1.7976931348623157e308)" : ""
        return "(CASE WHEN typeof($c) = 'text' AND json_valid($c) THEN json_type($c) = 'object' "
            + "AND NOT EXISTS (SELECT 1 FROM json_each($c) WHERE json_each.type NOT IN \(types)\(infinite)) ELSE 0 END)"
    }

    /// The first stored value (by run index) that breaks its column's rule: the run's key,
    /// the column, the value as SQLite quotes it, and the rule in words.
    func firstBadValue() throws(SweepError) -> (String, String, String, String)? {
        try read { db in
            for rule in Self.valueRules where hasGuardedColumn || rule.column != .guardedCollisions {
                let column = rule.column.rawValue
                let condition = rule.sql.replacingOccurrences(of: "$c", with: column)
                if let row = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT COALESCE(CAST(key AS TEXT), 'null') AS key, quote(\(column)) AS value FROM runs WHERE NOT COALESCE((\(condition)), 0) ORDER BY run_index LIMIT 1"
                ) {
                    return (row["key"] as String, column, row["value"] as String, rule.words)
                }
            }
            return nil
        }
    }

    /// How many runs are stored.
    package func count() throws(SweepError) -> Int {
        try read { db in try RunResult.fetchCount(db) }
    }

    /// The rows as CSV (with a header, columns in ``columns`` order, the JSON columns as a
    /// column per number, one number format per column: ``ResultsCSV``) or JSON lines, by
    /// run index. `parameters`, `quantities` and `bodies` stay JSON objects in JSON lines.
    /// Each value is exported as it is stored, so a damaged one is exported (as text), not
    /// refused.
    package func export(asCSV: Bool) throws(SweepError) -> String {
        let rows = try read { db in try Row.fetchAll(db, allRuns) }
        if asCSV { return ResultsCSV.text(rows: rows, columns: Self.columns) }
        var out = ""
        for row in rows {
            let values = Self.columns.map { (column: $0, value: row[$0] as DatabaseValue) }
            out += (SweepJSON.text(ExportedRow(values: values)) ?? "{}") + "\n"
        }
        return out
    }
}

/// One row of `runs` as a JSON line, its values as stored. JSON has no infinities or NaN:
/// those are the strings "Infinity", "-Infinity" and "NaN" (what JavaScript's and Python's
/// JSON writers name them). The JSON columns (parameters, quantities, bodies) are written
/// as JSON when they are valid JSON; otherwise (a damaged database) as a string.
private struct ExportedRow: Encodable {
    var values: [(column: String, value: DatabaseValue)]

    static let jsonColumns: Set<String> = [
        RunResult.CodingKeys.parameters.rawValue, RunResult.CodingKeys.quantities.rawValue,
        RunResult.CodingKeys.bodies.rawValue,
    ]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (column, value) in values {
            let key = AnyCodingKey(column)
            switch value.storage {
            case .null: try container.encodeNil(forKey: key)
            case .int64(let integer): try container.encode(integer, forKey: key)
            case .double(let double):
                if double.isFinite {
                    try container.encode(double, forKey: key)
                } else {
                    try container.encode(double.isNaN ? "NaN" : double > 0 ? "Infinity" : "-Infinity", forKey: key)
                }
            case .string(let text):
                if Self.jsonColumns.contains(column),
                    let json = try? JSONDecoder().decode(JSONTree.self, from: Data(text.utf8))
                {
                    try container.encode(json, forKey: key)
                } else {
                    try container.encode(text, forKey: key)
                }
            case .blob(let data): try container.encode(data.base64EncodedString(), forKey: key)
            }
        }
    }
}
