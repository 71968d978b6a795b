import Chipmunk
import Foundation

/// One side of a ``RunComparison``: what a run left behind, step by step.
///
/// Every source has the state hash after every step; body states are there at the steps
/// in ``checkpoints``: every step (and step 0, before the first) for a run made here, the
/// checkpoints for a golden file. Bodies are `Space.bodies` in order, as the hash and a
/// golden file count them.
public struct RunTrace: Sendable {
    /// How messages name this side: the argument it came from.
    public var source: String
    /// The scene's name.
    public var scene: String
    /// ``Scene/contentHash()`` before the first step.
    public var contentHash: UInt64
    /// Seconds per step.
    public var timeStep: Double
    /// The state hash after steps 1, 2, …
    public var hashes: [UInt64]
    /// Every body's state at the steps that have one, in step order.
    public var checkpoints: [GoldenFile.Checkpoint]
    /// Body names for messages (a version-2 scene's `id`s), by index; empty: `bodies[i]`.
    public var bodyNames: [String] = []
    /// What the reader should know about this side (a replay that left its recording).
    public var notes: [String] = []

    /// Steps recorded.
    public var steps: Int { hashes.count }

    /// A golden file's hashes and checkpoints.
    public init(golden: GoldenFile, source: String) {
        self.source = source
        scene = golden.scene
        contentHash = golden.contentHash
        timeStep = golden.timeStep
        hashes = golden.hashes
        checkpoints = golden.checkpoints
    }

    /// Runs a fresh `scene` for `steps` steps at `timeStep` (default: its own), applying
    /// `inputs` before their steps, and keeps every body's state before the first step and
    /// after every step, or only at the steps in `statesAt` (to compare with a golden
    /// file's checkpoints without keeping a long run's every state).
    ///
    /// - Throws: what a step or an input throws (it names the step).
    public init(
        running scene: Scene, steps: Int, timeStep: Double? = nil, inputs: [InputRecording.Entry] = [],
        statesAt: Set<Int>? = nil, source: String
    ) throws {
        ensure(steps >= 1, "RunTrace(running:): steps must be at least 1 (got \(steps))")
        self.source = source
        self.scene = scene.name
        contentHash = scene.contentHash()
        self.timeStep = timeStep ?? scene.timeStep
        hashes = []
        hashes.reserveCapacity(steps)
        checkpoints = []
        if statesAt?.contains(0) ?? true { checkpoints.append(.init(step: 0, bodies: Self.states(of: scene.space))) }
        checkpoints.reserveCapacity(statesAt?.count ?? steps + 1)
        let inputs = inputs.sorted { $0.step < $1.step }  // stable: inputs at one step keep their order
        var next = 0
        for step in 1...steps {
            while next < inputs.count, inputs[next].step <= step {
                do {
                    try scene.apply(inputs[next].input)
                } catch {
                    throw RunComparisonError("\(source): the input before step \(step) failed: \(error)")
                }
                next += 1
            }
            try scene.step(self.timeStep)
            hashes.append(scene.space.stateHash())
            if statesAt?.contains(step) ?? true {
                checkpoints.append(.init(step: step, bodies: Self.states(of: scene.space)))
            }
        }
        if scene.bodyNames != nil {
            bodyNames = scene.bodyNamesNow
        }
    }

    /// Replays `recording` on a fresh `scene` (its inputs, time step and steps), keeping
    /// every body's state. Where the replay's state hash leaves the recording's, a note
    /// says so: the states are then this machine's run, not the recorded one.
    ///
    /// `steps` stops the replay early (default: every step recorded).
    public init(replaying recording: InputRecording, on scene: Scene, steps: Int? = nil, source: String) throws {
        try self.init(
            running: scene, steps: max(min(recording.hashes.count, steps ?? .max), 1), timeStep: recording.timeStep,
            inputs: recording.inputs, source: source)
        if let step = zip(hashes, recording.hashes).enumerated().first(where: { $0.element.0.hexDigits != $0.element.1 }
        )?.offset {
            notes.append(
                "\(source): the replay here leaves the recording's own hashes at step \(step + 1); "
                    + "its states are this run's")
        }
        if contentHash.hexDigits != recording.content {
            notes.append(
                "\(source): the scene's content hash is \(contentHash.hexDigits), the recording's \(recording.content)")
        }
    }

    static func states(of space: Space) -> [GoldenFile.BodyState] {
        space.bodies.map { body in
            GoldenFile.BodyState(
                x: body.position.x, y: body.position.y, angle: body.angle, vx: body.velocity.x, vy: body.velocity.y,
                w: body.angularVelocity)
        }
    }
}

/// Two runs of the same scene compared step by step, bit for bit: the first step at which
/// they differ, the bodies and quantities that differ there, and how the largest absolute
/// difference grows, a power of ten at a time.
///
/// The state hashes are compared at every step both sides have; body states at every step
/// both have states for (every step of a run made here, a golden file's checkpoints). The
/// first divergent step is the first step whose hash or states differ; its differences
/// are listed at the first step at or after it that both have states for.
///
/// ```swift
/// let golden = try GoldenFile(parsing: text, source: "crates.golden")
/// let a = RunTrace(golden: golden, source: "crates.golden")
/// let b = try RunTrace(running: SceneCatalog.scene(named: "crates"), steps: golden.steps,
///                      timeStep: golden.timeStep, source: "crates")
/// let comparison = RunComparison(a, b)
/// print(comparison.report)   // "identical over 600 steps" or the first divergent step, …
/// ```
public struct RunComparison: Sendable {
    /// A quantity of one body that differs at a step.
    public struct Difference: Equatable, Sendable {
        /// The body's index in `Space.bodies`.
        public var body: Int
        /// The body's name (a version-2 scene's `id`), if it has one.
        public var name: String?
        /// `x`, `y`, `angle`, `vx`, `vy` or `w`.
        public var quantity: String
        /// Run A's value.
        public var a: Double
        /// Run B's value.
        public var b: Double

        /// `|a - b|`; infinity when either is not a number.
        public var magnitude: Double {
            let d = abs(a - b)
            return d.isNaN ? .infinity : d
        }

        /// `boxA.x` by the body's name, else `bodies[9].x`.
        public var path: String { "\(name ?? "bodies[\(body)]").\(quantity)" }
    }

    /// The largest absolute difference at one step that both sides have states for.
    public struct Sample: Equatable, Sendable {
        /// The step.
        public var step: Int
        /// Over the bodies both sides have at the step (the first bodies of the longer list,
        /// when the counts differ); 0 when every quantity has the same bits (a -0 against a
        /// +0 differs by 0).
        public var largest: Double
        /// Where the largest difference is (nil when nothing differs).
        public var at: Difference?
    }

    /// The first step at which the largest difference reaches `10^power`.
    public struct Growth: Equatable, Sendable {
        /// The power of ten reached.
        public var power: Int
        /// The first step at which the largest difference is at least `10^power`.
        public var step: Int
        /// The largest difference at that step.
        public var largest: Double
        /// Where it is.
        public var at: Difference?
    }

    /// Run A.
    public let a: RunTrace
    /// Run B.
    public let b: RunTrace
    /// Steps compared: those both sides have.
    public let steps: Int
    /// The first step whose hash or states differ; nil when everything compared is identical.
    public let firstDivergentStep: Int?
    /// The step at which ``differences`` were read: the first divergent step, or the first
    /// step after it with both sides' states (nil: none came before the end).
    public let differencesStep: Int?
    /// Every quantity that differs at ``differencesStep``, body by body.
    public let differences: [Difference]
    /// The number of bodies of each side at ``differencesStep``, when they differ.
    public let bodyCounts: (a: Int, b: Int)?
    /// The largest difference at every step both sides have states for.
    public let samples: [Sample]
    /// One entry per power of ten from 1e-15 (or lower, if the first difference is
    /// smaller) to the largest reached.
    public let growth: [Growth]
    /// Differences in what the runs are (scene content, time step) and notes of each side.
    public let notes: [String]

    /// Whether nothing compared differs.
    public var isIdentical: Bool { firstDivergentStep == nil }

    /// The indices of the bodies that differ at ``differencesStep``.
    public var divergentBodies: [Int] { Array(Set(differences.map(\.body))).sorted() }

    /// Compares `a` and `b` over the steps both have, or the first `steps` of them.
    public init(_ a: RunTrace, _ b: RunTrace, steps: Int? = nil) {
        self.a = a
        self.b = b
        let steps = min(a.steps, b.steps, steps ?? .max)
        self.steps = steps
        var notes: [String] = []
        if a.scene != b.scene { notes.append("the scenes' names differ: '\(a.scene)' and '\(b.scene)'") }
        if a.contentHash != b.contentHash {
            notes.append(
                "the scenes' content hashes differ (\(a.contentHash.hexDigits) and \(b.contentHash.hexDigits)): "
                    + "the scenes themselves differ")
        }
        if a.timeStep.bitPattern != b.timeStep.bitPattern {
            notes.append("the time steps differ: \(a.timeStep) and \(b.timeStep)")
        }
        if a.steps != b.steps {
            notes.append("\(a.source) has \(a.steps) steps, \(b.source) \(b.steps); compared \(steps)")
        }
        notes += a.notes + b.notes
        self.notes = notes

        let names = a.bodyNames.isEmpty ? b.bodyNames : a.bodyNames
        var statesB: [Int: [GoldenFile.BodyState]] = [:]
        for checkpoint in b.checkpoints where checkpoint.step <= steps { statesB[checkpoint.step] = checkpoint.bodies }
        var samples: [Sample] = []
        var firstByState: Int?
        var firstStateDifferences: (step: Int, differences: [Difference], counts: (Int, Int)?)?
        let firstByHash = (0..<steps).first { a.hashes[$0] != b.hashes[$0] }.map { $0 + 1 }
        for checkpoint in a.checkpoints where checkpoint.step <= steps {
            guard let other = statesB[checkpoint.step] else { continue }
            let differences = Self.differences(checkpoint.bodies, other, names: names)
            let counts = checkpoint.bodies.count == other.count ? nil : (checkpoint.bodies.count, other.count)
            let largest = differences.max { $0.magnitude < $1.magnitude }
            samples.append(
                Sample(
                    step: checkpoint.step, largest: largest?.magnitude ?? 0, at: largest))
            if !differences.isEmpty || counts != nil {
                if firstByState == nil { firstByState = checkpoint.step }
                if firstStateDifferences == nil {
                    firstStateDifferences = (checkpoint.step, differences, counts)
                }
            }
        }
        let first = [firstByHash, firstByState].compactMap { $0 }.min()
        firstDivergentStep = first
        // The first states that differ are at or after the first divergent step (a hash
        // can differ at a step no side kept states for; where both kept states, a hash
        // that differs means states that differ).
        if let first, let found = firstStateDifferences, found.step >= first {
            differencesStep = found.step
            differences = found.differences
            bodyCounts = found.counts.map { (a: $0.0, b: $0.1) }
        } else {
            differencesStep = nil
            differences = []
            bodyCounts = nil
        }
        self.samples = samples
        var growth: [Growth] = []
        // Powers of ten count finite differences: values far apart (1e308 and -1e308) differ
        // by infinity, which has no power and no log to round.
        if let firstNonzero = samples.first(where: { $0.largest > 0 && $0.largest.isFinite }) {
            var power = min(-15, Int(log10(firstNonzero.largest).rounded(.down)))
            for sample in samples where sample.largest > 0 && sample.largest.isFinite {
                while sample.largest >= Self.powerOfTen(power) {
                    growth.append(Growth(power: power, step: sample.step, largest: sample.largest, at: sample.at))
                    power += 1
                }
            }
        }
        self.growth = growth
    }

    /// `10^power`, from the decimal literal, so that 1e-15 is the double written so.
    static func powerOfTen(_ power: Int) -> Double { Double("1e\(power)")! }

    static func differences(
        _ a: [GoldenFile.BodyState], _ b: [GoldenFile.BodyState], names: [String]
    ) -> [Difference] {
        var result: [Difference] = []
        for (index, (x, y)) in zip(a, b).enumerated() {
            let name = index < names.count ? names[index] : nil
            for (p, q) in zip(x.quantities, y.quantities) where p.value.bitPattern != q.value.bitPattern {
                result.append(Difference(body: index, name: name, quantity: p.name, a: p.value, b: q.value))
            }
        }
        return result
    }

    /// The comparison as text: what is compared, the first divergent step, what differs
    /// there with both values, and the growth of the largest difference.
    public var report: String {
        var lines = ["A: \(a.source) (\(a.scene), \(a.steps) steps)", "B: \(b.source) (\(b.scene), \(b.steps) steps)"]
        lines += notes.map { "note: \($0)" }
        guard let first = firstDivergentStep else {
            let statesCompared = samples.count
            lines.append(
                "identical: \(steps) steps' state hashes and \(statesCompared) steps' body states have the same bits")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append(
            "first divergent step: \(first)\(first == 0 ? " (before the first step: the runs start apart)" : "")")
        if let at = differencesStep {
            let heading =
                at == first ? "at step \(at)" : "at step \(at), the first step after it with both sides' states"
            if let counts = bodyCounts {
                lines.append("\(heading): A has \(counts.a) bodies, B \(counts.b)")
            }
            lines.append(
                "\(heading): \(differences.count) \(differences.count == 1 ? "quantity differs" : "quantities differ") "
                    + "in \(divergentBodies.count) \(divergentBodies.count == 1 ? "body" : "bodies")")
            for difference in differences.prefix(40) {
                lines.append("  \(difference.path): A \(difference.a), B \(difference.b)")
            }
            if differences.count > 40 { lines.append("  … and \(differences.count - 40) more") }
        } else {
            lines.append("(no step at or after it has both sides' body states)")
        }
        if !growth.isEmpty {
            lines.append("largest difference:")
            // Powers first reached at one step share a line: "≥ 1e-15 … 1e2".
            var index = growth.startIndex
            while index < growth.endIndex {
                let entry = growth[index]
                var last = index
                while last + 1 < growth.endIndex, growth[last + 1].step == entry.step { last += 1 }
                let powers =
                    last == index ? "1e\(entry.power)" : "1e\(entry.power) … 1e\(growth[last].power)"
                let final = growth[last]
                lines.append(
                    "  ≥ \(powers): first at step \(entry.step) (\(final.largest)\(final.at.map { ", \($0.path)" } ?? ""))"
                )
                index = last + 1
            }
            if let last = samples.last {
                lines.append("  at step \(last.step): \(last.largest)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Why two runs could not be compared: one line naming the argument.
public struct RunComparisonError: Error, CustomStringConvertible {
    /// The line: what is wrong, naming the argument or file.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
