import Chipmunk
import ChipmunkScenes
import Foundation

/// What is wrong with a sweep's input or its database.
package enum SweepError: Error, CustomStringConvertible, Sendable {
    case badAxis(String, String)
    case scene(SceneError)
    case database(String, String)
    case mergeConflict(key: String, file: String)
    case file(String, String)
    /// A database holds runs of another sweep than the one being run into it.
    case otherSweep(database: String, holds: [SweepIdentity], wanted: SweepIdentity)
    /// `merge` was given databases of different sweeps (without `--allow-mixed`).
    case mixedSweeps(first: String, firstSweeps: [SweepIdentity], other: String, otherSweeps: [SweepIdentity])

    /// The sweeps a database records, in words.
    static func describe(_ sweeps: [SweepIdentity]) -> String {
        sweeps.isEmpty
            ? "no recorded sweep (made before databases recorded theirs)"
            : sweeps.map(\.description).joined(separator: " and ")
    }

    package var description: String {
        switch self {
        case let .badAxis(what, reason): "\(what): \(reason)"
        case .scene(let error): "\(error)"
        case let .database(path, reason): "\(path): \(reason)"
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
