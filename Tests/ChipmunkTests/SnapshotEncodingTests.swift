import Foundation
import Testing

@testable import Chipmunk

/// The snapshot's writer and reader, its one check, and the capture's address index.
@Suite struct SnapshotEncodingTests {
    /// A small world with every kind of record: shapes of each kind, a constraint, contacts.
    static func world() throws -> Space {
        let space = Space()
        space.gravity = [0, -10]
        space.add(Segment(body: space.staticBody, from: [-10, 0], to: [10, 0], radius: 0.1))
        for i in 0..<6 {
            let body = Body(mass: 1, moment: 1)
            body.position = [Double(i) - 3, 0.6]
            let shape: Shape =
                i.isMultiple(of: 2) ? Circle(body: body, radius: 0.5) : Polygon.box(body: body, width: 1, height: 1)
            space.add(body, shape)
        }
        space.add(PinJoint(a: space.bodies[0], b: space.bodies[1], anchorA: .zero, anchorB: .zero))
        for _ in 0..<30 { try space.step(1.0 / 60) }
        return space
    }

    @Test("The writer gives back, byte for byte, a snapshot file an earlier writer wrote (format version 1)")
    func writerReproducesAStoredFile() throws {
        let url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("../ChipmunkScenesTests/Fixtures/buoyancy-infinite-drag.snapshot")
        let bytes = Array(try #require(FileManager.default.contents(atPath: url.standardizedFileURL.path)))
        let snapshot = try Snapshot(bytes: bytes)
        #expect(snapshot.state.version == 1)
        #expect(snapshot.state.encoded() == bytes)
    }

    @Test("The writer writes exactly the bytes its sizer counted, and the reader reads them all back")
    func writerAndReaderAgree() throws {
        let snapshot = try Self.world().snapshot()
        var sizer = SnapshotSizer()
        var state = snapshot.state
        state.code(&sizer)
        #expect(snapshot.bytes.count == 8 + 4 + sizer.count + 8)
        let read = try Snapshot(bytes: snapshot.bytes)
        #expect(read == snapshot)
        #expect(read.state.encoded() == snapshot.bytes)
    }

    @Test("Bytes that decode but hold what no space holds are refused as they are read")
    func invalidBytesAreRefusedWhenRead() throws {
        var state = try Self.world().snapshot().state
        state.bodies[1].inverseMass = 0
        let bytes = Snapshot(state: state).bytes
        #expect(throws: SnapshotError.self) { try Snapshot(bytes: bytes) }
        #expect(throws: SnapshotError.self) { try Space(restoring: Snapshot(state: state)) }
    }

    /// Values a helper's attack patched into a file, each with its checksum rewritten: a
    /// spatial hash's cell size of 1e-4 (or a ball's radius of 1e6) made the restore walk
    /// 2e11 cells; surface velocities of ±1.7e308 on two shapes, a NaN contact; a gear's
    /// ratio of 1e-170, NaN spins. Each is refused as it is read, naming what is wrong.
    @Test(
        "A shape too large for the hash's cells, a surface velocity or a constraint's value out of its rule is refused")
    func valuesOutsideTheRulesAreRefusedWhenRead() throws {
        let space = try Self.world()
        space.useSpatialHash(cellSize: 2, count: 100)
        try space.step(1.0 / 60)
        let state = space.snapshot().state
        func refusal(_ change: (inout SnapshotState) -> Void) -> String {
            var crafted = state
            change(&crafted)
            do {
                _ = try Snapshot(bytes: Snapshot(state: crafted).bytes)
                return "read"
            } catch { return "\(error)" }
        }
        #expect(refusal { _ in } == "read")
        #expect(
            refusal { $0.space.hashCellSize = 1e-4 }.contains(
                "shape 0 would cover 404202000.0 cells of the spatial hash (cell size 0.0001), more than 1000000"))
        #expect(refusal { $0.space.hashCellSize = 1e-3 }.contains("cells of the spatial hash (cell size 0.001)"))
        #expect(refusal { $0.shapes[1].geometry[2] = 1e6 }.contains("shape 1 would cover"))
        #expect(
            refusal { $0.shapes[1].surfaceVelocity.x = 1.7e308 }.contains(
                "shape 1 has a non-finite or out-of-range value"))
        // Constraint 0 is a pin: anchors, distance, impulse. Each value keeps its setter's rule.
        #expect(
            refusal { $0.constraints[0].values[4] = 1.7e308 }.contains(
                "constraint 0's PinJoint.distance must be from 0 to 1e16 (got 1.7e+308)"))
        #expect(
            refusal { $0.constraints[0].values[0] = -2e15 }.contains(
                "constraint 0's Constraint.anchorA/anchorB must be finite, from -1e15 to 1e15 (got -2000000000000000.0)"
            ))
        #expect(
            refusal { $0.constraints[0].values[5] = .nan }.contains(
                "constraint 0's value 5 (pin) must be finite (got nan)"))
        #expect(
            refusal { $0.constraints[0].errorBias = -0.5 }.contains(
                "constraint 0's Constraint.errorBias must be zero or more, and finite (got -0.5)"))
        #expect(refusal { $0.constraints[0].maxForce = .nan }.contains("constraint 0's Constraint.maxForce must be"))
        func geared(_ values: [Double]) -> String {
            refusal {
                $0.constraints[0].kind = ConstraintKind.gear.rawValue
                $0.constraints[0].values = values
            }
        }
        #expect(geared([0, 1e-170, 1e170, 0]).contains("constraint 0's GearJoint.ratio must be"))
        #expect(geared([0, 3, 0.5, 0]).contains("constraint 0 is a gear of ratio 3.0 and inverse 0.5"))
        #expect(geared([0, 3, 1.0 / 3, 0]) == "read")
    }

    @Test("Every constraint kind names a rule, or none, for each value it stores")
    func everyConstraintValueHasItsRule() {
        for kind in ConstraintKind.allCases {
            #expect(ConstraintFields.parameters(of: kind).count == kind.valueCount, "\(kind)")
        }
    }

    /// A file whose bodies sleep with sleeping off (an infinite threshold), which the API no
    /// longer makes: restored, the engine's next steps would abort.
    @Test("Bodies asleep with sleeping off are refused as they are read")
    func sleepingBodiesWithSleepingOffAreRefused() throws {
        let space = try Self.world()
        space.sleepTimeThreshold = 0.2
        for _ in 0..<120 { try space.step(1.0 / 60) }
        var state = space.snapshot().state
        #expect(!state.sleepingComponents.isEmpty)
        _ = try Snapshot(bytes: Snapshot(state: state).bytes)
        state.space.sleepTimeThreshold = .infinity
        #expect {
            try Snapshot(bytes: Snapshot(state: state).bytes)
        } throws: { error in
            "\(error)".contains("bodies sleep while sleepTimeThreshold is infinite")
        }
    }

    @Test("A snapshot is checked once, and its copies share the check")
    func checkedOnce() throws {
        let space = try Self.world()
        let captured = space.snapshot()
        let copy = captured
        #expect(!captured.checkMark.hasPassed)
        try space.restore(captured)
        #expect(copy.checkMark.hasPassed)
        #expect(try Snapshot(bytes: captured.bytes).checkMark.hasPassed)
        // A state made by hand is checked at its restore, and a bad one refused every time.
        var state = captured.state
        state.bodies[1].inverseMass = 0
        let crafted = Snapshot(state: state)
        for _ in 0..<2 { #expect(throws: SnapshotError.self) { try space.restore(crafted) } }
        #expect(!crafted.checkMark.hasPassed)
    }

    @Test("A pile fits the budget of the space it is restored into, checked at every restore, not at reading")
    func pileFitsTheRestoringSpacesBudget() throws {
        func pile(budget: Int?) -> Space {
            let space = Space()
            space.maxContactPairs = budget
            let body = Body(kind: .kinematic)
            space.add(body)
            for _ in 0..<12 { space.add(Circle(body: body, radius: 1)) }  // 66 pairs on one point
            return space
        }
        let original = pile(budget: 100)
        try original.step(1.0 / 60)
        let snapshot = try Snapshot(bytes: original.snapshot().bytes)  // read: no budget yet
        let tight = pile(budget: 50)
        #expect {
            try tight.restore(snapshot)
        } throws: { error in
            "\(error)".contains("more than 50 pairs of shapes overlap") && "\(error)".contains("Space.maxContactPairs")
        }
        for budget in [100, nil, 66] {
            let roomy = pile(budget: budget)
            try roomy.restore(snapshot)
            try roomy.step(1.0 / 60)
            try original.restore(snapshot)
            try original.step(1.0 / 60)
            #expect(roomy.stateHash() == original.stateHash())
        }
        // A budget below the lowest that passed is checked again, not taken from the mark.
        #expect(snapshot.checkMark.overlapsPassed == 66)
        #expect(throws: SnapshotError.self) { try pile(budget: 65).restore(snapshot) }
    }

    /// Enough shapes to grow the capture's address index and crowd the C capture's pair
    /// map, removed and added between snapshots so that new objects take freed addresses.
    @Test("Snapshots of 1,200 bodies churned between them restore exactly", arguments: [false, true])
    func manyShapesWithReusedAddresses(spatialHash: Bool) throws {
        let space = Space()
        if spatialHash { space.useSpatialHash(cellSize: 1, count: 3000) }
        space.gravity = [0, -10]
        space.sleepTimeThreshold = 0.3
        space.add(
            Segment(body: space.staticBody, from: [-40, 0], to: [40, 0], radius: 0.5),
            Segment(body: space.staticBody, from: [-40, 0], to: [-40, 200], radius: 0.5),
            Segment(body: space.staticBody, from: [40, 0], to: [40, 200], radius: 0.5))
        var random = SplitMix64(seed: 42)
        for i in 0..<1_200 {
            let body = Body(mass: 1, moment: 1)
            body.position = [Double(i % 70) - 35 + Double(random.next() % 100) / 500, 1 + Double(i / 70) * 1.1]
            let shape: Shape =
                random.next().isMultiple(of: 2)
                ? Circle(body: body, radius: 0.45) : Polygon.box(body: body, width: 0.8, height: 0.8)
            space.add(body, shape)
        }
        for round in 0..<3 {
            for _ in 0..<20 { try space.step(1.0 / 60) }
            let leaving = space.bodies.filter { $0.kind == .dynamic && random.next() % 10 == 0 }
            space.remove(contentsOf: leaving.flatMap { $0.shapes as [any SpaceObject] + [$0] })
            for k in leaving.indices {
                let body = Body(mass: 1, moment: 1)
                body.position = [Double(k % 60) - 30, 90 + Double(k / 60)]
                space.add(body, Circle(body: body, radius: 0.4))
            }
            for _ in 0..<3 { try space.step(1.0 / 60) }
            let snapshot = space.snapshot()
            let restored = try Space(restoring: Snapshot(bytes: snapshot.bytes))
            #expect(restored.snapshot() == snapshot, "round \(round)")
            for _ in 0..<10 {
                try space.step(1.0 / 60)
                try restored.step(1.0 / 60)
            }
            #expect(restored.stateHash() == space.stateHash(), "round \(round)")
        }
    }

    @Test("Snapshots are equal when their bytes are, NaN payloads included")
    func equalityIsByBytes() throws {
        let space = try Self.world()
        let a = space.snapshot()
        #expect(a == space.snapshot())
        var state = a.state
        state.bodies[1].torque = .nan
        #expect(Snapshot(state: state) == Snapshot(state: state))
        try space.step(1.0 / 60)
        #expect(a != space.snapshot())
    }

    @Test("PointerIndex finds what a Dictionary finds, through growth and collisions", arguments: [0, 1, 7, 5_000])
    func pointerIndexMatchesDictionary(count: Int) {
        var random = SplitMix64(seed: UInt64(count) + 1)
        var index = PointerIndex(capacity: count / 3)
        var reference: [UInt: Int32] = [:]
        for i in 0..<count {
            // Addresses as the engine's are: aligned, often close together, sometimes far.
            let address = UInt(random.next() % 4096) * 16 + (i.isMultiple(of: 3) ? UInt(random.next() >> 20) << 4 : 0)
            guard address != 0 else { continue }
            let inserted = index.insert(UnsafeRawPointer(bitPattern: address)!, Int32(i))
            #expect(inserted == (reference[address] == nil))
            if reference[address] == nil { reference[address] = Int32(i) }
        }
        #expect(index.count == reference.count)
        for (address, value) in reference { #expect(index[UnsafeRawPointer(bitPattern: address)!] == value) }
        for _ in 0..<1_000 {
            let address = UInt(random.next() | 1)  // odd: no engine object lives there
            #expect(index[UnsafeRawPointer(bitPattern: address)!] == nil)
        }
    }
}
