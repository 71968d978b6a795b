import Testing
@testable import Chipmunk

/// Issue 19: values the rules accepted that still aborted, hung or gave NaN, and the
/// routes around the rules. Each case failed before its fix: the engine aborted (the exit
/// tests then saw a signal and "Aborting due to Chipmunk error"), or a value came out NaN.
@Suite struct AcceptedValueTests {
    private func stderr(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    // MARK: The solver's 2×2 determinant

    /// ENGINE.md: a pivot around 1e8 from its body makes the engine's determinant 0
    /// ("Unsolvable constraint. Failed condition: det != 0.0"). The step is refused instead,
    /// names the constraint, and keeps refusing until the anchor is moved.
    @Test func aFarPivotIsRefusedByStep() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        space.add(body)
        let pivot = PivotJoint(a: space.staticBody, b: body, anchorA: [1e8, 1e8], anchorB: [1e8, 1e8])
        space.add(pivot)
        #expect(throws: ChipmunkError.unsolvable(step: 1, constraint: 0)) { try space.step(1.0 / 60) }
        #expect(space.stepsTaken == 0 && body.position == .zero, "nothing was simulated")
        #expect(throws: ChipmunkError.unsolvable(step: 1, constraint: 0)) { try space.step(1.0 / 60) }
        pivot.anchorB = [1, 0]
        pivot.anchorA = [1, 0]
        try space.step(1.0 / 60)
        #expect(space.stepsTaken == 1)
    }

    /// The same from a centre of gravity far from the anchor, from a groove's far end, and
    /// from a mass made heavier after the joint was added (the check reruns after changes).
    @Test func otherRoutesToAZeroDeterminant() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        space.add(body, PivotJoint(a: space.staticBody, b: body, pivot: .zero))
        try space.step(1.0 / 60)
        body.centerOfGravity = [1e8, 1e8]
        #expect(throws: ChipmunkError.unsolvable(step: 2, constraint: 0)) { try space.step(1.0 / 60) }
        body.centerOfGravity = .zero
        try space.step(1.0 / 60)
        body.mass = 1e-20  // now |r|² iA⁻¹ against mA⁻¹ is fine; a tiny moment is not
        body.moment = 1e-40
        try space.step(1.0 / 60)
        let groove = Space()
        let slider = Body(mass: 1, moment: 1)
        groove.add(slider, GrooveJoint(a: groove.staticBody, b: slider, grooveA: [0, 0], grooveB: [1e9, 0]))
        // The static body has no inverse mass: only the slider's anchor counts, and it is 0.
        try groove.step(1.0 / 60)
        let moving = Body(mass: 1, moment: 1)
        groove.add(moving, GrooveJoint(a: moving, b: slider, grooveA: [0, 0], grooveB: [1e9, 1e9]))
        #expect(throws: ChipmunkError.unsolvable(step: 2, constraint: 1)) { try groove.step(1.0 / 60) }
    }

    /// Every body in ordinary scenes passes the check with a margin of many orders of
    /// magnitude: a pendulum of mass 1 with an anchor 1000 away steps.
    @Test func ordinaryJointsStep() throws {
        let space = Space()
        space.gravity = [0, -100]
        let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 5))
        body.position = [1000, 0]
        space.add(body, Circle(body: body, radius: 5))
        space.add(PivotJoint(a: space.staticBody, b: body, pivot: .zero))
        for _ in 0..<120 { try space.step(1.0 / 60) }
        #expect(body.position.isFinite)
    }

    // MARK: After a divergence

    /// A body refused by the divergence guard kept the velocity that carried it past
    /// maxCoordinate: 300 of 300 later steps threw even with the spring removed. It is
    /// stopped where it was now, and the space steps again once the cause is gone.
    @Test func aDivergedBodyIsStoppedAndTheSpaceStepsAgain() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        body.position = [10, 0]
        let spring = DampedSpring(a: space.staticBody, b: body, restLength: 0, stiffness: 20_000, damping: 0)
        space.add(body, Circle(body: body, radius: 1), spring)
        var diverged = false
        for _ in 0..<100 where !diverged {
            do { try space.step(1.0 / 60) } catch { diverged = true }
        }
        #expect(diverged)
        #expect(body.velocity == .zero && body.angularVelocity == 0 && body.force == .zero && body.torque == 0)
        #expect(body.position.isFinite && abs(body.position.x) <= Parameter.maxCoordinate)
        space.remove(spring)
        for _ in 0..<300 { try space.step(1.0 / 60) }
        #expect(body.position.isFinite && body.velocity.isFinite)
    }

    /// Found by the generated extremes test: a gear phase of 1.8e308 diverged, and left the
    /// joint's accumulated impulse at infinity; the next step applied it again, so the space
    /// kept diverging after the phase was set back. It is zeroed with the stopped bodies.
    /// (That phase is refused now, ``Parameter/gearPhase``; spins near the largest double
    /// overflow the gear's impulse the same way.)
    @Test func aDivergedJointForgetsItsImpulse() throws {
        let space = Space()
        let a = Body(mass: 1, moment: 1)
        let b = Body(mass: 1, moment: 1)
        a.angularVelocity = 1e308
        b.angularVelocity = -1e308
        let gear = GearJoint(a: a, b: b, phase: 0, ratio: 1)
        space.add(a, b, gear)
        #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
        #expect(gear.impulse.isFinite)
        for _ in 0..<60 { try space.step(1.0 / 60) }
        #expect(a.angularVelocity.isFinite && gear.impulse.isFinite)
    }

    // MARK: Rules that were too loose

    @Test func aRatchetOfZeroIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            _ = RatchetJoint(a: space.staticBody, b: Body(mass: 1, moment: 1), phase: 0, ratchet: 0)
        }
        #expect(stderr(result).contains("RatchetJoint.ratchet must be of either sign, with a magnitude from 1e-150"))
    }

    /// The smallest ratchet the rule accepts, and the largest, step without a NaN angle.
    @Test(arguments: [1e-150, -1e-150, 1e150, Double.pi / 2])
    func acceptedRatchetsStayFinite(ratchet: Double) throws {
        let space = Space()
        let wheel = Body(mass: 1, moment: 1)
        wheel.angularVelocity = 3
        let joint = RatchetJoint(a: space.staticBody, b: wheel, phase: 0, ratchet: ratchet)
        space.add(wheel, joint)
        for _ in 0..<60 { try space.step(1.0 / 60) }
        #expect(joint.angle.isFinite && wheel.angle.isFinite && wheel.angularVelocity.isFinite)
    }

    /// A collision bias is the fraction of overlap left after a second: 2 kept overlapping
    /// boxes overlapped. 1 (no correction) is accepted, anything above refused.
    @Test func collisionBiasIsAFraction() async {
        #expect(Parameter.spaceCollisionBias.accepts(1) && Parameter.spaceCollisionBias.accepts(0))
        #expect(!Parameter.spaceCollisionBias.accepts(1.0.nextUp) && !Parameter.spaceCollisionBias.accepts(1e300))
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Space().collisionBias = 2
        }
        #expect(stderr(result).contains("Space.collisionBias must be from 0 to 1.0 (got 2.0)"))
    }

    @Test func aStepperCapIsBounded() async {
        #expect(Parameter.stepperMaxSteps.accepts(Double(Parameter.maxStepsPerFrame)))
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FixedStepper(timeStep: 1e-300, maxStepsPerFrame: Int(Int32.max))
        }
        #expect(stderr(result).contains("FixedStepper.maxStepsPerFrame must be a whole number from 1 to 100000"))
    }

    /// The convex hull of a polyline with an infinite point came out with infinite points.
    @Test func aPolylineNeedsFinitePoints() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Polyline([[0, 0], [1, 0], [.infinity, 1]]).convexHull()
        }
        #expect(stderr(result).contains("Polygon.vertices must be finite, from -1e15 to 1e15 (got inf)"))
        let hull = Polyline([[0, 0], [2, 0], [1, 1], [1, 3]]).convexHull()
        #expect(hull.points.allSatisfy { $0.isFinite })
    }

    @Test func geometryHelpersRefuseWhatHasNoAnswer() async {
        let negative = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Area.circle(outerRadius: -5)
        }
        #expect(stderr(negative).contains("Circle.radius must be from 0 to 1e15 (got -5.0)"))
        let empty = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Moment.polygon(mass: 1, vertices: [])
        }
        #expect(stderr(empty).contains("Moment.polygon: the vertices must enclose an area (got 0 vertices"))
        let point = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Centroid.polygon(vertices: [[0, 0]])
        }
        #expect(stderr(point).contains("Centroid.polygon: the vertices must enclose an area (got 1 vertices"))
        // What is accepted has a finite answer, the swapped radii of the Theo Jansen demo included.
        #expect(Moment.circle(mass: 1, innerRadius: 5, outerRadius: 0) == 12.5)
        #expect(Moment.polygon(mass: 1, vertices: [[0, 0], [10, 0]]).isFinite)
        #expect(Centroid.polygon(vertices: [[0, 0], [2, 0], [2, 2], [0, 2]]) == [1, 1])
    }

    /// Two impulses of 1e308 each passed the rule and left the velocity infinite.
    @Test func anImpulseThatOverflowsTheVelocityStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let body = Body(mass: 1, moment: 1)
            body.applyImpulse([1e308, 0], at: .zero)
            body.applyImpulse([1e308, 0], at: .zero)
        }
        #expect(stderr(result).contains("Body.applyImpulse: the impulse (1e+308, 0.0) would make the body's velocity"))
    }

    // MARK: Routes around the rules

    /// ENGINE.md: a static body made dynamic while a body jointed to it sleeps broke the
    /// contact graph ("Inconsistency dectected"). The sleeper is woken first now.
    @Test func aStaticBodyMadeDynamicWakesItsSleepers() async {
        await #expect(processExitsWith: .success) {
            let space = Space()
            space.sleepTimeThreshold = 0.5
            let anchor = Body(kind: .static)
            let hanging = Body(mass: 1, moment: 1)
            space.add(anchor, hanging, Circle(body: hanging, radius: 1))
            space.add(PivotJoint(a: anchor, b: hanging, pivot: .zero))
            for _ in 0..<120 { try? space.step(1.0 / 60) }
            guard hanging.isSleeping else { fatalError("the hanging body never slept") }
            anchor.kind = .dynamic
            anchor.mass = 1
            anchor.moment = 1
            for _ in 0..<10 { try? space.step(1.0 / 60) }
            guard !hanging.isSleeping else { fatalError("the hanging body still sleeps") }
        }
    }

    /// Moving a body to another space inside a callback aborted the engine ("already added
    /// to another space"): the first space's removal waits for its step to end. It stops
    /// with a message now, and works from the first space's post-step callback.
    @Test func movingBetweenSpacesInsideACallback() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (first, second, ball, shape) = Self.twoSpacesAndABall()
            first.onCollision(
                between: 1, and: 2,
                begin: { arbiter in
                    arbiter.space.remove(shape, ball)
                    second.add(ball, shape)
                    return true
                })
            for _ in 0..<60 { try? first.step(1.0 / 60) }
        }
        let output = stderr(result)
        #expect(output.contains("Space.add: this body is still leaving another space"), "\(output.prefix(300))")
        #expect(!output.contains("Aborting due to Chipmunk error"))

        let (first, second, ball, shape) = Self.twoSpacesAndABall()
        first.onCollision(
            between: 1, and: 2,
            begin: { arbiter in
                let space = arbiter.space
                space.remove(shape, ball)
                space.addPostStepCallback(forKey: "move") { _ in second.add(ball, shape) }
                return true
            })
        for _ in 0..<60 { try first.step(1.0 / 60) }
        #expect(ball.space === second && second.bodies.count == 1 && first.bodies.isEmpty)
        try second.step(1.0 / 60)
    }

    /// A body removed between steps while its joint stayed behind is still in the first
    /// space's engine: adding it to a second one said it was "still leaving" after "that
    /// space's step or callback", and sent the user to a post-step callback, which would
    /// not help (a helper's attack). The stop names what stayed.
    @Test func movingABodyWhoseJointStayedBehind() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = Space()
            let (b, c) = (Body(mass: 1, moment: 1), Body(mass: 1, moment: 1))
            c.position = [10, 0]
            first.add(b, c, PinJoint(a: b, b: c))
            first.remove(b)
            Space().add(b)
        }
        let output = stderr(result)
        #expect(
            output.contains(
                "Space.add: this body was removed from another space while 1 of its shapes and constraints stayed "
                    + "there, so it has not left that space yet; remove them there too"), "\(output.prefix(300))")
    }

    private static func twoSpacesAndABall() -> (Space, Space, Body, Shape) {
        let first = Space()
        first.gravity = [0, -100]
        let ground = Segment(body: first.staticBody, from: [-10, 0], to: [10, 0], radius: 0)
        ground.collisionType = 2
        let ball = Body(mass: 1, moment: 1)
        ball.position = [0, 2]
        let shape = Circle(body: ball, radius: 1)
        shape.collisionType = 1
        first.add(ground, ball, shape)
        return (first, Space(), ball, shape)
    }

    // MARK: The spatial hash

    /// A cell size tiny against the shapes hung the first step (1e-300) or the add of a
    /// 1000-wide box (0.01): the engine walks every cell a shape covers. Refused now.
    @Test(.timeLimit(.minutes(5))) func shapesThatCoverTooManyCellsAreRefused() async {
        let tiny = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            let body = Body(mass: 1, moment: 1)
            space.add(body, Circle(body: body, radius: 1))
            space.useSpatialHash(cellSize: 1e-100, count: 10)  // 1e-300 is past the rule now
        }
        #expect(
            stderr(tiny).contains(
                "Space.useSpatialHash: this shape lies past the spatial hash's reach: with cells of size 1e-100, "
                    + "the engine's cell indices reach ±1.073741824e-91 from the origin"),
            "\(stderr(tiny).prefix(300))")
        let box = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            space.useSpatialHash(cellSize: 0.01, count: 1000)
            space.add(Polygon.box(body: space.staticBody, width: 1000, height: 1000))
        }
        #expect(
            stderr(box).contains(
                "Space.add: this shape would cover 10000200001.0 cells of the spatial hash (cell size 0.01)"))
        // What fits is added: a 100-long ground on cells of 1, a unit box spinning anywhere.
        let space = Space()
        space.useSpatialHash(cellSize: 1, count: 1000)
        let ground = Segment(body: space.staticBody, from: [-50, 0], to: [50, 0], radius: 0.5)
        #expect(throws: Never.self) { try space.checkSpatialHashFit(of: ground) }
        space.add(ground)
        let huge = Segment(body: space.staticBody, from: [-1e7, 0], to: [1e7, 0], radius: 1)
        #expect(throws: ChipmunkError.tooManyHashCells(cells: 60_000_009, cellSize: 1)) {
            try space.checkSpatialHashFit(of: huge)
        }
    }

    /// Queries that would walk billions of cells (a segment from -1e12, a nearest point
    /// within 1e9) test each shape instead, and find what the tree finds.
    @Test(.timeLimit(.minutes(5))) func farQueriesOnTheHashFindWhatTheTreeFinds() throws {
        func world(hashed: Bool) -> Space {
            let space = Space()
            if hashed { space.useSpatialHash(cellSize: 1, count: 1000) }
            for i in 0..<5 {
                let body = Body(mass: 1, moment: 1)
                body.position = [Double(i) * 3, 0]
                space.add(body, Circle(body: body, radius: 1))
            }
            let sensor = Circle(body: space.staticBody, radius: 1, offset: [0, 5])
            sensor.isSensor = true
            space.add(sensor)
            return space
        }
        let tree = world(hashed: false)
        let hash = world(hashed: true)
        try tree.step(1.0 / 60)
        try hash.step(1.0 / 60)
        func ids(_ shapes: [Shape], in space: Space) -> [Int] {
            shapes.map { shape in space.shapes.firstIndex { $0 === shape }! }.sorted()
        }
        let a: Vector = [-1e12, 0]
        let b: Vector = [1e12, 0]
        #expect(
            ids(hash.segmentQuery(from: a, to: b).map(\.shape), in: hash)
                == ids(tree.segmentQuery(from: a, to: b).map(\.shape), in: tree))
        // At ±1e12 the circles' own segment test loses precision (both indexes report a hit at
        // x = -12732); 4e6 long is still 4 million cells, and exact.
        let c: Vector = [-2e6, 0.25]
        let d: Vector = [2e6, 0.25]
        #expect(ids(hash.segmentQuery(from: c, to: d).map(\.shape), in: hash) == [0, 1, 2, 3, 4])
        let firstHash = try #require(hash.segmentQueryFirst(from: c, to: d))
        let firstTree = try #require(tree.segmentQueryFirst(from: c, to: d))
        #expect(firstHash.alpha == firstTree.alpha && firstHash.point == firstTree.point)
        let nearHash = try #require(hash.pointQueryNearest([7, 3], maxDistance: 1e9))
        let nearTree = try #require(tree.pointQueryNearest([7, 3], maxDistance: 1e9))
        #expect(nearHash.distance == nearTree.distance && nearHash.point == nearTree.point)
        #expect(ids(hash.pointQuery([0, 0], maxDistance: 1e7).map(\.shape), in: hash).count == 6)
        let box = BoundingBox(left: -1e9, bottom: -1e9, right: 1e9, top: 1e9)
        #expect(hash.boundingBoxQuery(box).count == 6 && tree.boundingBoxQuery(box).count == 6)
    }

    /// A post-step callback that re-added itself every time made `step` never return.
    @Test(.timeLimit(.minutes(5))) func aPostStepCallbackThatNeverEndsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            func again(_ space: Space) { space.addPostStepCallback(forKey: "again") { again($0) } }
            again(space)
            try? space.step(1.0 / 60)
        }
        #expect(stderr(result).contains("post-step callbacks kept adding post-step callbacks for 10000 rounds"))
    }

    // MARK: Snapshots

    /// `restore(_:)` removed objects the snapshot lacked with the user's handlers installed:
    /// a `separate` that removed a body made the space's drop abort. No handler runs now.
    @Test func restoreRunsNoCollisionHandler() throws {
        let space = Space()
        space.gravity = [0, -100]
        let ground = Segment(body: space.staticBody, from: [-10, 0], to: [10, 0], radius: 0)
        space.add(ground)
        let snapshot = space.snapshot()
        let ball = Body(mass: 1, moment: 1)
        ball.position = [0, 0.5]
        let shape = Circle(body: ball, radius: 1)
        space.add(ball, shape)
        var separations = 0
        space.onCollision(separate: { arbiter in
            separations += 1
            arbiter.space.remove(shape, ball)
        })
        try space.step(1.0 / 60)
        #expect(space.snapshot().arbiterCount == 1, "the ball touches the ground")
        try space.restore(snapshot)
        #expect(separations == 0, "restore ran a separate handler")
        #expect(space.bodies.isEmpty && space.shapes.count == 1)
        try space.step(1.0 / 60)
    }

    private func restoring(_ change: (inout SnapshotState) -> Void) -> SnapshotError? {
        let space = Space()
        space.sleepTimeThreshold = 1
        let body = Body(mass: 2, moment: 3)
        space.add(body, Circle(body: body, radius: 1), Body(kind: .kinematic))
        try? space.step(1.0 / 60)
        var state = space.snapshot().state
        change(&state)
        do {
            let restored = try Space(restoring: Snapshot(bytes: Snapshot(state: state).bytes))
            for _ in 0..<3 { try? restored.step(1.0 / 60) }
            return nil
        } catch { return error }
    }

    /// Crafted snapshots with a valid checksum trapped or aborted on the next step or add.
    @Test func snapshotsAreCheckedAsUntrustedData() {
        #expect(restoring { _ in } == nil)
        #expect(restoring { $0.stepsTaken = .max } == .invalid("stepsTaken is 18446744073709551615"))
        #expect(restoring { $0.stepsTaken = 1 << 63 } == .invalid("stepsTaken is 9223372036854775808"))
        #expect(
            restoring { $0.space.nextSerial = UInt64(Int.max) } == .invalid("the space's next serial is \(Int.max)"))
        #expect(
            restoring {
                $0.bodies[1].inverseMass = 0
                $0.bodies[1].inverseMoment = 0
            }
                == .invalid("dynamic body 1 has inverse mass 0.0 and inverse moment 0.0, not 1/mass and 1/moment"))
        #expect(restoring { $0.bodies[1].idleTime = .infinity } == .invalid("body 1 (kind 0) has idle time inf"))
        #expect(restoring { $0.bodies[2].idleTime = .infinity } == .invalid("body 2 (kind 1) has idle time inf"))
        #expect(restoring { $0.space.collisionBias = 2 } == .invalid("space parameter Space.collisionBias is 2.0"))
        #expect(restoring { $0.space.iterations = 0 } == .invalid("space parameter Space.iterations is 0.0"))
        #expect(
            restoring { $0.bodies[1].centerOfGravity.x = 1e20 } == .invalid("body 1's Body.centerOfGravity is 1e+20"))
    }

    // MARK: Slide joints

    /// `SlideJoint(distance: 2...1)` stops in the standard library before the binding runs;
    /// bounds computed at run time go through `min:max:` and the properties, which name them.
    @Test func slideJointBoundsOutOfOrder() async {
        let made = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            _ = SlideJoint(a: space.staticBody, b: Body(mass: 1, moment: 1), min: 2, max: 1)
        }
        #expect(stderr(made).contains("SlideJoint.min must not exceed SlideJoint.max (got min 2.0, max 1.0)"))
        let set = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            let joint = SlideJoint(a: space.staticBody, b: Body(mass: 1, moment: 1), min: 1, max: 2)
            joint.max = 0.5
        }
        #expect(stderr(set).contains("SlideJoint.min must not exceed SlideJoint.max (got min 1.0, max 0.5)"))
        let space = Space()
        let joint = SlideJoint(a: space.staticBody, b: Body(mass: 1, moment: 1), min: 1, max: 2)
        joint.max = 5
        joint.min = 3
        #expect(joint.distance == 3...5)
    }

    // MARK: Removing in any order

    /// Two worlds of three boxes on a floor; in one the middle box goes by `remove(body,
    /// shape)`, in the other by `remove(body)` then `remove(shape)` (and a jointed box by
    /// its body, then its joint, then its shape). They step on with the same bits.
    @Test func removalsInAnyOrderEndAlike() throws {
        func world() -> (Space, [Body], [Shape], PivotJoint) {
            let space = Space()
            space.gravity = [0, -100]
            space.add(Segment(body: space.staticBody, from: [-50, 0], to: [50, 0], radius: 1))
            var bodies: [Body] = []
            var shapes: [Shape] = []
            for index in 0..<3 {
                let body = Body(mass: 1, moment: 10)
                body.position = [Double(index) * 3, 2]
                let shape = Polygon.box(body: body, width: 2, height: 2)
                space.add(body, shape)
                bodies.append(body)
                shapes.append(shape)
            }
            let joint = PivotJoint(a: space.staticBody, b: bodies[2], pivot: [6, 4])
            space.add(joint)
            for _ in 0..<30 { try! space.step(1.0 / 60) }
            return (space, bodies, shapes, joint)
        }
        let (together, bodiesA, shapesA, jointA) = world()
        together.remove(bodiesA[1], shapesA[1])
        together.remove(jointA, bodiesA[2], shapesA[2])
        let (apart, bodiesB, shapesB, jointB) = world()
        apart.remove(bodiesB[1])
        #expect(!apart.bodies.contains { $0 === bodiesB[1] } && bodiesB[1].space == nil)
        apart.remove(shapesB[1])
        apart.remove(bodiesB[2])
        apart.remove(jointB)
        apart.remove(shapesB[2])
        for _ in 0..<60 {
            try together.step(1.0 / 60)
            try apart.step(1.0 / 60)
        }
        #expect(together.stateHash() == apart.stateHash())
        #expect(apart.bodies.count == 1 && apart.shapes.count == 2)
    }

    /// A body removed before its shape and added back before the shape goes is in the
    /// space again; a space dropped while a body is leaving frees it as any other.
    @Test func aLeavingBodyComesBackOrGoesWithItsSpace() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        let shape = Circle(body: body, radius: 1)
        space.add(body, shape)
        space.remove(body)
        space.add(body)
        #expect(body.space === space && space.bodies.count == 1)
        try space.step(1.0 / 60)
        let leftAlive = Engine.liveCObjects(leftBy: {
            let dropped = Space()
            let kept = Body(mass: 1, moment: 1)
            dropped.add(kept, Circle(body: kept, radius: 1))
            dropped.remove(kept)
            let other = Space()
            other.add(Body(mass: 1, moment: 1))
            _ = other
        })
        #expect(leftAlive == 0)
    }

    // MARK: Friction and elasticity, multiplied per contact

    /// The engine multiplies the two shapes' friction and elasticity per contact: two at
    /// 1e200 or more gave an infinite coefficient (`Arbiter.restitution` read `inf`) and
    /// NaN velocities. Two shapes at the cap (`Parameter.maxCoefficient`) meet falling, head
    /// on, resting and sliding: after every step the bodies, the contacts and the snapshot
    /// read back finite, and a bounce that grows ends in a thrown `diverged`, never a NaN.
    @Test(arguments: ["elasticity", "friction", "both"])
    func twoShapesAtTheCoefficientCapCollideWithoutNaN(coefficient: String) throws {
        let cap = Parameter.maxCoefficient
        #expect(Parameter.shapeElasticity.accepts(cap) && !Parameter.shapeElasticity.accepts(cap.nextUp))
        #expect(Parameter.shapeFriction.accepts(cap) && !Parameter.shapeFriction.accepts(cap.nextUp))
        for scenario in ["falling", "head on", "resting", "sliding"] {
            let space = Space()
            space.gravity = [0, -100]
            let ground = Segment(body: space.staticBody, from: [-1000, 0], to: [1000, 0], radius: 0.1)
            let a = Body(mass: 1, moment: 1)
            var shapes: [Shape] = [ground]
            switch scenario {
            case "falling":
                a.position = [0, 2]
                a.velocity = [0, -1]
                shapes.append(Circle(body: a, radius: 0.5))
                space.add(a)
            case "head on":
                space.gravity = .zero
                let b = Body(mass: 1, moment: 1)
                (a.position, a.velocity, b.position, b.velocity) = ([-2, 5], [1, 0], [2, 5], [-1, 0])
                shapes = [Circle(body: a, radius: 0.5), Circle(body: b, radius: 0.5)]
                space.add(a, b)
            default:
                a.position = [0, 0.6]
                if scenario == "sliding" { a.velocity = [10, 0] }
                shapes.append(Polygon.box(body: a, width: 1, height: 1))
                space.add(a)
            }
            for shape in shapes {
                if coefficient != "friction" { shape.elasticity = cap }
                if coefficient != "elasticity" { shape.friction = cap }
                space.add(shape)
            }
            var diverged = false
            for _ in 0..<200 {
                do { try space.step(1.0 / 60) } catch ChipmunkError.diverged { diverged = true }
                for body in space.bodies {
                    let state = [
                        body.position.x, body.position.y, body.velocity.x, body.velocity.y, body.angle,
                        body.angularVelocity,
                    ]
                    let finite = state.allSatisfy(\.isFinite)
                    #expect(finite, "\(coefficient), \(scenario), step \(space.stepsTaken): \(state)")
                    body.forEachArbiter { arbiter in
                        let values = [
                            arbiter.restitution, arbiter.friction, arbiter.totalImpulse.x, arbiter.totalImpulse.y,
                        ]
                        let finite = values.allSatisfy(\.isFinite)
                        #expect(finite, "\(coefficient), \(scenario), step \(space.stepsTaken): \(values)")
                    }
                }
                _ = try Snapshot(bytes: space.snapshot().bytes)
                if diverged { break }
            }
            // A bounce 1e200 times the speed grows until a position passes maxCoordinate.
            if coefficient != "friction" { #expect(diverged, "\(coefficient), \(scenario)") }
        }
    }
}
