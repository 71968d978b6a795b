import ArgumentParser
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

struct SyncTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synctest",
        abstract: "Check that a scene re-simulates exactly after a rollback, as rollback netcode needs.",
        discussion: """
            Every frame the scene is saved and stepped, and its state hash kept; then it rolls back \
            --depth frames (restoring the state saved then) and steps them again with the same \
            inputs: its gravity schedule and timed inputs come back with its clock. Every hash of the \
            second pass must equal the first's. This is GGPO's and GGRS's synctest: a scene whose \
            steps read anything outside its state (a counter in a closure, a clock, a random number) \
            fails at the first frame that does. It prints one line and exits 0, or names the first \
            frame and step that differ and exits 1.

            Examples:
              chipmunk-sim synctest crates
              chipmunk-sim synctest pyramid-topple --depth 8 --frames 1800
            """
    )

    @Argument(help: "A built-in scene (see `chipmunk-sim list`), a scene file, or a snapshot file.")
    var scene: String

    @Option(
        help: "Frames rolled back and simulated again, every frame (1 to 600; default: 8).",
        transform: WholeNumber.parser(1...600, "frames"))
    var depth = 8

    @Option(
        help: "Frames to run (1 to 2^53; default: 600).",
        transform: WholeNumber.parser(1...WholeNumber.maxStep, "frames"))
    var frames = 600

    func run() throws {
        let scene = try SceneCatalog.scene(opening: self.scene, warn: Output.warning)
        do {
            let report = try SyncTest(depth: depth, frames: frames).run(scene)
            print(
                "synctest \(self.scene): \(report.frames) frames at depth \(depth), \(report.rollbacks) rollbacks, "
                    + "\(report.resimulatedFrames) frames simulated again: every hash matches")
        } catch {
            if case .diverged = error.kind { throw DifferencesFound("synctest \(self.scene): \(error)") }
            throw RunError("synctest \(self.scene): \(error)")
        }
    }
}
