import ArgumentParser
import Chipmunk
import ChipmunkBatch
import Foundation

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine shard databases of one sweep into one.",
        discussion: """
            Every input must belong to the same sweep (the same scene file content and plan, \
            which each database records), or nothing is written and both databases are named \
            with their sweeps; --allow-mixed merges them anyway. Runs found in several inputs \
            must agree (wall time aside), or nothing is written and the run is named. Merging \
            into an existing database adds what it lacks.

            Example: chipmunk-sim merge all.sqlite shard-0.sqlite shard-1.sqlite shard-2.sqlite shard-3.sqlite
            """
    )

    @Argument(help: "The database to write (created if missing).") var output: String
    @Argument(help: "The shard databases.") var inputs: [String]
    @Flag(help: "Merge databases of different sweeps (different scene content or plan).") var allowMixed = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one shard database to merge") }
        // SQLite takes an empty name for a private temporary database: a merge into it keeps nothing.
        if output.isEmpty { throw ValidationError("the output database's path is empty") }
        if inputs.contains("") { throw ValidationError("a shard database's path is empty") }
        try Output.refuseOverwriting(
            output, option: "the output database", inputs: inputs.map { ("a shard being merged", $0) })
    }

    func run() throws {
        for input in inputs where !FileManager.default.fileExists(atPath: input) {
            throw RunError("no such database: \(input)")
        }
        // Inputs are opened read-only, and first: merge never writes to them, and a bad one
        // stops it before the output is made.
        let shards = try inputs.map { try SweepStore(path: $0, readOnly: true) }
        // A refused merge into a new database leaves no database behind (it left an empty
        // 20 KB one where the output was to go).
        let isNew = !FileManager.default.fileExists(atPath: output)
        let note: String
        do {
            note = try merge(shards)
        } catch {
            if isNew {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: output + suffix)
                }
            }
            throw error
        }
        Output.note(note + "\n")
    }

    /// Merges `shards` into the output, and says what it holds then. The output database is
    /// closed when this returns.
    private func merge(_ shards: [SweepStore]) throws -> String {
        let store = try SweepStore(path: output)
        try SweepStore.merge(shards, into: store, allowMixed: allowMixed)
        let sweeps = try store.sweeps()
        let count = try store.count()
        var note = "merge: \(counted(count, "run"))"
        if sweeps.count > 1 {
            note += " of \(sweeps.count) sweeps in \(output)"
        } else if let planned = sweeps.first?.plan.runs {
            // A shard that never ran (or was left off the command) shows here.
            note +=
                " in \(output), "
                + (count == planned
                    ? "all of the sweep's \(planned)" : "of the sweep's \(planned): \(planned - count) missing")
        } else {
            note += " in \(output)"
        }
        return note
    }
}
