import ArgumentParser
import Chipmunk
import ChipmunkCatalog
import Foundation

struct SnapshotReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot-report",
        abstract: "Measure snapshots of every built-in scene and print the table in docs/snapshots.md.",
        discussion: """
            For each scene: level 1 (restore then snapshot gives the same bytes) at every step up \
            to --steps; level 2 (two restores continue alike); level 3 (a restore continues with the \
            bits of the uninterrupted run), from a \
            snapshot after step --at to step --steps; the snapshot's size in the binary format and \
            as JSON; median times. Progress goes to stderr, the Markdown table to stdout.
            """
    )

    @Option(
        parsing: .unconditional, help: "Take the level-3 snapshot after this step (default: 600).",
        transform: WholeNumber.parser(0...99_999, "steps"))
    var at = 600
    @Option(
        parsing: .unconditional, help: "Run to this step, after --at (default: 1800).",
        transform: WholeNumber.parser(1...100_000, "steps"))
    var steps = 1800
    @Argument(help: "Scenes to measure (default: every built-in scene).") var scenes: [String] = []

    func validate() throws {
        guard steps > at else { throw ValidationError("--steps must be after --at (got --at \(at), --steps \(steps))") }
        for name in scenes where !SceneCatalog.builtIn.contains(where: { $0.name == name }) {
            throw ValidationError("\(name) is not a built-in scene (see `chipmunk-sim list`)")
        }
    }

    func run() throws {
        let names = scenes.isEmpty ? SceneCatalog.builtIn.map(\.name) : scenes
        print(
            "| scene | bodies | cached pairs | level 1 | level 2 | level 3 | bytes | as JSON | snapshot µs | restore µs | JSON encode µs |"
        )
        print("|---|---:|---:|:---:|:---:|:---:|---:|---:|---:|---:|---:|")
        for (index, name) in names.enumerated() {
            Output.note("[\(index + 1)/\(names.count)] \(name)\n")
            let r = try SnapshotReport.measure(scene: name, at: at, steps: steps)
            func level3(_ first: Int?) -> String {
                first.map { "differs \(counted($0, "step")) after" } ?? "holds"
            }
            print(
                "| \(name) | \(r.bodies) | \(r.arbiters) | \(r.roundTripHolds ? "holds" : "**fails**") | \(r.repeatableHolds ? "holds" : "**fails**") | \(level3(r.firstDifference)) | \(r.bytes) | \(r.jsonBytes) | \(String(format: "%.0f", r.snapshotMicroseconds)) | \(String(format: "%.0f", r.restoreMicroseconds)) | \(String(format: "%.0f", r.jsonEncodeMicroseconds)) |"
            )
        }
    }
}
