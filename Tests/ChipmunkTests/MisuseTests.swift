import Testing
@testable import Chipmunk

/// Every misuse that would reach one of Debian's aborting Chipmunk assertions is stopped
/// by the Swift layer first, with a thrown error or a documented deferral. The test run
/// reaching its end proves that none of these aborted the process.
@Suite struct MisuseTests {
    private func dynamicBody() throws -> Body { try Body(mass: 1, moment: 1) }

    // "You have already added this body/shape to this space" / "to another space"
    @Test func addingTwiceOrToTwoSpaces() throws {
        let space = Space(), other = Space()
        let body = try dynamicBody()
        let shape = try Circle(body: body, radius: 1)
        try space.add(body)
        try space.add(shape)
        #expect(throws: ChipmunkError.alreadyInThisSpace(.body)) { try space.add(body) }
        #expect(throws: ChipmunkError.alreadyInThisSpace(.shape)) { try space.add(shape) }
        #expect(throws: ChipmunkError.inAnotherSpace(.body)) { try other.add(body) }
        #expect(throws: ChipmunkError.inAnotherSpace(.shape)) { try other.add(shape) }
        #expect(space.bodies.count == 1 && space.shapes.count == 1 && other.bodies.isEmpty)
    }

    // "Cannot remove a body/shape that was not added to the space"
    @Test func removingWhatIsNotInTheSpace() throws {
        let space = Space(), other = Space()
        let body = try dynamicBody()
        let shape = try Circle(body: body, radius: 1)
        #expect(throws: ChipmunkError.notInThisSpace(.body)) { try space.remove(body) }
        #expect(throws: ChipmunkError.notInThisSpace(.shape)) { try space.remove(shape) }
        try other.add(body)
        try other.add(shape)
        #expect(throws: ChipmunkError.notInThisSpace(.body)) { try space.remove(body) }
        #expect(throws: ChipmunkError.notInThisSpace(.shape)) { try space.remove(shape) }
        try other.remove(shape)
        #expect(throws: ChipmunkError.notInThisSpace(.shape)) { try other.remove(shape) }
    }

    // "Cannot remove the designated static body"; adding it would be "already added".
    @Test func theStaticBodyCannotBeAddedOrRemoved() throws {
        let space = Space(), other = Space()
        #expect(throws: ChipmunkError.spaceStaticBody) { try space.add(space.staticBody) }
        #expect(throws: ChipmunkError.spaceStaticBody) { try space.remove(space.staticBody) }
        #expect(throws: ChipmunkError.spaceStaticBody) { try other.add(space.staticBody) }
        #expect(throws: ChipmunkError.spaceStaticBody) { try other.remove(space.staticBody) }
    }

    @Test func aShapeNeedsItsBodyInTheSpace() throws {
        let space = Space(), other = Space()
        let body = try dynamicBody()
        let shape = try Circle(body: body, radius: 1)
        #expect(throws: ChipmunkError.bodyNotInSpace) { try space.add(shape) }
        let foreignWall = try Segment(body: other.staticBody, from: [0, 0], to: [1, 0])
        #expect(throws: ChipmunkError.bodyNotInSpace) { try space.add(foreignWall) }
        try space.add(body)
        try space.add(shape)
        // A static body of your own must be added like any other body.
        let ledge = Body(kind: .static)
        let ledgeShape = try Segment(body: ledge, from: [0, 0], to: [1, 0])
        #expect(throws: ChipmunkError.bodyNotInSpace) { try space.add(ledgeShape) }
        try space.add(ledge)
        try space.add(ledgeShape)
    }

    // "Mass must be positive and finite", "Moment of Inertia must be positive",
    // "Body's mass and moment must be positive to simulate",
    // "You cannot set the mass of kinematic or static bodies".
    @Test(arguments: [0.0, -1, .nan, .infinity, -.infinity])
    func badMassOrMoment(_ value: Double) throws {
        #expect(throws: ChipmunkError.self) { try Body(mass: value, moment: 1) }
        #expect(throws: ChipmunkError.self) { try Body(mass: 1, moment: value) }
        let body = try dynamicBody()
        #expect(throws: ChipmunkError.self) { try body.setMass(value) }
        #expect(throws: ChipmunkError.self) { try body.setMoment(value) }
        #expect(body.mass == 1 && body.moment == 1, "a refused value leaves the body unchanged")
    }

    @Test func massOnlyForDynamicBodies() throws {
        for kind in [Body.Kind.kinematic, .static] {
            let body = Body(kind: kind)
            #expect(throws: ChipmunkError.notDynamic(property: "mass")) { try body.setMass(1) }
            #expect(throws: ChipmunkError.notDynamic(property: "moment")) { try body.setMoment(1) }
        }
        // A dynamic body may join a space without mass (its shapes may give it some), but
        // the step refuses to run while it has none.
        let space = Space()
        let massless = Body(kind: .dynamic)
        try space.add(massless)
        #expect(throws: ChipmunkError.massless) { try space.step(1.0 / 60) }
        try massless.setMass(2)
        #expect(throws: ChipmunkError.massless) { try space.step(1.0 / 60) }
        try massless.setMoment(3)
        try space.step(1.0 / 60)
    }

    // "Body's position/velocity/angle/angular velocity/force/torque is invalid"
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteBodyState(_ bad: Double) throws {
        let body = try dynamicBody()
        let vectors: [Vector] = [[bad, 0], [0, bad]]
        for v in vectors {
            #expect(throws: ChipmunkError.self) { try body.setPosition(v) }
            #expect(throws: ChipmunkError.self) { try body.setVelocity(v) }
            #expect(throws: ChipmunkError.self) { try body.setForce(v) }
            #expect(throws: ChipmunkError.self) { try body.setCenterOfGravity(v) }
            #expect(throws: ChipmunkError.self) { try body.applyForce(v, atWorldPoint: .zero) }
            #expect(throws: ChipmunkError.self) { try body.applyForce([1, 0], atLocalPoint: v) }
            #expect(throws: ChipmunkError.self) { try body.applyImpulse(v, atWorldPoint: .zero) }
            #expect(throws: ChipmunkError.self) { try body.applyImpulse([1, 0], atLocalPoint: v) }
        }
        #expect(throws: ChipmunkError.self) { try body.setAngle(bad) }
        #expect(throws: ChipmunkError.self) { try body.setAngularVelocity(bad) }
        #expect(throws: ChipmunkError.self) { try body.setTorque(bad) }
        #expect(body.position == .zero && body.velocity == .zero && body.angle == 0)
        let error = #expect(throws: ChipmunkError.self) { try body.setPosition([bad, 0]) }
        #expect(error?.description.hasPrefix("position must be finite") == true)
    }

    // "Friction must be positive", "Elasticity must be positive"; NaN geometry.
    @Test func badShapeValues() throws {
        let body = try dynamicBody()
        #expect(throws: ChipmunkError.self) { try Circle(body: body, radius: -1) }
        #expect(throws: ChipmunkError.self) { try Circle(body: body, radius: .nan) }
        #expect(throws: ChipmunkError.self) { try Circle(body: body, radius: 1, offset: [.nan, 0]) }
        #expect(throws: ChipmunkError.self) { try Circle(body: body, radius: 1, friction: -0.5) }
        #expect(throws: ChipmunkError.self) { try Circle(body: body, radius: 1, elasticity: .nan) }
        #expect(throws: ChipmunkError.self) { try Segment(body: body, from: [.infinity, 0], to: [1, 0]) }
        #expect(throws: ChipmunkError.self) { try Polygon(body: body, vertices: [[0, 0], [1, 0]]) }
        #expect(throws: ChipmunkError.self) { try Polygon(body: body, vertices: [[0, 0], [1, 0], [.nan, 1]]) }
        #expect(throws: ChipmunkError.self) { try Polygon(body: body, vertices: [[0, 0], [1, 0], [0, 1]], transform: .translation([.nan, 0])) }
        #expect(throws: ChipmunkError.self) { try Polygon.box(body: body, width: -1, height: 1) }
        let shape = try Circle(body: body, radius: 1, friction: 0.5)
        #expect(throws: ChipmunkError.self) { try shape.setFriction(-1) }
        #expect(throws: ChipmunkError.self) { try shape.setElasticity(.infinity) }
        #expect(shape.friction == 0.5 && shape.elasticity == 0)
    }

    // "Iterations must be positive and non-zero"; NaN gravity or damping would make the
    // step abort with "Body's velocity is invalid".
    @Test func badSpaceParametersAreRefusedBeforeTheStep() throws {
        let space = Space()
        #expect(throws: ChipmunkError.self) { try space.setIterations(0) }
        #expect(throws: ChipmunkError.self) { try space.setIterations(-3) }
        #expect(space.iterations == 10)
        let body = try dynamicBody()
        try space.add(body)
        for dt in [0.0, -1, .nan, .infinity] {
            #expect(throws: ChipmunkError.self) { try space.step(dt) }
        }
        space.gravity = [.nan, 0]
        let error = #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
        #expect(error?.description.hasPrefix("gravity must be finite") == true)
        space.gravity = [0, -10]
        // "Damping must be positive" is checked on assignment by the engine, so here too.
        #expect(throws: ChipmunkError.self) { try space.setDamping(-1) }
        #expect(throws: ChipmunkError.self) { try space.setDamping(.nan) }
        #expect(space.damping == 1)
        space.collisionSlop = .nan
        #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
        space.collisionSlop = 0.1
        #expect(body.velocity == .zero, "refused steps simulate nothing")
        try space.step(1.0 / 60)
        #expect(body.velocity.y < 0)
    }
}
