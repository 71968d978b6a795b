import Chipmunk
import Foundation

extension Scene {
    /// A 64-bit fingerprint of what the scene is, before it runs: a golden file records
    /// it, so that a changed scene is reported as a changed scene, not as changed physics.
    ///
    /// FNV-1a 64, as `Space.stateHash()`, over the bits of: the time step; the space's
    /// gravity, damping, iterations, collision slop, bias and persistence, idle speed and
    /// sleep time thresholds; the gravity schedule; for every body, its kind, mass,
    /// moment, centre of gravity, position, angle, velocity, angular velocity, force and
    /// torque; for every shape, its body's index, kind, bounding box, friction,
    /// elasticity, surface velocity, mass, sensor flag, collision type and filter; for
    /// every constraint, its kind, its bodies' indices, maximum force, error bias and
    /// maximum bias. A built-in scene and its data file (`Scenes/`) give the same hash.
    public func contentHash() -> UInt64 {
        var hasher = FNV1a()
        let space = self.space
        hasher.mix(timeStep)
        hasher.mix(space.gravity)
        hasher.mix(space.damping)
        hasher.mix(UInt64(space.iterations))
        hasher.mix(space.collisionSlop)
        hasher.mix(space.collisionBias)
        hasher.mix(UInt64(space.collisionPersistence))
        hasher.mix(space.idleSpeedThreshold)
        hasher.mix(space.sleepTimeThreshold)
        for change in gravitySchedule {
            hasher.mix(change.time)
            hasher.mix(change.gravity)
        }
        let bodies = space.bodies
        var index: [ObjectIdentifier: Int] = [:]
        for (i, body) in bodies.enumerated() { index[ObjectIdentifier(body)] = i }
        func indexOf(_ body: Body) -> UInt64 { UInt64(bitPattern: Int64(index[ObjectIdentifier(body)] ?? -1)) }
        for body in bodies {
            hasher.mix(UInt64(Body.Kind.allCases.firstIndex(of: body.kind)!))
            hasher.mix(body.mass)
            hasher.mix(body.moment)
            hasher.mix(body.centerOfGravity)
            hasher.mix(body.position)
            hasher.mix(body.angle)
            hasher.mix(body.velocity)
            hasher.mix(body.angularVelocity)
            hasher.mix(body.force)
            hasher.mix(body.torque)
        }
        for shape in space.shapes {
            hasher.mix(indexOf(shape.body))
            hasher.mix(UInt64(shape is Circle ? 1 : shape is Segment ? 2 : 3))
            let box = shape.boundingBox
            for value in [box.left, box.bottom, box.right, box.top] { hasher.mix(value) }
            hasher.mix(shape.friction)
            hasher.mix(shape.elasticity)
            hasher.mix(shape.surfaceVelocity)
            hasher.mix(shape.mass)
            hasher.mix(UInt64(shape.isSensor ? 1 : 0))
            hasher.mix(UInt64(shape.collisionType.rawValue))
            hasher.mix(UInt64(shape.filter.group.rawValue))
            hasher.mix(UInt64(shape.filter.categories.rawValue))
            hasher.mix(UInt64(shape.filter.mask.rawValue))
        }
        for constraint in space.constraints {
            for byte in String(describing: type(of: constraint)).utf8 { hasher.mix(byte: byte) }
            hasher.mix(indexOf(constraint.bodyA))
            hasher.mix(indexOf(constraint.bodyB))
            hasher.mix(constraint.maxForce)
            hasher.mix(constraint.errorBias)
            hasher.mix(constraint.maxBias)
        }
        return hasher.value
    }

    /// Runs the scene `steps` steps at `timeStep` (default: its own) and records what a
    /// golden file holds: the state hash after every step, every body's state every
    /// `checkpointEvery` steps, at the last step and at the step after which everything
    /// sleeps. Call it on a fresh scene.
    ///
    /// - Throws: what a step throws.
    public func recordGolden(steps: Int, checkpointEvery: Int = 100, timeStep: Double? = nil) throws -> GoldenFile {
        ensure(steps >= 1, "Scene.recordGolden: steps must be at least 1 (got \(steps))")
        ensure(checkpointEvery >= 1, "Scene.recordGolden: checkpointEvery must be at least 1")
        let dt = timeStep ?? self.timeStep
        let content = contentHash()
        let guardedBefore = space.guardedCollisions
        var hashes: [UInt64] = []
        var checkpoints: [GoldenFile.Checkpoint] = []
        var asleep: Int?
        hashes.reserveCapacity(steps)
        for step in 1...steps {
            try self.step(dt)
            hashes.append(space.stateHash())
            let fallsAsleep = asleep == nil && everythingSleeps
            if fallsAsleep { asleep = step }
            if step % checkpointEvery == 0 || step == steps || fallsAsleep {
                checkpoints.append(.init(step: step, bodies: bodyStates))
            }
        }
        var golden = GoldenFile(
            scene: name, contentHash: content, engineVersion: Engine.version, engineBuild: Engine.buildID,
            bindingVersion: Engine.bindingVersion,
            architecture: GoldenFile.currentArchitecture, timeStep: dt, checkpointInterval: checkpointEvery,
            asleepStep: asleep, hashes: hashes, checkpoints: checkpoints)
        golden.guardedCollisions = space.guardedCollisions - guardedBefore
        return golden
    }

    /// Runs the scene as `golden` says (its time step and steps) and compares it, step by
    /// step, with `golden`. Call it on a fresh scene.
    ///
    /// - Returns: what was compared, when everything matches.
    /// - Throws: ``VerificationFailure`` for the first difference (or a step that failed);
    ///   its description names the step, the checkpoint, and the bodies and quantities
    ///   that differ, with both values. In a Swift Testing test, `try` it: the failure is
    ///   the test's message.
    @discardableResult
    public func verify(against golden: GoldenFile) throws(VerificationFailure) -> VerificationSummary {
        var environment: [String] = []
        if golden.scene != name { environment.append("the golden file is for the scene '\(golden.scene)'") }
        let content = contentHash()
        if content != golden.contentHash {
            environment.append(
                "the scene's content hash is \(content.hexDigits), the golden file's \(golden.contentHash.hexDigits): "
                    + "the scene itself changed")
        }
        if golden.engineVersion != Engine.version {
            environment.append(
                "the golden file was made with engine \(golden.engineVersion), this is \(Engine.version)")
        }
        // Another build of the same engine (a rebuild, another compiler's flags) is named only
        // when the physics differs: a rebuild that computes the same bits passes.
        var buildNote: [String] = []
        if let build = golden.engineBuild, build != Engine.buildID {
            buildNote.append(
                "the golden file was made with another build of engine \(golden.engineVersion) (build id \(build), "
                    + "this is \(Engine.buildID)): another compiler or CPU rounds differently, so differences may "
                    + "come from the build, not from changed physics")
        }
        if golden.bindingVersion != Engine.bindingVersion {
            environment.append(
                "the golden file was made with binding \(golden.bindingVersion), this is \(Engine.bindingVersion)")
        }
        if golden.architecture != GoldenFile.currentArchitecture {
            environment.append(
                "the golden file was made on \(golden.architecture), this is \(GoldenFile.currentArchitecture)")
        }
        let checkpoints = Dictionary(golden.checkpoints.map { ($0.step, $0) }, uniquingKeysWith: { a, _ in a })
        let guardedBefore = space.guardedCollisions
        var firstStep: (step: Int, expected: UInt64, actual: UInt64)?
        var asleep: Int?
        for step in 1...golden.steps {
            do {
                try self.step(golden.timeStep)
            } catch {
                throw VerificationFailure(
                    scene: name, environment: environment + buildNote, kind: .stepFailed(step: step, error: "\(error)"))
            }
            let hash = space.stateHash()
            if asleep == nil, everythingSleeps { asleep = step }
            if firstStep == nil, hash != golden.hashes[step - 1] {
                firstStep = (step, golden.hashes[step - 1], hash)
            }
            if firstStep == nil, let checkpoint = checkpoints[step] {
                // The hashes agree: the checkpoint's body lines must too, bit for bit, or the
                // file is damaged (a damaged checkpoint passed unread before).
                let differences = differences(from: checkpoint)
                if !differences.isEmpty {
                    throw VerificationFailure(
                        scene: name, environment: environment + buildNote,
                        kind: .checkpointDiffers(checkpoint: step, differences: differences))
                }
            }
            if let first = firstStep, let checkpoint = checkpoints[step] {
                // The first checkpoint at or after the first differing step: name what differs.
                throw VerificationFailure(
                    scene: name, environment: environment + buildNote,
                    kind: .differs(
                        step: first.step, expected: first.expected, actual: first.actual, checkpoint: step,
                        differences: differences(from: checkpoint)))
            }
        }
        if let first = firstStep {
            throw VerificationFailure(
                scene: name, environment: environment + buildNote,
                kind: .differs(
                    step: first.step, expected: first.expected, actual: first.actual, checkpoint: nil, differences: []))
        }
        if asleep != golden.asleepStep {
            throw VerificationFailure(
                scene: name, environment: environment + buildNote,
                kind: .sleep(expected: golden.asleepStep, actual: asleep))
        }
        if !environment.isEmpty {
            throw VerificationFailure(scene: name, environment: environment, kind: .environmentOnly)
        }
        return VerificationSummary(
            scene: name, steps: golden.steps, checkpoints: golden.checkpoints.count, asleepStep: asleep,
            guardedCollisions: space.guardedCollisions - guardedBefore)
    }

    /// Reads the golden file at `url` and verifies against it (see ``verify(against:)-(GoldenFile)``).
    ///
    /// ```swift
    /// @Test func cratesAreUnchanged() throws {
    ///     try SceneCatalog.scene(named: "crates").verify(against: goldenURL)
    /// }
    /// ```
    @discardableResult
    public func verify(against url: URL) throws -> VerificationSummary {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try verify(against: GoldenFile(parsing: text, source: url.lastPathComponent))
    }

    private var everythingSleeps: Bool {
        let dynamic = space.bodies.filter { $0.kind == .dynamic }
        return !dynamic.isEmpty && dynamic.allSatisfy(\.isSleeping)
    }

    private var bodyStates: [GoldenFile.BodyState] {
        space.bodies.map { body in
            GoldenFile.BodyState(
                x: body.position.x, y: body.position.y, angle: body.angle, vx: body.velocity.x, vy: body.velocity.y,
                w: body.angularVelocity)
        }
    }

    /// Every quantity that differs from the checkpoint's, body by body.
    private func differences(from checkpoint: GoldenFile.Checkpoint) -> [VerificationFailure.Difference] {
        let now = bodyStates
        guard now.count == checkpoint.bodies.count else {
            return [
                .init(
                    body: -1, name: nil, quantity: "bodies", expected: Double(checkpoint.bodies.count),
                    actual: Double(now.count))
            ]
        }
        var result: [VerificationFailure.Difference] = []
        for (index, (expected, actual)) in zip(checkpoint.bodies, now).enumerated() {
            // A version-2 scene's bodies by the names its output uses (`run`, `--track`).
            let name = bodyNames == nil ? nil : outputName(of: space.bodies[index], index: index)
            for (e, a) in zip(expected.quantities, actual.quantities) where e.value.bitPattern != a.value.bitPattern {
                result.append(.init(body: index, name: name, quantity: e.name, expected: e.value, actual: a.value))
            }
        }
        return result
    }
}

/// What a verification that passed compared.
public struct VerificationSummary: Equatable, Sendable, CustomStringConvertible {
    /// The scene's name.
    public var scene: String
    /// How many steps were compared.
    public var steps: Int
    /// How many checkpoints were compared body by body.
    public var checkpoints: Int
    /// The step after which every dynamic body slept, in both runs; nil if none did.
    public var asleepStep: Int?
    /// Narrow-phase tests the engine guard answered in the run (`Space.guardedCollisions`).
    public var guardedCollisions = 0

    /// A summary of a verification that matched.
    public init(scene: String, steps: Int, checkpoints: Int, asleepStep: Int?, guardedCollisions: Int = 0) {
        self.scene = scene
        self.steps = steps
        self.checkpoints = checkpoints
        self.asleepStep = asleepStep
        self.guardedCollisions = guardedCollisions
    }

    /// One line: the scene, the steps and checkpoints that matched, and the engine guard's
    /// answers when there were any.
    public var description: String {
        "\(scene): \(steps) steps match, \(counted(checkpoints, "checkpoint"))"
            + (asleepStep.map { ", everything asleep after step \($0)" } ?? "")
            + (guardedCollisions == 0
                ? ""
                : guardedCollisions == 1
                    ? "; 1 narrow-phase test the engine could not finish was answered by the engine guard "
                        + "(docs/engine-assertions.md)"
                    : "; \(guardedCollisions) narrow-phase tests the engine could not finish were answered by the "
                        + "engine guard (docs/engine-assertions.md)")
    }
}

/// A scene that does not reproduce its golden file.
public struct VerificationFailure: Error, CustomStringConvertible {
    /// A quantity of one body that differs.
    public struct Difference: Equatable, Sendable {
        /// The body's index in the space's bodies (-1: the number of bodies differs).
        public var body: Int
        /// The body's name in a version-2 scene's output (its `id`); nil for other scenes.
        public var name: String?
        /// The quantity's name: x, y, angle, vx, vy or w.
        public var quantity: String
        /// The golden file's value.
        public var expected: Double
        /// The value this run gave.
        public var actual: Double

        /// How messages name the quantity: `boxA.x` by the body's name, else `bodies[9].x`.
        public var path: String { "\(name ?? "bodies[\(body)]").\(quantity)" }
    }

    /// What differs.
    public enum Kind: Sendable {
        /// The state hash first differs after `step`; `checkpoint` is the first checkpoint
        /// at or after it, where `differences` were found (nil: none came before the end).
        case differs(step: Int, expected: UInt64, actual: UInt64, checkpoint: Int?, differences: [Difference])
        /// Everything sleeps after a different step (nil: never).
        case sleep(expected: Int?, actual: Int?)
        /// A step threw.
        case stepFailed(step: Int, error: String)
        /// Every state hash matches up to `checkpoint`, but the checkpoint's body lines do
        /// not: the golden file is damaged, or was edited by hand.
        case checkpointDiffers(checkpoint: Int, differences: [Difference])
        /// The physics matches, but the file was made for another scene, engine,
        /// binding or architecture.
        case environmentOnly
    }

    /// The scene's name.
    public var scene: String
    /// Differences in what the file was made from: scene content, engine, binding, CPU.
    public var environment: [String]
    /// What differs.
    public var kind: Kind

    /// The first step that differs, if the physics differs.
    public var firstDifferingStep: Int? {
        if case .differs(let step, _, _, _, _) = kind { return step }
        return nil
    }

    /// One line: what differs first, and where.
    public var summary: String {
        switch kind {
        case .differs(let step, let expected, let actual, let checkpoint, let differences):
            var line =
                "\(scene): differs from the golden file first at step \(step) (hash \(actual.hexDigits), "
                + "expected \(expected.hexDigits))"
            if let checkpoint {
                line += "; at checkpoint \(checkpoint)"
                if let first = differences.first, first.body < 0 {
                    line += ", the space has \(Int(first.actual)) bodies (expected \(Int(first.expected)))"
                } else if let first = differences.first {
                    line +=
                        ", \(differences.count) \(differences.count == 1 ? "quantity differs" : "quantities differ"), "
                        + "first \(first.path) \(first.actual) (expected \(first.expected))"
                }
            }
            return line
        case .sleep(let expected, let actual):
            let run = actual.map { "everything falls asleep after step \($0)" } ?? "not everything falls asleep"
            let golden = expected.map { "after step \($0)" } ?? "never"
            return "\(scene): every state matches, but \(run) (the golden file: everything asleep \(golden))"
        case .stepFailed(let step, let error):
            return "\(scene): " + ChipmunkError.stepFailure(step, error)
        case .checkpointDiffers(let checkpoint, let differences):
            var line =
                "\(scene): the state hashes match, but checkpoint \(checkpoint)'s body lines do not: the golden "
                + "file is damaged or was edited"
            if let first = differences.first, first.body >= 0 {
                line +=
                    " (first bodies[\(first.body)].\(first.quantity): the run has \(first.actual), the file \(first.expected))"
            } else if let first = differences.first {
                line += " (the run has \(Int(first.actual)) bodies, the file \(Int(first.expected)))"
            }
            return line
        case .environmentOnly:
            return "\(scene): the physics matches, but \(environment.joined(separator: "; "))"
        }
    }

    /// Lines saying where the run first differs and which quantities differ.
    public var description: String {
        var lines = [summary]
        if case .environmentOnly = kind {
        } else {
            lines += environment.map { "note: \($0)" }
        }
        if case .differs(_, _, _, let checkpoint?, let differences) = kind {
            for difference in differences.prefix(20) where difference.body >= 0 {
                lines.append(
                    "  step \(checkpoint): \(difference.path) = \(difference.actual), "
                        + "golden \(difference.expected)")
            }
            if differences.count > 20 { lines.append("  … and \(differences.count - 20) more") }
        }
        return lines.joined(separator: "\n")
    }
}
