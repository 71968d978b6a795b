// The snapshot format, version 2 (version 1 is still read): records and their one binary
// encoding.
//
// docs/snapshots.md is the specification; keep it in step with this file. Every record is
// read and written by one `code(_:)` function, so the reader and the writer cannot drift.

/// Reads or writes one snapshot, field by field, little-endian; doubles as their IEEE 754
/// bit patterns, so every value comes back with the same bits.
///
/// Neither direction throws: a writer cannot fail, and a reader that meets bad data keeps
/// its first error in `failure` and reads zeros and empty lists from then on, which the
/// caller checks once at the end. So one `code(_:)` per record serves both, with no `try`.
protocol SnapshotCoder {
    mutating func code(_ value: inout UInt8)
    mutating func code(_ value: inout UInt32)
    mutating func code(_ value: inout UInt64)
    /// A flag: one byte, 0 or 1 (a reader refuses any other).
    mutating func code(_ value: inout Bool)
    /// A count of items that follow; a reader checks that `minimumItemBytes` each fit.
    mutating func codeCount(_ count: inout Int, minimumItemBytes: Int)
}

extension SnapshotCoder {
    mutating func code(_ value: inout Int32) {
        var bits = UInt32(bitPattern: value)
        code(&bits)
        value = Int32(bitPattern: bits)
    }

    mutating func code(_ value: inout Double) {
        var bits = value.bitPattern
        code(&bits)
        value = Double(bitPattern: bits)
    }

    mutating func code(_ vector: inout SnapshotVector) {
        code(&vector.x)
        code(&vector.y)
    }

    mutating func code(_ values: inout [Double]) {
        var count = values.count
        codeCount(&count, minimumItemBytes: 8)
        if values.count != count { values = Array(repeating: 0, count: count) }
        for index in values.indices { code(&values[index]) }
    }

    mutating func code(_ values: inout [Int32]) {
        var count = values.count
        codeCount(&count, minimumItemBytes: 4)
        if values.count != count { values = Array(repeating: 0, count: count) }
        for index in values.indices { code(&values[index]) }
    }

    mutating func code(_ string: inout String) {
        var bytes = Array(string.utf8)
        var count = bytes.count
        codeCount(&count, minimumItemBytes: 1)
        if bytes.count != count { bytes = Array(repeating: 0, count: count) }
        for index in bytes.indices { code(&bytes[index]) }
        string = String(decoding: bytes, as: UTF8.self)
    }

    mutating func code<Record: SnapshotRecord>(_ records: inout [Record]) {
        var count = records.count
        codeCount(&count, minimumItemBytes: Record.minimumBytes)
        if records.count != count { records = Array(repeating: Record(), count: count) }
        for index in records.indices { records[index].code(&self) }
    }
}

/// A record of the format: built empty, then filled by a reader or written by a writer.
protocol SnapshotRecord: Equatable, Sendable, Codable {
    init()
    /// The fewest bytes one record takes, so that a count can be checked before allocating.
    static var minimumBytes: Int { get }
    mutating func code<Coder: SnapshotCoder>(_ coder: inout Coder)
}

/// An (x, y) pair as the format stores it.
struct SnapshotVector: Equatable, Sendable, Codable {
    var x = 0.0
    var y = 0.0
}

/// Everything a snapshot holds, as plain values: the format's data model.
struct SnapshotState: Equatable, Sendable, Codable {
    static let magic = Array("CHIPSNAP".utf8)
    /// The version written. Version 1 lacks the engine's build id and the broad phase.
    static let formatVersion: UInt32 = 2
    static let oldestReadableVersion: UInt32 = 1

    /// The format version the state was read from or is written as (not itself a field:
    /// the file's header carries it).
    var version = formatVersion
    var engineVersion = ""
    var bindingVersion = ""
    var architecture = ""
    /// The engine library's GNU build id, in hex (version 2; empty when unknown).
    var engineBuild = ""
    var stepsTaken: UInt64 = 0
    var space = SpaceRecord()
    var handlers: [HandlerRecord] = []
    /// Index 0 is the space's static body; then `Space.bodies`, in order.
    var bodies: [BodyRecord] = []
    /// `Space.shapes`, in order.
    var shapes: [ShapeRecord] = []
    /// `Space.constraints`, in order.
    var constraints: [ConstraintRecord] = []
    /// The space's active arbiters in the engine's order, then the other cached ones, then
    /// those of sleeping bodies, each group sorted by its shapes' indices.
    var arbiters: [ArbiterRecord] = []
    /// The engine's arrays, as indices into the tables above.
    var dynamicBodies: [Int32] = []
    var staticBodies: [Int32] = []
    var sleepingComponents: [Int32] = []
    var activeConstraints: [Int32] = []
    var activeArbiters: [Int32] = []
    /// The history of the default broad phase (version 2): one record, or none when the
    /// space used the spatial hash or the engine's layout was not the one the binding
    /// mirrors.
    var broadPhase: [BroadPhaseRecord] = []
    /// The spatial hash's history (version 2): one record when the space used the spatial
    /// hash and its layout was known, else none.
    var spatialHash: [SpatialHashRecord] = []
    /// Set when a scene (ChipmunkScenes) made the snapshot: its name or file, its clock,
    /// and how many of its gravity changes it had applied.
    var sceneName = ""
    var sceneTime = 0.0
    var sceneChangesApplied: UInt32 = 0
    var sceneInputsApplied: UInt32 = 0
    /// The scene's names of `Space.bodies`, in order (empty when it names none).
    var sceneBodyNames: [String] = []

    mutating func code<Coder: SnapshotCoder>(_ coder: inout Coder) {
        coder.code(&engineVersion)
        coder.code(&bindingVersion)
        coder.code(&architecture)
        if version >= 2 { coder.code(&engineBuild) }
        coder.code(&stepsTaken)
        space.code(&coder)
        coder.code(&handlers)
        coder.code(&bodies)
        coder.code(&shapes)
        coder.code(&constraints)
        coder.code(&arbiters)
        coder.code(&dynamicBodies)
        coder.code(&staticBodies)
        coder.code(&sleepingComponents)
        coder.code(&activeConstraints)
        coder.code(&activeArbiters)
        if version >= 2 {
            coder.code(&broadPhase)
            coder.code(&spatialHash)
        }
        coder.code(&sceneName)
        coder.code(&sceneTime)
        coder.code(&sceneChangesApplied)
        coder.code(&sceneInputsApplied)
        var nameCount = sceneBodyNames.count
        coder.codeCount(&nameCount, minimumItemBytes: 4)
        if sceneBodyNames.count != nameCount { sceneBodyNames = Array(repeating: "", count: nameCount) }
        for index in sceneBodyNames.indices { coder.code(&sceneBodyNames[index]) }
    }
}

struct SpaceRecord: Equatable, Sendable, Codable {
    var iterations: Int32 = 10
    var gravity = SnapshotVector()
    var damping = 1.0
    var idleSpeedThreshold = 0.0
    var sleepTimeThreshold = Double.infinity
    var collisionSlop = 0.1
    var collisionBias = 0.0
    var collisionPersistence: UInt64 = 3
    var stamp: UInt64 = 0
    var currentTimeStep = 0.0
    var shapeIDCounter: UInt64 = 0
    var usesWildcards = false
    /// 0: the engine's tree; 1: its spatial hash.
    var broadPhase: UInt8 = 0
    var hashCellSize = 0.0
    var hashCount: Int32 = 0
    /// Set in version 1 by a space that rebuilt its broad phase before every step (a mode
    /// this build no longer has: snapshots hold the broad phase's history instead); always
    /// false in version 2.
    var canonicalBroadPhase = false
    var nextSerial: UInt64 = 0

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&iterations)
        c.code(&gravity)
        c.code(&damping)
        c.code(&idleSpeedThreshold)
        c.code(&sleepTimeThreshold)
        c.code(&collisionSlop)
        c.code(&collisionBias)
        c.code(&collisionPersistence)
        c.code(&stamp)
        c.code(&currentTimeStep)
        c.code(&shapeIDCounter)
        c.code(&usesWildcards)
        c.code(&broadPhase)
        c.code(&hashCellSize)
        c.code(&hashCount)
        c.code(&canonicalBroadPhase)
        c.code(&nextSerial)
    }
}

/// A collision handler's wiring: which collision types it handles (closures stay behind).
struct HandlerRecord: SnapshotRecord {
    static let minimumBytes = 16
    var typeA: UInt64 = 0
    var typeB: UInt64 = 0

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&typeA)
        c.code(&typeB)
    }
}

struct BodyRecord: SnapshotRecord {
    static let minimumBytes = 1 + 8 + 8 * 28 + 8 + 12
    /// 0 dynamic, 1 kinematic, 2 static (`cpBodyType`).
    var kind: UInt8 = 0
    /// The object's serial in its space (add order); the static body's is 0 and unused.
    var serial: UInt64 = 0
    var mass = 0.0, inverseMass = 0.0, moment = 0.0, inverseMoment = 0.0
    var centerOfGravity = SnapshotVector()
    var position = SnapshotVector(), velocity = SnapshotVector(), force = SnapshotVector()
    var angle = 0.0, angularVelocity = 0.0, torque = 0.0
    /// The engine's cached transform: a, b, c, d, tx, ty.
    var transform: [Double] = [1, 0, 0, 1, 0, 0]
    var velocityBias = SnapshotVector()
    var angularVelocityBias = 0.0
    var idleTime = 0.0
    /// Body indices of the sleeping component's root and the next body in it; -1 for none.
    var sleepingRoot: Int32 = -1, sleepingNext: Int32 = -1
    /// The body's own lists, in the engine's order, as indices.
    var shapeList: [Int32] = [], arbiterList: [Int32] = [], constraintList: [Int32] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&kind)
        c.code(&serial)
        c.code(&mass)
        c.code(&inverseMass)
        c.code(&moment)
        c.code(&inverseMoment)
        c.code(&centerOfGravity)
        c.code(&position)
        c.code(&velocity)
        c.code(&force)
        c.code(&angle)
        c.code(&angularVelocity)
        c.code(&torque)
        for index in 0..<6 {
            if transform.count != 6 { transform = [1, 0, 0, 1, 0, 0] }
            c.code(&transform[index])
        }
        c.code(&velocityBias)
        c.code(&angularVelocityBias)
        c.code(&idleTime)
        c.code(&sleepingRoot)
        c.code(&sleepingNext)
        c.code(&shapeList)
        c.code(&arbiterList)
        c.code(&constraintList)
    }
}

struct ShapeRecord: SnapshotRecord {
    static let minimumBytes = 1 + 8 + 4 + 8 + 1 + 8 * 4 + 8 + 8 + 8 + 8 * 5 + 8 * 4 + 4
    /// 0 circle, 1 segment, 2 polygon (`cpShapeType`).
    var kind: UInt8 = 0
    var serial: UInt64 = 0
    var body: Int32 = 0
    var hashID: UInt64 = 0
    var isSensor = false
    var elasticity = 0.0, friction = 0.0
    var surfaceVelocity = SnapshotVector()
    var collisionType: UInt64 = 0
    var group: UInt64 = 0
    var categories: UInt32 = 0, mask: UInt32 = 0
    var mass = 0.0, moment = 0.0
    var massCenter = SnapshotVector()
    var area = 0.0
    var bb: [Double] = [0, 0, 0, 0]
    /// Circle: centre x, y, radius. Segment: a, b, normal, radius, a's and b's neighbour
    /// tangents. Polygon: radius, then each vertex and its edge normal (x, y, nx, ny).
    var geometry: [Double] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&kind)
        c.code(&serial)
        c.code(&body)
        c.code(&hashID)
        c.code(&isSensor)
        c.code(&elasticity)
        c.code(&friction)
        c.code(&surfaceVelocity)
        c.code(&collisionType)
        c.code(&group)
        c.code(&categories)
        c.code(&mask)
        c.code(&mass)
        c.code(&moment)
        c.code(&massCenter)
        c.code(&area)
        for index in 0..<4 {
            if bb.count != 4 { bb = [0, 0, 0, 0] }
            c.code(&bb[index])
        }
        c.code(&geometry)
    }
}

/// The ten kinds of constraint, as the format numbers them.
enum ConstraintKind: UInt8, CaseIterable, Sendable {
    case pin, slide, pivot, groove, dampedSpring, dampedRotarySpring, rotaryLimit, ratchet, gear, simpleMotor
}

struct ConstraintRecord: SnapshotRecord {
    static let minimumBytes = 1 + 8 + 8 + 24 + 1 + 4
    var kind: UInt8 = 0
    var serial: UInt64 = 0
    var bodyA: Int32 = 0, bodyB: Int32 = 0
    var maxForce = 0.0, errorBias = 0.0, maxBias = 0.0
    var collideBodies = true
    /// The kind's parameters, then its accumulated impulse (docs/snapshots.md lists them).
    var values: [Double] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&kind)
        c.code(&serial)
        c.code(&bodyA)
        c.code(&bodyB)
        c.code(&maxForce)
        c.code(&errorBias)
        c.code(&maxBias)
        c.code(&collideBodies)
        c.code(&values)
    }
}

struct ContactRecord: SnapshotRecord {
    static let minimumBytes = 8 * 12
    var r1 = SnapshotVector(), r2 = SnapshotVector()
    var normalMass = 0.0, tangentMass = 0.0, bounce = 0.0
    var normalImpulse = 0.0, tangentImpulse = 0.0, biasImpulse = 0.0, bias = 0.0
    var hash: UInt64 = 0

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&r1)
        c.code(&r2)
        c.code(&normalMass)
        c.code(&tangentMass)
        c.code(&bounce)
        c.code(&normalImpulse)
        c.code(&tangentImpulse)
        c.code(&biasImpulse)
        c.code(&bias)
        c.code(&hash)
    }
}

struct ArbiterRecord: SnapshotRecord {
    static let minimumBytes = 8 + 8 * 6 + 8 + 1 + 1 + 4
    var shapeA: Int32 = 0, shapeB: Int32 = 0
    var elasticity = 0.0, friction = 0.0
    var surfaceVelocity = SnapshotVector()
    var normal = SnapshotVector()
    var stamp: UInt64 = 0
    /// `cpArbiterState`: 0 first collision, 1 normal, 2 ignore, 3 cached, 4 invalidated.
    var state: UInt8 = 0
    /// Whether the arbiter is in the space's arbiter cache (every arbiter but those of
    /// sleeping bodies).
    var isCached = false
    var contacts: [ContactRecord] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&shapeA)
        c.code(&shapeB)
        c.code(&elasticity)
        c.code(&friction)
        c.code(&surfaceVelocity)
        c.code(&normal)
        c.code(&stamp)
        c.code(&state)
        c.code(&isCached)
        c.code(&contacts)
    }
}

/// One node of a broad-phase tree, in preorder: a leaf names its shape (an index into
/// `shapes`) and has a stamp; an internal node has shape -1 and stamp 0.
struct TreeNodeRecord: SnapshotRecord {
    static let minimumBytes = 4 + 4 + 8 * 4
    var shape: Int32 = -1
    var stamp: UInt32 = 0
    /// The node's box (fields, not an array: a snapshot holds two nodes per shape).
    var left = 0.0, bottom = 0.0, right = 0.0, top = 0.0

    /// The box's four values, l, b, r, t.
    var box: [Double] { [left, bottom, right, top] }

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&shape)
        c.code(&stamp)
        c.code(&left)
        c.code(&bottom)
        c.code(&right)
        c.code(&top)
    }
}

/// One of the engine's `cpBBTree` indexes: its stamp, its leaf set's table size and the
/// order the set visits its leaves in (shape indices), and its nodes in preorder.
struct TreeRecord: SnapshotRecord {
    static let minimumBytes = 4 + 4 + 4 + 4
    var stamp: UInt32 = 0
    var setSize: UInt32 = 0
    var setOrder: [Int32] = []
    var nodes: [TreeNodeRecord] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&stamp)
        c.code(&setSize)
        c.code(&setOrder)
        c.code(&nodes)
    }
}

/// A pair of leaves the tree caches: its a and b shapes and the narrow phase's collision id.
struct TreePairRecord: SnapshotRecord {
    static let minimumBytes = 4 + 4 + 4
    var a: Int32 = 0, b: Int32 = 0
    var id: UInt32 = 0

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&a)
        c.code(&b)
        c.code(&id)
    }
}

/// A shape's leaf's list of cached pairs, in the leaf's order (indices into the pairs).
struct PairListRecord: SnapshotRecord {
    static let minimumBytes = 4
    var pairs: [Int32] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) { c.code(&pairs) }
}

/// The default broad phase's history: both trees, the cached pairs, and one pair list per
/// shape (in `shapes` order).
struct BroadPhaseRecord: SnapshotRecord {
    static let minimumBytes = 2 * TreeRecord.minimumBytes + 4 + 4
    var staticTree = TreeRecord()
    var dynamicTree = TreeRecord()
    var pairs: [TreePairRecord] = []
    var pairLists: [PairListRecord] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        staticTree.code(&c)
        dynamicTree.code(&c)
        c.code(&pairs)
        c.code(&pairLists)
    }
}

/// A cell of a spatial hash's table that holds shapes: its index, and its shapes first to
/// last (shape indices).
struct HashCellRecord: SnapshotRecord {
    static let minimumBytes = 4 + 4
    var cell: UInt32 = 0
    var shapes: [Int32] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&cell)
        c.code(&shapes)
    }
}

/// One of the engine's `cpSpaceHash` indexes: its stamp, its handle set's table size and
/// visiting order (shape indices), and its non-empty cells in increasing order.
struct HashIndexRecord: SnapshotRecord {
    static let minimumBytes = 4 + 4 + 4 + 4
    var stamp: UInt32 = 0
    var setSize: UInt32 = 0
    var setOrder: [Int32] = []
    var cells: [HashCellRecord] = []

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        c.code(&stamp)
        c.code(&setSize)
        c.code(&setOrder)
        c.code(&cells)
    }
}

/// The spatial hash's history: the static and the dynamic hash.
struct SpatialHashRecord: SnapshotRecord {
    static let minimumBytes = 2 * HashIndexRecord.minimumBytes
    var staticHash = HashIndexRecord()
    var dynamicHash = HashIndexRecord()

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) {
        staticHash.code(&c)
        dynamicHash.code(&c)
    }
}

// MARK: The binary encoding

/// Counts the bytes a writer will write, so that it can write into a buffer of that size.
struct SnapshotSizer: SnapshotCoder {
    var count = 0
    mutating func code(_ value: inout UInt8) { count += 1 }
    mutating func code(_ value: inout Bool) { count += 1 }
    mutating func code(_ value: inout UInt32) { count += 4 }
    mutating func code(_ value: inout UInt64) { count += 8 }
    mutating func codeCount(_ count: inout Int, minimumItemBytes: Int) { self.count += 4 }
}

/// Writes into a buffer that a ``SnapshotSizer`` sized: each value stored whole, not byte by
/// byte into a growing array.
struct SnapshotWriter: SnapshotCoder {
    let buffer: UnsafeMutableRawBufferPointer
    private(set) var offset = 0

    init(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) { (self.buffer, self.offset) = (buffer, offset) }

    private mutating func store<T: FixedWidthInteger>(_ value: T) {
        // A sizer that disagreed with the writer would write past the buffer.
        ensure(buffer.count - offset >= MemoryLayout<T>.size, "the snapshot writer outran its sizer")
        buffer.baseAddress!.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }

    mutating func code(_ value: inout Bool) { store(UInt8(value ? 1 : 0)) }
    mutating func code(_ value: inout UInt8) { store(value) }
    mutating func code(_ value: inout UInt32) { store(value) }
    mutating func code(_ value: inout UInt64) { store(value) }
    mutating func codeCount(_ count: inout Int, minimumItemBytes: Int) { store(UInt32(count)) }
}

struct SnapshotReader: SnapshotCoder {
    let bytes: [UInt8]
    var offset: Int
    let end: Int
    /// The first problem met; from then on every value reads as zero and every count as 0.
    private(set) var failure: SnapshotError?

    init(bytes: [UInt8], offset: Int, end: Int) {
        (self.bytes, self.offset, self.end) = (bytes, offset, end)
    }

    /// The offset of `count` bytes to read, or nil (and a failure) when they are not there.
    private mutating func take(_ count: Int) -> Int? {
        guard failure == nil else { return nil }
        guard end - offset >= count else {
            failure = .truncated(offset: offset)
            return nil
        }
        defer { offset += count }
        return offset
    }

    /// The little-endian integer at `start`, which `take` has checked lies within the bytes.
    private func load<T: FixedWidthInteger>(at start: Int) -> T {
        T(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: T.self) })
    }

    mutating func code(_ value: inout UInt8) { value = take(1).map { bytes[$0] } ?? 0 }
    mutating func code(_ value: inout Bool) {
        var byte: UInt8 = 0
        code(&byte)
        if byte > 1, failure == nil { failure = .invalid("a flag at byte \(offset - 1) is \(byte), not 0 or 1") }
        value = byte == 1
    }
    mutating func code(_ value: inout UInt32) {
        guard let start = take(4) else {
            value = 0
            return
        }
        value = load(at: start)
    }
    mutating func code(_ value: inout UInt64) {
        guard let start = take(8) else {
            value = 0
            return
        }
        value = load(at: start)
    }
    mutating func codeCount(_ count: inout Int, minimumItemBytes: Int) {
        var value: UInt32 = 0
        let at = offset
        code(&value)
        guard failure == nil, Int(value) <= (end - offset) / max(minimumItemBytes, 1) else {
            if failure == nil {
                failure = .invalid("a count of \(value) at byte \(at) is more than the remaining bytes can hold")
            }
            count = 0
            return
        }
        count = Int(value)
    }
}

/// FNV-1a 64 over a snapshot's bytes but the last 8, which hold it.
func snapshotChecksum(of bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { FNV1a.hash(UnsafeRawBufferPointer(rebasing: $0[..<($0.count - 8)])) }
}

extension SnapshotState {
    /// The file: magic, format version, the state, then FNV-1a 64 of everything before it.
    func encoded() -> [UInt8] {
        var copy = self
        var sizer = SnapshotSizer()
        copy.code(&sizer)
        // The magic, the version, the records, the checksum.
        let size = Self.magic.count + 4 + sizer.count + 8
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyBytes(from: Self.magic)
            var writer = SnapshotWriter(into: raw, at: Self.magic.count)
            writer.code(&copy.version)
            copy.code(&writer)
            var checksum = FNV1a.hash(UnsafeRawBufferPointer(rebasing: raw[..<writer.offset]))
            writer.code(&checksum)
            ensure(writer.offset == size, "the snapshot writer and its sizer disagree")
            initialized = size
        }
    }

    init(decoding bytes: [UInt8]) throws(SnapshotError) {
        guard bytes.count >= Self.magic.count + 4 + 8, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            throw .notASnapshot
        }
        var reader = SnapshotReader(bytes: bytes, offset: Self.magic.count, end: bytes.count - 8)
        var version: UInt32 = 0
        reader.code(&version)
        guard (Self.oldestReadableVersion...Self.formatVersion).contains(version) else {
            throw .unsupportedVersion(Int(version))
        }
        var trailer = SnapshotReader(bytes: bytes, offset: bytes.count - 8, end: bytes.count)
        var stored: UInt64 = 0
        trailer.code(&stored)
        guard stored == snapshotChecksum(of: bytes) else { throw .checksumMismatch }
        self.init()
        self.version = version
        code(&reader)
        if let failure = reader.failure { throw failure }
        guard reader.offset == reader.end else {
            throw .invalid("\(reader.end - reader.offset) bytes follow the last record")
        }
    }
}
