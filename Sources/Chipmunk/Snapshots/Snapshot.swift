/// Everything a ``Space`` carries from one step to the next, as bytes: restore it with
/// ``Space/init(restoring:)`` or ``Space/restore(_:)`` and the simulation continues.
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
/// the same code with ``Space/restore(_:)``, which keeps them.
///
/// The format is versioned, little-endian and independent of the engine's struct layout;
/// `docs/snapshots.md` specifies it. Bytes that are not a valid snapshot throw
/// ``SnapshotError``; they never stop the program.
public struct Snapshot: Sendable, Equatable {
    /// The encoded snapshot: what to write to a file.
    public let bytes: [UInt8]
    let state: SnapshotState

    init(state: SnapshotState) {
        self.state = state
        self.bytes = state.encoded()
    }

    /// Reads a snapshot, checking its format, version and checksum.
    ///
    /// - Throws: ``SnapshotError``.
    public init(bytes: [UInt8]) throws(SnapshotError) {
        self.state = try SnapshotState(decoding: bytes)
        self.bytes = bytes
    }

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
    /// Bodies in it, not counting the space's static body.
    public var bodyCount: Int { max(state.bodies.count - 1, 0) }
    /// Cached contact pairs (arbiters) in it.
    public var arbiterCount: Int { state.arbiters.count }
    /// The scene that made it, its clock in seconds and the gravity changes it had
    /// applied; empty, 0 and 0 for a snapshot of a bare space.
    package var scene: (name: String, time: Double, changesApplied: Int) {
        (state.sceneName, state.sceneTime, Int(state.sceneChangesApplied))
    }

    /// The snapshot's records as an `Encodable` value, to compare other encodings (such as
    /// JSON) with the binary format; nothing reads them back.
    package var encodableContent: any Encodable & Sendable { state }

    /// Whether the space it came from rebuilt its broad phase before every step
    /// (``Space/hasCanonicalBroadPhase``).
    public var hasCanonicalBroadPhase: Bool { state.space.canonicalBroadPhase }
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
    /// ``Space/restore(_:)`` was given a snapshot of a space made differently.
    case structureMismatch(String)

    public var description: String {
        switch self {
        case .notASnapshot: "not a snapshot (it does not start with CHIPSNAP)"
        case .unsupportedVersion(let version):
            "snapshot format version \(version) is not supported (this build reads version \(SnapshotState.formatVersion))"
        case .checksumMismatch: "the snapshot's checksum does not match its contents: the file is damaged"
        case .truncated(let offset): "the snapshot ends early, inside the record at byte \(offset)"
        case .invalid(let what): "invalid snapshot: \(what)"
        case .structureMismatch(let what): "the snapshot does not fit this space: \(what)"
        }
    }
}
