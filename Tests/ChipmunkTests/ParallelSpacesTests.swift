import Dispatch
import Testing
@testable import Chipmunk

/// Independent spaces on independent threads: the binding shares no state between them,
/// so two worlds built and stepped at once give the same bits as one world alone. Under
/// ThreadSanitizer (scripts/sanitize.sh) this is also the check that nothing races.
@Suite struct ParallelSpacesTests {
    /// A small pyramid with a collision handler and a constraint, stepped 200 times; the
    /// positions and angles of its bodies afterwards.
    private static func world() throws -> [Double] {
        let space = Space()
        space.gravity = [0, -100]
        space.add(Segment(body: space.staticBody, from: [-50, 0], to: [50, 0], radius: 0.5, friction: 1))
        var boxes: [Body] = []
        for row in 0..<6 {
            for column in 0...row {
                let box = Body(mass: 1, moment: Moment.box(mass: 1, width: 1, height: 1))
                box.position = [Double(column) - Double(row) / 2, 7 - Double(row)]
                space.add(box, Polygon.box(body: box, width: 1, height: 1, friction: 0.8))
                boxes.append(box)
            }
        }
        space.add(PivotJoint(a: boxes[0], b: boxes[1], pivot: boxes[0].position))
        var contacts = 0
        space.onCollision(postSolve: { _ in contacts += 1 })
        for _ in 0..<200 { try space.step(1.0 / 120) }
        #expect(contacts > 0)
        return boxes.flatMap { [$0.position.x, $0.position.y, $0.angle] }
    }

    @Test func twoWorldsOnTwoThreadsMatchOneAlone() throws {
        let alone = try Self.world()
        let results = Locked<[[Double]]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let result = (try? Self.world()) ?? []
            results.withLock { $0.append(result) }
        }
        let both = results.withLock { $0 }
        #expect(both.count == 2)
        #expect(both.allSatisfy { $0.map(\.bitPattern) == alone.map(\.bitPattern) })
    }

    /// One snapshot restored into spaces on many threads at once: its check runs once,
    /// shared by every copy of the value, and every space goes on with the original's bits.
    @Test("One snapshot restored on 16 threads at once, unchecked and read from bytes", arguments: [false, true])
    func oneSnapshotRestoredOnManyThreads(read: Bool) throws {
        let space = try SpaceCopyTests.randomWorld(seed: 7)
        for _ in 0..<90 { try space.step(1.0 / 60) }
        let snapshot = read ? try Snapshot(bytes: space.snapshot().bytes) : space.snapshot()
        #expect(snapshot.checkMark.hasPassed == read)
        let copies = Array(repeating: snapshot, count: 16)
        let hashes = Locked([UInt64](repeating: 0, count: copies.count))
        DispatchQueue.concurrentPerform(iterations: copies.count) { i in
            let hash: UInt64
            do {
                let restored = try Space(restoring: copies[i])
                for _ in 0..<30 { try restored.step(1.0 / 60) }
                hash = FNV1a.hash(restored.snapshot().bytes)
            } catch { hash = 1 }
            hashes.withLock { $0[i] = hash }
        }
        for _ in 0..<30 { try space.step(1.0 / 60) }
        let expected = FNV1a.hash(space.snapshot().bytes)
        #expect(hashes.withLock { $0 }.allSatisfy { $0 == expected })
        #expect(snapshot.checkMark.hasPassed)
    }
}
