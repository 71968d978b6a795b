import Chipmunk
import Foundation

/// A scene's run with its inputs: the inputs with the step each came before, and the state
/// hash after every step. ``SceneRecorder`` makes one; ``replay(on:)`` and
/// `chipmunk-sim replay` check that the same scene given the same inputs gives the same
/// bits at every step. Stored as JSON (docs/determinism.md).
public struct InputRecording: Hashable, Sendable, Codable {
    /// One input, applied after `step - 1` steps, before step `step`:
    /// `{"step": 120, "input": {"impulse": {"body": "2", "impulse": [0, 5000]}}}`.
    public struct Entry: Hashable, Sendable, Codable {
        /// The step the input comes before (1: before the first step).
        public var step: Int
        /// The input.
        public var input: SceneInput

        /// An input applied before step `step`.
        public init(step: Int, input: SceneInput) {
            self.step = step
            self.input = input
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case step, input }

        /// Decodes an entry, rejecting unknown keys (`"stpe"` was read as no step).
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            step = try c.decode(Int.self, forKey: .step)
            input = try c.decode(SceneInput.self, forKey: .input)
        }
    }

    /// The format this build writes and reads: version 2 names bodies and spells inputs
    /// as a scene file's `inputs` do.
    public static let currentFormat = "chipmunk-inputs 2"

    /// The format's name and version, checked on reading.
    public var format = InputRecording.currentFormat
    /// The scene: a built-in name or a file's path, as `chipmunk-sim` takes it.
    public var scene: String
    /// ``Scene/contentHash()`` before the first step.
    public var content: String
    /// The time step of every step, in seconds.
    public var timeStep: Double
    /// The inputs, in the order applied.
    public var inputs: [Entry] = []
    /// The state hash after every step, 16 hex digits each.
    public var hashes: [String] = []

    /// A recording of `scene` (a built-in name or a file's path) whose content hash is
    /// `content` (``Scene/contentHash()`` in hex), stepped by `timeStep`.
    public init(scene: String, content: String, timeStep: Double, inputs: [Entry] = [], hashes: [String] = []) {
        self.scene = scene
        self.content = content
        self.timeStep = timeStep
        self.inputs = inputs
        self.hashes = hashes
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case format, scene, content, timeStep, inputs, hashes }

    /// Decodes a recording, rejecting unknown keys: a misspelt `"input"` or a key of another
    /// format was ignored, and the recording replayed without it.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(String.self, forKey: .format)
        scene = try c.decode(String.self, forKey: .scene)
        content = try c.decode(String.self, forKey: .content)
        timeStep = try c.decode(Double.self, forKey: .timeStep)
        inputs = try c.decode([Entry].self, forKey: .inputs)
        hashes = try c.decode([String].self, forKey: .hashes)
    }

    /// Reads a recording written by ``write(to:)``.
    public static func load(contentsOf url: URL) throws -> InputRecording {
        let data: Data
        do {
            data = try InputFile.read(url.path, kind: "recording")
        } catch {
            throw ReplayFailure(kind: .unreadable("\(url.path): \(error)"))
        }
        let name = url.lastPathComponent
        // Version 1 numbered bodies and spelt gravity {"_0": [x, y]}: say so, rather than
        // a decoding error about its first input.
        struct Header: Decodable { var format: String? }
        if let header = try? JSONDecoder().decode(Header.self, from: data), let format = header.format,
            format != currentFormat
        {
            throw ReplayFailure(
                kind: .unreadable(
                    format == "chipmunk-inputs 1"
                        ? "\(name): format 'chipmunk-inputs 1' (bodies by index, inputs such as {\"gravity\": {\"_0\": …}}) is no longer read; record it again with chipmunk-sim record, whose inputs are a scene file's (docs/determinism.md)"
                        : "\(name): format '\(format.excerpt())' is not '\(currentFormat)'"))
        }
        if let problem = SceneDescription.leniencyProblem(in: data) {
            throw ReplayFailure(kind: .unreadable("\(name): not an input recording: \(problem)"))
        }
        let recording: InputRecording
        do {
            recording = try JSONDecoder().decode(InputRecording.self, from: data)
        } catch let error as DecodingError {
            // The same words as a scene file's errors: a path into the file, or where the JSON breaks.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                if let problem = WholeNumbers.firstProblem(in: data, keys: ["step"]) {
                    throw ReplayFailure(kind: .unreadable("\(name): not an input recording: \(problem)"))
                }
                throw ReplayFailure(
                    kind: .unreadable(
                        "\(name): not an input recording: " + SceneDescription.jsonProblem(in: data)))
            }
            let problem = SceneError(decoding: error, source: "\(name): not an input recording")
            throw ReplayFailure(kind: .unreadable(problem.description))
        } catch {
            throw ReplayFailure(kind: .unreadable("\(name): not an input recording"))
        }
        // Foundation keeps one of two values for a key given twice, without a word.
        if let repeated = DuplicateKeys.first(in: Array(data)) {
            throw ReplayFailure(
                kind: .unreadable("\(name): \(repeated): appears twice in one object; give each key once"))
        }
        guard recording.format == currentFormat else {
            throw ReplayFailure(
                kind: .unreadable("\(name): format '\(recording.format.excerpt())' is not '\(currentFormat)'"))
        }
        // "" opened the folder the recording was read from ("…: is a directory").
        guard !recording.scene.isEmpty else {
            throw ReplayFailure(
                kind: .unreadable("\(name): scene: is empty; name a built-in scene or a scene file's path"))
        }
        // No path is longer, or holds a line break: a megabyte's name was echoed whole.
        guard recording.scene.utf8.count <= InputFile.longestPath,
            !recording.scene.contains(where: { $0.isNewline || $0 == "\0" })
        else {
            throw ReplayFailure(
                kind: .unreadable(
                    "\(name): scene: '\(recording.scene.excerpt())' is no built-in scene's name or path (at most \(InputFile.longestPath) "
                        + "bytes, on one line)"))
        }
        // Replay steps the scene by it: 0, a negative or an infinite step stopped the process.
        guard Parameter.spaceTimeStep.accepts(recording.timeStep) else {
            throw ReplayFailure(
                kind: .unreadable(
                    "\(name): timeStep \(ChipmunkError.invalidValue(.spaceTimeStep, recording.timeStep).reason)"))
        }
        // The scene's content hash, as `contentHash().hexDigits` writes it: anything else
        // could never match, and replay reported the scene as changed.
        guard Self.isHash(recording.content) else {
            throw ReplayFailure(
                kind: .unreadable(
                    "\(name): content: expected 16 lowercase hex digits, found '\(recording.content.prefix(40))'"))
        }
        // A recording of no steps checks nothing, and diff had no step to run the other side
        // for (a trap before).
        guard !recording.hashes.isEmpty else {
            throw ReplayFailure(
                kind: .unreadable("\(name): hashes: is empty; a recording holds the hash after each step, at least one")
            )
        }
        // A hash is what `stateHash().hexDigits` writes: replay compared the text, synctest and
        // diff the number, so an uppercased or padded hash failed one and passed the others.
        if let index = recording.hashes.firstIndex(where: { !Self.isHash($0) }) {
            throw ReplayFailure(
                kind: .unreadable(
                    "\(name): hashes[\(index)]: expected 16 lowercase hex digits, found '\(recording.hashes[index].prefix(40))'"
                ))
        }
        if let problem = recording.inputStepProblem {
            throw ReplayFailure(kind: .unreadable("\(name): \(problem)"))
        }
        return recording
    }

    /// Whether `text` is a hash as recordings (and sweep databases) write it: 16 lowercase
    /// hex digits.
    package static func isHash(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Reads a list of inputs, `[{"step": N, "input": …}]` (what `chipmunk-sim record
    /// --inputs` takes), naming what is wrong by its path: a key given twice, a step that
    /// is not a whole number, an input that is not a scene file's.
    ///
    /// - Throws: ``ReplayFailure`` (`unreadable`).
    public static func entries(from data: Data, source name: String) throws(ReplayFailure) -> [Entry] {
        if let problem = SceneDescription.leniencyProblem(in: data) {
            throw ReplayFailure(kind: .unreadable("\(name): \(problem)"))
        }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw ReplayFailure(
                    kind: .unreadable(
                        "\(name): "
                            + (WholeNumbers.firstProblem(in: data, keys: ["step"])
                                ?? SceneDescription.jsonProblem(in: data))))
            }
            throw ReplayFailure(
                kind: .unreadable(
                    "not a list of {\"step\": N, \"input\": …}: \(SceneError(decoding: error, source: name).description)"
                ))
        } catch {
            throw ReplayFailure(kind: .unreadable("\(name): not a list of {\"step\": N, \"input\": …}: \(error)"))
        }
        if let repeated = DuplicateKeys.first(in: Array(data)) {
            throw ReplayFailure(
                kind: .unreadable("\(name): \(repeated): appears twice in one object; give each key once"))
        }
        return entries
    }

    /// What is wrong with the inputs' steps, if anything: each must come before one of the
    /// steps the recording holds (1 to `hashes.count`), or after its last step
    /// (`hashes.count + 1`: given, but no step followed before the recording was saved,
    /// so they check nothing), listed in the order applied. `replay` applied
    /// inputs only while the next one's step was the current one, so an input out of order
    /// or outside those steps was skipped without a word (a helper's attack: a replay that
    /// never applied an input said every step matched).
    public var inputStepProblem: String? { misplacedInput?.problem }

    /// The first input ``inputStepProblem`` is about: its index, and what is wrong.
    package var misplacedInput: (index: Int, problem: String)? {
        var previous = 1
        for (index, entry) in inputs.enumerated() {
            guard entry.step >= 1, entry.step <= hashes.count + 1 else {
                return (
                    index,
                    "inputs[\(index)].step: \(entry.step) is outside 1 to \(hashes.count + 1) "
                        + "(the recording's \(hashes.count) steps, and after the last)"
                )
            }
            guard entry.step >= previous else {
                return (
                    index,
                    "inputs[\(index)].step: \(entry.step) comes after step \(previous) of inputs[\(index - 1)]; "
                        + "inputs are listed in the order applied"
                )
            }
            previous = entry.step
        }
        return nil
    }

    /// Writes the recording as JSON.
    public func write(to url: URL) throws {
        try encoded().write(to: url, options: .atomic)
    }

    /// The recording as JSON with sorted keys: what ``write(to:)`` writes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Runs `scene` (fresh) with the recorded inputs, checking the state hash after every
    /// step; stops at the first step that differs and names it.
    ///
    /// - Throws: ``ReplayFailure``; `unreadable` first for inputs out of order or outside
    ///   the recorded steps (``inputStepProblem``).
    @discardableResult
    public func replay(on scene: Scene) throws(ReplayFailure) -> Int {
        let content = scene.contentHash().hexDigits
        guard content == self.content else {
            throw ReplayFailure(kind: .otherScene(expected: self.content, actual: content))
        }
        if let problem = inputStepProblem { throw ReplayFailure(kind: .unreadable(problem)) }
        var next = 0
        for step in 1...max(hashes.count, 1) where !hashes.isEmpty {
            while next < inputs.count, inputs[next].step == step {
                do {
                    try scene.apply(inputs[next].input)
                } catch {
                    throw ReplayFailure(kind: .inputFailed(step: step, error: "\(error)"))
                }
                next += 1
            }
            do {
                try scene.step(timeStep)
            } catch {
                throw ReplayFailure(kind: .stepFailed(step: step, error: "\(error)"))  // names its step
            }
            let hash = scene.space.stateHash().hexDigits
            guard hash == hashes[step - 1] else {
                throw ReplayFailure(kind: .diverged(step: step, expected: hashes[step - 1], actual: hash))
            }
        }
        return hashes.count
    }
}

/// A replay that does not give the recorded bits.
public struct ReplayFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The state hash after `step` differs from the recording's.
        case diverged(step: Int, expected: String, actual: String)
        /// The scene is not the one recorded (its content hash differs).
        case otherScene(expected: String, actual: String)
        /// The input before `step` could not be applied; `error` says why.
        case inputFailed(step: Int, error: String)
        /// Step `step` threw; `error` is its message, which names the step.
        case stepFailed(step: Int, error: String)
        /// The recording cannot be read; the reason says why.
        case unreadable(String)
    }

    /// What went wrong.
    public var kind: Kind

    /// The first step that diverged, if the replay diverged.
    public var divergedStep: Int? {
        if case .diverged(let step, _, _) = kind { return step }
        return nil
    }

    /// One line saying what went wrong and where.
    public var description: String {
        switch kind {
        case .diverged(let step, let expected, let actual):
            return "the replay diverges at step \(step): hash \(actual), recorded \(expected)"
        case .otherScene(let expected, let actual):
            return "the scene's content hash is \(actual), the recording's \(expected): not the scene recorded"
        case .inputFailed(let step, let error):
            return "the input before step \(step) failed: \(error)"
        case .stepFailed(_, let error):
            return error  // a step's error names the step
        case .unreadable(let reason):
            return reason
        }
    }
}

/// Runs a scene and records the inputs given to it, with the state hash after every step.
///
/// ```swift
/// let recorder = SceneRecorder(SceneCatalog.scene(named: "crates"), source: "crates")
/// for step in 1...600 {
///     if step == 120 { try recorder.apply(.impulse(body: "2", impulse: [0, 50_000], at: [150, 100])) }
///     try recorder.step()
/// }
/// try recorder.recording.write(to: url)   // chipmunk-sim replay url
/// ```
public final class SceneRecorder {
    /// The scene being run.
    public let scene: Scene
    /// What has been recorded so far.
    public private(set) var recording: InputRecording

    /// Starts recording a fresh `scene`; `source` is how `chipmunk-sim` finds it again
    /// (a built-in name or a file's path). `timeStep` defaults to the scene's own.
    public init(_ scene: Scene, source: String, timeStep: Double? = nil) {
        self.scene = scene
        recording = InputRecording(
            scene: source, content: scene.contentHash().hexDigits, timeStep: timeStep ?? scene.timeStep)
    }

    /// Applies `input` now, before the next step, and logs it.
    ///
    /// - Throws: a ``SceneError`` for a body description that does not build, or a name
    ///   that names no body now; nothing is logged then.
    public func apply(_ input: SceneInput) throws {
        try scene.apply(input)
        recording.inputs.append(.init(step: recording.hashes.count + 1, input: input))
    }

    /// Takes one step and logs its state hash.
    public func step() throws {
        try scene.step(recording.timeStep)
        recording.hashes.append(scene.space.stateHash().hexDigits)
    }
}
