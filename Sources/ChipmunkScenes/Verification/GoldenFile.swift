import Chipmunk

/// What a scene must reproduce, bit for bit: the state hash after every step, and every
/// body's full state at checkpoints. Written by `chipmunk-sim verify --update` (or
/// ``Scene/recordGolden(steps:checkpointEvery:timeStep:)``), and checked by
/// `chipmunk-sim verify` (or `Scene.verify(against:)`).
///
/// The file is text, one fact a line, so that a person can read it and a diff shows what
/// changed. Format 2 (docs/determinism.md gives the full definition):
///
/// ```text
/// chipmunk-golden 2
/// scene crates
/// content 5f1c0e0d7e2a9b31
/// engine 7.0.3
/// engine-build 5f48cce1560bfb7ff6d099b302fd244189d16c4f
/// binding 0.10.0
/// arch x86_64
/// dt 0.008333333333333333
/// steps 1200
/// every 100
/// asleep -
/// step 1 9a0c4b3e1f27d6a5
/// …
/// checkpoint 100
/// body 0 150 -112.5 0 0 -1000 0
/// …
/// end
/// ```
///
/// `content` is ``Scene/contentHash()`` before the first step: a changed scene is
/// reported as such, not as a physics difference. `engine`, `engine-build` (the GNU build
/// id of the engine library), `binding` and `arch` say where the file was made; results
/// are exact only on the same engine build and CPU architecture. Format 1, without
/// `engine-build`, is still read. `asleep` is the first step after which every dynamic body sleeps, or
/// `-`; that step is also a checkpoint. A line `guarded N` after `asleep`, only when N is
/// not 0, counts the narrow-phase tests the engine guard answered in the run
/// (`Space.guardedCollisions`): its bits depend on the guard, not the engine
/// alone. Numbers are shortest round-trip decimals.
public struct GoldenFile: Equatable, Sendable {
    /// The format this build writes (it reads this one and format 1).
    public static let formatVersion = 2

    /// One body's state, as the hash sees it.
    public struct BodyState: Equatable, Sendable {
        /// The position's x.
        public var x: Double
        /// The position's y.
        public var y: Double
        /// The angle, in radians.
        public var angle: Double
        /// The velocity's x.
        public var vx: Double
        /// The velocity's y.
        public var vy: Double
        /// The angular velocity, in radians per second.
        public var w: Double

        /// The six quantities with their names, in the hash's order.
        public var quantities: [(name: String, value: Double)] {
            [("x", x), ("y", y), ("angle", angle), ("vx", vx), ("vy", vy), ("w", w)]
        }
    }

    /// Every body's state after a step.
    public struct Checkpoint: Equatable, Sendable {
        /// The step after which the state was taken (1 for the first).
        public var step: Int
        /// Every dynamic body's state, in the order of `Space.bodies`.
        public var bodies: [BodyState]
    }

    /// The scene's name.
    public var scene: String
    /// The scene's ``Scene/contentHash()`` when it was recorded.
    public var contentHash: UInt64
    /// The engine's version, such as "7.0.3".
    public var engineVersion: String
    /// The GNU build id of the engine library that made the file (nil in format 1).
    public var engineBuild: String?
    /// The binding's version that recorded the file.
    public var bindingVersion: String
    /// The machine's architecture, such as "x86_64": others may round differently.
    public var architecture: String
    /// The time step of every step, in seconds.
    public var timeStep: Double
    /// How many steps apart the checkpoints are.
    public var checkpointInterval: Int
    /// The first step after which every dynamic body sleeps, if any did within the run.
    public var asleepStep: Int?
    /// Narrow-phase tests the engine guard answered in the recorded run (0 for most).
    public var guardedCollisions = 0
    /// The state hash after steps 1, 2, …
    public var hashes: [UInt64]
    /// The full state every `checkpointInterval` steps.
    public var checkpoints: [Checkpoint]

    /// Steps recorded.
    public var steps: Int { hashes.count }

    /// The architecture this build runs on, as golden files name it.
    public static var currentArchitecture: String { Engine.architecture }

    /// The file's text.
    public var text: String {
        var lines = [
            "chipmunk-golden \(Self.formatVersion)", "scene \(scene)", "content \(contentHash.hexDigits)",
            "engine \(engineVersion)", "engine-build \(engineBuild ?? "unknown")", "binding \(bindingVersion)",
            "arch \(architecture)", "dt \(timeStep)",
            "steps \(steps)", "every \(checkpointInterval)", "asleep \(asleepStep.map(String.init) ?? "-")",
        ]
        if guardedCollisions > 0 { lines.append("guarded \(guardedCollisions)") }
        lines.reserveCapacity(lines.count + hashes.count + checkpoints.count * 8)
        for (index, hash) in hashes.enumerated() { lines.append("step \(index + 1) \(hash.hexDigits)") }
        for checkpoint in checkpoints {
            lines.append("checkpoint \(checkpoint.step)")
            for (index, body) in checkpoint.bodies.enumerated() {
                lines.append(
                    "body \(index) \(body.x) \(body.y) \(body.angle) \(body.vx) \(body.vy) \(body.w)")
            }
        }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a golden file's text; `source` names it in errors.
    ///
    /// - Throws: ``GoldenFileError`` naming the line that is wrong.
    public init(parsing text: String, source: String) throws(GoldenFileError) {
        // A byte-order mark, which an editor may add, is no line of the file (verify read the
        // file through Foundation, which drops it, and diff refused it).
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // Lines end in "\n", or in "\r\n" where git checked the file out for Windows: Swift
        // reads "\r\n" as one character, so splitting at "\n" alone made the file one line.
        var allLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        if allLines.last == "" { allLines.removeLast() }  // the newline that ends the last line
        var lines = allLines.enumerated().makeIterator()
        var header: [String: String] = [:]
        var headerLine: [String: Int] = [:]
        var hashes: [UInt64] = []
        var checkpoints: [Checkpoint] = []
        var checkpointLines: [Int] = []
        var ended = false
        func fail(_ number: Int, _ reason: String) -> GoldenFileError {
            GoldenFileError(source: source, line: number + 1, reason: reason)
        }
        guard let (_, first) = lines.next(), let format = ["chipmunk-golden 1": 1, "chipmunk-golden 2": 2][first]
        else {
            throw GoldenFileError(
                source: source, line: 1,
                reason: "not a golden file of format 1 or \(Self.formatVersion) (its first line must be "
                    + "'chipmunk-golden \(Self.formatVersion)')")
        }
        var keys = ["scene", "content", "engine", "binding", "arch", "dt", "steps", "every", "asleep"]
        if format >= 2 { keys.append("engine-build") }
        let optionalKeys = ["guarded"]
        while let (number, line) = lines.next() {
            if ended { throw fail(number, "text after 'end'") }
            let fields = line.split(separator: " ").map(String.init)
            guard let key = fields.first else { throw fail(number, "an empty line") }
            switch key {
            case _ where keys.contains(key) || optionalKeys.contains(key):
                guard fields.count == 2 || (key == "scene" && fields.count > 1) else {
                    throw fail(number, "'\(key)' takes one value")
                }
                guard header[key] == nil else { throw fail(number, "'\(key)' is given twice") }
                let value = fields.dropFirst().joined(separator: " ")
                // A scene's path is the longest value a recorder writes; a megabyte was echoed
                // whole by verify's "the golden file is for the scene …".
                guard value.utf8.count <= Self.longestHeaderValue else {
                    throw fail(
                        number,
                        "'\(key) \(value.excerpt())': a value longer than "
                            + "\(Self.longestHeaderValue) bytes")
                }
                header[key] = value
                headerLine[key] = number
            case "step":
                guard fields.count == 3, let step = Int(fields[1]), let hash = UInt64(fields[2], radix: 16),
                    fields[2].count == 16
                else { throw fail(number, "expected 'step N HASH' with 16 hex digits") }
                guard step == hashes.count + 1 else {
                    throw fail(number, "step \(step) out of order (expected step \(hashes.count + 1))")
                }
                hashes.append(hash)
            case "checkpoint":
                guard fields.count == 2, let step = Int(fields[1]), step >= 1 else {
                    throw fail(number, "expected 'checkpoint STEP'")
                }
                checkpoints.append(Checkpoint(step: step, bodies: []))
                checkpointLines.append(number)
            case "body":
                // Both sides are optional: an index that is not a number before any checkpoint
                // compared nil with nil, and the append below trapped (ReaderFuzzer).
                guard fields.count == 8, let index = Int(fields[1]), let last = checkpoints.last,
                    index == last.bodies.count
                else {
                    throw fail(number, "expected 'body INDEX x y angle vx vy w' after a checkpoint, bodies in order")
                }
                // A simulation that gives nan or inf throws, so no recording holds one: read as
                // data, "nan" never matched, and verify reported a difference in the physics.
                let values = fields.dropFirst(2).compactMap { Double(decimal: $0) }.filter(\.isFinite)
                guard values.count == 6 else {
                    let bad = fields.dropFirst(2).first { Double(decimal: $0)?.isFinite != true } ?? ""
                    throw fail(number, "body \(index): '\(bad.prefix(40))' is not a finite decimal number")
                }
                checkpoints[checkpoints.count - 1].bodies.append(
                    BodyState(x: values[0], y: values[1], angle: values[2], vx: values[3], vy: values[4], w: values[5]))
            case "end":
                ended = true
            default:
                throw fail(number, "unknown line '\(key.excerpt())'")
            }
        }
        guard ended else { throw GoldenFileError(source: source, line: nil, reason: "the file ends before 'end'") }
        for key in keys where header[key] == nil {
            throw GoldenFileError(source: source, line: nil, reason: "'\(key)' is missing")
        }
        // Each header value is checked by itself, and its line named.
        func value<T>(_ key: String, _ rule: String, _ parse: (String) -> T?) throws(GoldenFileError) -> T {
            guard let parsed = parse(header[key]!) else {
                throw GoldenFileError(
                    source: source, line: headerLine[key].map { $0 + 1 },
                    reason: "'\(key) \(header[key]!.excerpt())': \(key) must be \(rule)")
            }
            return parsed
        }
        let content = try value("content", "16 hex digits") { $0.count == 16 ? UInt64($0, radix: 16) : nil }
        let range = Parameter.timeStepRange
        let dt = try value("dt", "a decimal time step from \(range.lowerBound) to \(range.upperBound) seconds") {
            Double(decimal: $0).flatMap { Parameter.spaceTimeStep.accepts($0) ? $0 : nil }
        }
        let steps = try value("steps", "the number of step lines, 1 or more") {
            Int($0).flatMap { $0 == hashes.count && $0 >= 1 ? $0 : nil }
        }
        let every = try value("every", "a whole number from 1") { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
        var guarded = 0
        if header["guarded"] != nil {
            guarded = try value("guarded", "a whole number from 1") { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
        }
        let asleepStep = try value("asleep", "a step from 1 to \(steps), or '-'") { text -> Int?? in
            text == "-" ? .some(nil) : Int(text).flatMap { (1...steps).contains($0) ? .some($0) : nil }
        }
        // A checkpoint past the last step was never compared, and verify said it matched.
        var previous = 0
        for (checkpoint, line) in zip(checkpoints, checkpointLines) {
            guard checkpoint.step > previous, checkpoint.step <= steps else {
                throw GoldenFileError(
                    source: source, line: line + 1,
                    reason: "'checkpoint \(checkpoint.step)': checkpoints must come in order, from step 1 to \(steps)")
            }
            previous = checkpoint.step
        }
        // The recorder's checkpoints, and no others: every `every` steps, the last step, and
        // the step after which everything sleeps. A file that says 'every 7' and holds other
        // checkpoints is not what it says.
        let expected = Set(stride(from: every, through: steps, by: every)).union([steps])
            .union(asleepStep.map { [$0] } ?? [])
        for (checkpoint, line) in zip(checkpoints, checkpointLines) where !expected.contains(checkpoint.step) {
            throw GoldenFileError(
                source: source, line: line + 1,
                reason: "'checkpoint \(checkpoint.step)': with 'every \(every)', 'steps \(steps)' and "
                    + "'asleep \(asleepStep.map(String.init) ?? "-")', checkpoints are at multiples of \(every), "
                    + "the last step and the asleep step")
        }
        if let missing = expected.subtracting(checkpoints.map(\.step)).min() {
            throw GoldenFileError(
                source: source, line: nil,
                reason: "no 'checkpoint \(missing)': with 'every \(every)', 'steps \(steps)' and "
                    + "'asleep \(asleepStep.map(String.init) ?? "-")', there is one at step \(missing)")
        }
        scene = header["scene"]!
        contentHash = content
        engineVersion = header["engine"]!
        engineBuild = header["engine-build"]
        bindingVersion = header["binding"]!
        architecture = header["arch"]!
        timeStep = dt
        checkpointInterval = every
        self.asleepStep = asleepStep
        guardedCollisions = guarded
        self.hashes = hashes
        self.checkpoints = checkpoints
    }

    /// The longest header value read, in bytes: a path's longest (`PATH_MAX`).
    static let longestHeaderValue = InputFile.longestPath

    /// A golden file with these fields, as ``Scene/recordGolden(steps:checkpointEvery:timeStep:)`` makes one.
    public init(
        scene: String, contentHash: UInt64, engineVersion: String, engineBuild: String? = nil, bindingVersion: String,
        architecture: String, timeStep: Double, checkpointInterval: Int, asleepStep: Int?, hashes: [UInt64],
        checkpoints: [Checkpoint]
    ) {
        self.scene = scene
        self.contentHash = contentHash
        self.engineVersion = engineVersion
        self.engineBuild = engineBuild
        self.bindingVersion = bindingVersion
        self.architecture = architecture
        self.timeStep = timeStep
        self.checkpointInterval = checkpointInterval
        self.asleepStep = asleepStep
        self.hashes = hashes
        self.checkpoints = checkpoints
    }
}

/// A golden file that cannot be read: which file, which line, and what is wrong.
public struct GoldenFileError: Error, Equatable, CustomStringConvertible {
    /// The file, as it was named.
    public var source: String
    /// The line with the problem, from 1, or nil for the whole file.
    public var line: Int?
    /// What is wrong.
    public var reason: String

    /// `source:line: reason`.
    public var description: String {
        "\(source)\(line.map { ":\($0)" } ?? ""): \(reason)"
    }
}
