import ArgumentParser
import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scene with inputs given at chosen steps, and record the state hash after every step.",
        discussion: """
            The inputs file is a JSON array of {"step": N, "input": INPUT}: each input is applied after \
            N - 1 steps, before step N. An INPUT is what a scene file's "inputs" say (docs/scene-format.md): \
            {"impulse": {"body": NAME, "impulse": [x, y], "at": [x, y]}}, \
            {"force": {"body": NAME, "force": [x, y], "at": [x, y]}} (for the next step), \
            {"velocity": {"body": NAME, "velocity": [x, y]}}, \
            {"angularVelocity": {"body": NAME, "angularVelocity": w}}, {"gravity": [x, y]}, \
            {"add": BODY} (a body as in a scene file, with an "id" and its shapes) or {"remove": NAME}. \
            Vectors are in world coordinates; without "at", an impulse or force acts at the body's \
            centre of gravity. A NAME is the body's name in `run`'s output: a version-2 scene's id, \
            else its index in the space's bodies at that moment ("0", "1", …), or an added body's \
            id. The recording (docs/determinism.md) is what `chipmunk-sim replay` checks.

            Example: chipmunk-sim record crates --inputs pushes.json --steps 600 --output crates.inputs.json
            """
    )

    @Argument(help: "A built-in scene name, or a scene file.")
    var scene: String

    @Option(help: "The inputs: a JSON array of {\"step\": N, \"input\": …}. Default: none.")
    var inputs: String?

    @OptionGroup var runLength: RunLength  // default: 5 seconds

    @Option(name: [.short, .long], help: "Where to write the recording ('-': standard output).")
    var output: String

    func validate() throws {
        try Output.refuseOverwriting(
            output, option: "-o",
            inputs: [("the scene file being read", scene), ("the --inputs file being read", inputs)])
    }

    func run() throws {
        let scene = try SceneCatalog.scene(named: self.scene, warn: Output.warning)
        var entries: [InputRecording.Entry] = []
        if let inputs {
            let data: Data
            do {
                data = try InputFile.read(inputs, kind: "list of inputs")
            } catch {
                throw RunError("--inputs \(inputs): \(error)")
            }
            entries = try InputRecording.entries(from: data, source: inputs)  // the error names the file
        }
        let dt = runLength.timeStep(sceneDefault: scene.timeStep)
        let total = try runLength.stepCount(dt: dt, defaultSeconds: 5)
        // Every step's hash is kept until the file is written, and replay reads at most 64 MiB
        // (a recording of 4,000,000 steps, 76 MB, was written and then refused).
        guard total <= 1_000_000 else {
            throw ValidationError("a recording holds at most 1,000,000 steps, a hash each (asked for \(total))")
        }
        if let late = entries.first(where: { $0.step < 1 || $0.step > total }) {
            throw RunError("\(inputs ?? ""): an input at step \(late.step) is outside steps 1 to \(total)")
        }
        // By step, stable: inputs at one step keep their order; each keeps its index in the
        // file, which an error names.
        let ordered = entries.enumerated().sorted { $0.element.step < $1.element.step }
        let recorder = SceneRecorder(scene, source: self.scene, timeStep: dt)
        var next = 0
        for step in 1...total {
            while next < ordered.count, ordered[next].element.step == step {
                do {
                    try recorder.apply(ordered[next].element.input)
                } catch {
                    throw RunError(
                        "\(inputs ?? "--inputs"): [\(ordered[next].offset)], the input before step \(step), failed: \(error)"
                    )
                }
                next += 1
            }
            try recorder.step()  // the error names the step
        }
        let bytes = Array(try recorder.recording.encoded())
        guard bytes.count <= InputFile.largest else {
            throw RunError(
                "the recording would be \(bytes.count) bytes, more than the \(InputFile.largest) replay reads; "
                    + "record fewer steps or inputs")
        }
        try Output.file(bytes, to: output, option: "-o")
        Output.summary("wrote \(output): \(counted(total, "step")), \(counted(entries.count, "input"))")
    }
}
