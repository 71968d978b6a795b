import Testing
@testable import Chipmunk

/// The ENGINE.md assertions not already covered by MisuseTests, DeferralTests,
/// BodyAndShapeTests, ConstraintTests and GeometryTests; docs/engine-assertions.md maps
/// every message to its guard and its test.
@Suite struct EngineAssertionTests {
    // "You cannot manually reindex objects while the space is locked": deferred.
    // "This operation cannot be done safely during a call to cpSpaceStep()": constraints too.
    @Test func reindexingAndConstraintChangesInsideAStepAreDeferred() throws {
        let world = BallOnFloor()
        let ledge = Body(kind: .static)
        world.space.add(ledge)
        let ledgeShape = Segment(body: ledge, from: [20, 0], to: [30, 0])
        world.space.add(ledgeShape)
        let partner = Body(mass: 1, moment: 1)
        world.space.add(partner)
        let joint = PinJoint(a: world.ball, b: partner, anchorA: .zero, anchorB: .zero)
        var ran = false
        world.ball.velocityUpdate = { body, gravity, damping, dt in
            if !ran {
                ran = true
                cpBodySetPositionForTests(ledge, 0, 3)
                body.space!.reindex(ledgeShape)
                body.space!.reindexShapes(of: ledge)
                body.space!.reindexStatic()
                body.space!.add(joint)
                #expect(joint.space === body.space && body.space!.constraints.count == 1)
            }
            try body.updateVelocity(gravity: gravity, damping: damping, dt: dt)
        }
        try world.space.step(1.0 / 120)
        #expect(ledgeShape.boundingBox.bottom == 3, "reindexed once the step ended")
        #expect(world.ball.constraints.first === joint, "the engine has the joint")
        world.ball.velocityUpdate = { body, gravity, damping, dt in
            if body.space!.contains(joint) { body.space!.remove(joint) }
            try body.updateVelocity(gravity: gravity, damping: damping, dt: dt)
        }
        try world.space.step(1.0 / 120)
        #expect(joint.space == nil && world.ball.constraints.isEmpty)
        world.ball.velocityUpdate = nil  // it captured the joint, which holds the ball: a cycle
    }

    // "Index error: The specified contact index is invalid for this arbiter": the binding
    // never passes an index to the engine; ContactPointSet's subscript checks its own
    // bounds, as Array does, and stops with a message.
    @Test func aContactIndexOutOfRangeStopsWithAMessage() async {
        await #expect(processExitsWith: .failure) {
            let set = ContactPointSet(
                normal: [0, 1], points: [ContactPoint(pointA: .zero, pointB: .zero, distance: 0)])
            _ = set[1]
        }
    }

    // "Body's velocity is invalid" from the engine's own integration, reached through a
    // custom velocity function: updateVelocity checks what it would compute first.
    @Test func theDefaultIntegrationRefusesToOverflow() throws {
        let body = Body(mass: 1e-150, moment: 1)
        body.force = [1e300, 0]
        #expect(throws: ChipmunkError.diverged(step: 1, body: -1, quantity: .velocity, value: .infinity)) {
            try body.updateVelocity(gravity: .zero, damping: 1, dt: 1)
        }
        body.force = .zero
        body.velocity = [Double.greatestFiniteMagnitude, 0]
        #expect(throws: ChipmunkError.diverged(step: 1, body: -1, quantity: .position, value: .infinity)) {
            try body.updatePosition(dt: 10)
        }
        #expect(body.position == .zero, "a refused integration leaves the body unchanged")
    }
}

import CChipmunk
private func cpBodySetPositionForTests(_ body: Body, _ x: Double, _ y: Double) {
    cpBodySetPosition(body.handle, cpVect(x: x, y: y))  // through C: no automatic reindex
}

/// A contact point set of one point compares by that point: the engine's second slot,
/// unused and uninitialised, plays no part.
@Suite struct ContactPointSetEqualityTests {
    @Test func theUnusedSlotPlaysNoPart() {
        var raw = cpContactPointSet()
        raw.count = 1
        raw.normal = cpVect(x: 0, y: 1)
        CChipmunkSetContactPoint(&raw, 0, cpVect(x: 1, y: 2), cpVect(x: 1, y: 3), -1)
        CChipmunkSetContactPoint(&raw, 1, cpVect(x: 99, y: 99), cpVect(x: -7, y: 5), 42)  // garbage in the unused slot
        let fromEngine = ContactPointSet(raw)
        let built = ContactPointSet(
            normal: [0, 1], points: [ContactPoint(pointA: [1, 2], pointB: [1, 3], distance: -1)])
        #expect(fromEngine == built)
        #expect(Set([fromEngine, built]).count == 1, "and hashes alike")
    }
}
