import ArgumentParser
import Chipmunk
import ChipmunkCatalog
import Foundation

struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Run a scene to a step and save everything the engine carries on, to continue later.",
        discussion: """
            The file (format: docs/snapshots.md) holds bodies, shapes, constraints with their \
            accumulated impulses, cached contacts, sleeping groups, the scene's clock, and the \
            history of the engine's broad phase (the order in which it finds contact pairs \
            depends on it). `chipmunk-sim run FILE` continues from it, in any process, with \
            exactly the bits of the uninterrupted run.

            Example:
              chipmunk-sim snapshot crates --at 120 -o crates-120.snapshot
              chipmunk-sim run crates-120.snapshot --steps 120 --hash
            """
    )

    @Argument(help: "A built-in scene name (see `chipmunk-sim list`), or a scene file.")
    var scene: String

    @Option(
        parsing: .unconditional, help: "The step after which to take the snapshot (0: before the first step).",
        transform: WholeNumber.parser(0...WholeNumber.maxStep, "steps"))
    var at: Int

    @Option(name: [.short, .customLong("output")], help: "The snapshot file to write.")
    var output: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The time step, as a fraction (1/120) or a decimal. Default: the scene's own.", valueName: "dt"),
        transform: TimeStep.parse)
    var dt: TimeStep?

    /// Accepted and ignored: snapshots hold the broad phase's history now.
    @Flag(help: .hidden) var canonicalBroadPhase = false

    func validate() throws {
        try Output.refuseOverwriting(output, option: "-o", inputs: [("the scene file being read", scene)])
    }

    func run() throws {
        let scene = try SceneCatalog.scene(named: self.scene, warn: Output.warning)
        if canonicalBroadPhase { Output.note(CanonicalBroadPhase.ignored) }
        let step = dt?.seconds ?? scene.timeStep
        for index in 0..<at {
            do {
                try scene.step(step)
            } catch {
                throw RunError("\(ChipmunkError.stepFailure(index + 1, "\(error)")); no snapshot was written")
            }
        }
        let snapshot = scene.snapshot(reference: self.scene)
        try Output.file(snapshot.bytes, to: output, option: "-o")
        Output.summary(
            "wrote \(output): \(scene.name) after step \(at), \(snapshot.bodyCount) \(snapshot.bodyCount == 1 ? "body" : "bodies"), "
                + "\(counted(snapshot.arbiterCount, "cached contact pair")), \(snapshot.bytes.count) bytes")
        if snapshot.lacksBroadPhaseHistory {
            Output.note(
                "note: the loaded engine's broad-phase structs are not Chipmunk 7.0.3's, so the snapshot does not "
                    + "hold the broad phase's history: restored, it continues with the uninterrupted run's bits "
                    + "only where the broad phase's history does not matter (docs/snapshots.md)\n")
        }
    }
}
