import Foundation
import Testing

@testable import Chipmunk

/// The fast path for rollback: ``SpaceState``, ``Space/save(into:)`` and
/// ``Space/restore(_:)-(SpaceState)``, on the broad-phase test's pile (boxes that sleep, are
/// woken newest first, lose a shape and gain one), in both broad phases.
@Suite struct SpaceStateTests {
    typealias Index = SnapshotBroadPhaseTests.Index

    /// Knocks the pile about: kicks a body (waking it and its neighbours), changes a
    /// shape's friction and the gravity, every third step takes a box out and drops a new
    /// ball in, and steps three times.
    static func elsewhere(_ space: Space, _ step: Int) throws {
        let body = space.bodies[step % space.bodies.count]
        body.velocity += [7, 11]
        space.shapes[step % space.shapes.count].friction = 0.123
        space.gravity = [1, -30]
        if step % 3 == 0 {
            let victim = space.bodies[(step / 3) % space.bodies.count]
            space.remove(contentsOf: victim.shapes as [any SpaceObject] + [victim])
            let ball = Body(mass: 1, moment: 0.1)
            ball.position = [0, 9]
            space.add(ball, Circle(body: ball, radius: 0.5))
        }
        for _ in 0..<3 { try space.step(1.0 / 60) }
    }

    @Test(
        "Saved and restored at every step of 600, after steps elsewhere, the pile continues with the uninterrupted run's bits",
        arguments: Index.allCases)
    func rollbackAtEveryStep(index: Index) throws {
        let difference = try Self.firstRollbackDifference(
            try SnapshotBroadPhaseTests.world(index), beside: try SnapshotBroadPhaseTests.world(index), steps: 600,
            whole: false)
        #expect(difference == nil)
    }

    /// Saves `space` before each of `steps` steps, steps it elsewhere, restores and steps
    /// it, beside `reference` stepped alike: the first difference, or nil. `whole`: what
    /// every save must have done with the dynamic tree.
    static func firstRollbackDifference(_ space: Space, beside reference: Space, steps: Int, whole: Bool? = nil)
        throws -> String?
    {
        var state = SpaceState()
        for step in 0..<steps {
            let before = space.snapshot()
            space.save(into: &state)
            if let whole, state.savedTreeWhole != whole {
                return "step \(step): the tree was \(whole ? "not " : "")saved whole"
            }
            try elsewhere(space, step)
            try space.restore(state)
            // Level 1: everything a snapshot holds, the broad phase's history included.
            guard space.snapshot().bytes == before.bytes else {
                return "step \(step): the restored space's snapshot differs from the saved one"
            }
            try space.step(1.0 / 60)
            try reference.step(1.0 / 60)
            guard space.stateHash() == reference.stateHash() else {
                return "step \(step + 1): the rolled-back run differs from the uninterrupted one"
            }
        }
        return nil
    }

    @Test("A ring of 9 states, 8 frames back at every frame: the re-simulated frames match the first pass")
    func ringOfStates() throws {
        let space = try SnapshotBroadPhaseTests.world(.tree)
        var ring = Array(repeating: SpaceState(), count: 9)
        var hashes: [UInt64] = []
        for frame in 0..<400 {
            space.save(into: &ring[frame % 9])
            try space.step(1.0 / 60)
            hashes.append(space.stateHash())
            if frame >= 8 {
                try space.restore(ring[(frame - 7) % 9])
                #expect(space.stepsTaken == ring[(frame - 7) % 9].stepsTaken)
                for k in (frame - 7)...frame {
                    try space.step(1.0 / 60)
                    guard space.stateHash() == hashes[k] else {
                        Issue.record("frame \(k) differs when re-simulated from frame \(frame - 7)")
                        return
                    }
                }
            }
        }
    }

    /// On the spatial hash a state keeps a snapshot, whose restore refused a kind changed
    /// since ("body 4 is kinematic here but not in the snapshot": a helper's attack).
    @Test(
        "A body's kind changed and a sleeping pile woken since the save come back as they were",
        arguments: Index.allCases)
    func kindAndSleep(index: Index) throws {
        let space = try SnapshotBroadPhaseTests.world(index)
        space.sleepTimeThreshold = 0.2
        for _ in 0..<400 { try space.step(1.0 / 60) }
        var state = SpaceState()
        let before = space.snapshot()
        space.save(into: &state)
        space.bodies[3].kind = .kinematic
        for body in space.bodies { body.activate() }
        for _ in 0..<5 { try space.step(1.0 / 60) }
        try space.restore(state)
        #expect(
            space.snapshot().bytes == before.bytes ? true : false, "the restored space's snapshot equals the saved one")
        #expect(space.bodies[3].kind == .dynamic)
    }

    @Test("A state does not restore into another space, or an empty one; the space is unchanged")
    func mismatches() throws {
        let space = try SnapshotBroadPhaseTests.world(.tree)
        let other = try SnapshotBroadPhaseTests.world(.tree)
        var state = SpaceState()
        #expect(state.isEmpty)
        #expect(throws: SnapshotError.self) { try space.restore(state) }
        space.save(into: &state)
        #expect(!state.isEmpty)
        #expect(state.byteCount > 0)
        let before = other.snapshot()
        #expect(throws: SnapshotError.self) { try other.restore(state) }
        #expect(other.snapshot().bytes == before.bytes ? true : false, "the other space is unchanged")
        // A broad phase rebuilt by a snapshot's restore: the state no longer fits.
        try space.restore(space.snapshot())
        #expect(throws: SnapshotError.self) { try space.restore(state) }
        // However often it is rebuilt, though the new index structs often take the old
        // ones' addresses (which the check compared, and then the engine refused the state).
        let snapshot = space.snapshot()
        for rebuild in 1...40 {
            if rebuild % 2 == 0 { space.useSpatialHash(cellSize: 2, count: 1000) } else { try space.restore(snapshot) }
            #expect(throws: SnapshotError.self) { try space.restore(state) }
        }
    }

    /// On the spatial hash, the snapshot a state keeps made new objects for those removed
    /// since, and the user's stayed out of the space (a helper's attack).
    @Test(
        "Objects added since the save go, objects removed since come back, and the run continues exactly",
        arguments: Index.allCases)
    func addedAndRemoved(index: Index) throws {
        let reference = try SnapshotBroadPhaseTests.world(index)
        let space = try SnapshotBroadPhaseTests.world(index)
        let pinned = Body(mass: 1, moment: 1)
        pinned.position = [0, 8]
        space.add(pinned, Circle(body: pinned, radius: 0.4))
        space.add(PivotJoint(a: space.staticBody, b: pinned, pivot: [0, 9]))
        let same = Body(mass: 1, moment: 1)
        same.position = [0, 8]
        reference.add(same, Circle(body: same, radius: 0.4))
        reference.add(PivotJoint(a: reference.staticBody, b: same, pivot: [0, 9]))
        for _ in 0..<20 {
            try space.step(1.0 / 60)
            try reference.step(1.0 / 60)
        }
        var state = SpaceState()
        let before = space.snapshot()
        space.save(into: &state)
        // Out go a box, the pinned body with its shape and joint; in comes a new body.
        space.remove(space.constraints[0], pinned.shapes[0], pinned)
        let box = space.bodies[5]
        space.remove(box.shapes[0], box)
        let newcomer = Body(mass: 2, moment: 2)
        space.add(newcomer, Circle(body: newcomer, radius: 1))
        for _ in 0..<10 { try space.step(1.0 / 60) }
        try space.restore(state)
        #expect(
            space.snapshot().bytes == before.bytes ? true : false, "the restored space's snapshot equals the saved one")
        #expect(newcomer.space == nil && pinned.space === space && box.space === space)
        #expect(try SnapshotBroadPhaseTests.firstDifference(space, reference, steps: 300) == nil)
    }

    /// A state saved after a shape left the space took the shapes' settings recorded for the
    /// list before (no setting had changed), paired them by position, and a restore gave the
    /// box the circle's geometry: `Index out of range` (a helper's attack). A shape added
    /// since the last record and then changed kept its change.
    @Test(
        "A state saved after a shape left or joined the space restores those shapes' own settings",
        arguments: Index.allCases)
    func settingsOfTheShapesSaved(index: Index) throws {
        let space = try SnapshotBroadPhaseTests.world(index)
        var first = SpaceState()
        space.save(into: &first)
        let circle = try #require(space.shapes.first { $0 is Circle })
        space.remove(circle)
        var second = SpaceState()
        let before = space.snapshot()
        space.save(into: &second)
        for shape in space.shapes { shape.friction = 0.9 }
        try space.restore(second)
        #expect(space.snapshot().bytes == before.bytes ? true : false, "the settings of the shapes saved")
        // A shape joins, a state is saved, the shape changes: the restore undoes the change.
        let ball = Body(mass: 1, moment: 0.1)
        ball.position = [0, 12]
        let added = Circle(body: ball, radius: 0.5, friction: 0.2)
        space.add(ball, added)
        var third = SpaceState()
        let withBall = space.snapshot()
        space.save(into: &third)
        added.friction = 0.8
        try space.restore(third)
        #expect(added.friction == 0.2)
        #expect(space.snapshot().bytes == withBall.bytes ? true : false)
        try space.restore(first)
        #expect(circle.space === space)
    }

    /// A shape's settings changed while it was out of the space, where no change is noted,
    /// stayed changed when a restore put it back (a helper's attack).
    @Test("A shape changed while out of the space comes back as it was saved", arguments: Index.allCases)
    func shapeChangedOutOfTheSpace(index: Index) throws {
        let space = try SnapshotBroadPhaseTests.world(index)
        var state = SpaceState()
        let before = space.snapshot()
        space.save(into: &state)
        let shape = space.shapes[2]
        let friction = shape.friction
        space.remove(shape)
        shape.friction = 0.95
        shape.elasticity = 0.5
        shape.filter = ShapeFilter(group: 3)
        try space.restore(state)
        #expect(shape.space === space && shape.friction == friction)
        #expect(space.snapshot().bytes == before.bytes ? true : false)
    }

    /// Rollback with inputs that add and remove bodies, change kinds, kick bodies and change
    /// frictions, every so many frames: each frame simulated again gives the first pass's
    /// hash, in both broad phases (the adds and removes broke it at frame 435 until the
    /// settings record was kept per list of shapes).
    @Test(
        "A ring of 9 states with inputs that add, remove and change objects: frames simulated again match",
        arguments: Index.allCases)
    func ringWithInputs(index: Index) throws {
        let space = try SnapshotBroadPhaseTests.world(index)
        func input(frame f: Int) {
            if f % 17 == 0 {
                let ball = Body(mass: 0.7, moment: 0.1)
                ball.position = [Double(f % 9) - 4, 14]
                space.add(ball, Circle(body: ball, radius: 0.35, collisionType: 9))
            }
            if f % 23 == 0, let victim = space.shapes.first(where: { $0.collisionType == 9 }) {
                let body = victim.body
                space.remove(contentsOf: body.shapes as [any SpaceObject] + [body])
            }
            if f % 29 == 0,
                let body = space.bodies.first(where: { $0.constraints.isEmpty && $0.shapes.first is Polygon })
            {
                body.kind = body.kind == .dynamic ? .kinematic : .dynamic
                if body.kind == .dynamic, body.mass == 0 {
                    body.mass = 1
                    body.moment = 0.3
                }
            }
            if f % 11 == 0 { space.bodies[f % space.bodies.count].velocity += [1, 3] }
            if f % 31 == 0 { space.shapes[f % space.shapes.count].friction = Double(f % 7) / 7 }
        }
        var ring = Array(repeating: SpaceState(), count: 9)
        var hashes: [Int: UInt64] = [:]
        var rng = SplitMix64(seed: 99)
        var rollbacks = 0
        var frame = 0
        while frame < (index == .tree ? 600 : 240) {
            space.save(into: &ring[frame % 9])
            input(frame: frame)
            try space.step(1.0 / 60)
            frame += 1
            hashes[frame] = space.stateHash()
            guard frame > 9, rng.next() % 2 == 0 else { continue }
            var f = frame - 1 - Int(rng.next() % 8)
            try space.restore(ring[f % 9])
            while f < frame {
                space.save(into: &ring[f % 9])
                input(frame: f)
                try space.step(1.0 / 60)
                f += 1
                guard space.stateHash() == hashes[f] else {
                    Issue.record("frame \(f) differs, simulated again at frame \(frame)")
                    return
                }
            }
            rollbacks += 1
        }
        #expect(rollbacks > 50)
    }

    @Test("A copy of a state shares nothing with the state saved into next")
    func valueSemantics() throws {
        let space = try SnapshotBroadPhaseTests.world(.tree)
        var state = SpaceState()
        space.save(into: &state)
        let kept = state
        let keptBytes = space.snapshot().bytes
        try space.step(1.0 / 60)
        space.save(into: &state)
        try space.restore(kept)
        #expect(space.snapshot().bytes == keptBytes ? true : false, "the kept state restores")
    }

    @Test("copy() continues with the original's bits")
    func copyContinues() throws {
        let space = try SnapshotBroadPhaseTests.world(.tree)
        let copy = space.copy()
        #expect(copy.bodies.count == space.bodies.count)
        #expect(try SnapshotBroadPhaseTests.firstDifference(space, copy, steps: 300) == nil)
    }

    @Test(
        "copy() of the crowd (a full tree, crates asleep) every 40 steps: the copy's snapshot is the original's, and it continues exactly"
    )
    func copyCrowd() throws {
        let space = try Self.crowd()
        for _ in 0..<5 {
            let copy = space.copy()
            #expect(copy.snapshot().bytes == space.snapshot().bytes ? true : false, "the copy's snapshot")
            #expect(copy.bodies.filter(\.isSleeping).count == space.bodies.filter(\.isSleeping).count)
            #expect(try SnapshotBroadPhaseTests.firstDifference(space, copy, steps: 40) == nil)
        }
    }

    /// Every kind of constraint, an octagon (its planes outside the shape's struct), a
    /// kinematic and a static body of the user's, and pair, wildcard and default handlers
    /// whose closures accept every contact.
    static func assortment() throws -> Space {
        let space = Space()
        space.gravity = [0, -10]
        let crate: CollisionType = 7
        let ball: CollisionType = 9
        space.collisionHandler(between: crate, and: ball).begin = { _ in true }
        space.wildcardCollisionHandler(for: ball).preSolve = { _ in true }
        space.defaultCollisionHandler.postSolve = { _ in }
        space.add(Segment(body: space.staticBody, from: [-40, 0], to: [40, 0], radius: 0.2))
        let ledge = Body(kind: .static)
        let lift = Body(kind: .kinematic)
        lift.velocity = [0, 0.5]
        space.add(
            ledge, Segment(body: ledge, from: [20, 5], to: [30, 5], radius: 0.1), lift,
            Polygon.box(body: lift, width: 4, height: 0.5))
        var bodies: [Body] = []
        for i in 0..<24 {
            let body = Body(mass: 1, moment: 1)
            body.position = [Double(i % 8) * 2.2 - 8, 1 + Double(i / 8) * 2.2]
            let shape: Shape
            switch i % 3 {
            case 0:
                let octagon = (0..<8).map { k in Vector(x: cos(Double(k) * .pi / 4), y: sin(Double(k) * .pi / 4)) }
                shape = Polygon(body: body, vertices: octagon, friction: 0.7, collisionType: crate)
            case 1: shape = Circle(body: body, radius: 0.9, friction: 0.5, collisionType: ball)
            default: shape = Polygon.box(body: body, width: 1.6, height: 1.2, friction: 0.6)
            }
            space.add(body, shape)
            bodies.append(body)
        }
        let b = bodies
        space.add(
            PinJoint(a: b[0], b: b[1]), SlideJoint(a: b[1], b: b[2], min: 1, max: 3),
            PivotJoint(a: b[2], b: b[3], pivot: b[2].position),
            GrooveJoint(a: b[3], b: b[4], grooveA: [0, 0], grooveB: [2, 0]),
            DampedSpring(a: b[4], b: b[5], restLength: 2, stiffness: 40, damping: 1),
            DampedRotarySpring(a: b[5], b: b[6], restAngle: 0.3, stiffness: 20, damping: 1),
            RotaryLimitJoint(a: b[6], b: b[7], angle: -0.5...0.5),
            RatchetJoint(a: b[8], b: b[9], phase: 0, ratchet: 0.4),
            GearJoint(a: b[9], b: b[10], phase: 0, ratio: 2), SimpleMotor(a: b[11], b: space.staticBody, rate: 1),
            PinJoint(a: b[12], b: ledge, anchorB: [25, 5]))
        for _ in 0..<60 { try space.step(1.0 / 60) }
        return space
    }

    @Test(
        "copy() of every kind of constraint, shape, body and handler: the same snapshot, the same run, and independent of the original"
    )
    func copyAssortment() throws {
        var space: Space? = try Self.assortment()
        let copy = space!.copy()
        #expect(copy.snapshot().bytes == space!.snapshot().bytes ? true : false, "the copy's snapshot")
        let copyOfCopy = copy.copy()
        #expect(try SnapshotBroadPhaseTests.firstDifference(space!, copy, steps: 200) == nil)
        // The original gone, its copy's copy runs on alone to where the copy is.
        space = nil
        for _ in 0..<200 { try copyOfCopy.step(1.0 / 60) }
        #expect(copyOfCopy.snapshot().bytes == copy.snapshot().bytes ? true : false, "the copy of the copy")
    }

    /// Balls packed in a box, dense enough that a save copies the dynamic tree's buffers
    /// whole, and crates asleep on a ledge.
    static func crowd() throws -> Space {
        let space = Space()
        space.gravity = [0, -10]
        space.sleepTimeThreshold = 0.3
        let walls: [(Vector, Vector)] = [([-12, 0], [12, 0]), ([-12, 0], [-12, 60]), ([12, 0], [12, 60])]
        for (a, b) in walls { space.add(Segment(body: space.staticBody, from: a, to: b, radius: 0.1)) }
        for i in 0..<300 {
            let ball = Body(mass: 1, moment: 0.2)
            ball.position = [Double(i % 20) - 9.5 + Double(i / 20 % 2) * 0.25, 0.6 + Double(i / 20) * 0.95]
            space.add(ball, Circle(body: ball, radius: 0.5))
        }
        // Apart, on a ledge of their own, crates that fall asleep (their shapes move to the
        // static tree, their arbiters to their bodies).
        space.add(Segment(body: space.staticBody, from: [80, 0], to: [120, 0], radius: 0.1))
        for i in 0..<8 {
            let crate = Body(mass: 1, moment: 1)
            crate.position = [82 + Double(i) * 4, 0.6]
            space.add(crate, Polygon.box(body: crate, width: 1, height: 1, friction: 0.8))
        }
        for _ in 0..<30 { try space.step(1.0 / 60) }
        return space
    }

    /// Pours 700 balls onto the crowd in a heap, so the tree allocates buffers of nodes and
    /// of pairs beyond those the save copied, and steps.
    static func pour(into space: Space) throws {
        for i in 0..<700 {
            let ball = Body(mass: 1, moment: 0.2)
            ball.position = [Double(i % 35) * 0.6 - 10.5, 16 + Double(i / 35) * 0.6]
            space.add(ball, Circle(body: ball, radius: 0.45))
        }
        for _ in 0..<4 { try space.step(1.0 / 60) }
    }

    @Test("A tree saved whole: restored at every step of 120, after steps elsewhere, the crowd continues exactly")
    func wholeTreeAtEveryStep() throws {
        let space = try Self.crowd()
        let asleep = space.bodies.filter(\.isSleeping).count
        #expect(asleep > 0, "the crates on the ledge sleep from the start")
        let difference = try Self.firstRollbackDifference(space, beside: try Self.crowd(), steps: 120, whole: true)
        #expect(difference == nil)
    }

    @Test("Buffers a tree saved whole allocated since the save join its pools: poured again, it allocates none")
    func wholeTreeGrownSinceTheSave() throws {
        let reference = try Self.crowd()
        let space = try Self.crowd()
        var state = SpaceState()
        let before = space.snapshot()
        space.save(into: &state)
        #expect(state.savedTreeWhole)
        let saved = space.dynamicTreeBufferCount
        try Self.pour(into: space)
        let grown = space.dynamicTreeBufferCount
        #expect(grown > saved + 2, "the pour allocated buffers of nodes and of pairs (\(saved) → \(grown))")
        for round in 0..<3 {
            try space.restore(state)
            #expect(space.snapshot().bytes == before.bytes ? true : false, "round \(round): the saved state is back")
            try Self.pour(into: space)
            #expect(space.dynamicTreeBufferCount == grown, "round \(round): the pour took what the pools held")
        }
        try space.restore(state)
        #expect(try SnapshotBroadPhaseTests.firstDifference(space, reference, steps: 200) == nil)
    }

    @Test(
        "Random saves, restores, pours, removals, kicks and steps over a ring of 4 states, the tree saved whole and walked: every restore gives the saved snapshot",
        arguments: [27, 28, 29] as [UInt64])
    func randomRollbacks(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let space = try Self.crowd()
        var ring = Array(repeating: SpaceState(), count: 4)
        var saved: [[UInt8]?] = Array(repeating: nil, count: 4)
        var modes: Set<Bool> = []
        var restores = 0
        for operation in 0..<300 {
            let slot = below(4)
            switch below(7) {
            case 0, 1:
                space.save(into: &ring[slot])
                saved[slot] = space.snapshot().bytes
                modes.insert(ring[slot].savedTreeWhole)
            case 2:
                guard let bytes = saved[slot] else { continue }
                try space.restore(ring[slot])
                restores += 1
                guard space.snapshot().bytes == bytes else {
                    Issue.record("operation \(operation): the restore of state \(slot) differs from its save")
                    return
                }
            case 3:
                for _ in 0..<(20 + below(200)) {
                    let ball = Body(mass: 1, moment: 0.2)
                    ball.position = [Double(below(200)) * 0.1 - 10, 5 + Double(below(300)) * 0.1]
                    space.add(ball, Circle(body: ball, radius: 0.3 + Double(below(4)) * 0.1))
                }
            case 4:
                for _ in 0..<min(space.bodies.count - 1, 10 + below(80)) {
                    let body = space.bodies[below(space.bodies.count)]
                    space.remove(contentsOf: body.shapes as [any SpaceObject] + [body])
                }
            case 5 where !space.bodies.isEmpty:
                space.bodies[below(space.bodies.count)].velocity += [Double(below(20)) - 10, 5]
            default:
                for _ in 0..<(1 + below(6)) { try space.step(1.0 / 60) }
            }
        }
        #expect(modes == [true, false], "saves of both kinds")
        #expect(restores > 20)
    }
}
