import Testing
@testable import Chipmunk

@Suite struct BodyAndShapeTests {
    /// `add(contentsOf:)` and `remove(contentsOf:)` take any sequence of objects: a body
    /// with its shapes (`body.shapes + [body]`), or a lazy map.
    @Test func addAndRemoveTakeAnySequence() {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        let shapes: [Shape] = [Circle(body: body, radius: 1), Circle(body: body, radius: 2, offset: [3, 0])]
        space.add(contentsOf: [body] + shapes)
        #expect(space.bodies.count == 1 && space.shapes.count == 2)
        space.remove(contentsOf: body.shapes + [body])
        #expect(space.bodies.isEmpty && space.shapes.isEmpty && body.space == nil)
        space.add(contentsOf: (0..<3).lazy.map { _ in Body(mass: 1, moment: 1) as any SpaceObject })
        #expect(space.bodies.count == 3)
    }

    /// `add(_:)` and `remove(_:)` take a sequence too, without a label: `space.remove(b.shapes + [b])`
    /// compiles, as pymunk's `space.remove(*b.shapes, b)` reads.
    @Test func addAndRemoveTakeASequenceUnlabelled() {
        let space = Space()
        let b = Body(mass: 1, moment: 1)
        let shapes = [Circle(body: b, radius: 1), Circle(body: b, radius: 2)]
        space.add([b] + shapes)
        #expect(space.bodies.count == 1 && space.shapes.count == 2)
        space.remove(b.shapes + [b])
        #expect(space.bodies.isEmpty && space.shapes.isEmpty && b.space == nil)
        let kinds = [b.spaceObjectKind, Circle(body: b, radius: 1).spaceObjectKind]
        #expect(kinds.map(\.description) == ["body", "shape"])
    }

    /// The value: a circle of radius 10 at offset (2, 3) with mass 4, on a body with
    /// no mass of its own, gives the body mass 4, centre of gravity (2, 3) and moment 200
    /// (m r² / 2 about the centre of gravity).
    @Test func massFromShapes() throws {
        let space = Space()
        let body = Body(kind: .dynamic)
        space.add(body)
        let circle = Circle(body: body, radius: 10, offset: [2, 3])
        circle.mass = 4
        space.add(circle)
        #expect(body.mass == 4 && body.centerOfGravity == [2, 3] && body.moment == 200)
        #expect(circle.mass == 4 && circle.area == .pi * 100 && circle.centerOfGravity == [2, 3])
        #expect(circle.moment == 200, "a shape's moment is about its own centroid")
        let box = Polygon.box(body: body, width: 2, height: 2)
        box.density = 0.5
        #expect(box.mass == 2 && box.density == 0.5)
        space.add(box)
        #expect(body.mass == 6)
        try space.step(1.0 / 60)
        // Remove both shapes: the body is left with no mass, and the step refuses to run
        // (the engine would abort: "Body's mass and moment must be positive to simulate").
        space.remove(circle)
        space.remove(box)
        #expect(body.mass == 0)
        #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
    }

    @Test func degeneratePolygonsAreRefused() throws {
        let body = Body(mass: 1, moment: 1)
        #expect(throws: ChipmunkError.invalidGeometry(.noArea)) {
            try Polygon.check(vertices: [[0, 0], [1, 1], [2, 2], [3, 3]])
        }
        #expect(throws: ChipmunkError.invalidGeometry(.tooFewVertices(2))) {
            try Polygon.check(vertices: [[0, 0], [1, 1]])
        }
        #expect(throws: ChipmunkError.invalidValue(.polygonVertex, .infinity)) {
            try Polygon.check(vertices: [[0, 0], [1, 1], [.infinity, 0]])
        }
        #expect(throws: ChipmunkError.invalidGeometry(.noArea)) {
            try Polygon.check(vertices: [[0, 0], [1, 0], [0, 1]], transform: .scale(x: 0, y: 1))
        }
        // The hull is computed: winding and inner points do not matter.
        let clockwise = Polygon(body: body, vertices: [[0, 0], [0, 1], [1, 1], [0.5, 0.5], [1, 0]])
        #expect(clockwise.vertices.count == 4 && clockwise.area == 1)
        let fromBox = Polygon.box(body: body, boundingBox: BoundingBox(left: -1, bottom: -2, right: 3, top: 4))
        #expect(fromBox.area == 24 && fromBox.centerOfGravity == [1, 1])
    }

    @Test func sensorsDetectButDoNotCollide() throws {
        let world = BallOnFloor()
        world.floor.isSensor = true
        var touched = false
        world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).begin = { _ in
            touched = true
            return true
        }
        try world.run(seconds: 1)
        #expect(touched && world.ball.position.y < -10)
    }

    @Test func surfaceVelocityMovesWhatRestsOnIt() throws {
        let world = BallOnFloor()
        world.floor.surfaceVelocity = [5, 0]
        #expect(world.floor.surfaceVelocity == [5, 0])
        try world.run(seconds: 1)
        #expect(world.ball.velocity.x > 1, "the conveyor drags the ball along")
    }

    @Test func segmentNeighbours() throws {
        let segment = Segment(body: Body(kind: .static), from: [0, 0], to: [1, 0])
        segment.setNeighbors(previous: [-1, 0], next: [2, 0])
    }

    @Test func velocityAtPointsAndEnergy() throws {
        let body = Body(mass: 2, moment: 3)
        body.velocity = [1, 0]
        body.angularVelocity = 2
        #expect(body.velocity(atLocalPoint: [0, 1]) == [-1, 0])  // v + ω × r = (1,0) + 2·(-1,0)
        #expect(body.velocity(at: [1, 0]) == [1, 2])
        #expect(body.kineticEnergy == 2 * 1 * 1 + 3 * 2 * 2)  // m v² + I ω² (the engine omits the ½)
        #expect(Body(kind: .static).kineticEnergy == 0)
    }

    @Test func changingKindInASpace() throws {
        let world = BallOnFloor()
        try world.run(seconds: 0.1)
        world.ball.kind = .static
        #expect(world.ball.kind == .static && world.ball.velocity == .zero)
        let frozenAt = world.ball.position
        try world.run(seconds: 0.5)
        #expect(world.ball.position == frozenAt)
        world.ball.kind = .kinematic
        world.ball.velocity = [1, 0]
        try world.run(seconds: 1)
        #expect(world.ball.position.x > 0.9 && world.ball.position.y == frozenAt.y, "kinematic: moved by velocity only")
        // Dynamic again: its mass comes from its shapes, which have none, so the step refuses.
        world.ball.kind = .dynamic
        #expect(world.ball.mass == 0)
        #expect(throws: ChipmunkError.self) { try world.space.step(1.0 / 60) }
        world.ball.mass = 1
        world.ball.moment = 1
        try world.space.step(1.0 / 60)
    }

    @Test func bodiesListTheirShapesAndConstraints() throws {
        let space = Space()
        let a = Body(mass: 1, moment: 1)
        let b = Body(mass: 1, moment: 1)
        space.add(a)
        space.add(b)
        let shape1 = Circle(body: a, radius: 1)
        let shape2 = Circle(body: a, radius: 2)
        #expect(a.shapes.isEmpty, "a body lists the shapes that are in its space")
        space.add(shape1)
        space.add(shape2)
        #expect(Set(a.shapes.map(ObjectIdentifier.init)) == Set([shape1, shape2].map(ObjectIdentifier.init)))
        let joint = PinJoint(a: a, b: b, anchorA: .zero, anchorB: [1, 0])
        space.add(joint)
        #expect(a.constraints.count == 1 && a.constraints[0] === joint && b.constraints[0] === joint)
        #expect(space.constraints.count == 1)
    }

    @Test func sleeping() throws {
        let world = BallOnFloor()
        world.space.sleepTimeThreshold = 0.5
        // "Non-dynamic bodies cannot be put to sleep"
        // Left alone, a resting body falls asleep.
        try world.run(seconds: 3)
        #expect(world.ball.isSleeping)
        world.ball.activate()
        #expect(!world.ball.isSleeping)
        world.ball.sleep()
        #expect(world.ball.isSleeping)
        // "Cannot use a non-sleeping body as a group identifier"
        let other = Body(mass: 1, moment: 1)
        world.space.add(other)
        world.space.add(Circle(body: other, radius: 1))
        let awake = Body(mass: 1, moment: 1)
        world.space.add(awake)
        other.sleep(group: world.ball)
        #expect(other.isSleeping)
        // "The body is already sleeping and it's group cannot be reassigned"
        let lonely = Body(mass: 1, moment: 1)
        world.space.add(lonely)
        world.space.add(Circle(body: lonely, radius: 1))
        lonely.sleep()
        // "Bodies cannot be put to sleep during a query or a call to cpSpaceStep()"
        awake.velocityUpdate = { body, gravity, damping, dt in
            try body.updateVelocity(gravity: gravity, damping: damping, dt: dt)
        }
        try world.space.step(1.0 / 60)
    }

    /// A box put to sleep under another: alone, it left the engine two arbiters for the
    /// pair, and the next steps freed a contact block twice (`free(): invalid pointer`, found
    /// by a helper's attack; only when the lower box was added first, for the arbiter then
    /// belongs to it). The whole stack sleeps now, as one group, and wakes as one.
    @Test(arguments: [false, true])
    func sleepingABodyPutsWhatItTouchesToSleepWithIt(lowerFirst: Bool) throws {
        let space = Space()
        space.gravity = [0, -10]
        space.sleepTimeThreshold = 0.5
        space.add(Segment(body: space.staticBody, from: [-10, 0], to: [10, 0], radius: 0.1))
        let boxes = (0..<3).map { i in
            let box = Body(mass: 1, moment: 0.3)
            box.position = [0, 0.6 + 1.02 * Double(i)]
            return box
        }
        for box in lowerFirst ? boxes : boxes.reversed() {
            space.add(box, Polygon.box(body: box, width: 1, height: 1))
        }
        let loose = Body(mass: 1, moment: 0.3)
        loose.position = [5, 0.6]
        space.add(loose, Polygon.box(body: loose, width: 1, height: 1))
        for _ in 0..<30 { try space.step(1.0 / 60) }
        boxes[0].sleep()
        let stackSleeps = boxes.allSatisfy { $0.isSleeping }
        #expect(stackSleeps && !loose.isSleeping, "the stack, not the box beside it")
        for _ in 0..<5 { try space.step(1.0 / 60) }
        #expect(boxes.allSatisfy { $0.isSleeping })
        // Joining a group: the loose box (woken: idle, it fell asleep alone) joins the stack's.
        loose.activate()
        loose.sleep(group: boxes[2])
        boxes[1].activate()
        let anyAsleep = boxes.contains { $0.isSleeping } || loose.isSleeping
        #expect(!anyAsleep, "one group wakes as one")
        for _ in 0..<120 { try space.step(1.0 / 60) }
        let asleepAgain = boxes.allSatisfy { $0.isSleeping }
        #expect(asleepAgain, "they fall asleep again by themselves")
    }

    /// Sleeping turned off while a box slept, then a ball dropped on it: the engine no
    /// longer woke the box yet linked their contact, and aborted ("Dangling contact graph
    /// pointers detected", found by a helper's attack). Turning sleeping off wakes everything.
    @Test func turningSleepingOffWakesSleepingBodies() throws {
        let world = BallOnFloor()
        world.space.sleepTimeThreshold = 0.3
        try world.run(seconds: 2)
        #expect(world.ball.isSleeping)
        world.space.sleepTimeThreshold = .infinity
        #expect(!world.ball.isSleeping)
        let dropped = Body(mass: 1, moment: 0.1)
        dropped.position = world.ball.position + Vector(x: 0, y: 3)
        world.space.add(dropped, Circle(body: dropped, radius: 0.3))
        try world.run(seconds: 1)
        #expect(!world.ball.isSleeping && !dropped.isSleeping)
    }

    @Test func postStepCallbacksRunOncePerKey() throws {
        let world = BallOnFloor()
        var runs: [String] = []
        let added = world.space.addPostStepCallback(forKey: "a") { space in
            #expect(!space.isDeferringChanges)
            runs.append("a")
        }
        #expect(added)
        #expect(!world.space.addPostStepCallback(forKey: "a") { _ in runs.append("a again") })
        world.space.addPostStepCallback(forKey: 7) { _ in runs.append("7") }
        try world.space.step(1.0 / 120)
        #expect(runs == ["a", "7"])
        try world.space.step(1.0 / 120)
        #expect(runs == ["a", "7"], "each runs once")
        // Registered from a callback, it runs when that step ends; it may change the space.
        let ballShape = world.ballShape
        world.ball.velocityUpdate = { body, gravity, damping, dt in
            body.space?.addPostStepCallback(forKey: "remove") { space in space.remove(ballShape) }
            try body.updateVelocity(gravity: gravity, damping: damping, dt: dt)
        }
        try world.space.step(1.0 / 120)
        #expect(!world.space.contains(world.ballShape))
        world.ball.velocityUpdate = nil  // it captured the ball's own shape, which holds the ball
    }

    @Test func reindexing() throws {
        let space = Space()
        let ledge = Body(kind: .static)
        space.add(ledge)
        let shape = Segment(body: ledge, from: [0, 0], to: [1, 0])
        space.add(shape)
        cpBodySetPosition(ledge.handle, cpVectForTests(0, 5))  // moved through C, with no reindex
        #expect(shape.boundingBox.bottom == 0)
        space.reindex(shape)
        #expect(shape.boundingBox.bottom == 5)
        cpBodySetPosition(ledge.handle, cpVectForTests(0, 7))
        space.reindexShapes(of: ledge)
        #expect(shape.boundingBox.bottom == 7)
        cpBodySetPosition(ledge.handle, cpVectForTests(0, 9))
        space.reindexStatic()
        #expect(shape.boundingBox.bottom == 9)
    }

    @Test func theThreadedSolverOption() throws {
        func pyramid(_ space: Space) throws -> [Body] {
            space.gravity = [0, -10]
            space.add(Segment(body: space.staticBody, from: [-30, 0], to: [30, 0], friction: 0.6))
            var bodies: [Body] = []
            for row in 0..<10 {
                for i in 0..<(10 - row) {
                    let body = Body(mass: 1, moment: Moment.box(mass: 1, width: 1, height: 1))
                    body.position = [Double(i) - Double(10 - row) / 2 + 0.5, 0.5 + Double(row)]
                    space.add(body)
                    space.add(Polygon.box(body: body, width: 1, height: 1, friction: 0.6))
                    bodies.append(body)
                }
            }
            for _ in 0..<200 { try space.step(1.0 / 60) }
            return bodies
        }
        let hasty = Space(threads: 1)
        #expect(hasty.threads == 1 && hasty.isThreaded && Space().threads == 1 && !Space().isThreaded)
        let a = try pyramid(Space())
        let b = try pyramid(hasty)
        // One thread of the threaded solver gives the same bits as the plain solver.
        #expect(zip(a, b).allSatisfy { $0.position == $1.position && $0.angle == $1.angle })
        let two = Space(threads: 2)
        #expect(two.threads == 2)
        _ = try pyramid(two)
    }
}

import CChipmunk
private func cpVectForTests(_ x: Double, _ y: Double) -> cpVect { cpVect(x: x, y: y) }
