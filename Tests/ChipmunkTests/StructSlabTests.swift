import Testing
@testable import Chipmunk
import CChipmunk

/// The slabs that hold the engine's structs (see docs/memory-layout.md). Tests run in
/// parallel, so these read only the slots they allocate, never the global counts.
@Suite struct StructSlabTests {
    @Test func slotsAreZeroedInCreationOrderAndReusedLastFreedFirst() {
        let slab = StructSlab.gearJoints
        let first = slab.allocate(cpGearJoint.self)
        let second = slab.allocate(cpGearJoint.self)  // keeps the chunk in use
        let bytes = UnsafeRawBufferPointer(start: first, count: slab.stride)
        #expect(bytes.allSatisfy { $0 == 0 }, "zeroed like calloc's memory")
        UnsafeMutableRawPointer(first).storeBytes(of: 0xFF, as: UInt8.self)
        StructSlab.release(first)
        let again = slab.allocate(cpGearJoint.self)
        #expect(again == first, "the slot freed last is reused first")
        #expect(UnsafeRawBufferPointer(start: again, count: slab.stride).allSatisfy { $0 == 0 }, "and zeroed again")
        StructSlab.release(again)
        StructSlab.release(second)
    }

    @Test func slotsAreSixteenByteAlignedAndFindTheirSlab() {
        for slab in StructSlab.all {
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
        // Bodies made in a row sit side by side.
        let a = UInt(bitPattern: shapes[10].body.handle)
        let b = UInt(bitPattern: shapes[11].body.handle)
        #expect(b > a && b - a < 4 * UInt(StructSlab.bodies.stride), "neighbours, unless another test allocated between")
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
}
