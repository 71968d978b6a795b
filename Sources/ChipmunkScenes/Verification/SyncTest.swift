import Chipmunk

/// The determinism check rollback users run in CI (GGPO's and GGRS's "synctest"): every
/// frame, the scene steps and its state hash is kept; then it rolls back `depth` frames,
/// steps them again with the same inputs (its gravity schedule and timed inputs come back
/// with its clock), and every hash of the second pass must equal the first's.
///
/// ```swift
/// let report = try SyncTest(depth: 8, frames: 600).run(SceneCatalog.scene(named: "crates"))
/// ```
///
/// A scene whose steps depend on anything outside its state (a counter in a closure, the
/// time of day, a random number not kept in the space) fails at the first frame that reads it.
///
/// A recorded session (`chipmunk-sim record`, ``SceneRecorder``, a live session's download)
/// is checked the same way with its inputs, each applied before its step in both passes,
/// and its first pass must give the recorded hashes too:
///
/// ```swift
/// let recording = try InputRecording.load(contentsOf: url)
/// try SyncTest(depth: 8, frames: recording.hashes.count).run(scene, replaying: recording)
/// ```
public struct SyncTest: Sendable {
    /// Frames rolled back and simulated again, every frame.
    public var depth: Int
    /// Frames to run.
    public var frames: Int
    /// Steps per frame, each of the scene's time step (1: a frame is a step).
    public var stepsPerFrame: Int

    /// A synctest of `frames` frames, rolling back `depth` frames every frame.
    ///
    /// `depth` and `frames` must be at least 1 and `stepsPerFrame` from 1 to 1,000; anything
    /// else is a programming error.
    public init(depth: Int = 8, frames: Int = 600, stepsPerFrame: Int = 1) {
        ensure(depth >= 1, "SyncTest.depth must be at least 1 (got \(depth))")
        ensure(frames >= 1, "SyncTest.frames must be at least 1 (got \(frames))")
        ensure(
            (1...1000).contains(stepsPerFrame), "SyncTest.stepsPerFrame must be from 1 to 1000 (got \(stepsPerFrame))")
        self.depth = depth
        self.frames = frames
        self.stepsPerFrame = stepsPerFrame
    }

    /// What a passing synctest did.
    public struct Report: Sendable, Equatable {
        /// Frames run.
        public var frames: Int
        /// Frames simulated again, in all.
        public var resimulatedFrames: Int
        /// Rollbacks made.
        public var rollbacks: Int
    }

    /// The first frame whose second simulation differs from its first.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong. Steps count from the run's start, as a recording's do (a scene
        /// opened from a snapshot took its steps before).
        public enum Kind: Sendable, Equatable {
            /// The state hash after `step` differs: `expected` is the first pass's.
            case diverged(frame: Int, step: Int, expected: UInt64, actual: UInt64)
            /// A step threw; `error` is its message (which names the step).
            case stepFailed(frame: Int, error: String)
            /// The rollback could not restore the saved state.
            case restoreFailed(frame: Int, error: String)
            /// A recording's input before `step` could not be applied; `error` says why.
            case inputFailed(frame: Int, step: Int, error: String)
            /// The first pass's state hash after `step` is not the recording's (`expected`):
            /// the scene does not replay the recording.
            case recordingDiffers(frame: Int, step: Int, expected: String, actual: UInt64)
            /// The scene is not the one recorded: its content hash is `actual`, the recording's `expected`.
            case otherScene(expected: String, actual: String)
        }

        /// What went wrong.
        public var kind: Kind

        /// One line naming the frame and step, in `chipmunk-sim diff`'s terms.
        public var description: String {
            switch kind {
            case .diverged(let frame, let step, let expected, let actual):
                "frame \(frame) simulated again differs: the first divergent step is \(step) (state hash "
                    + "\(actual.hexDigits), first pass \(expected.hexDigits)): the scene's steps depend on "
                    + "something its state does not hold"
            case .stepFailed(let frame, let error): "frame \(frame): \(error)"
            case .restoreFailed(let frame, let error): "frame \(frame): the rollback could not restore: \(error)"
            case .inputFailed(let frame, let step, let error):
                "frame \(frame): the recording's input before step \(step) failed: \(error)"
            case .recordingDiffers(let frame, let step, let expected, let actual):
                "frame \(frame) does not replay the recording: the state hash after step \(step) is "
                    + "\(actual.hexDigits), recorded \(expected)"
            case .otherScene(let expected, let actual):
                "the scene's content hash is \(actual), the recording's \(expected): not the scene recorded"
            }
        }
    }

    /// Runs the synctest on a fresh `scene`.
    ///
    /// - Throws: ``Failure`` for the first frame that differs, or a step that throws.
    @discardableResult
    public func run(_ scene: Scene) throws(Failure) -> Report {
        try run(scene, timeStep: scene.timeStep, inputs: [:], recorded: [])
    }

    /// Runs the synctest on a fresh `scene` with `recording`'s inputs, each applied before
    /// its step in the first pass and again in every pass simulated again, stepped by the
    /// recording's time step. The first pass must give the recorded hashes, as
    /// ``InputRecording/replay(on:)`` checks; frames past the recording's steps run with no
    /// recorded hash, and with no input but those given after its last step.
    ///
    /// - Throws: ``Failure``: ``Failure/Kind-swift.enum/otherScene(expected:actual:)`` first
    ///   for a scene other than the one recorded, then `inputFailed` for inputs out of order
    ///   or outside the recorded steps (``InputRecording/inputStepProblem``), then as
    ///   ``run(_:)`` does, and for an input that cannot be applied or a first pass that
    ///   does not replay the recording.
    @discardableResult
    public func run(_ scene: Scene, replaying recording: InputRecording) throws(Failure) -> Report {
        let content = scene.contentHash().hexDigits
        guard content == recording.content else {
            throw Failure(kind: .otherScene(expected: recording.content, actual: content))
        }
        if let (index, problem) = recording.misplacedInput {
            let step = recording.inputs[index].step
            let frame = step <= 0 ? 0 : (step - 1) / stepsPerFrame + 1
            throw Failure(kind: .inputFailed(frame: frame, step: step, error: problem))
        }
        var inputs: [Int: [SceneInput]] = [:]
        for entry in recording.inputs { inputs[entry.step, default: []].append(entry.input) }
        return try run(scene, timeStep: recording.timeStep, inputs: inputs, recorded: recording.hashes)
    }

    /// The synctest: `inputs` by the step they come before; `recorded`, the hashes the first
    /// pass must give (hex, step 1 first), as far as they go. Steps count from the run's
    /// start, as a recording's do: a scene opened from a snapshot has taken steps already
    /// (its recording, from a served snapshot, was checked against hashes 120 steps on).
    private func run(
        _ scene: Scene, timeStep dt: Double, inputs: [Int: [SceneInput]], recorded: [String]
    ) throws(Failure) -> Report {
        // Unparsable hex matches nothing.
        let recordedHashes = recorded.map { UInt64($0, radix: 16) }
        // A ring of depth + 1 states: ring[f % count] is the state before frame f (1-based).
        let count = depth + 1
        var ring = Array(repeating: SceneState(), count: count)
        // The first pass's hash after each step of the last depth + 1 frames, by step.
        var hashes = Array(repeating: UInt64(0), count: count * stepsPerFrame)
        var report = Report(frames: 0, resimulatedFrames: 0, rollbacks: 0)
        let stepsBefore = scene.stepCount
        func stepFrame(_ frame: Int, check: Bool) throws(Failure) {
            for _ in 0..<stepsPerFrame {
                let step = scene.stepCount - stepsBefore + 1
                for input in inputs[step] ?? [] {
                    do {
                        try scene.apply(input)
                    } catch {
                        throw Failure(kind: .inputFailed(frame: frame, step: step, error: "\(error)"))
                    }
                }
                do { try scene.step(dt) } catch { throw Failure(kind: .stepFailed(frame: frame, error: "\(error)")) }
                let hash = scene.space.stateHash()
                let slot = step % hashes.count
                if check, hashes[slot] != hash {
                    throw Failure(kind: .diverged(frame: frame, step: step, expected: hashes[slot], actual: hash))
                }
                if !check {
                    hashes[slot] = hash
                    if step <= recordedHashes.count, recordedHashes[step - 1] != hash {
                        throw Failure(
                            kind: .recordingDiffers(
                                frame: frame, step: step, expected: recorded[step - 1], actual: hash))
                    }
                }
            }
        }
        for frame in 1...frames {
            scene.save(into: &ring[frame % count])
            try stepFrame(frame, check: false)
            report.frames = frame
            // Roll back `depth` frames (or as many as there are) and simulate them again.
            let from = max(1, frame - depth + 1)
            do {
                try scene.restore(ring[from % count])
            } catch {
                throw Failure(kind: .restoreFailed(frame: frame, error: "\(error)"))
            }
            report.rollbacks += 1
            for again in from...frame {
                try stepFrame(again, check: true)
                report.resimulatedFrames += 1
            }
        }
        return report
    }
}
