import Foundation
import Testing
@testable import Chipmunk
import CChipmunk

/// The slabs that hold the engine's structs (see docs/memory-layout.md). Tests run in
/// parallel, so these read only the slots they allocate, never the global counts.
@Suite struct StructSlabTests {
    @Test func slotsAreZeroedInCreationOrderAndReusedLastFreedFirst() {
        let slab = StructSlab(cpGearJoint.self)  // a slab of its own: no other test allocates here
        let slots = (0..<3).map { _ in slab.allocate(cpGearJoint.self) }
        for (a, b) in zip(slots, slots.dropFirst()) {
            #expect(UnsafeMutableRawPointer(b) - UnsafeMutableRawPointer(a) == slab.stride, "creation order")
        }
        #expect(UnsafeRawBufferPointer(start: slots[1], count: slab.stride).allSatisfy { $0 == 0 }, "zeroed")
        UnsafeMutableRawPointer(slots[1]).storeBytes(of: 0xFF, as: UInt8.self)
        StructSlab.release(slots[1])
        let again = slab.allocate(cpGearJoint.self)
        #expect(again == slots[1], "the slot freed last is reused first")
        #expect(UnsafeRawBufferPointer(start: again, count: slab.stride).allSatisfy { $0 == 0 }, "and zeroed again")
        #expect(slab.liveObjects == 3)
        for slot in [slots[0], again, slots[2]] { StructSlab.release(slot) }
        #expect(slab.liveObjects == 0)
    }

    @Test func emptyChunksGoBackButOne() {
        let slab = StructSlab(cpPolyShape.self)
        let perChunk = (StructSlab.chunkBytes - 64) / slab.stride
        var slots = (0..<(3 * perChunk + 1)).map { _ in slab.allocate(cpPolyShape.self) }
        #expect(slab.chunkCount == 4)
        for slot in slots { StructSlab.release(slot) }
        #expect(slab.liveObjects == 0)
        #expect(slab.chunkCount == 1, "one empty chunk is kept against churn")
        slots = (0..<10).map { _ in slab.allocate(cpPolyShape.self) }
        #expect(slab.chunkCount == 1, "and reused")
        for slot in slots { StructSlab.release(slot) }
    }

    @Test func slotsAreSixteenByteAlignedAndFindTheirSlab() {
        for slab in SlabArena.current.slabs {
            #expect(slab.stride % 16 == 0)
        }
        let body = Body(mass: 1, moment: 1)
        #expect(UInt(bitPattern: body.handle) % 16 == 0)
        let shape = Circle(body: body, radius: 1)
        #expect(UInt(bitPattern: shape.handle) % 16 == 0)
    }

    @Test func aThousandObjectsComeAndGo() throws {
        // Enough polygons to fill more than one chunk (608-byte slots, 256 KiB chunks).
        let space = Space()
        var shapes: [Polygon] = []
        for i in 0..<1000 {
            let body = Body(mass: 1, moment: 1)
            body.position = [Double(i % 40) * 2, Double(i / 40) * 2]
            space.add(body)
            let box = Polygon.box(body: body, width: 1, height: 1)
            space.add(box)
            shapes.append(box)
        }
        try space.step(1.0 / 60)
        for shape in shapes.prefix(500) {
            space.remove(shape)
            space.remove(shape.body)
        }
        shapes.removeFirst(500)
        try space.step(1.0 / 60)
    }

    @Test func threadsAllocateAtOnce() async {
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var bodies: [Body] = []
                    for _ in 0..<2000 { bodies.append(Body(mass: 1, moment: 1)) }
                    bodies.removeLast(1000)
                    return bodies.count
                }
            }
            for await count in group { #expect(count == 1000) }
        }
    }

    /// Each thread allocates from an arena of its own (up to 8 threads), so that worlds
    /// built at once on two threads do not share chunks, nor cache lines.
    @Test func aThreadAllocatesFromItsOwnArena() async {
        let here = Body(mass: 1, moment: 1)
        #expect(StructSlab.slab(of: here.handle) === SlabArena.current.bodies)
        let thread = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let worker = Thread {
                let there = Body(mass: 1, moment: 1)
                done.resume(returning: StructSlab.slab(of: there.handle) === SlabArena.current.bodies)
            }
            worker.start()
        }
        #expect(thread)
        #expect(SlabArena.current === SlabArena.current, "a thread keeps its arena")
    }
}
