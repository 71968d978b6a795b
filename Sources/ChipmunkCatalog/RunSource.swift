import Chipmunk
import ChipmunkScenes
import Foundation

/// What `chipmunk-sim diff` compares: a golden file, an input recording, or a scene to run
/// (a built-in name or a scene file), told apart by what the file holds.
public enum RunSource {
    /// A golden file (`chipmunk-sim verify --update`): hashes at every step, states at checkpoints.
    case golden(GoldenFile, argument: String)
    /// An input recording (`chipmunk-sim record`): replayed on its scene.
    case recording(InputRecording, argument: String)
    /// A scene, run here.
    case scene(argument: String)

    /// The most steps the default span, 10 s, may be when two scenes are compared: a scene
    /// stepped at 1e-6 s would be 10,000,000.
    public static let mostDefaultSteps = 1_000_000

    /// Reads what `argument` names: a file whose first line is `chipmunk-golden …` is a
    /// golden file, a JSON object whose `format` is `chipmunk-inputs …` a recording; any
    /// other argument is a scene (``SceneCatalog/scene(named:warn:)``).
    ///
    /// - Throws: `RunComparisonError` (ChipmunkScenes), or the reader's error naming the file.
    public static func open(_ argument: String) throws -> RunSource {
        guard FileManager.default.fileExists(atPath: argument) else {
            if argument.hasSuffix(".golden") { throw RunComparisonError("\(argument): no such golden file") }
            _ = try SceneCatalog.scene(named: argument)  // its error names the argument
            return .scene(argument: argument)
        }
        let data: Data
        do {
            data = try InputFile.read(argument, kind: "golden file, recording or scene file")
        } catch {
            throw RunComparisonError("\(argument): \(error)")
        }
        let kind = SceneCatalog.OtherFileKind(data: data)
        if kind == .snapshot {
            throw RunComparisonError(
                "\(argument) is a snapshot, a state rather than a run: diff compares golden files, input "
                    + "recordings and scenes (continue the snapshot with chipmunk-sim run \(argument))")
        }
        if argument.lowercased().hasSuffix(".snapshot") {
            // Read as a scene, it was "not valid JSON: ...".
            throw RunComparisonError(
                "\(argument): not a snapshot (it does not start with CHIPSNAP), and diff compares golden files, "
                    + "input recordings and scenes, not snapshots")
        }
        if kind == .golden || argument.hasSuffix(".golden") {
            let golden = try GoldenFile(parsing: String(decoding: data, as: UTF8.self), source: argument)
            return .golden(golden, argument: argument)
        }
        if kind == .recording {
            do {
                return .recording(
                    try InputRecording.load(contentsOf: URL(fileURLWithPath: argument)), argument: argument)
            } catch {
                throw RunComparisonError(naming: argument, error)
            }
        }
        _ = try SceneCatalog.scene(named: argument)
        return .scene(argument: argument)
    }

    /// How many steps this source fixes (a golden file's or a recording's), if any.
    public var fixedSteps: Int? {
        switch self {
        case .golden(let golden, _): golden.steps
        case .recording(let recording, _): recording.hashes.count
        case .scene: nil
        }
    }

    /// The time step this source fixes, if any.
    public var fixedTimeStep: Double? {
        switch self {
        case .golden(let golden, _): golden.timeStep
        case .recording(let recording, _): recording.timeStep
        case .scene: nil
        }
    }

    /// The argument it came from.
    public var argument: String {
        switch self {
        case .golden(_, let argument), .recording(_, let argument), .scene(let argument): argument
        }
    }

    /// A fresh scene of this source, for its shapes: the scene itself, a recording's scene,
    /// or a golden file's scene when it is a built-in name or a file; nil otherwise.
    public func makeScene() -> Scene? {
        switch self {
        case .golden(let golden, _): try? SceneCatalog.scene(named: golden.scene)
        case .recording(let recording, let argument):
            try? SceneCatalog.scene(named: recording.scene(besides: URL(fileURLWithPath: argument)))
        case .scene(let argument): try? SceneCatalog.scene(named: argument)
        }
    }

    /// This side's trace. A scene runs `steps` steps at `timeStep` (default: its own),
    /// with `inputs` (another side's recorded inputs) applied; a recording is replayed; a
    /// golden file is read as it is.
    ///
    /// - Throws: `RunComparisonError` (ChipmunkScenes) for a scene that fails to build or to step.
    /// `statesAt` keeps a scene's states only at those steps (another side's checkpoints).
    public func trace(
        steps: Int, timeStep: Double?, inputs: [InputRecording.Entry] = [], statesAt: Set<Int>? = nil
    ) throws -> RunTrace {
        switch self {
        case .golden(let golden, let argument):
            return RunTrace(golden: golden, source: argument)
        case .recording(let recording, let argument):
            let scene = try SceneCatalog.scene(named: recording.scene(besides: URL(fileURLWithPath: argument)))
            do {
                return try RunTrace(replaying: recording, on: scene, steps: steps, source: argument)
            } catch let error as RunComparisonError {
                throw error
            } catch {
                throw RunComparisonError(naming: argument, error)
            }
        case .scene(let argument):
            let scene = try SceneCatalog.scene(named: argument)
            do {
                return try RunTrace(
                    running: scene, steps: steps, timeStep: timeStep, inputs: inputs, statesAt: statesAt,
                    source: argument)
            } catch let error as RunComparisonError {
                throw error
            } catch {
                throw RunComparisonError(naming: argument, error)
            }
        }
    }
}

extension RunComparison {
    /// Compares two sources: golden files and recordings as they are; a scene runs the
    /// other side's steps at its time step, with its inputs when the other side is a
    /// recording, or `steps` steps (default: 10 s) at its own time step when both are scenes.
    /// `steps` also limits what is compared.
    ///
    /// - Throws: `RunComparisonError` (ChipmunkScenes) or a scene's error, naming the argument.
    public init(_ a: RunSource, _ b: RunSource, steps: Int? = nil) throws {
        func plan(_ side: RunSource, other: RunSource) throws -> RunTrace {
            let timeStep = other.fixedTimeStep
            var inputs: [InputRecording.Entry] = []
            var statesAt: Set<Int>?
            if case .recording(let recording, _) = other { inputs = recording.inputs }
            if case .golden(let golden, _) = other { statesAt = Set(golden.checkpoints.map(\.step)) }
            var count = [steps, other.fixedSteps].compactMap { $0 }.min() ?? side.fixedSteps
            if count == nil {
                let scene = try SceneCatalog.scene(named: side.argument)
                let dt = timeStep ?? scene.timeStep
                let tenSeconds = Int(saturating: (10 / dt).rounded())  // Int(_:) trapped at a time step of 1e-300
                guard tenSeconds <= RunSource.mostDefaultSteps else {
                    throw RunComparisonError(
                        "\(side.argument): 10 s at a time step of \(dt) s is more than \(RunSource.mostDefaultSteps) "
                            + "steps; give the steps to compare")
                }
                count = max(1, tenSeconds)
            }
            var trace = try side.trace(steps: count!, timeStep: timeStep, inputs: inputs, statesAt: statesAt)
            // A file that holds more steps than are compared says so: "identical" over the
            // other side's 5 steps said nothing of a recording's 60.
            if let held = side.fixedSteps, held > count! {
                trace.notes.append("\(side.argument) holds \(held) steps; the first \(count!) are compared")
                // The trace is what is compared: the comparison's own note of sides with
                // different lengths said the same again.
                trace.hashes.removeSubrange(count!...)
                trace.checkpoints.removeAll { $0.step > count! }
            }
            return trace
        }
        self.init(try plan(a, other: b), try plan(b, other: a), steps: steps)
    }
}

extension RunComparisonError {
    /// `error` about the file `argument`, named once: an error that already begins with
    /// the file's name (a recording's own errors do) is not prefixed again.
    init(naming argument: String, _ error: any Error) {
        let text = "\(error)"
        let name = URL(fileURLWithPath: argument).lastPathComponent
        self.init(text.hasPrefix("\(argument): ") || text.hasPrefix("\(name): ") ? text : "\(argument): \(text)")
    }
}
