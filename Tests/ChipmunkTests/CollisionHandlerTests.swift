import Testing
@testable import Chipmunk

@Suite struct CollisionHandlerTests {
    /// A handler added while its pair touches hears that pair's `separate`, whatever kind
    /// it is and whether or not the state of that moment was restored first. A pair handler
    /// did not (the arbiter kept the default handler of its last update) while a wildcard
    /// or default handler did, and so did the pair handler after a snapshot's restore (a
    /// helper's attack): the same run gave other callbacks.
    @Test(arguments: ["pair", "wildcard", "default"], ["none", "state", "snapshot"])
    func aHandlerAddedWhileItsPairTouchesHearsItSeparate(kind: String, restore: String) throws {
        let world = BallOnFloor(height: 1)
        for _ in 0..<60 { try world.space.step(1.0 / 120) }
        var saved = SpaceState()
        world.space.save(into: &saved)
        let snapshot = world.space.snapshot()
        var events: [String] = []
        let begin = { (_: Arbiter) -> Bool in
            events.append("begin \(world.space.stepsTaken + 1)")
            return true
        }
        let separate = { (_: Arbiter) in events.append("separate \(world.space.stepsTaken + 1)") }
        switch kind {
        case "pair":
            world.space.onCollision(
                between: BallOnFloor.ballType, and: BallOnFloor.floorType, begin: begin, separate: separate)
        case "wildcard": world.space.onCollision(between: BallOnFloor.ballType, begin: begin, separate: separate)
        default: world.space.onCollision(begin: begin, separate: separate)
        }
        switch restore {
        case "state": try world.space.restore(saved)
        case "snapshot": try world.space.restore(snapshot)
        default: break
        }
        world.ball.velocity = [0, 100]
        for _ in 0..<360 { try world.space.step(1.0 / 120) }
        #expect(events == ["separate 61", "begin 301"], "\(events)")
    }

    @Test func callbacksRunInOrderWithTheArbitersValues() throws {
        let world = BallOnFloor()
        var events: [String] = []
        var impulse = Vector.zero
        var energy = 0.0
        var normal = Vector.zero
        var contacts = 0
        let handler = world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType)
        #expect(handler.typeA == BallOnFloor.ballType && handler.typeB == BallOnFloor.floorType)
        // Closures reach the space through their arguments, never by capturing it: the
        // space holds its handlers, so a captured space would hold itself and never be freed.
        let (ball, ballShape, floor) = (world.ball, world.ballShape, world.floor)
        handler.begin = { arbiter in
            events.append("begin")
            #expect(arbiter.isFirstContact)
            #expect(arbiter.shapes.0 === ballShape && arbiter.shapes.1 === floor)
            #expect(arbiter.bodies.0 === ball && arbiter.bodies.1 === arbiter.space.staticBody)
            normal = arbiter.normal
            contacts = arbiter.count
            return true
        }
        handler.preSolve = { _ in
            if events.last != "preSolve" { events.append("preSolve") }
            return true
        }
        handler.postSolve = { arbiter in
            if events.last != "postSolve" { events.append("postSolve") }
            impulse += arbiter.totalImpulse
            energy += arbiter.totalKineticEnergy
        }
        handler.separate = { arbiter in
            events.append("separate")
            #expect(!arbiter.isRemoval)
        }
        try world.run(seconds: 1)
        #expect(Array(events.prefix(3)) == ["begin", "preSolve", "postSolve"])
        #expect(normal == [0, -1], "from the ball (first shape) down to the floor")
        #expect(contacts == 1)
        #expect(impulse.y > 0, "the floor pushed the ball up")
        #expect(energy > 0)
        #expect(abs(world.ball.position.y - 1) < 0.2, "resting on the floor")
        // Lift it off: separate runs.
        world.ball.position = [0, 5]
        try world.space.step(1.0 / 120)
        #expect(events.last == "separate")
    }

    @Test func beginReturningFalseLetsShapesPassThrough() throws {
        let world = BallOnFloor()
        world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).begin = { _ in false }
        try world.run(seconds: 1)
        #expect(world.ball.position.y < -10)
    }

    @Test func theSwappedPairIsTheSameHandler() throws {
        let space = Space()
        let one = space.collisionHandler(between: 1, and: 2)
        let other = space.collisionHandler(between: 2, and: 1)
        #expect(one === other)
        #expect(space.defaultCollisionHandler === space.defaultCollisionHandler)
        #expect(space.wildcardCollisionHandler(for: 1) !== one)
    }

    @Test func wildcardAndDefaultHandlers() throws {
        // With no pair handler, the default handler calls the wildcard handlers of both types.
        let world = BallOnFloor()
        var wildcardBegins = 0
        let floor = world.floor
        world.space.wildcardCollisionHandler(for: BallOnFloor.floorType).begin = { arbiter in
            #expect(arbiter.shapes.0 === floor, "the wildcard type's shape comes first")
            wildcardBegins += 1
            return true
        }
        try world.run(seconds: 1)
        #expect(wildcardBegins == 1)
        // A pair handler with no begin of its own calls the wildcard handlers; one that
        // replaces begin calls them only if asked.
        let second = BallOnFloor()
        var calledThrough = false
        second.space.wildcardCollisionHandler(for: BallOnFloor.ballType).begin = { _ in
            calledThrough = true
            return true
        }
        second.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).begin = { arbiter in
            arbiter.callWildcardBegin(.a)
        }
        try second.run(seconds: 1)
        #expect(calledThrough)
        // Shapes with no handler of their own go to the default handler.
        let third = BallOnFloor()
        third.ballShape.collisionType = 7
        var fallback = 0
        third.space.defaultCollisionHandler.begin = { _ in
            fallback += 1
            return true
        }
        try third.run(seconds: 1)
        #expect(fallback == 1)
    }

    @Test func preSolveOverridesFrictionRestitutionAndSurfaceVelocity() throws {
        let world = BallOnFloor(height: 5, elasticity: 0)
        var first = true
        world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).preSolve = { arbiter in
            #expect(arbiter.friction == 1)
            #expect(arbiter.restitution == 0)
            arbiter.restitution = 1
            if first {
                first = false
            }
            arbiter.surfaceVelocity = [10, 0]
            #expect(arbiter.surfaceVelocity == [10, 0])
            return true
        }
        var highest = 0.0
        for step in 0..<240 {
            try world.space.step(1.0 / 120)
            if step > 60 { highest = max(highest, world.ball.position.y) }
        }
        #expect(highest > 3, "restitution 1 makes it bounce back up though both shapes say 0")
        #expect(world.ball.position.x != 0, "the surface velocity pushed it sideways")
    }

    @Test func contactPointSetsCanBeReadAndWritten() throws {
        let world = BallOnFloor(height: 0.9)  // starts overlapping the floor by 0.1
        var seen: ContactPointSet?
        world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).preSolve = { arbiter in
            var set = arbiter.contactPointSet
            if seen == nil { seen = set }
            set[0].distance = 0  // pretend there is no overlap
            arbiter.contactPointSet = set
            return true
        }
        try world.space.step(1.0 / 120)
        let set = try #require(seen)
        #expect(set.count == 1 && set.normal == [0, -1])
        #expect(abs(set[0].distance - -0.1) < 1e-9)
        #expect(abs(set[0].pointA.y - -0.1) < 1e-9 && set[0].pointB.y == 0)
    }

    @Test func ignoreSkipsTheContactUntilSeparation() throws {
        let world = BallOnFloor()
        var preSolves = 0
        let handler = world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType)
        handler.begin = { arbiter in
            arbiter.ignore()
            return true
        }
        handler.preSolve = { _ in
            preSolves += 1
            return true
        }
        try world.run(seconds: 1)
        #expect(preSolves == 0)
        #expect(world.ball.position.y < -10)
    }

    @Test func changesInsideCallbacksAreDeferred() throws {
        let world = BallOnFloor()
        let spawned = Body(mass: 1, moment: 1)
        let spawnedShape = Circle(body: spawned, radius: 0.5)
        spawned.position = [5, 5]
        var lockedInBegin = false
        let ballShape = world.ballShape
        world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).begin = { arbiter in
            let space = arbiter.space
            lockedInBegin = space.isDeferringChanges
            space.add(spawned)
            space.add(spawnedShape)
            space.remove(ballShape)  // the contact that is running
            return true
        }
        try world.run(seconds: 1)
        #expect(lockedInBegin)
        #expect(world.space.contains(spawnedShape) && !world.space.contains(world.ballShape))
        #expect(spawned.position.y < 5, "the engine has it and moves it")
    }

    @Test func separateDuringARemovalCanChangeTheSpace() throws {
        let world = BallOnFloor()
        // The engine binds each contact to a handler as it steps: create it first.
        let handler = world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType)
        try world.run(seconds: 1)  // resting: in contact
        let extra = Circle(body: world.ball, radius: 0.2, offset: [0, 0.5])
        world.space.add(extra)
        var removals = 0
        handler.separate = { arbiter in
            #expect(arbiter.isRemoval)
            removals += 1
            // Removing another shape from inside separate, during a removal: deferred.
            #expect(arbiter.space.isDeferringChanges)
            arbiter.space.remove(extra)
        }
        world.space.remove(world.ballShape)
        #expect(removals == 1)
        #expect(!world.space.contains(extra) && extra.space == nil)
        try world.space.step(1.0 / 120)
    }

    @Test func errorsInHandlersComeOutOfStepAfterIt() throws {
        struct Refused: Error {}
        let world = BallOnFloor()
        world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).begin = { _ in
            throw Refused()
        }
        var thrown = 0
        for _ in 0..<120 {
            do { try world.space.step(1.0 / 120) } catch is Refused { thrown += 1 }
        }
        #expect(thrown == 1, "begin ran once; its error came out of that step")
        #expect(abs(world.ball.position.y - 1) < 0.2, "the contact was accepted (begin counted as true)")
    }

    @Test func anArbiterKeptPastItsCallbackTraps() async {
        await #expect(processExitsWith: .failure) {
            let world = BallOnFloor()
            var kept: Arbiter?
            world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType).begin = { arbiter in
                kept = arbiter
                return true
            }
            try world.run(seconds: 1)
            _ = kept?.count  // "An Arbiter is valid only inside the callback that received it"
        }
    }

    @Test func forEachArbiterListsABodysContacts() throws {
        let world = BallOnFloor()
        try world.run(seconds: 1)
        var found: [Shape] = []
        world.ball.forEachArbiter { arbiter in found.append(arbiter.shapes.1) }
        #expect(found.count == 1 && found[0] === world.floor)
    }

    // A callback runs on an immutable set of closures; setting a closure swaps in a new
    // set. The set whose closure is running must live until that closure returns.
    @Test func aClosureReplacingItselfWhileRunning() throws {
        let world = BallOnFloor()
        let handler = world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType)
        var firstCalls = 0
        var secondCalls = 0
        handler.preSolve = { [unowned handler] arbiter in
            firstCalls += 1
            handler.preSolve = { _ in
                secondCalls += 1
                return true
            }
            handler.begin = nil  // another swap while the first closure still runs
            // The first closure's captures are still alive, and the arbiter still valid:
            _ = arbiter.count
            firstCalls += 0
            return true
        }
        try world.run(seconds: 1)
        #expect(firstCalls == 1)
        #expect(secondCalls > 10)
        #expect(handler.preSolve != nil && handler.begin == nil)
    }

    @Test func aHandlerKeptPastItsSpace() throws {
        var handler: CollisionHandler?
        do {
            let world = BallOnFloor()
            handler = world.space.collisionHandler(between: BallOnFloor.ballType, and: BallOnFloor.floorType)
            handler?.begin = { _ in true }
            try world.run(seconds: 0.5)
        }
        // The C handler lives in the C space, which the handler keeps alive: setting it
        // writes to live memory (ASan checks this under scripts/sanitize.sh).
        handler?.preSolve = { _ in true }
        handler?.begin = nil
        #expect(handler?.begin == nil)
    }

    @Test func spacesReuseCallbackStatesAndOldArbitersStayStale() async {
        await #expect(processExitsWith: .failure) {
            var kept: Arbiter?
            do {
                let world = BallOnFloor()
                world.space.onCollision(
                    between: BallOnFloor.ballType, and: BallOnFloor.floorType,
                    begin: {
                        kept = $0
                        return true
                    })
                try world.run(seconds: 1)
            }
            // The first space is gone; a new one takes its callback state.
            let next = BallOnFloor()
            next.space.onCollision(between: BallOnFloor.ballType, and: BallOnFloor.floorType, begin: { _ in true })
            try next.run(seconds: 1)
            _ = kept?.count  // stale: "An Arbiter is valid only inside the callback that received it"
        }
    }
}
