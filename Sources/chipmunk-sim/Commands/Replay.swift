import ArgumentParser
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run a recording and check the state hash after every step.",
        discussion: """
            Builds the recording's scene, checks that it is the scene recorded (its content hash), \
            and steps it with the recorded inputs at their steps. It stops at the first step whose \
            state hash differs from the recording's, names it, and exits 1; otherwise it exits 0 \
            (65 when it cannot replay: an unreadable recording, another scene, a step that fails).

            Example: chipmunk-sim replay crates.inputs.json
            """
    )

    @Argument(help: "A recording written by `chipmunk-sim record` or SceneRecorder.")
    var recording: String

    @Option(help: "The scene to replay on, instead of the one the recording names.")
    var scene: String?

    func run() throws {
        let url = URL(fileURLWithPath: self.recording)
        let recording: InputRecording
        do {
            recording = try InputRecording.load(contentsOf: url)
        } catch {
            if let kind = SceneCatalog.OtherFileKind(atPath: self.recording), kind != .recording {
                throw RunError("\(self.recording): is \(kind), not an input recording")
            }
            let name = self.recording
            if !FileManager.default.fileExists(atPath: name), SceneCatalog.builtIn.contains(where: { $0.name == name })
            {
                throw RunError(
                    "\(name) is a built-in scene, not a recording: record one with "
                        + "chipmunk-sim record \(name) --steps 600 -o \(name).inputs.json")
            }
            throw error
        }
        // A session served from a snapshot (`serve FILE.snapshot`) names the snapshot: it starts there.
        let scene =
            try self.scene.map { try SceneCatalog.scene(opening: $0, warn: Output.warning) }
            ?? SceneCatalog.scene(recordedIn: recording, at: url, warn: Output.warning)
        do {
            let steps = try recording.replay(on: scene)
            print("\(self.recording): \(steps) steps and \(recording.inputs.count) inputs replay bit for bit")
        } catch {
            if error.divergedStep != nil { throw DifferencesFound("\(self.recording): \(error)") }
            if case .otherScene = error.kind {
                let scenePath = self.scene ?? recording.scene(besides: url)
                throw RunError("\(self.recording): the scene \(scenePath): \(error)")
            }
            throw RunError("\(self.recording): \(error)")
        }
    }
}
