internal import Synchronization

/// Everything a ``Space`` carries from one step to the next, as bytes: restore it with
/// ``Space/init(restoring:)`` or ``Space/restore(_:)-(Snapshot)`` and the simulation continues.
///
/// ```swift
/// let saved = space.snapshot()
/// try saved.bytes.write(to: url)                       // any Data/[UInt8] sink
/// let copy = try Space(restoring: Snapshot(bytes: bytesReadBack))
/// ```
///
/// It holds bodies, shapes, constraints with their accumulated impulses, the cached
/// contacts with theirs, sleeping groups, the space's parameters and counters, and which
/// collision types have handlers. Closures (handlers, integrators, constraint callbacks)
/// are not data: set them again on the restored space, or restore into a space built by
/// the same code with ``Space/restore(_:)-(Snapshot)``, which keeps them.
///
/// The format is versioned, little-endian and independent of the engine's struct layout;
/// `docs/snapshots.md` specifies it. Bytes that are not a valid snapshot throw
/// ``SnapshotError``; they never stop the program.
public struct Snapshot: Sendable, Equatable {
    /// The encoded snapshot: what to write to a file.
    public let bytes: [UInt8]
    let state: SnapshotState
    /// Whether `state` passed ``SnapshotCheck/validate(_:)``, and the lowest contact-pair
    /// budget it fit, shared by the snapshot's copies: bytes are checked once, as they are
    /// read; any other state at its first restore. Restoring one snapshot again and again,
    /// as a scrub does, checks it once.
    let checkMark: SnapshotCheckMark

    init(state: SnapshotState) {
        self.state = state
        self.bytes = state.encoded()
        self.checkMark = SnapshotCheckMark(passed: false)
    }

    /// Reads a snapshot, checking its format, version and checksum, and that it holds
    /// nothing a valid space does not (indices in range, finite values, one tree per
    /// broad phase, ...). What depends on the space it is restored into (room for the
    /// pairs its shapes overlap in) is checked by the restore.
    ///
    /// - Throws: ``SnapshotError``.
    public init(bytes: [UInt8]) throws(SnapshotError) {
        let state = try SnapshotState(decoding: bytes)
        try SnapshotCheck.validate(state)
        self.state = state
        self.bytes = bytes
        self.checkMark = SnapshotCheckMark(passed: true)
    }

    /// Checks the state, once for the snapshot and all its copies, and that it fits
    /// `space` (``SnapshotCheck/checkFit(_:into:overlapsPassed:)``), once for each
    /// contact-pair budget.
    func check(restoringInto space: Space) throws(SnapshotError) {
        if !checkMark.hasPassed {
            try SnapshotCheck.validate(state)
            checkMark.markPassed()
        }
        let passed = try SnapshotCheck.checkFit(state, into: space, overlapsPassed: checkMark.overlapsPassed)
        checkMark.passOverlaps(limit: passed)
    }

    /// Two snapshots are equal when their bytes are: the same state, bit for bit.
    public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool { lhs.bytes == rhs.bytes }

    /// The format version this build reads and writes.
    public static var formatVersion: Int { Int(SnapshotState.formatVersion) }
    /// Steps the space had taken when the snapshot was made.
    public var stepsTaken: Int { Int(clamping: state.stepsTaken) }
    /// The engine version that made it, such as "7.0.3".
    public var engineVersion: String { state.engineVersion }
    /// The binding version that made it.
    public var bindingVersion: String { state.bindingVersion }
    /// The CPU architecture that made it, such as "x86_64".
    public var architecture: String { state.architecture }
    /// The GNU build id of the engine library that made it, in hex; empty for a snapshot
    /// of format version 1.
    public var engineBuild: String { state.engineBuild }
    /// Whether it holds the history of the engine's broad phase (the default one's trees,
    /// leaf sets and cached pairs, or the spatial hash's handle sets and cells), with which a
    /// restored space continues with the bits of the uninterrupted run. Format version 1
    /// lacked it.
    public var holdsBroadPhase: Bool { !state.broadPhase.isEmpty || !state.spatialHash.isEmpty }
    /// Whether the snapshot lacks the history of the space's broad phase, which a restored
    /// space needs to continue exactly: the engine's layout was unknown, or format version
    /// 1 (unless that space rebuilt its broad phase before every step, as version 1 could).
    package var lacksBroadPhaseHistory: Bool { !state.space.canonicalBroadPhase && !holdsBroadPhase }
    /// Bodies in it, not counting the space's static body.
    public var bodyCount: Int { max(state.bodies.count - 1, 0) }
    /// Cached contact pairs (arbiters) in it.
    public var arbiterCount: Int { state.arbiters.count }
    /// The scene that made it, its clock in seconds, and the gravity changes and timed
    /// inputs it had applied; empty and zeros for a snapshot of a bare space.
    package var scene: (name: String, time: Double, changesApplied: Int, inputsApplied: Int, bodyNames: [String]) {
        (
            state.sceneName, state.sceneTime, Int(state.sceneChangesApplied), Int(state.sceneInputsApplied),
            state.sceneBodyNames
        )
    }

    /// The snapshot's records as an `Encodable` value, to compare other encodings (such as
    /// JSON) with the binary format; nothing reads them back.
    package var encodableContent: any Encodable & Sendable { state }

}

/// Why bytes are not a snapshot this build can restore, or why a space cannot take one.
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes do not start with the snapshot magic "CHIPSNAP".
    case notASnapshot
    /// A format version this build does not read.
    case unsupportedVersion(Int)
    /// The trailing checksum does not match: the file is damaged.
    case checksumMismatch
    /// The data ends inside a record.
    case truncated(offset: Int)
    /// A value or an index that no valid space has.
    case invalid(String)
    /// The snapshot holds the default broad phase's history, and the loaded engine's
    /// private broad-phase structs are not the layout this binding reads (Chipmunk 7.0.3's):
    /// it cannot be restored here without being misread.
    case broadPhaseLayoutUnknown(engineVersion: String)
    /// ``Space/restore(_:)-(Snapshot)`` was given a snapshot of a space made differently.
    case structureMismatch(String)
    /// ``Space/restore(_:)-(SpaceState)`` was given a state it cannot restore: an empty
    /// one, another space's, or one from before the space rebuilt its broad phase.
    case stateMismatch(String)

    /// One line: what is wrong with the snapshot.
    public var description: String {
        switch self {
        case .notASnapshot: "not a snapshot (it does not start with CHIPSNAP)"
        case .unsupportedVersion(let version):
            "snapshot format version \(version) is not supported (this build reads version \(SnapshotState.formatVersion))"
        case .checksumMismatch: "the snapshot's checksum does not match its contents: the file is damaged"
        case .truncated(let offset): "the snapshot ends early, inside the record at byte \(offset)"
        case .invalid(let what): "invalid snapshot: \(what)"
        case .broadPhaseLayoutUnknown(let version):
            "the snapshot holds the broad phase's history, and the loaded engine (version \(version)) does not have "
                + "Chipmunk 7.0.3's broad-phase layout, which this build reads: it cannot be restored here"
        case .structureMismatch(let what): "the snapshot does not fit this space: \(what)"
        case .stateMismatch(let what): "the state does not fit this space: \(what)"
        }
    }
}

extension Snapshot {
    /// This snapshot's state (positions, velocities, contacts, accumulated impulses,
    /// sleeping, clocks) with the configuration of `other`, a snapshot of a space built the
    /// same way: the space's parameters (gravity, damping, iterations, sleep thresholds,
    /// collision slop, bias, persistence), bodies' mass and moment, shapes' material,
    /// filter, sensor flag and mass, constraints' parameters. For sweeps that branch from
    /// a saved state: the run's parameters come from `other`, built with them.
    ///
    /// - Throws: ``SnapshotError/structureMismatch(_:)`` if the two spaces differ in their
    ///   objects.
    package func applyingConfiguration(of other: Snapshot) throws(SnapshotError) -> Snapshot {
        var state = self.state
        let source = other.state
        guard state.bodies.count == source.bodies.count, state.shapes.count == source.shapes.count,
            state.constraints.count == source.constraints.count
        else {
            throw .structureMismatch(
                "the saved state has \(state.bodies.count - 1) bodies, \(state.shapes.count) shapes and \(state.constraints.count) constraints; the scene built for the run has \(source.bodies.count - 1), \(source.shapes.count) and \(source.constraints.count)"
            )
        }
        let s = source.space
        state.space.iterations = s.iterations
        state.space.gravity = s.gravity
        state.space.damping = s.damping
        state.space.idleSpeedThreshold = s.idleSpeedThreshold
        state.space.sleepTimeThreshold = s.sleepTimeThreshold
        state.space.collisionSlop = s.collisionSlop
        state.space.collisionBias = s.collisionBias
        state.space.collisionPersistence = s.collisionPersistence
        for i in state.bodies.indices {
            let b = source.bodies[i]
            guard state.bodies[i].kind == b.kind else { throw .structureMismatch("body \(i) differs in kind") }
            state.bodies[i].mass = b.mass
            state.bodies[i].inverseMass = b.inverseMass
            state.bodies[i].moment = b.moment
            state.bodies[i].inverseMoment = b.inverseMoment
        }
        for i in state.shapes.indices {
            let shape = source.shapes[i]
            guard state.shapes[i].kind == shape.kind, state.shapes[i].body == shape.body else {
                throw .structureMismatch("shape \(i) differs in kind or body")
            }
            state.shapes[i].isSensor = shape.isSensor
            state.shapes[i].elasticity = shape.elasticity
            state.shapes[i].friction = shape.friction
            state.shapes[i].surfaceVelocity = shape.surfaceVelocity
            state.shapes[i].collisionType = shape.collisionType
            state.shapes[i].group = shape.group
            state.shapes[i].categories = shape.categories
            state.shapes[i].mask = shape.mask
            state.shapes[i].mass = shape.mass
            state.shapes[i].moment = shape.moment
            state.shapes[i].massCenter = shape.massCenter
            state.shapes[i].area = shape.area
        }
        for i in state.constraints.indices {
            let c = source.constraints[i]
            guard state.constraints[i].kind == c.kind, state.constraints[i].bodyA == c.bodyA,
                state.constraints[i].bodyB == c.bodyB, let kind = ConstraintKind(rawValue: c.kind)
            else { throw .structureMismatch("constraint \(i) differs in kind or bodies") }
            state.constraints[i].maxForce = c.maxForce
            state.constraints[i].errorBias = c.errorBias
            state.constraints[i].maxBias = c.maxBias
            state.constraints[i].collideBodies = c.collideBodies
            for index in kind.parameterIndices { state.constraints[i].values[index] = c.values[index] }
        }
        return Snapshot(state: state)
    }
}

/// Whether a snapshot's state passed its check, and the lowest contact-pair budget its
/// shapes' overlaps fit (`Int.max` before any); a class, so that copies of the snapshot
/// share it.
final class SnapshotCheckMark: Sendable {
    private let passed: Atomic<Bool>
    private let lowestOverlapLimit = Atomic<Int>(.max)
    init(passed: Bool) { self.passed = Atomic(passed) }
    var hasPassed: Bool { passed.load(ordering: .acquiring) }
    func markPassed() { passed.store(true, ordering: .releasing) }
    var overlapsPassed: Int { lowestOverlapLimit.load(ordering: .relaxed) }
    func passOverlaps(limit: Int) { lowestOverlapLimit.min(limit, ordering: .relaxed) }
}

extension ConstraintKind {
    /// The indices in `ConstraintRecord.values` that are parameters, not state: all but
    /// the accumulated impulse (and the ratchet's current angle).
    var parameterIndices: Range<Int> {
        switch self {
        case .pivot, .groove: 0..<(valueCount - 2)
        case .ratchet: 1..<(valueCount - 1)
        default: 0..<(valueCount - 1)
        }
    }
}
