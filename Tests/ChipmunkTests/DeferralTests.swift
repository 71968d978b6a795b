import Testing
@testable import Chipmunk

/// "This operation cannot be done safely during a call to cpSpaceStep()": adds and
/// removes made while the space is locked are deferred to the end of the step.
@Suite struct DeferralTests {
    struct Boom: Error, Equatable {}

    @Test func addAndRemoveDuringAStepTakeEffectAfterIt() throws {
        let space = Space()
        space.gravity = [0, -100]
        let driver = Body(mass: 1, moment: 1)
        let doomed = Body(mass: 1, moment: 1)
        let doomedShape = Circle(body: doomed, radius: 1)
        space.add(driver)
        space.add(doomed)
        space.add(doomedShape)
        let newcomer = Body(mass: 1, moment: 1)
        let newcomerShape = Circle(body: newcomer, radius: 1)

        var sawLocked = false
        driver.velocityUpdate = { body, gravity, damping, dt in
            let space = body.space!  // not captured: the space would hold itself through this closure
            sawLocked = space.isLocked
            if newcomer.space == nil {
                space.add(newcomer)
                space.add(newcomerShape)
                space.remove(doomedShape)
                space.remove(doomed)
                // The same checks hold while locked.
            }
            try body.updateVelocity(gravity: gravity, damping: damping, dt: dt)
        }
        try space.step(1.0 / 60)
        #expect(sawLocked)
        #expect(!space.isLocked)
        #expect(space.bodies.contains { $0 === newcomer } && !space.bodies.contains { $0 === doomed })
        #expect(space.shapes.contains { $0 === newcomerShape } && doomedShape.space == nil)
        // The engine has it: the next step moves the newcomer and no longer the removed body.
        let doomedVelocity = doomed.velocity
        try space.step(1.0 / 60)
        #expect(newcomer.velocity.y < 0)
        #expect(doomed.velocity == doomedVelocity)
        // And the deferred objects can be removed again normally.
        space.remove(newcomerShape)
        space.remove(newcomer)
    }

    @Test func anErrorInACallbackComesOutOfStepAfterTheStep() throws {
        let space = Space()
        space.gravity = [0, -100]
        let body = Body(mass: 1, moment: 1)
        let other = Body(mass: 1, moment: 1)
        space.add(body)
        space.add(other)
        body.velocityUpdate = { _, _, _, _ in throw Boom() }
        #expect(throws: Boom.self) { try space.step(1.0 / 60) }
        #expect(other.velocity.y < 0, "the step completed for the other bodies")
        body.velocityUpdate = nil
        try space.step(1.0 / 60)
        #expect(body.velocity.y < 0, "the default integration is back")
    }

    // Stepping inside a callback is a programming error: PreconditionTests.stepInsideACallback.
    @Test func movingStaticBodiesInsideACallback() throws {
        let space = Space()
        let ledge = Body(kind: .static)
        space.add(ledge)
        space.add(Segment(body: ledge, from: [0, 0], to: [10, 0]))
        let body = Body(mass: 1, moment: 1)
        space.add(body)
        body.positionUpdate = { body, dt in
            // "You cannot manually reindex objects while the space is locked": deferred.
            ledge.position = [0, 5]
            try body.updatePosition(dt: dt)
        }
        try space.step(1.0 / 60)
        #expect(ledge.position == [0, 5])
        #expect(space.shapes[0].boundingBox.bottom == 5, "reindexed after the step")
    }
}
