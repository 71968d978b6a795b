// The snapshot format, version 1: records and their one binary encoding.
//
// docs/snapshots.md is the specification; keep it in step with this file. Every record is
// read and written by one `code(_:)` function, so the reader and the writer cannot drift.

/// Reads or writes one snapshot, field by field, little-endian; doubles as their IEEE 754
/// bit patterns, so every value comes back with the same bits. A writer's `Failure` is
/// `Never`: writing cannot fail, and the compiler knows it.
protocol SnapshotCoder {
    associatedtype Failure: Error
    mutating func code(_ value: inout UInt8) throws(Failure)
    mutating func code(_ value: inout UInt32) throws(Failure)
    mutating func code(_ value: inout UInt64) throws(Failure)
    /// A flag: one byte, 0 or 1 (a reader refuses any other).
    mutating func code(_ value: inout Bool) throws(Failure)
    /// A count of items that follow; a reader checks that `minimumItemBytes` each fit.
    mutating func codeCount(_ count: inout Int, minimumItemBytes: Int) throws(Failure)
}

extension SnapshotCoder {
    mutating func code(_ value: inout Int32) throws(Failure) {
        var bits = UInt32(bitPattern: value)
        try code(&bits)
        value = Int32(bitPattern: bits)
    }

    mutating func code(_ value: inout Double) throws(Failure) {
        var bits = value.bitPattern
        try code(&bits)
        value = Double(bitPattern: bits)
    }

    mutating func code(_ vector: inout SnapshotVector) throws(Failure) {
        try code(&vector.x)
        try code(&vector.y)
    }

    mutating func code(_ values: inout [Double]) throws(Failure) {
        var count = values.count
        try codeCount(&count, minimumItemBytes: 8)
        if values.count != count { values = Array(repeating: 0, count: count) }
        for index in values.indices { try code(&values[index]) }
    }

    mutating func code(_ values: inout [Int32]) throws(Failure) {
        var count = values.count
        try codeCount(&count, minimumItemBytes: 4)
        if values.count != count { values = Array(repeating: 0, count: count) }
        for index in values.indices { try code(&values[index]) }
    }

    mutating func code(_ string: inout String) throws(Failure) {
        var bytes = Array(string.utf8)
        var count = bytes.count
        try codeCount(&count, minimumItemBytes: 1)
        if bytes.count != count { bytes = Array(repeating: 0, count: count) }
        for index in bytes.indices { try code(&bytes[index]) }
        string = String(decoding: bytes, as: UTF8.self)
    }

    mutating func code<Record: SnapshotRecord>(_ records: inout [Record]) throws(Failure) {
        var count = records.count
        try codeCount(&count, minimumItemBytes: Record.minimumBytes)
        if records.count != count { records = Array(repeating: Record(), count: count) }
        for index in records.indices { try records[index].code(&self) }
    }
}

/// A record of the format: built empty, then filled by a reader or written by a writer.
protocol SnapshotRecord: Equatable, Sendable, Codable {
    init()
    /// The fewest bytes one record takes, so that a count can be checked before allocating.
    static var minimumBytes: Int { get }
    mutating func code<Coder: SnapshotCoder>(_ coder: inout Coder) throws(Coder.Failure)
}

/// An (x, y) pair as the format stores it.
struct SnapshotVector: Equatable, Sendable, Codable {
    var x = 0.0
    var y = 0.0
}

/// Everything a snapshot holds, as plain values: the format's data model.
struct SnapshotState: Equatable, Sendable, Codable {
    static let magic = Array("CHIPSNAP".utf8)
    static let formatVersion: UInt32 = 1

    var engineVersion = ""
    var bindingVersion = ""
    var architecture = ""
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
    /// Set when a scene (ChipmunkScenes) made the snapshot: its name or file, its clock,
    /// and how many of its gravity changes it had applied.
    var sceneName = ""
    var sceneTime = 0.0
    var sceneChangesApplied: UInt32 = 0
    var sceneInputsApplied: UInt32 = 0
    /// The scene's names of `Space.bodies`, in order (empty when it names none).
    var sceneBodyNames: [String] = []

    mutating func code<Coder: SnapshotCoder>(_ coder: inout Coder) throws(Coder.Failure) {
        try coder.code(&engineVersion)
        try coder.code(&bindingVersion)
        try coder.code(&architecture)
        try coder.code(&stepsTaken)
        try space.code(&coder)
        try coder.code(&handlers)
        try coder.code(&bodies)
        try coder.code(&shapes)
        try coder.code(&constraints)
        try coder.code(&arbiters)
        try coder.code(&dynamicBodies)
        try coder.code(&staticBodies)
        try coder.code(&sleepingComponents)
        try coder.code(&activeConstraints)
        try coder.code(&activeArbiters)
        try coder.code(&sceneName)
        try coder.code(&sceneTime)
        try coder.code(&sceneChangesApplied)
        try coder.code(&sceneInputsApplied)
        var nameCount = sceneBodyNames.count
        try coder.codeCount(&nameCount, minimumItemBytes: 4)
        if sceneBodyNames.count != nameCount { sceneBodyNames = Array(repeating: "", count: nameCount) }
        for index in sceneBodyNames.indices { try coder.code(&sceneBodyNames[index]) }
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
    var canonicalBroadPhase = false
    var nextSerial: UInt64 = 0

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) throws(Coder.Failure) {
        try c.code(&iterations)
        try c.code(&gravity)
        try c.code(&damping)
        try c.code(&idleSpeedThreshold)
        try c.code(&sleepTimeThreshold)
        try c.code(&collisionSlop)
        try c.code(&collisionBias)
        try c.code(&collisionPersistence)
        try c.code(&stamp)
        try c.code(&currentTimeStep)
        try c.code(&shapeIDCounter)
        try c.code(&usesWildcards)
        try c.code(&broadPhase)
        try c.code(&hashCellSize)
        try c.code(&hashCount)
        try c.code(&canonicalBroadPhase)
        try c.code(&nextSerial)
    }
}

/// A collision handler's wiring: which collision types it handles (closures stay behind).
struct HandlerRecord: SnapshotRecord {
    static let minimumBytes = 16
    var typeA: UInt64 = 0
    var typeB: UInt64 = 0

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) throws(Coder.Failure) {
        try c.code(&typeA)
        try c.code(&typeB)
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

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) throws(Coder.Failure) {
        try c.code(&kind)
        try c.code(&serial)
        try c.code(&mass)
        try c.code(&inverseMass)
        try c.code(&moment)
        try c.code(&inverseMoment)
        try c.code(&centerOfGravity)
        try c.code(&position)
        try c.code(&velocity)
        try c.code(&force)
        try c.code(&angle)
        try c.code(&angularVelocity)
        try c.code(&torque)
        for index in 0..<6 {
            if transform.count != 6 { transform = [1, 0, 0, 1, 0, 0] }
            try c.code(&transform[index])
        }
        try c.code(&velocityBias)
        try c.code(&angularVelocityBias)
        try c.code(&idleTime)
        try c.code(&sleepingRoot)
        try c.code(&sleepingNext)
        try c.code(&shapeList)
        try c.code(&arbiterList)
        try c.code(&constraintList)
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

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) throws(Coder.Failure) {
        try c.code(&kind)
        try c.code(&serial)
        try c.code(&body)
        try c.code(&hashID)
        try c.code(&isSensor)
        try c.code(&elasticity)
        try c.code(&friction)
        try c.code(&surfaceVelocity)
        try c.code(&collisionType)
        try c.code(&group)
        try c.code(&categories)
        try c.code(&mask)
        try c.code(&mass)
        try c.code(&moment)
        try c.code(&massCenter)
        try c.code(&area)
        for index in 0..<4 {
            if bb.count != 4 { bb = [0, 0, 0, 0] }
            try c.code(&bb[index])
        }
        try c.code(&geometry)
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

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) throws(Coder.Failure) {
        try c.code(&kind)
        try c.code(&serial)
        try c.code(&bodyA)
        try c.code(&bodyB)
        try c.code(&maxForce)
        try c.code(&errorBias)
        try c.code(&maxBias)
        try c.code(&collideBodies)
        try c.code(&values)
    }
}

struct ContactRecord: SnapshotRecord {
    static let minimumBytes = 8 * 12
    var r1 = SnapshotVector(), r2 = SnapshotVector()
    var normalMass = 0.0, tangentMass = 0.0, bounce = 0.0
    var normalImpulse = 0.0, tangentImpulse = 0.0, biasImpulse = 0.0, bias = 0.0
    var hash: UInt64 = 0

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) throws(Coder.Failure) {
        try c.code(&r1)
        try c.code(&r2)
        try c.code(&normalMass)
        try c.code(&tangentMass)
        try c.code(&bounce)
        try c.code(&normalImpulse)
        try c.code(&tangentImpulse)
        try c.code(&biasImpulse)
        try c.code(&bias)
        try c.code(&hash)
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

    mutating func code<Coder: SnapshotCoder>(_ c: inout Coder) throws(Coder.Failure) {
        try c.code(&shapeA)
        try c.code(&shapeB)
        try c.code(&elasticity)
        try c.code(&friction)
        try c.code(&surfaceVelocity)
        try c.code(&normal)
        try c.code(&stamp)
        try c.code(&state)
        try c.code(&isCached)
        try c.code(&contacts)
    }
}

// MARK: The binary encoding

struct SnapshotWriter: SnapshotCoder {
    typealias Failure = Never
    var bytes: [UInt8] = []

    mutating func code(_ value: inout Bool) {
        var byte: UInt8 = value ? 1 : 0
        code(&byte)
    }
    mutating func code(_ value: inout UInt8) { bytes.append(value) }
    mutating func code(_ value: inout UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
    mutating func code(_ value: inout UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
    mutating func codeCount(_ count: inout Int, minimumItemBytes: Int) {
        var value = UInt32(count)
        code(&value)
    }
}

struct SnapshotReader: SnapshotCoder {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    private mutating func take(_ count: Int) throws(SnapshotError) -> Int {
        guard end - offset >= count else { throw .truncated(offset: offset) }
        defer { offset += count }
        return offset
    }

    mutating func code(_ value: inout UInt8) throws(SnapshotError) { value = bytes[try take(1)] }
    mutating func code(_ value: inout Bool) throws(SnapshotError) {
        var byte: UInt8 = 0
        try code(&byte)
        guard byte <= 1 else { throw .invalid("a flag at byte \(offset - 1) is \(byte), not 0 or 1") }
        value = byte == 1
    }
    mutating func code(_ value: inout UInt32) throws(SnapshotError) {
        let start = try take(4)
        value = (0..<4).reduce(0) { $0 | UInt32(bytes[start + $1]) << UInt32(8 * $1) }
    }
    mutating func code(_ value: inout UInt64) throws(SnapshotError) {
        let start = try take(8)
        value = (0..<8).reduce(0) { $0 | UInt64(bytes[start + $1]) << UInt64(8 * $1) }
    }
    mutating func codeCount(_ count: inout Int, minimumItemBytes: Int) throws(SnapshotError) {
        var value: UInt32 = 0
        let at = offset
        try code(&value)
        guard Int(value) <= (end - offset) / max(minimumItemBytes, 1) else {
            throw .invalid("a count of \(value) at byte \(at) is more than the remaining bytes can hold")
        }
        count = Int(value)
    }
}

/// FNV-1a 64 over bytes, the snapshot's trailing checksum.
func snapshotChecksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

extension SnapshotState {
    /// The file: magic, format version, the state, then FNV-1a 64 of everything before it.
    func encoded() -> [UInt8] {
        var writer = SnapshotWriter()
        writer.bytes.reserveCapacity(4096)
        writer.bytes += Self.magic
        var version = Self.formatVersion
        writer.code(&version)
        var copy = self
        copy.code(&writer)
        var checksum = snapshotChecksum(writer.bytes[...])
        writer.code(&checksum)
        return writer.bytes
    }

    init(decoding bytes: [UInt8]) throws(SnapshotError) {
        guard bytes.count >= Self.magic.count + 4 + 8, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            throw .notASnapshot
        }
        var reader = SnapshotReader(bytes: bytes, offset: Self.magic.count, end: bytes.count - 8)
        var version: UInt32 = 0
        try reader.code(&version)
        guard version == Self.formatVersion else { throw .unsupportedVersion(Int(version)) }
        var trailer = SnapshotReader(bytes: bytes, offset: bytes.count - 8, end: bytes.count)
        var stored: UInt64 = 0
        try trailer.code(&stored)
        guard stored == snapshotChecksum(bytes[..<(bytes.count - 8)]) else { throw .checksumMismatch }
        self.init()
        try code(&reader)
        guard reader.offset == reader.end else {
            throw .invalid("\(reader.end - reader.offset) bytes follow the last record")
        }
    }
}
