import Chipmunk
import Testing

/// A wildcard or default collision handler added while contacts exist (a helper's attack:
/// each route crashed the engine, SIGSEGV in its default separate callback, through an
/// arbiter cached before the handler, whose wildcard handlers the engine had left NULL).
/// Each route runs in a child process, so a crash fails its own test.
struct WildcardHandlerTests {
    /// A ball resting on a ground segment for 10 steps: one cached contact pair.
    static func restingBall() -> (Space, Body) {
        let space = Space()
        space.gravity = [0, -10]
        space.add(Segment(body: space.staticBody, from: [-10, 0], to: [10, 0], radius: 0.1))
        let ball = Body(mass: 1, moment: 1)
        ball.position = [0, 1]
        space.add(ball, Circle(body: ball, radius: 1))
        for _ in 0..<10 { try! space.step(1.0 / 60) }
        return (space, ball)
    }

    @Test func aWildcardHandlerThenARemoval() async {
        await #expect(processExitsWith: .success) {
            let (space, ball) = WildcardHandlerTests.restingBall()
            var separations = 0
            space.onCollision(between: 99, separate: { _ in separations += 1 })  // a type no shape has
            space.remove(contentsOf: ball.attachments + [ball])
            try! space.step(1.0 / 60)
            precondition(separations == 0, "the handler is for type 99")
        }
    }

    @Test func theDefaultHandlerThenASeparation() async {
        await #expect(processExitsWith: .success) {
            let (space, ball) = WildcardHandlerTests.restingBall()
            // Its separate callback stays the engine's, which calls the wildcard handlers.
            space.defaultCollisionHandler.preSolve = { _ in true }
            ball.velocity = [0, 100]
            for _ in 0..<5 { try! space.step(1.0 / 60) }
        }
    }

    @Test func aCopyGivenAWildcardHandler() async {
        await #expect(processExitsWith: .success) {
            let (space, _) = WildcardHandlerTests.restingBall()
            let copy = space.copy()
            copy.onCollision(between: 7, begin: { _ in true })
            copy.remove(contentsOf: copy.bodies[0].attachments + [copy.bodies[0]])
            try! copy.step(1.0 / 60)
        }
    }

    /// The state was saved before the handler: its arbiters come back without wildcard
    /// handlers, into a space that now calls them.
    @Test func aStateSavedBeforeTheHandler() async {
        await #expect(processExitsWith: .success) {
            let (space, ball) = WildcardHandlerTests.restingBall()
            var state = SpaceState()
            space.save(into: &state)
            space.onCollision(between: 99, begin: { _ in true })
            for _ in 0..<3 { try! space.step(1.0 / 60) }
            try! space.restore(state)
            space.remove(contentsOf: ball.attachments + [ball])
            try! space.step(1.0 / 60)
        }
    }

    /// Sleeping pairs keep their arbiters out of the cache: woken and parted after the
    /// handler was added, they call through it too.
    @Test func aSleepingPairWokenAfterTheHandler() async {
        await #expect(processExitsWith: .success) {
            let (space, ball) = WildcardHandlerTests.restingBall()
            space.sleepTimeThreshold = 0.1
            for _ in 0..<120 { try! space.step(1.0 / 60) }
            precondition(ball.isSleeping, "the ball fell asleep")
            space.defaultCollisionHandler.preSolve = { _ in true }
            ball.velocity = [0, 100]
            for _ in 0..<5 { try! space.step(1.0 / 60) }
        }
    }

    /// Filling the handlers in changes no bits: a pair that does not separate steps on as
    /// in a space whose handler was there from the start.
    @Test func theRunIsTheSameAsWithTheHandlerFromTheStart() throws {
        let (late, _) = Self.restingBall()
        late.onCollision(between: 99, begin: { _ in true })
        let early = Space()
        early.onCollision(between: 99, begin: { _ in true })
        early.gravity = [0, -10]
        early.add(Segment(body: early.staticBody, from: [-10, 0], to: [10, 0], radius: 0.1))
        let ball = Body(mass: 1, moment: 1)
        ball.position = [0, 1]
        early.add(ball, Circle(body: ball, radius: 1))
        for _ in 0..<10 { try early.step(1.0 / 60) }
        for step in 0..<60 {
            try late.step(1.0 / 60)
            try early.step(1.0 / 60)
            #expect(late.stateHash() == early.stateHash(), "step \(step)")
        }
    }
}
