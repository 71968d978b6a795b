import Chipmunk
import ChipmunkScenes
import Foundation

/// What is wrong with a sweep's input or its database.
package enum SweepError: Error, CustomStringConvertible, Sendable {
    /// An input of the sweep (an option, a sweep file's key, a parameter, a body) that is
    /// wrong: where it was given, and what is wrong with it.
    case badInput(Input, Problem)
    case scene(SceneError)
    /// A results database (by its path) that cannot be used, and why.
    case database(String, DatabaseProblem)
    case mergeConflict(key: String, file: String)
    case file(String, String)
    /// A database holds runs of another sweep than the one being run into it.
    case otherSweep(database: String, holds: [SweepIdentity], wanted: SweepIdentity)
    /// `merge` was given databases of different sweeps (without `--allow-mixed`).
    case mixedSweeps(first: String, firstSweeps: [SweepIdentity], other: String, otherSweeps: [SweepIdentity])

    /// Where a sweep's input was given.
    package enum Input: Sendable, Equatable, CustomStringConvertible {
        /// `--param TEXT`.
        case parameterOption(String)
        /// The `--param` options together (the grid they make).
        case parameterOptions
        /// `--track TEXT`.
        case trackOption(String)
        /// `--chart PARAMETER:METRIC`.
        case chartOption(parameter: String, metric: String)
        /// A parameter the runs set, by name.
        case parameter(String)
        /// An axis or range of a sweep, by its parameter's name.
        case axis(String)
        /// A body the runs follow, by name.
        case body(String)
        /// A sweep file's key.
        case fileKey(String)
        /// A sweep file's `random`, or one of its keys.
        case random(key: String?)
        /// A sweep file's `random.ranges.NAME`.
        case randomRange(String)
        /// A sweep file's `table`, or one of its rows.
        case table(row: Int?)

        /// How the message names it: `--param speed=x`, `body bob`, `table[3]`; a name of
        /// more than 60 characters cut, with its size (a megabyte's key was echoed whole).
        package var description: String {
            switch self {
            case .parameterOption(let text): "--param \(text.excerpt())"
            case .parameterOptions: "--param"
            case .trackOption(let text): "--track \(text.excerpt())"
            case let .chartOption(parameter, metric): "--chart \(parameter.excerpt()):\(metric.excerpt())"
            case .parameter(let name): "parameter \(name.excerpt())"
            case .axis(let name), .fileKey(let name): name.excerpt()
            case .body(let name): "body \(name.excerpt())"
            case .random(let key): key.map { "random.\($0.excerpt())" } ?? "random"
            case .randomRange(let name): "random.ranges.\(name.excerpt())"
            case .table(let row): row.map { "table[\($0)]" } ?? "table"
            }
        }
    }

    /// A range of values: evenly spaced, or evenly spaced in the logarithm.
    package enum RangeKind: String, Sendable, Equatable { case lin, log }

    /// What is wrong with an input.
    package enum Problem: Sendable, Equatable {
        /// `--param` without `name=`.
        case notNameEqualsValues
        /// `lin:` or `log:` without two finite numbers and a count from 1 to 1,000,000.
        case malformedRange(RangeKind)
        /// A `log:` range with an end at or below zero.
        case logRangeNotAboveZero
        /// A range that gives a value that is not finite.
        case rangeValueNotFinite
        /// A list item that is not a finite number.
        case notAFiniteNumber(String)
        /// A random range whose ends are not finite or out of order.
        case lowAboveHigh(low: Double, high: Double)
        /// A logarithmic random range whose low end is at or below zero.
        case logLowNotAboveZero
        /// A random range whose span (high − low) is more than a number can hold.
        case spanNotFinite(low: Double, high: Double)
        /// A random range that gives a sample that is not finite.
        case sampleNotFinite
        /// A parameter given twice.
        case givenTwice
        /// A value listed twice in one parameter's values (one run, counted twice).
        case repeatedValue(Double)
        /// A grid of more than 10,000,000 runs.
        case tooManyRuns(Int)
        /// A grid of no parameters (a sweep file's `"grid": {}`).
        case noAxes
        /// A random design whose count is not from 1 to 10,000,000.
        case randomCountOutOfRange
        /// A table of no runs or more than 10,000,000.
        case tableSizeOutOfRange
        /// A table row with a value that is not finite.
        case tableValueNotFinite
        /// A table row that repeats an earlier row (by its index): the same run twice.
        case repeatedRow(of: Int)
        /// A table row that is an earlier row once the scene's own values fill in what it
        /// leaves out: the same run stored under two keys.
        case repeatedRowWithDefaults(of: Int, defaults: ParameterSet)
        /// A random draw that repeats an earlier one (by its run index): a range too
        /// narrow for the count.
        case repeatedDraw(run: Int, of: Int)
        /// A parameter set on a scene that declares none.
        case noParametersDeclared
        /// A parameter the scene does not declare; it declares these.
        case undeclaredParameter(String, declared: [String])
        /// A body the scene does not have; it has these.
        case noSuchBody(names: [String])
        /// A `--track` that is not `energy` or `BODY.q`.
        case notAQuantity
        /// A chart's parameter no run in the database has; its runs have these.
        case noSuchParameter(String, database: String, known: [String])
        /// A chart's metric the database does not have; it has these.
        case noSuchMetric(String, known: [String])
        /// A sweep file's key that is not one of these.
        case notASweepFileKey(known: [String])
        /// A key of `random` that is not one of these.
        case notARandomKey(known: [String])
        /// A random range that is neither `[low, high]` nor `{"log": [low, high]}`.
        case notARandomRange
        /// An axis that is neither a list nor `{"lin": …}` nor `{"log": …}`.
        case notAnAxis
        /// An axis that lists no values, or one that is not finite.
        case emptyOrNotFinite
        /// A `lin` or `log` axis that is not `[from, to, count]`.
        case notFromToCount
        /// A `lin` or `log` axis whose numbers make no range.
        case malformedFileRange(RangeKind)
        /// A random seed that is not a whole number from 0 to 2^64 - 1: what was found.
        case notASeed(JSONTree)

        /// A JSON value as an error names it: `-1`, `1.5`, `a string`.
        private static func describe(_ value: JSONTree) -> String {
            switch value {
            case .integer(let number): "\(number)"
            case .unsigned(let number): "\(number)"
            case .number(let number): "\(number)"
            case .string: "a string"
            case .bool(let bool): "\(bool)"
            case .null: "null"
            case .array: "an array"
            case .object: "an object"
            }
        }

        /// The problem in words.
        var message: String {
            switch self {
            case .notNameEqualsValues: "write name=values, such as speed=1,2,5 or k=log:10:1e6:11"
            case .malformedRange(let kind):
                "\(kind.rawValue):FROM:TO:COUNT needs two finite numbers and a count from 1 to 1000000"
            case .logRangeNotAboveZero: "a log range needs FROM and TO above zero"
            case .rangeValueNotFinite: "the range gives a value that is not finite"
            case .notAFiniteNumber(let item):
                "'\(item)' is not a finite decimal number (a list is 1,2,5; ranges are lin:… and log:…)"
            case let .lowAboveHigh(low, high): "a range needs finite low <= high (got \(low) to \(high))"
            case .logLowNotAboveZero: "a log range needs low above zero"
            case let .spanNotFinite(low, high):
                "the range from \(low) to \(high) is wider than a number can hold (high - low must be finite)"
            case .sampleNotFinite: "the range gives a sample that is not finite"
            case .givenTwice: "is given twice"
            case .repeatedValue(let value):
                "the value \(ParameterSet.text(value)) is given twice; give each value once (a run is stored once)"
            case .tooManyRuns(let runs): "\(runs) runs is more than 10,000,000"
            case .noAxes: "give at least one parameter to sweep"
            case .randomCountOutOfRange: "must be from 1 to 10,000,000"
            case .tableSizeOutOfRange: "must list 1 to 10,000,000 runs"
            case .tableValueNotFinite: "every value must be a finite number"
            case .repeatedRow(let first):
                "repeats table[\(first)]; give each run once (a run is stored once, and the same parameters give the same bits)"
            case let .repeatedRowWithDefaults(first, defaults):
                "is table[\(first)] once the scene's own values fill in what one of them leaves out "
                    + "(\(defaults.values.keys.sorted().map { "\($0) \(ParameterSet.text(defaults.values[$0]!))" }.joined(separator: ", "))); "
                    + "give each run once (a run is stored once, and the same parameters give the same bits)"
            case let .repeatedDraw(run, first):
                "run \(run) draws the same parameters as run \(first); widen a range or lower the count (a run is stored once)"
            case .noParametersDeclared: "the scene declares no parameters (add \"parameters\" to the scene file)"
            case let .undeclaredParameter(name, declared):
                "the scene declares no parameter '\(name.excerpt())' (it declares: \(declared.map { $0.excerpt() }.joined(separator: ", ")))"
            case .noSuchBody(let names):
                "the scene has no body of that name (names: \(names.prefix(20).map { $0.excerpt() }.joined(separator: ", ")))"
            case .notAQuantity:
                "give energy or BODY.q with q one of \(TrackedQuantity.Measure.allCases.map(\.rawValue).joined(separator: ", ")) (BODY: a body's name in output)"
            case let .noSuchParameter(name, database, known):
                "no parameter \(name.excerpt()) in \(database); its runs have \(known.map { $0.excerpt() }.joined(separator: ", "))"
            case let .noSuchMetric(name, known): "no metric \(name.excerpt()); known: \(known.joined(separator: ", "))"
            case .notASweepFileKey(let known): "is not a sweep file key (\(known.joined(separator: ", ")))"
            case .notARandomKey(let known): "is not a key of random (\(known.joined(separator: ", ")))"
            case .notARandomRange: "a random range is [low, high] or {\"log\": [low, high]}"
            case .notAnAxis: "give a list of numbers, {\"lin\": [...]} or {\"log\": [...]}"
            case .emptyOrNotFinite: "give one or more finite numbers"
            case .notFromToCount: "a range is [from, to, count]"
            case .notASeed(let value):
                "expected a whole number from 0 to 18446744073709551615, found \(Self.describe(value))"
            case .malformedFileRange(let kind):
                "\(kind.rawValue) needs [from, to, count]: finite numbers, a count from 1 to 1000000\(kind == .log ? ", both ends above zero" : "")"
            }
        }
    }

    /// Why a results database cannot be used.
    package enum DatabaseProblem: Sendable, Equatable, CustomStringConvertible {
        /// The folder a new database would be made in does not exist.
        case noFolder(String)
        /// The path names a folder, not a database file.
        case isFolder
        /// The path names a device, a pipe or a socket, not a database file.
        case notAFile
        /// SQLite reads the path as no file (a database in memory, or a URI): what it reads it as.
        case notAFileName(String)
        /// A stored value that this version never writes: the run's key and the column as
        /// SQLite quotes them, and what the column holds.
        case badValue(run: String, column: String, value: String, expected: String)
        /// A row of the table `sweeps` that no sweep records: the column, its value, and
        /// what the column holds.
        case badSweepRecord(column: String, value: String, expected: String)
        /// A database to read is not there.
        case noSuchFile
        /// A database to read is an empty file.
        case empty
        /// The file is an SQLite database without the results table `runs`.
        case noRunsTable
        /// The table `runs` lacks these columns.
        case missingColumns([String])
        /// It was written by a newer version, with a migration this one does not know.
        case newerSchema
        /// SQLite reads it as damaged, or not as a database at all.
        case damaged
        /// Another process holds it locked (after 10 s of waiting).
        case locked
        case cannotOpen
        case readOnly
        case diskFull
        case ioError
        case permissionDenied
        /// Another SQLite result code.
        case sqlite(Int32)
        /// An error that is not SQLite's.
        case unreadable
        /// A stored value of the right SQLite type that does not read as what its column
        /// holds: where, and why.
        case undecodable(String)
        /// A chart of a database that holds no runs.
        case noRuns

        package var description: String {
            switch self {
            case .noFolder(let folder): "no folder \(folder)"
            case .isFolder: "is a folder, not a results database file"
            case .notAFile: "is not a regular file (a device, pipe or socket), not a results database"
            case .notAFileName(let what):
                "is \(what), which would keep nothing: give a file's path (such as ./name.sqlite)"
            case let .badValue(run, column, value, expected):
                "run \(run.excerpt()): \(column) is \(value.excerpt()), not \(expected)"
            case let .badSweepRecord(column, value, expected):
                "its table 'sweeps' holds \(column) \(value.excerpt()), not \(expected)"
            case .noSuchFile: "no such file"
            case .empty: "is empty, not a results database"
            case .noRunsTable: "is not a results database (it has no table 'runs')"
            case .missingColumns(let columns):
                "is not a results database (its table 'runs' lacks \(columns.joined(separator: ", ")))"
            case .newerSchema: "was written by a newer version of chipmunk-sim, whose schema this one does not know"
            case .damaged: "is damaged or not an SQLite database"
            case .locked: "is locked by another process (tried for 10 s)"
            case .cannotOpen: "cannot be opened (check the path and its permissions)"
            case .readOnly: "cannot be written (read-only file or folder)"
            case .diskFull: "cannot be written: the disk is full"
            case .ioError: "could not be read or written (an I/O error)"
            case .permissionDenied: "cannot be opened: permission denied"
            case .sqlite(let code): "is not a results database this version can read (SQLite result \(code))"
            case .unreadable: "cannot be read as a results database"
            case .undecodable(let why): "a stored value cannot be read (\(why))"
            case .noRuns: "has no runs to chart"
            }
        }
    }

    /// The sweeps a database records, in words.
    static func describe(_ sweeps: [SweepIdentity]) -> String {
        sweeps.isEmpty
            ? "no recorded sweep (made before databases recorded theirs)"
            : sweeps.map(\.description).joined(separator: " and ")
    }

    package var description: String {
        switch self {
        case let .badInput(input, problem): "\(input): \(problem.message)"
        case .scene(let error): "\(error)"
        case let .database(path, problem): "\(path): \(problem)"
        case let .file(file, reason): "\(file): \(reason)"
        case let .otherSweep(database, holds, wanted):
            "\(database) holds another sweep: \(Self.describe(holds)); this one is \(wanted). Give another --db"
        case let .mixedSweeps(first, firstSweeps, other, otherSweeps):
            "\(other) is from another sweep than \(first): \(other) has \(Self.describe(otherSweeps)); \(first) has \(Self.describe(firstSweeps)). Nothing was merged; --allow-mixed merges them anyway"
        case let .mergeConflict(key, file):
            "\(file): run \(key) has a different result than the same run in an earlier file (were they made by different builds?)"
        }
    }
}
