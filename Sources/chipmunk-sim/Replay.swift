import ArgumentParser
import ChipmunkScenes
import Foundation

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scene with inputs given at chosen steps, and record the state hash after every step.",
        discussion: """
            The inputs file is a JSON array of {"step": N, "input": INPUT}: each input is applied after \
            N - 1 steps, before step N. An INPUT is one of {"gravity": {"_0": [x, y]}}, \
            {"impulse": {"body": i, "impulse": [x, y], "at": [x, y]}}, \
            {"force": {"body": i, "force": [x, y], "at": [x, y]}}, \
            {"velocity": {"body": i, "velocity": [x, y]}}, \
            {"angularVelocity": {"body": i, "angularVelocity": w}}, {"addBody": {"_0": BODY}} \
            (a body as in a scene file, with its shapes) or {"removeBody": {"body": i}}. Bodies are \
            numbered in the space's order at that moment, counting from 0. The recording \
            (docs/determinism.md) is what `chipmunk-sim replay` checks.

            Example: chipmunk-sim record crates --inputs pushes.json --steps 600 --output crates.inputs.json
            """
    )

    @Argument(help: "A built-in scene name, or a scene file.")
    var scene: String

    @Option(help: "The inputs: a JSON array of {\"step\": N, \"input\": …}. Default: none.")
    var inputs: String?

    @OptionGroup var duration: Duration  // default: 5 seconds

    @Option(help: "Where to write the recording.")
    var output: String

    func run() throws {
        let scene = try SceneCatalog.scene(named: self.scene)
        var entries: [InputRecording.Entry] = []
        if let inputs {
            guard let data = FileManager.default.contents(atPath: inputs) else {
                throw RunError("cannot read --inputs \(inputs)")
            }
            do {
                entries = try JSONDecoder().decode([InputRecording.Entry].self, from: data)
            } catch {
                throw RunError("\(inputs): not a list of {\"step\": N, \"input\": …}: \(error)")
            }
        }
        let dt = duration.timeStep(sceneDefault: scene.timeStep)
        let total = try duration.stepCount(dt: dt, defaultSeconds: 5)
        if let late = entries.first(where: { $0.step < 1 || $0.step > total }) {
            throw RunError("\(inputs ?? ""): an input at step \(late.step) is outside steps 1 to \(total)")
        }
        entries.sort { $0.step < $1.step }  // stable: inputs at one step keep their order
        let recorder = SceneRecorder(scene, source: self.scene, timeStep: dt)
        var next = 0
        for step in 1...total {
            while next < entries.count, entries[next].step == step {
                do {
                    try recorder.apply(entries[next].input)
                } catch {
                    throw RunError("the input before step \(step) failed: \(error)")
                }
                next += 1
            }
            do { try recorder.step() } catch { throw RunError("\(error)") }  // the error names the step
        }
        try Output.file(Array(try recorder.recording.encoded()), to: output, option: "-o")
        print("wrote \(output): \(total) steps, \(entries.count) inputs")
    }
}

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run a recording and check the state hash after every step.",
        discussion: """
            Builds the recording's scene, checks that it is the scene recorded (its content hash), \
            and steps it with the recorded inputs at their steps. It stops at the first step whose \
            state hash differs from the recording's, names it, and exits 1; otherwise it exits 0.

            Example: chipmunk-sim replay crates.inputs.json
            """
    )

    @Argument(help: "A recording written by `chipmunk-sim record` or SceneRecorder.")
    var recording: String

    @Option(help: "The scene to replay on, instead of the one the recording names.")
    var scene: String?

    func run() throws {
        let recording = try InputRecording.load(contentsOf: URL(fileURLWithPath: self.recording))
        let scene = try SceneCatalog.scene(named: self.scene ?? recording.scene)
        do {
            let steps = try recording.replay(on: scene)
            print("\(self.recording): \(steps) steps and \(recording.inputs.count) inputs replay bit for bit")
        } catch {
            throw RunError("\(self.recording): \(error)")
        }
    }
}
