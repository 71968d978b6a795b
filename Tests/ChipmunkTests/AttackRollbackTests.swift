import Foundation
import Testing

@testable import Chipmunk

/// A helper's attack on rollback: `SpaceState`, snapshots and `copy()`, driven through
/// changes between a save and its restore, and compared step by step with a run that was
/// never rolled back.
@Suite struct AttackRollbackTests {
    static let dt = 1.0 / 60

    /// A floor, boxes and balls of two collision types, a chain of pivots, a spring, a
    /// motor, a gear, and a kinematic paddle; sleeping enabled unless `sleep` is false.
    static func world(count: Int = 24, hash: Bool = false, sleep: Bool = true) -> Space {
        let space = Space()
        if hash { space.useSpatialHash(cellSize: 1.5, count: 1000) }
        space.gravity = [0, -10]
        if sleep { space.sleepTimeThreshold = 0.5 }
        space.add(Segment(body: space.staticBody, from: [-40, 0], to: [40, 0], radius: 0.1, friction: 0.8))
        space.add(Segment(body: space.staticBody, from: [-40, 0], to: [-40, 30], radius: 0.1, friction: 0.8))
        space.add(Segment(body: space.staticBody, from: [40, 0], to: [40, 30], radius: 0.1, friction: 0.8))
        var bodies: [Body] = []
        for i in 0..<count {
            let body = Body(mass: 1, moment: i % 2 == 0 ? Moment.box(mass: 1, width: 1, height: 1) : 0.125)
            body.position = [Double(i % 8) * 1.1 - 4 + Double(i / 8) * 0.2, 0.6 + Double(i / 8) * 1.2]
            let shape: Shape =
                i % 2 == 0
                ? Polygon.box(body: body, width: 1, height: 1, friction: 0.6, collisionType: 1)
                : Circle(body: body, radius: 0.5, friction: 0.7, elasticity: 0.2, collisionType: 2)
            space.add(body, shape)
            bodies.append(body)
        }
        // A hanging chain of four links from the static body.
        var previous = space.staticBody
        var anchor: Vector = [12, 10]
        var links: [Body] = []
        for k in 0..<4 {
            let link = Body(mass: 0.5, moment: 0.05)
            link.position = [12 + Double(k) + 0.5, 10]
            space.add(link, Segment(body: link, from: [-0.5, 0], to: [0.5, 0], radius: 0.1, collisionType: 3))
            space.add(PivotJoint(a: previous, b: link, pivot: anchor))
            previous = link
            anchor = [12 + Double(k) + 1, 10]
            links.append(link)
        }
        let a = Body(mass: 2, moment: 1)
        a.position = [-10, 3]
        let b = Body(mass: 2, moment: 1)
        b.position = [-7, 3]
        space.add(a, Circle(body: a, radius: 0.6, friction: 0.5), b, Polygon.box(body: b, width: 1, height: 1))
        space.add(DampedSpring(a: a, b: b, restLength: 2, stiffness: 40, damping: 1))
        space.add(SimpleMotor(a: links[0], b: links[1], rate: 1))
        space.add(GearJoint(a: a, b: b, phase: 0, ratio: 2))
        let paddle = Body(kind: .kinematic)
        paddle.position = [0, 8]
        paddle.angularVelocity = 0.7
        space.add(paddle, Polygon.box(body: paddle, width: 4, height: 0.3, friction: 0.5))
        return space
    }

    /// The first step at which `space` and `reference`, stepped alike `steps` times, differ.
    static func firstDifference(_ space: Space, _ reference: Space, steps: Int) throws -> Int? {
        guard space.stateHash() == reference.stateHash() else { return 0 }
        for k in 1...steps {
            try space.step(dt)
            try reference.step(dt)
            if space.stateHash() != reference.stateHash() { return k }
        }
        return nil
    }

    /// Builds the world twice, steps both `warmup` steps, saves one, runs `perturb` on it,
    /// restores, and checks its snapshot equals the saved one and it continues with the
    /// untouched one's bits for `steps` steps.
    static func checkRollback(
        warmup: Int = 90, steps: Int = 240, build: () -> Space = { world() }, perturb: (Space) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let space = build()
        let reference = build()
        for _ in 0..<warmup {
            try space.step(dt)
            try reference.step(dt)
        }
        let before = space.snapshot()
        var state = SpaceState()
        space.save(into: &state)
        try perturb(space)
        try space.restore(state)
        #expect(space.snapshot().bytes == before.bytes, "level 1: restored snapshot", sourceLocation: sourceLocation)
        let difference = try firstDifference(space, reference, steps: steps)
        #expect(difference == nil, "continuation differs at step \(difference ?? -1)", sourceLocation: sourceLocation)
    }

    // MARK: Membership

    @Test("Bodies, shapes and constraints added and removed between save and restore")
    func addAndRemove() throws {
        try Self.checkRollback { space in
            let victim = space.bodies[3]
            space.remove(contentsOf: victim.attachments + [victim])
            let chainLink = space.bodies.first { !$0.constraints.isEmpty && $0.kind == .dynamic }!
            space.remove(contentsOf: chainLink.constraints)
            let ball = Body(mass: 3, moment: 0.4)
            ball.position = [0, 5]
            space.add(ball, Circle(body: ball, radius: 0.4))
            space.add(PinJoint(a: ball, b: space.bodies[0], anchorA: .zero, anchorB: .zero))
            space.remove(space.shapes[5])
            for _ in 0..<20 { try space.step(Self.dt) }
        }
    }

    @Test("A body taken out with its joints, put back twice, and stepped in between")
    func removedAndPutBack() throws {
        try Self.checkRollback { space in
            let link = space.bodies.first { $0.constraints.count == 2 }!
            let attachments = link.attachments
            for _ in 0..<3 {
                space.remove(contentsOf: attachments + [link])
                try space.step(Self.dt)
                space.add(contentsOf: [link] + attachments)
                try space.step(Self.dt)
            }
        }
    }

    @Test("A body moved to another space refuses the restore, names it, and leaves the space as it was")
    func bodyInAnotherSpace() throws {
        let space = Self.world()
        let reference = Self.world()
        for _ in 0..<60 {
            try space.step(Self.dt)
            try reference.step(Self.dt)
        }
        var state = SpaceState()
        space.save(into: &state)
        let link = space.bodies.first { $0.constraints.count == 2 }!
        let attachments = link.attachments
        let other = Space()
        space.remove(contentsOf: attachments + [link])
        other.add(contentsOf: [link] + link.shapes)
        try other.step(Self.dt)
        let hashBefore = space.stateHash()
        let bodiesBefore = space.bodies.count
        do {
            try space.restore(state)
            Issue.record("restored while a body is in another space")
        } catch {
            #expect("\(error)".contains("another space"))
            #expect("\(error)".contains("body"))
        }
        #expect(space.stateHash() == hashBefore)
        #expect(space.bodies.count == bodiesBefore)
        try space.step(Self.dt)
        // Out of the other space, the state restores and continues exactly.
        other.remove(contentsOf: link.shapes + [link])
        try space.restore(state)
        #expect(try Self.firstDifference(space, reference, steps: 200) == nil)
    }

    @Test("A body moved to another space that was then dropped comes back")
    func bodyInADroppedSpace() throws {
        try Self.checkRollback { space in
            let link = space.bodies.first { $0.constraints.count == 2 }!
            let attachments = link.attachments
            space.remove(contentsOf: attachments + [link])
            do {
                let other = Space()
                other.gravity = [5, 5]
                other.add(contentsOf: [link] + link.shapes)
                for _ in 0..<10 { try other.step(Self.dt) }
            }
            link.position = [100, 100]
            link.mass = 7
        }
    }

    // MARK: Kinds and mass

    @Test("Kinds changed (dynamic, kinematic, static) between save and restore")
    func kinds() throws {
        try Self.checkRollback { space in
            space.bodies[0].kind = .kinematic
            space.bodies[1].kind = .static
            space.bodies[2].kind = .static
            try space.step(Self.dt)
            space.bodies[2].kind = .dynamic
            space.bodies[2].mass = 1
            space.bodies[2].moment = 0.2
            let paddle = space.bodies.last!
            paddle.kind = .dynamic
            paddle.mass = 2
            paddle.moment = 1
            for _ in 0..<5 { try space.step(Self.dt) }
            paddle.kind = .static
            try space.step(Self.dt)
        }
    }

    @Test("A body's kind changed while out of the space, then put back by the restore")
    func kindOutOfSpace() throws {
        try Self.checkRollback { space in
            let body = space.bodies[4]
            space.remove(contentsOf: body.attachments + [body])
            body.kind = .static
            let paddle = space.bodies.last!
            space.remove(contentsOf: paddle.attachments + [paddle])
            paddle.kind = .dynamic
            paddle.mass = 3
        }
    }

    @Test("Mass, moment, centre of gravity and shape mass changed between save and restore")
    func masses() throws {
        try Self.checkRollback { space in
            space.bodies[0].mass = 5
            space.bodies[1].moment = 9
            space.bodies[2].centerOfGravity = [0.2, -0.1]
            space.shapes[5].mass = 4
            space.shapes[6].density = 2
            for _ in 0..<10 { try space.step(Self.dt) }
        }
    }

    @Test("Shape mass set, then the state restored, then a shape added to that body: the body's mass matches")
    func shapeMassThenAddShape() throws {
        let build = { () -> Space in
            let space = Self.world()
            space.shapes[5].mass = 1
            return space
        }
        let space = build()
        let reference = build()
        for _ in 0..<30 {
            try space.step(Self.dt)
            try reference.step(Self.dt)
        }
        var state = SpaceState()
        space.save(into: &state)
        space.shapes[5].mass = 9
        try space.step(Self.dt)
        try space.restore(state)
        // Both add a shape to the same body: its mass is summed from its shapes again.
        for s in [space, reference] {
            let body = s.shapes[5].body
            let extra = Circle(body: body, radius: 0.1)
            extra.mass = 0.5
            s.add(extra)
        }
        #expect(space.shapes[5].body.mass == reference.shapes[5].body.mass)
        #expect(try Self.firstDifference(space, reference, steps: 120) == nil)
    }

    // MARK: Shape settings

    @Test("Friction, elasticity, sensor, filter, collision type, surface velocity and neighbours changed")
    func shapeSettings() throws {
        try Self.checkRollback { space in
            for (i, shape) in space.shapes.enumerated() {
                shape.friction = 0.05 * Double(i % 7)
                shape.elasticity = 0.9
                shape.surfaceVelocity = [1, 0]
                shape.collisionType = CollisionType(rawValue: UInt(i % 4))
                if i % 5 == 0 { shape.isSensor = true }
                shape.filter = ShapeFilter(
                    group: ShapeFilter.Group(rawValue: UInt(i % 3)), categories: .all, mask: .all)
            }
            (space.shapes[0] as! Segment).setNeighbors(previous: [-50, 0], next: [50, 0])
            for _ in 0..<10 { try space.step(Self.dt) }
        }
    }

    @Test("A shape's settings changed while it is out of the space, then restored back in")
    func settingsOutOfSpace() throws {
        try Self.checkRollback { space in
            let shape = space.shapes[6]
            space.remove(shape)
            shape.friction = 0
            shape.isSensor = true
            shape.mass = 3
            shape.collisionType = 9
        }
    }

    // MARK: Sleeping

    @Test("Bodies put to sleep, woken and grouped between save and restore; saved asleep, woken since")
    func sleeping() throws {
        try Self.checkRollback(warmup: 400) { space in
            for body in space.bodies { body.activate() }
            try space.step(Self.dt)
            let free = space.bodies.filter { $0.kind == .dynamic && $0.constraints.isEmpty && !$0.isSleeping }
            free[0].sleep()
            free[1].sleep(group: free[0])
            space.sleepTimeThreshold = 0.01
            for _ in 0..<30 { try space.step(Self.dt) }
            space.sleepTimeThreshold = .infinity
            for body in space.bodies where body.isSleeping { body.activate() }
            try space.step(Self.dt)
        }
    }

    @Test("A sleeping body removed and a sleeping group kicked between save and restore")
    func sleepingRemoved() throws {
        let build = { () -> Space in
            let space = Self.world()
            space.sleepTimeThreshold = 0.05
            return space
        }
        try Self.checkRollback(warmup: 500, build: build) { space in
            let asleep = space.bodies.filter(\.isSleeping)
            try #require(!asleep.isEmpty)
            space.remove(contentsOf: asleep[0].attachments + [asleep[0]])
            asleep.last!.velocity = [4, 4]
            asleep.last!.activate()
            for _ in 0..<10 { try space.step(Self.dt) }
        }
    }

    @Test("Sleeping and waking in rollback: a ring of 9 with the pile falling asleep inside it")
    func sleepRing() throws {
        let space = Self.world()
        space.sleepTimeThreshold = 0.2
        var ring = Array(repeating: SpaceState(), count: 9)
        var hashes: [UInt64] = []
        for frame in 0..<700 {
            space.save(into: &ring[frame % 9])
            if frame == 450 { for body in space.bodies where body.kind == .dynamic { body.velocity += [0, 3] } }
            try space.step(Self.dt)
            hashes.append(space.stateHash())
            if frame >= 8 && frame % 3 == 0 {
                try space.restore(ring[(frame - 7) % 9])
                for k in (frame - 7)...frame {
                    if k == 450 { for body in space.bodies where body.kind == .dynamic { body.velocity += [0, 3] } }
                    try space.step(Self.dt)
                    guard space.stateHash() == hashes[k] else {
                        Issue.record("frame \(k) differs when re-simulated from \(frame - 7)")
                        return
                    }
                }
            }
        }
    }

    // MARK: Handlers that remove objects

    static func withRemovingHandler(_ space: Space) -> Space {
        space.onCollision(
            between: 2, and: 3,
            begin: { arbiter in
                let body = arbiter.bodies.0
                let s = arbiter.space
                s.addPostStepCallback(forKey: .object(body)) { s in
                    if s.contains(body) { s.remove(contentsOf: body.attachments + [body]) }
                }
                return true
            })
        space.onCollision(
            between: 1, and: 2,
            postSolve: { arbiter in
                if arbiter.isFirstContact { arbiter.shapes.0.friction = 0.3 }
            })
        return space
    }

    @Test("A handler that removes bodies in post-step callbacks, and one that changes friction, run between")
    func removingHandlers() throws {
        let build = { () -> Space in
            let space = Self.withRemovingHandler(Self.world())
            // Balls thrown at the chain.
            for body in space.bodies where body.shapes.first is Circle && body.constraints.isEmpty {
                body.velocity = [12, 14]
            }
            return space
        }
        // The handler does remove bodies.
        let probe = build()
        let initial = probe.bodies.count
        for _ in 0..<65 { try probe.step(Self.dt) }
        #expect(probe.bodies.count < initial, "the handler removed bodies")
        // Save before any removal, step through them, restore: the removed come back.
        for warmup in [5, 20, 45] {
            try Self.checkRollback(warmup: warmup, steps: 200, build: build) { space in
                for _ in 0..<60 { try space.step(Self.dt) }
            }
        }
    }

    // MARK: Restoring again

    @Test("One state restored twice, and an old state after many restores of others")
    func restoreAgain() throws {
        let space = Self.world()
        let reference = Self.world()
        for _ in 0..<50 {
            try space.step(Self.dt)
            try reference.step(Self.dt)
        }
        var old = SpaceState()
        space.save(into: &old)
        let oldBytes = space.snapshot().bytes
        var state = SpaceState()
        var rng = SplitMix64(seed: 7)
        for round in 0..<200 {
            space.save(into: &state)
            for _ in 0..<Int.random(in: 1...4, using: &rng) { try space.step(Self.dt) }
            if round % 7 == 0 {
                let b = Body(mass: 1, moment: 1)
                b.position = [Double.random(in: -5...5, using: &rng), 6]
                space.add(b, Circle(body: b, radius: 0.3))
            }
            try space.restore(state)
            try space.restore(state)
            try space.step(Self.dt)
        }
        try space.restore(old)
        try space.restore(old)
        #expect(space.snapshot().bytes == oldBytes)
        #expect(try Self.firstDifference(space, reference, steps: 300) == nil)
    }

    @Test("A state copied by value, then one of them saved into: each restores its own save")
    func stateCopiedByValue() throws {
        let space = Self.world()
        for _ in 0..<40 { try space.step(Self.dt) }
        var first = SpaceState()
        space.save(into: &first)
        let firstBytes = space.snapshot().bytes
        var second = first
        for _ in 0..<30 { try space.step(Self.dt) }
        space.save(into: &second)
        let secondBytes = space.snapshot().bytes
        var third = second
        for _ in 0..<30 { try space.step(Self.dt) }
        space.save(into: &third)
        try space.restore(first)
        #expect(space.snapshot().bytes == firstBytes)
        try space.restore(second)
        #expect(space.snapshot().bytes == secondBytes)
        #expect(first.stepsTaken == 40 && second.stepsTaken == 70 && third.stepsTaken == 100)
    }

    @Test("A state outlives its space: it refuses other spaces; states saved from a copy refuse the original")
    func stateOutlivesSpace() throws {
        var state = SpaceState()
        var keptBody: Body?
        do {
            let space = Self.world()
            try space.step(Self.dt)
            space.save(into: &state)
            keptBody = space.bodies[0]
        }
        #expect(keptBody?.space == nil)
        let other = Self.world()
        #expect(throws: SnapshotError.self) { try other.restore(state) }
        // A body the dead space's state holds can go into another space.
        other.add(keptBody!, Circle(body: keptBody!, radius: 0.2))
        try other.step(Self.dt)
        let copy = other.copy()
        var fromCopy = SpaceState()
        copy.save(into: &fromCopy)
        do {
            try other.restore(fromCopy)
            Issue.record("a copy's state restored into its original")
        } catch {
            #expect("\(error)".contains("another space"))
        }
    }

    // MARK: Copies

    @Test("A copy, a copy of a copy, a copy mid-sleep, and a restore after copy(), continue with the same bits")
    func copies() throws {
        let space = Self.world()
        space.sleepTimeThreshold = 0.2
        for _ in 0..<300 { try space.step(Self.dt) }
        var state = SpaceState()
        space.save(into: &state)
        let copy = space.copy()
        var copyOfCopy: Space? = copy.copy()
        #expect(try Self.firstDifference(copy, copyOfCopy!, steps: 100) == nil)
        copyOfCopy = copyOfCopy!.copy()
        // The original rolled back, copied again, and compared with the copies' run.
        try space.restore(state)
        let again = space.copy()
        try space.restore(state)
        #expect(try Self.firstDifference(space, again, steps: 100) == nil)
        try space.restore(state)
        #expect(throws: SnapshotError.self) { try copy.restore(state) }
        for _ in 0..<100 { try space.step(Self.dt) }
        #expect(space.stateHash() == copy.stateHash())
        #expect(space.stateHash() == copyOfCopy!.stateHash())
        // A copy saves and restores its own states.
        var copyState = SpaceState()
        copy.save(into: &copyState)
        for _ in 0..<20 { try copy.step(Self.dt) }
        try copy.restore(copyState)
        #expect(try Self.firstDifference(copy, space, steps: 100) == nil)
    }

    @Test("An empty space saves, restores, copies and snapshots")
    func emptySpace() throws {
        let space = Space()
        var state = SpaceState()
        space.save(into: &state)
        let body = Body(mass: 1, moment: 1)
        space.add(body, Circle(body: body, radius: 1))
        try space.step(Self.dt)
        try space.restore(state)
        #expect(space.bodies.isEmpty && space.shapes.isEmpty)
        #expect(body.space == nil)
        let copy = space.copy()
        #expect(copy.bodies.isEmpty)
        let restored = try Space(restoring: Snapshot(bytes: space.snapshot().bytes))
        try restored.step(Self.dt)
        try space.step(Self.dt)
    }

    // MARK: Broad phases and snapshots

    @Test("The spatial hash: changes between save and restore roll back exactly")
    func spatialHash() throws {
        try Self.checkRollback(
            build: { Self.world(hash: true) },
            perturb: { space in
                space.bodies[0].kind = .kinematic
                let victim = space.bodies[3]
                space.remove(contentsOf: victim.attachments + [victim])
                let ball = Body(mass: 1, moment: 0.1)
                ball.position = [1, 7]
                space.add(ball, Circle(body: ball, radius: 0.5))
                space.shapes[2].friction = 0
                for _ in 0..<10 { try space.step(Self.dt) }
            })
    }

    @Test("Switching to the spatial hash or restoring a snapshot refuses older states, clearly")
    func rebuiltBroadPhase() throws {
        let space = Self.world()
        for _ in 0..<20 { try space.step(Self.dt) }
        var state = SpaceState()
        space.save(into: &state)
        let snapshot = space.snapshot()
        try space.restore(snapshot)
        do {
            try space.restore(state)
            Issue.record("restored across a rebuilt broad phase")
        } catch {
            #expect("\(error)".contains("broad phase was rebuilt"))
        }
        space.save(into: &state)
        space.useSpatialHash(cellSize: 2, count: 500)
        #expect(throws: SnapshotError.self) { try space.restore(state) }
        space.save(into: &state)
        for _ in 0..<10 { try space.step(Self.dt) }
        try space.restore(state)
    }

    @Test("A snapshot read back from bytes restores into a space rolled back by states")
    func snapshotBytes() throws {
        let space = Self.world()
        let reference = Self.world()
        for _ in 0..<80 {
            try space.step(Self.dt)
            try reference.step(Self.dt)
        }
        let snapshot = try Snapshot(bytes: space.snapshot().bytes)
        var state = SpaceState()
        for _ in 0..<40 {
            space.save(into: &state)
            try space.step(Self.dt)
            try space.restore(state)
            try space.step(Self.dt)
        }
        try space.restore(snapshot)
        try space.restore(snapshot)
        #expect(try Self.firstDifference(space, reference, steps: 200) == nil)
    }

    // MARK: Size and length

    @Test("A few thousand bodies: thousands removed and added between save and restore")
    func largeWorld() throws {
        try Self.checkRollback(
            warmup: 20, steps: 30, build: { Self.world(count: 2500) },
            perturb: { space in
                let victims = Array(space.bodies.prefix(1200))
                space.remove(contentsOf: victims.flatMap(\.attachments) + victims)
                for i in 0..<1500 {
                    let b = Body(mass: 1, moment: 0.1)
                    b.position = [Double(i % 60) - 30, 20 + Double(i / 60)]
                    space.add(b, Circle(body: b, radius: 0.4))
                }
                for _ in 0..<5 { try space.step(Self.dt) }
            })
    }

    @Test(
        "2,000 steps rolled back at seeded random points by random depths, with random changes between",
        arguments: [false, true])
    func longRandom(hash: Bool) throws {
        let space = Self.withRemovingHandler(Self.world(hash: hash))
        let reference = Self.withRemovingHandler(Self.world(hash: hash))
        space.sleepTimeThreshold = 0.3
        reference.sleepTimeThreshold = 0.3
        var rng = SplitMix64(seed: 2026)
        var ring = Array(repeating: SpaceState(), count: 12)
        var step = 0
        var savedAt = Array(repeating: -1, count: 12)
        var rollbacks = 0
        var refHashes: [UInt64] = []
        let kick = { (s: Space, k: Int) in
            if k % 250 == 100 { for body in s.bodies where body.kind == .dynamic { body.velocity += [2, 9] } }
        }
        for k in 0..<2000 {
            kick(reference, k)
            try reference.step(Self.dt)
            refHashes.append(reference.stateHash())
        }
        while step < 2000 {
            space.save(into: &ring[step % 12])
            savedAt[step % 12] = step
            kick(space, step)
            try space.step(Self.dt)
            step += 1
            guard space.stateHash() == refHashes[step - 1] else {
                Issue.record("step \(step) differs from the uninterrupted run")
                return
            }
            if step >= 12 && Int.random(in: 0..<5, using: &rng) == 0 {
                // Wander off: random changes, then roll back a random depth.
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0:
                        let b = Body(mass: 1, moment: 0.2)
                        b.position = [Double.random(in: -8...8, using: &rng), 9]
                        space.add(b, Polygon.box(body: b, width: 0.7, height: 0.7, collisionType: 2))
                    case 1:
                        if let v = space.bodies.filter({ $0.kind == .dynamic }).randomElement(using: &rng) {
                            space.remove(contentsOf: v.attachments + [v])
                        }
                    case 2:
                        let kind = [Body.Kind.dynamic, .kinematic, .static].randomElement(using: &rng)!
                        if let b = space.bodies.filter({ $0.constraints.isEmpty }).randomElement(using: &rng) {
                            b.kind = kind
                            if kind == .dynamic {
                                b.mass = 1
                                b.moment = 0.3
                            }
                        }
                    case 3: space.shapes.randomElement(using: &rng)?.friction = Double.random(in: 0...1, using: &rng)
                    case 4:
                        for body in space.bodies where body.isSleeping { body.activate() }
                    default: space.gravity = [Double.random(in: -3...3, using: &rng), -10]
                    }
                    if space.bodies.contains(where: { $0.kind == .dynamic && $0.mass == 0 }) { break }
                    try space.step(Self.dt)
                }
                let depth = Int.random(in: 1...11, using: &rng)
                var target = step - depth
                while savedAt[target % 12] != target { target += 1 }
                try space.restore(ring[target % 12])
                rollbacks += 1
                #expect(space.stepsTaken == target)
                step = target
            }
        }
        #expect(space.stateHash() == reference.stateHash())
        #expect(rollbacks > 300)
    }

    @Test(
        "2,000 steps, the space replaced by its copy (or a copy of a restored space) at seeded random points",
        arguments: [false, true])
    func longCopies(hash: Bool) throws {
        var space = Self.world(hash: hash)
        let reference = Self.world(hash: hash)
        space.sleepTimeThreshold = 0.3
        reference.sleepTimeThreshold = 0.3
        var rng = SplitMix64(seed: 99)
        var state = SpaceState()
        var copies = 0
        for k in 0..<2000 {
            if k % 300 == 150 {
                for s in [space, reference] {
                    for body in s.bodies where body.kind == .dynamic { body.velocity += [1, 8] }
                }
            }
            if Int.random(in: 0..<40, using: &rng) == 0 {
                space.save(into: &state)
                for _ in 0..<3 { try space.step(Self.dt) }
                try space.restore(state)
                space = space.copy()
                copies += 1
            }
            try space.step(Self.dt)
            try reference.step(Self.dt)
            guard space.stateHash() == reference.stateHash() else {
                Issue.record("step \(k + 1) differs after \(copies) copies")
                return
            }
        }
        #expect(copies > 20)
    }

    @Test("Space parameters changed between save and restore come back")
    func spaceParameters() throws {
        try Self.checkRollback { space in
            space.iterations = 3
            space.damping = 0.5
            space.collisionSlop = 0.3
            space.collisionBias = 0.5
            space.collisionPersistence = 1
            space.idleSpeedThreshold = 5
            space.sleepTimeThreshold = 0.01
            space.gravity = [3, 3]
            for _ in 0..<20 { try space.step(Self.dt) }
        }
    }

    @Test("Constraint parameters changed between save and restore, in the space and out of it")
    func constraintParameters() throws {
        try Self.checkRollback { space in
            for c in space.constraints {
                c.maxForce = 10
                c.errorBias = 0.5
                c.maxBias = 3
                c.collideBodies = !c.collideBodies
                if let s = c as? DampedSpring {
                    s.stiffness = 1
                    s.restLength = 7
                    s.damping = 9
                }
                if let m = c as? SimpleMotor { m.rate = -5 }
            }
            for _ in 0..<20 { try space.step(Self.dt) }
            let c = space.constraints[0]
            space.remove(c)
            c.maxForce = 1
        }
    }

    @Test("Reindexing shapes between save and restore")
    func reindexing() throws {
        try Self.checkRollback { space in
            space.reindexStatic()
            for shape in space.shapes.prefix(10) { space.reindex(shape) }
            space.reindexShapes(of: space.bodies[3])
            try space.step(Self.dt)
            space.reindexStatic()
        }
    }

    @Test("The spatial hash resized between save and restore: its state still restores exactly")
    func spatialHashResized() throws {
        try Self.checkRollback(
            build: { Self.world(hash: true) },
            perturb: { space in
                space.useSpatialHash(cellSize: 3, count: 50)
                for _ in 0..<10 { try space.step(Self.dt) }
            })
    }

    @Test("One SpaceState value saved from two spaces: each save restores only into its own space")
    func oneStateTwoSpaces() throws {
        let a = Self.world()
        let b = Self.world()
        var state = SpaceState()
        a.save(into: &state)
        let copy = state
        b.save(into: &state)
        #expect(throws: SnapshotError.self) { try a.restore(state) }
        try a.restore(copy)
        try b.restore(state)
    }

    @Test("The spatial hash: a copy mid-sleep and a copy of that copy continue with the same bits")
    func spatialHashSleepingCopies() throws {
        let space = Self.world(hash: true)
        space.sleepTimeThreshold = 0.2
        for _ in 0..<300 { try space.step(Self.dt) }
        #expect(space.bodies.contains { $0.isSleeping })
        let copy = space.copy()
        let copyOfCopy = copy.copy()
        #expect(try Self.firstDifference(space, copy, steps: 200) == nil)
        for _ in 0..<200 { try copyOfCopy.step(Self.dt) }
        #expect(space.stateHash() == copyOfCopy.stateHash())
    }

    @Test("The spatial hash: a body now in another space refuses the restore and changes nothing")
    func spatialHashBodyElsewhere() throws {
        let space = Self.world(hash: true)
        for _ in 0..<30 { try space.step(Self.dt) }
        var state = SpaceState()
        space.save(into: &state)
        let body = space.bodies[2]
        space.remove(contentsOf: body.attachments + [body])
        let other = Space()
        other.add(body)
        let hash = space.stateHash()
        #expect(throws: SnapshotError.self) { try space.restore(state) }
        #expect(space.stateHash() == hash)
        #expect(!space.bodies.contains { $0 === body })
        try space.step(Self.dt)
    }

    @Test("A body far out (0.9 of the coordinate bound) and fast rolls back exactly")
    func farAway() throws {
        let build = { () -> Space in
            let space = Self.world(count: 6)
            let far = Body(mass: 1, moment: 1)
            far.position = [Parameter.maxCoordinate * 0.9, Parameter.maxCoordinate * 0.9]
            far.velocity = [1e6, -1e6]
            space.add(far, Circle(body: far, radius: 1e3))
            return space
        }
        try Self.checkRollback(build: build) { space in
            space.bodies.last!.position = [-Parameter.maxCoordinate * 0.9, 0]
            for _ in 0..<5 { try space.step(Self.dt) }
        }
    }

    @Test("Sleeping bodies taken out, their kinds and mass changed out of the space (no joints), put back")
    func sleepingOutChanged() throws {
        let build = { () -> Space in
            let s = Self.world()
            s.sleepTimeThreshold = 0.05
            return s
        }
        try Self.checkRollback(warmup: 500, build: build) { space in
            let asleep = space.bodies.filter(\.isSleeping)
            try #require(asleep.count > 2)
            let shape = asleep[2].shapes[0]
            for b in asleep.prefix(3) { space.remove(contentsOf: b.attachments + [b]) }
            asleep[0].kind = .kinematic
            asleep[1].kind = .static
            asleep[2].mass = 50
            shape.mass = 1e9
        }
    }

    @Test("A snapshot of the original restored into its copy: the copy continues as the original")
    func snapshotIntoCopy() throws {
        let space = Self.world()
        for _ in 0..<70 { try space.step(Self.dt) }
        let copy = space.copy()
        for _ in 0..<30 { try copy.step(Self.dt) }
        try copy.restore(space.snapshot())
        #expect(try Self.firstDifference(space, copy, steps: 200) == nil)
    }

    @Test("Bytes that are not a snapshot throw, named; a truncated or flipped snapshot throws")
    func badBytes() throws {
        let space = Self.world(count: 4)
        try space.step(Self.dt)
        let bytes = space.snapshot().bytes
        #expect(throws: SnapshotError.self) { try Snapshot(bytes: []) }
        #expect(throws: SnapshotError.self) { try Snapshot(bytes: Array("not a snapshot".utf8)) }
        var rng = SplitMix64(seed: 5)
        for _ in 0..<200 {
            var damaged = bytes
            if Bool.random(using: &rng) {
                damaged.removeLast(Int.random(in: 1..<bytes.count, using: &rng))
            } else {
                damaged[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            #expect(throws: SnapshotError.self) { try Snapshot(bytes: damaged) }
        }
    }

    @Test("A large world's copy (whole tree) continues with the same bits; repeated restores allocate no tree buffers")
    func largeCopyAndBuffers() throws {
        let space = Self.world(count: 2500)
        for _ in 0..<20 { try space.step(Self.dt) }
        var state = SpaceState()
        space.save(into: &state)
        let copy = space.copy()
        #expect(try Self.firstDifference(space, copy, steps: 20) == nil)
        try space.restore(state)
        var counts: [Int] = []
        for _ in 0..<3 {
            for i in 0..<700 {
                let b = Body(mass: 1, moment: 0.1)
                b.position = [Double(i % 50) - 25, 30 + Double(i / 50)]
                space.add(b, Circle(body: b, radius: 0.4))
            }
            for _ in 0..<3 { try space.step(Self.dt) }
            try space.restore(state)
            counts.append(space.dynamicTreeBufferCount)
        }
        #expect(counts[1] == counts[2])
    }

    @Test("A kinematic body and its jointed partner swap kinds between save and restore", arguments: [false, true])
    func kindSwapAcrossJoint(hash: Bool) throws {
        let build = { () -> Space in
            let space = Self.world(hash: hash)
            let a = Body(kind: .kinematic)
            a.position = [20, 5]
            a.velocity = [0.1, 0]
            let b = Body(mass: 1, moment: 0.5)
            b.position = [22, 5]
            space.add(a, Circle(body: a, radius: 0.5), b, Circle(body: b, radius: 0.5))
            space.add(PinJoint(a: a, b: b, anchorA: .zero, anchorB: .zero))
            return space
        }
        try Self.checkRollback(build: build) { space in
            let b = space.bodies[space.bodies.count - 1]
            let a = space.bodies[space.bodies.count - 2]
            a.kind = .dynamic
            a.mass = 1
            a.moment = 0.5
            b.kind = .static
            for _ in 0..<5 { try space.step(Self.dt) }
        }
    }

    /// Random legal changes between a save and its restore, seed after seed; kinds change
    /// in the space only on bodies with no joint (the kind's own rule), and on any body out
    /// of it (a joint taken out and its body's kind changed stopped the restore in
    /// `Space.add` before: RestoreAdoptionTests).
    @Test("Random legal changes between save and restore, 150 seeds", arguments: [false, true])
    func randomChanges(hash: Bool) throws {
        for seed in 0..<UInt64(150) {
            var rng = SplitMix64(seed: seed &* 7919 &+ (hash ? 1 : 0))
            try Self.checkRollback(
                warmup: Int.random(in: 1...300, using: &rng), steps: 60, build: { Self.world(hash: hash) },
                perturb: { space in
                    space.sleepTimeThreshold = 0.1
                    let jointed = Set(space.bodies.filter { !$0.constraints.isEmpty }.map(ObjectIdentifier.init))
                    var out: [(Body, [any SpaceObject])] = []
                    for _ in 0..<Int.random(in: 1...25, using: &rng) {
                        switch Int.random(in: 0..<11, using: &rng) {
                        case 0:
                            if let v = space.bodies.randomElement(using: &rng) {
                                let attachments = v.attachments
                                space.remove(contentsOf: attachments + [v])
                                out.append((v, attachments))
                            }
                        case 1:
                            if let c = space.constraints.randomElement(using: &rng) { space.remove(c) }
                        case 2:
                            let b = Body(mass: 1, moment: 0.2)
                            b.position = [Double.random(in: -6...6, using: &rng), 8]
                            space.add(b, Circle(body: b, radius: 0.3, collisionType: 2))
                            if let other = space.bodies.randomElement(using: &rng), other !== b {
                                space.add(PinJoint(a: b, b: other, anchorA: .zero, anchorB: .zero))
                            }
                        case 3:
                            let candidates = space.bodies.filter {
                                !jointed.contains(ObjectIdentifier($0)) && $0.constraints.isEmpty
                            }
                            if let b = candidates.randomElement(using: &rng) {
                                let kind = [Body.Kind.dynamic, .kinematic, .static].randomElement(using: &rng)!
                                b.kind = kind
                                if kind == .dynamic {
                                    b.mass = 2
                                    b.moment = 0.4
                                }
                            }
                        case 4:
                            if let (b, _) = out.randomElement(using: &rng) {
                                b.position += [Double.random(in: -3...3, using: &rng), 2]
                                b.kind = [Body.Kind.dynamic, .kinematic, .static].randomElement(using: &rng)!
                                if b.kind == .dynamic {
                                    b.mass = 1
                                    b.moment = 1
                                }
                            }
                        case 5:
                            if let i = out.indices.randomElement(using: &rng) {
                                let (b, attachments) = out.remove(at: i)
                                if b.space == nil {
                                    space.add(b)
                                    for a in attachments {
                                        if let shape = a as? Shape, shape.space == nil { space.add(shape) }
                                        if let c = a as? Constraint, c.space == nil, c.bodyA.space === space,
                                            c.bodyB.space === space,
                                            c.bodyA.kind == .dynamic || c.bodyB.kind == .dynamic
                                        {
                                            space.add(c)
                                        }
                                    }
                                    if b.kind == .dynamic && b.mass == 0 {
                                        b.mass = 1
                                        b.moment = 1
                                    }
                                }
                            }
                        case 6:
                            if let shape = space.shapes.randomElement(using: &rng) {
                                shape.friction = Double.random(in: 0...1, using: &rng)
                                shape.elasticity = Double.random(in: 0...1, using: &rng)
                                shape.collisionType = CollisionType(rawValue: UInt.random(in: 0...3, using: &rng))
                                shape.isSensor = Int.random(in: 0..<6, using: &rng) == 0
                            }
                        case 7:
                            for body in space.bodies where body.isSleeping { body.activate() }
                        case 8:
                            space.gravity = [Double.random(in: -5...5, using: &rng), -10]
                        case 9:
                            if let b = space.bodies.filter({ $0.kind == .dynamic }).randomElement(using: &rng) {
                                b.applyImpulse([Double.random(in: -5...5, using: &rng), 5], at: b.position)
                            }
                        default:
                            break
                        }
                        // Only step a space a step accepts: no massless dynamic body, no body left behind.
                        if !space.bodies.contains(where: { $0.kind == .dynamic && $0.mass == 0 }) {
                            try space.step(Self.dt)
                        }
                    }
                })
        }
    }

    @Test("Saving or restoring inside a collision callback stops, naming the call", arguments: [false, true])
    func insideACallback(restoring: Bool) async {
        do {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                [restoring = restoring as Bool] in
                let space = AttackRollbackTests.world(count: 4)
                var state = SpaceState()
                space.save(into: &state)
                space.onCollision(
                    begin: { arbiter in
                        if restoring { try arbiter.space.restore(state) } else { arbiter.space.save(into: &state) }
                        return true
                    })
                for _ in 0..<120 { try? space.step(AttackRollbackTests.dt) }
            }
            let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(output.contains(restoring ? "Space.restore(_:)" : "Space.save(into:)"))
            #expect(output.contains("between steps"))
        }
    }
}
