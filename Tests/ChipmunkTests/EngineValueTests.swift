import Testing
@testable import Chipmunk

/// Exact values from the engine's own math; pymunk's tests assert the same numbers.
@Suite struct EngineValueTests {
    @Test func momentsAndAreas() {
        // pymunk test_common: moment_for_circle(1, 2, 3, (1, 2)) == 11.5
        #expect(Moment.circle(mass: 1, innerRadius: 2, outerRadius: 3, offset: [1, 2]) == 11.5)
        // pymunk: moment_for_box(1, (2, 3)) == 1.0833333333333333
        #expect(Moment.box(mass: 1, width: 2, height: 3) == 1.0833333333333333)
        // pymunk: area_for_circle(1, 2) == 9.42477796076938 (3 pi)
        #expect(Area.circle(innerRadius: 1, outerRadius: 2) == 9.42477796076938)
        // A segment of length 10 along x: m * (l^2 / 12 + offset^2), offset 5 from the origin.
        #expect(Moment.segment(mass: 1, from: [0, 0], to: [10, 0]) == 1 * (100.0 / 12 + 25))
        let square: [Vector] = [[-1, -1], [-1, 1], [1, 1], [1, -1]]
        #expect(Moment.polygon(mass: 1, vertices: square) == Moment.box(mass: 1, width: 2, height: 2))
        #expect(Area.polygon(vertices: square.reversed()) == 4)
        #expect(Area.box(width: 2, height: 3) == 6)
    }

    /// ENGINE.md: semi-implicit Euler puts a body falling from rest at
    /// y0 - g*dt*dt*n*(n-1)/2 after n steps; the book's crate is at -245.83333333333354
    /// with vy -1000.0000000000017 after 120 steps of 1/120 s.
    @Test func theBooksCrateFallsToTheKnownBits() throws {
        let space = Space()
        space.gravity = [0, -1000]
        let body = Body(mass: 100, moment: Moment.box(mass: 100, width: 100, height: 100))
        body.position = [150, 250]
        space.add(body)
        space.add(
            Polygon(
                body: body, vertices: [[0, 0], [0, 100], [100, 100], [100, 0]],
                transform: .translation([-50, -50]), friction: 0.5, elasticity: 0.8))
        for _ in 0..<120 { try space.step(1.0 / 120.0) }
        #expect(body.position.y == -245.83333333333354)
        #expect(body.velocity.y == -1000.0000000000017)
        #expect(body.position.x == 150 && body.angle == 0)
    }

    @Test func shapesReportTheirGeometry() throws {
        let body = Body(mass: 1, moment: 1)
        let box = Polygon.box(body: body, width: 4, height: 2)
        // pymunk test_shapes: Poly.create_box(None, (4, 2)) vertices.
        #expect(box.vertices == [[2, -1], [2, 1], [-2, 1], [-2, -1]])
        let circle = Circle(body: body, radius: 5, offset: [1, 2], friction: 0.3, elasticity: 0.4, collisionType: 7)
        #expect(circle.radius == 5 && circle.offset == [1, 2])
        #expect(circle.friction == 0.3 && circle.elasticity == 0.4 && circle.collisionType == 7)
        let segment = Segment(body: body, from: [0, 0], to: [10, 0], radius: 1)
        #expect(segment.start == [0, 0] && segment.end == [10, 0] && segment.radius == 1)
        #expect(segment.normal == [0, -1])
        let crate = Polygon(
            body: body, vertices: [[0, 0], [0, 10], [10, 10], [10, 0]], transform: .translation([-5, -5]), radius: 0.5)
        #expect(Set(crate.vertices) == Set([[-5, -5], [-5, 5], [5, 5], [5, -5]] as [Vector]))
        #expect(crate.radius == 0.5)
    }

    @Test func forcesAndImpulsesAtPoints() throws {
        let body = Body(mass: 1, moment: 2)
        body.position = [3, 4]
        // pymunk test_body: force (10, 0) at world point (0, 10) gives torque -60.
        body.applyForce([10, 0], at: [0, 10])
        #expect(body.force == [10, 0] && body.torque == -60)
        // ...and as an impulse, velocity (10, 0) and angular velocity -30.
        body.applyImpulse([10, 0], at: [0, 10])
        #expect(body.velocity == [10, 0] && body.angularVelocity == -30)
        #expect(body.localToWorld([1, 0]) == [4, 4])
        #expect(body.worldToLocal([4, 4]) == [1, 0])
        body.angle = .pi
        #expect(body.rotation.x == -1)
    }

    @Test func spaceParametersRoundTrip() throws {
        let space = Space()
        #expect(space.iterations == 10 && space.damping == 1 && space.gravity == .zero)
        #expect(space.sleepTimeThreshold == .infinity)
        space.iterations = 20
        space.damping = 0.9
        space.collisionSlop = 0.5
        space.collisionBias = 0.25
        space.collisionPersistence = 5
        space.idleSpeedThreshold = 1
        space.sleepTimeThreshold = 2
        #expect(space.iterations == 20 && space.damping == 0.9 && space.collisionSlop == 0.5)
        #expect(space.collisionBias == 0.25 && space.collisionPersistence == 5)
        #expect(space.idleSpeedThreshold == 1 && space.sleepTimeThreshold == 2)
        #expect(Engine.version == "7.0.3")
    }
}
