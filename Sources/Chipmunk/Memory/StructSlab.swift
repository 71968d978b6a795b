internal import CChipmunk

#if canImport(Glibc)
    internal import Glibc
#endif

/// Where the engine's structs live: one slab allocator per C struct type, filled in
/// creation order.
///
/// The C engine allocates each body, shape and constraint with `calloc`. Through the
/// binding, each would then land between the Swift objects allocated with it, and the
/// solver's walk over bodies, shapes and constraints would touch more cache lines and
/// pages than the same walk in a C program. Instead, the binding builds every C object
/// with the engine's `…Init` function (`cpBodyInit`, `cpCircleShapeInit`,
/// `cpPivotJointInit`, …) in a slot of the slab for its type, so all bodies sit side by
/// side in the order they were made, and likewise every kind of shape and constraint.
/// BENCHMARKS.md and docs/memory-layout.md give the figures: this layout makes a step
/// faster than the same world in raw C, where the other layouts measured did not.
///
/// A slab is a list of 256 KiB chunks, each aligned to its size so that a slot finds its
/// chunk, and the chunk its slab, from the address alone. Slots are zeroed like `calloc`'s
/// memory. A chunk whose slots are all free is returned to `malloc`, except one kept
/// per slab against churn. A lock guards each slab, but only creating and freeing an
/// object take it; stepping never does. Each thread allocates from an arena of slabs of
/// its own (``SlabArena``), so worlds built on different threads do not share cache
/// lines while they step.
final class StructSlab: @unchecked Sendable {
    static let chunkBytes = 256 * 1024
    /// The chunk header's size; slots start after it, 16-byte aligned like `malloc`'s.
    private static let headerBytes = 64

    /// Bytes from one slot to the next: the struct's size rounded up to 16. (Rounding to
    /// a cache line, 64, measured slower: the walk then touches more lines.)
    let stride: Int
    private let slotsPerChunk: Int
    /// Guards `state`: taken only to allocate and free.
    private let lock = Lock()
    private var state = State()

    /// Chunk addresses are kept as integers.
    private struct State {
        /// Chunks with a free slot, most recently made or freed into first.
        var partial: [UInt] = []
        /// One empty chunk kept back, so that a world that adds and removes the same few
        /// objects does not return and request a chunk each time.
        var spare: UInt = 0
        var live = 0
        var chunks = 0
    }

    /// A chunk's header: its slab, how many slots are in use, the next never-used slot,
    /// and the free slots, linked through their first word.
    private struct Header {
        unowned(unsafe) var slab: StructSlab
        var live: Int
        var bump: Int
        var free: UnsafeMutableRawPointer?
        var isPartial: Bool
    }

    init<T>(_ type: T.Type) {
        stride = (MemoryLayout<T>.size + 15) & ~15
        slotsPerChunk = (Self.chunkBytes - Self.headerBytes) / stride
        ensure(
            MemoryLayout<Header>.size <= Self.headerBytes,
            "StructSlab: the header outgrew its \(Self.headerBytes) bytes")
    }

    /// The static slabs live as long as the process; a slab made for a test gives its
    /// spare chunk back here (it must hold no live object).
    deinit {
        lock.withLock {
            ensure(state.live == 0, "StructSlab: dropped with \(state.live) objects alive")
            if state.spare != 0 { UnsafeMutableRawPointer(bitPattern: state.spare)!.deallocate() }
        }
    }

    /// Objects of this slab's type alive now.
    var liveObjects: Int { lock.withLock { state.live } }
    /// Chunks held now, the spare among them.
    var chunkCount: Int { lock.withLock { state.chunks } }

    /// A zeroed slot for one `T`, which must be the type this slab was made for.
    func allocate<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        assert((MemoryLayout<T>.size + 15) & ~15 == stride, "StructSlab: \(T.self) allocated from the wrong slab")
        let address = lock.withLock { () -> UInt in
            state.live += 1
            if state.partial.isEmpty {
                let chunk: UnsafeMutableRawPointer
                if state.spare != 0 {
                    chunk = UnsafeMutableRawPointer(bitPattern: state.spare)!
                    state.spare = 0
                } else {
                    chunk = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: Self.chunkBytes)
                    state.chunks += 1
                }
                chunk.initializeMemory(
                    as: Header.self, repeating: Header(slab: self, live: 0, bump: 0, free: nil, isPartial: true),
                    count: 1)
                state.partial.append(UInt(bitPattern: chunk))
            }
            let chunk = UnsafeMutableRawPointer(bitPattern: state.partial.last!)!
            let header = chunk.assumingMemoryBound(to: Header.self)
            let slot: UnsafeMutableRawPointer
            if let free = header.pointee.free {
                slot = free
                header.pointee.free = free.load(as: UnsafeMutableRawPointer?.self)
            } else {
                slot = chunk + Self.headerBytes + header.pointee.bump * stride
                header.pointee.bump += 1
            }
            header.pointee.live += 1
            if header.pointee.free == nil, header.pointee.bump == slotsPerChunk {
                header.pointee.isPartial = false
                state.partial.removeLast()
            }
            return UInt(bitPattern: slot)
        }
        let slot = UnsafeMutableRawPointer(bitPattern: address)!
        slot.initializeMemory(as: UInt8.self, repeating: 0, count: stride)
        return slot.bindMemory(to: T.self, capacity: 1)
    }

    /// Builds a C object of type `T` in a slot with the engine's `…Init` function, and
    /// returns it as its base type (`cpShape`, `cpConstraint`), as C code casts it.
    func build<T, Base>(_ initialize: (UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T>?) -> UnsafeMutablePointer<
        Base
    > {
        UnsafeMutableRawPointer(initialize(allocate(T.self))!).assumingMemoryBound(to: Base.self)
    }

    /// Returns a slot from ``allocate(_:)`` of any slab: the chunk's header names the slab.
    /// The engine's `…Destroy` must have run on the struct first.
    static func release(_ slot: UnsafeMutableRawPointer) {
        slab(of: slot).release(slot, chunk: UInt(bitPattern: slot) & ~UInt(chunkBytes - 1))
    }

    /// The slab a slot from ``allocate(_:)`` came from, named by its chunk's header.
    static func slab(of slot: UnsafeMutableRawPointer) -> StructSlab {
        let chunk = UInt(bitPattern: slot) & ~UInt(chunkBytes - 1)
        return UnsafeMutableRawPointer(bitPattern: chunk)!.assumingMemoryBound(to: Header.self).pointee.slab
    }

    private func release(_ slot: UnsafeMutableRawPointer, chunk: UInt) {
        let slotAddress = UInt(bitPattern: slot)
        lock.withLock {
            let slot = UnsafeMutableRawPointer(bitPattern: slotAddress)!
            let header = UnsafeMutableRawPointer(bitPattern: chunk)!.assumingMemoryBound(to: Header.self)
            state.live -= 1
            slot.storeBytes(of: header.pointee.free, as: UnsafeMutableRawPointer?.self)
            header.pointee.free = slot
            header.pointee.live -= 1
            if !header.pointee.isPartial {
                header.pointee.isPartial = true
                state.partial.append(chunk)
            }
            guard header.pointee.live == 0 else { return }
            // Empty: keep it as the spare, or give it back.
            state.partial.removeAll { $0 == chunk }
            if state.spare == 0 {
                state.spare = chunk
            } else {
                UnsafeMutableRawPointer(bitPattern: chunk)!.deallocate()
                state.chunks -= 1
            }
        }
    }

    /// C objects of every kind alive now, in every arena: 0 once every body, shape and
    /// constraint is freed (checked by `chipmunk-stress` under valgrind, which cannot see
    /// inside a slab).
    static var liveObjects: Int { SlabArena.everyArena.reduce(0) { $0 + $1.liveObjects } }
}

/// A slab for every C struct type. Each thread allocates from one arena, assigned on its
/// first allocation, round robin over ``count`` arenas (as jemalloc assigns its arenas):
/// two worlds built at once on two threads then lie in different chunks, and stepping
/// one never writes to a cache line of the other. An object freed on another thread goes
/// back to its own slab, which its chunk names.
final class SlabArena: Sendable {
    let bodies = StructSlab(cpBody.self)
    let circles = StructSlab(cpCircleShape.self)
    let segments = StructSlab(cpSegmentShape.self)
    let polygons = StructSlab(cpPolyShape.self)
    let pinJoints = StructSlab(cpPinJoint.self)
    let slideJoints = StructSlab(cpSlideJoint.self)
    let pivotJoints = StructSlab(cpPivotJoint.self)
    let grooveJoints = StructSlab(cpGrooveJoint.self)
    let dampedSprings = StructSlab(cpDampedSpring.self)
    let dampedRotarySprings = StructSlab(cpDampedRotarySpring.self)
    let rotaryLimitJoints = StructSlab(cpRotaryLimitJoint.self)
    let ratchetJoints = StructSlab(cpRatchetJoint.self)
    let gearJoints = StructSlab(cpGearJoint.self)
    let simpleMotors = StructSlab(cpSimpleMotor.self)

    /// Every slab of this arena.
    var slabs: [StructSlab] {
        [
            bodies, circles, segments, polygons, pinJoints, slideJoints, pivotJoints, grooveJoints, dampedSprings,
            dampedRotarySprings, rotaryLimitJoints, ratchetJoints, gearJoints, simpleMotors,
        ]
    }

    /// C objects of every kind alive now, made from this arena.
    var liveObjects: Int { slabs.reduce(0) { $0 + $1.liveObjects } }

    /// How many arenas there are; threads beyond this share them.
    static let count = 8
    /// The arenas, made once; like the slabs, they live as long as the process.
    static let all: [SlabArena] = (0..<count).map { _ in SlabArena() }

    /// The arenas of ``objectsLeftAlive(by:)``, kept for good: their chunks name their
    /// slabs unowned, and an object made there may outlive the call.
    nonisolated(unsafe) private static var counting: [SlabArena] = []

    /// The shared arenas and those of ``objectsLeftAlive(by:)``.
    static var everyArena: [SlabArena] { all + assignment.withLock { counting } }

    /// The calling thread's arena, retained by `all` or `counting`, in thread-local
    /// storage (nil: none yet).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        ensure(pthread_key_create(&key, nil) == 0, "SlabArena: pthread_key_create failed")
        return key
    }()
    private static let assignment = Lock()
    nonisolated(unsafe) private static var assigned = 0

    /// The calling thread's arena.
    static var current: SlabArena {
        if let stored = pthread_getspecific(key) {
            return Unmanaged<SlabArena>.fromOpaque(stored).takeUnretainedValue()
        }
        let arena = assignment.withLock {
            defer { assigned += 1 }
            return all[assigned % count]
        }
        pthread_setspecific(key, Unmanaged.passUnretained(arena).toOpaque())
        return arena
    }

    /// Runs `body` with the calling thread making C objects in an arena of its own, and
    /// returns how many of those are alive when it returns. Tests run in parallel, so the
    /// process-wide count moves with other tests' objects; this one counts only the
    /// objects `body` made, wherever they are freed. `body` must not suspend: the arena
    /// belongs to the thread.
    static func objectsLeftAlive(by body: () throws -> Void) rethrows -> Int {
        let arena = SlabArena()
        assignment.withLock { counting.append(arena) }
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(arena).toOpaque())
        defer { pthread_setspecific(key, previous) }
        try body()
        return arena.liveObjects
    }
}
