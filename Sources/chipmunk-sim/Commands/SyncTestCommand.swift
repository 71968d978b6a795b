import ArgumentParser
import Chipmunk
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
            fails at the first frame that does. A recording is run on its scene with its inputs, each \
            applied before its step in both passes, and its first pass must also give the recorded \
            hashes (as `replay` checks). It prints one line and exits 0, or names the first frame \
            and step that differ and exits 1 (65 when it cannot run: an unreadable file, another \
            scene than the one recorded, an input or a step that fails).

            Examples:
              chipmunk-sim synctest crates
              chipmunk-sim synctest pyramid-topple --depth 8 --frames 1800
              chipmunk-sim synctest session.inputs.json
            """
    )

    @Argument(
        help: """
            A built-in scene (see `chipmunk-sim list`), a scene file, a snapshot file, or a recording \
            (`chipmunk-sim record`, or a session downloaded from `serve`).
            """)
    var scene: String

    @Option(
        parsing: .unconditional, help: "Frames rolled back and simulated again, every frame (1 to 600; default: 8).",
        transform: WholeNumber.parser(1...600, "frames"))
    var depth = 8

    @Option(
        parsing: .unconditional, help: "Frames to run (1 to 2^53; default: 600, or a recording's steps).",
        transform: WholeNumber.parser(1...WholeNumber.maxStep, "frames"))
    var frames: Int?

    func run() throws {
        if let recording = try Self.recording(at: self.scene) {
            // A session served from a snapshot names the snapshot: it starts there (as `replay`).
            let scenePath = recording.scene(besides: URL(fileURLWithPath: self.scene))
            let scene = try SceneCatalog.scene(
                recordedIn: recording, at: URL(fileURLWithPath: self.scene), warn: Output.warning)
            let test = SyncTest(depth: depth, frames: frames ?? recording.hashes.count)
            try report(inputs: " with the recording's \(recording.inputs.count) inputs", scenePath: scenePath) {
                () throws(SyncTest.Failure) in try test.run(scene, replaying: recording)
            }
        } else {
            let scene = try SceneCatalog.scene(opening: self.scene, warn: Output.warning)
            let test = SyncTest(depth: depth, frames: frames ?? 600)
            try report(inputs: "") { () throws(SyncTest.Failure) in try test.run(scene) }
        }
    }

    /// The recording `argument` names, if it is a file whose JSON says it is one; nil for
    /// anything else (a scene or a snapshot).
    static func recording(at argument: String) throws -> InputRecording? {
        guard let data = FileManager.default.contents(atPath: argument) else { return nil }
        // A recording says so in "format"; one whose format is not a string (or names another
        // version) is still a recording, and its loading names what is wrong, rather than a
        // scene file's errors about a recording's keys.
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["format"] != nil || object["hashes"] != nil
        else { return nil }
        do {
            return try InputRecording.load(contentsOf: URL(fileURLWithPath: argument))
        } catch {
            throw RunError("synctest: \(error)")  // the error names the file
        }
    }

    private func report(
        inputs: String, scenePath: String? = nil, _ body: () throws(SyncTest.Failure) -> SyncTest.Report
    ) throws {
        do {
            let report = try body()
            print(
                "synctest \(scene): \(counted(report.frames, "frame")) at depth \(depth)\(inputs), "
                    + "\(counted(report.rollbacks, "rollback")), \(counted(report.resimulatedFrames, "frame")) "
                    + "simulated again: every hash matches")
        } catch {
            switch error.kind {
            case .diverged, .recordingDiffers: throw DifferencesFound("synctest \(scene): \(error)")
            case .otherScene where scenePath != nil:
                throw RunError("synctest \(scene): the scene \(scenePath!): \(error)")
            default: throw RunError("synctest \(scene): \(error)")
            }
        }
    }
}
