import CChipmunk
import Foundation
import Testing
@testable import Chipmunk

/// What goes wrong while simulating throws from `step`, names the step, the body and the
/// quantity, and leaves the space readable; data is checked with `Parameter.check`.
@Suite struct SimulationErrorTests {
    @Test func aMasslessBodyIsNamed() throws {
        let space = Space()
        space.add(Body(mass: 1, moment: 1), Body(kind: .dynamic))
        #expect(throws: ChipmunkError.massless(step: 1, body: 1)) { try space.step(1.0 / 60) }
        space.bodies[1].mass = 1
        space.bodies[1].moment = 1
        try space.step(1.0 / 60)
        #expect(space.stepsTaken == 1)
        // A kind round trip keeps only the shapes' mass (pymunk's too): the message says so,
        // as a newcomer who gave the body its mass in `Body(mass:moment:)` needs to read.
        space.bodies[0].kind = .kinematic
        space.bodies[0].kind = .dynamic
        let error = #expect(throws: ChipmunkError.massless(step: 2, body: 0)) { try space.step(1.0 / 60) }
        #expect(
            error?.description
                == "step 2: dynamic body 0 has no positive, finite mass and moment; give it a mass, or shapes with "
                + "mass or density (a body made static or kinematic and then dynamic again has only its shapes' "
                + "mass, as in pymunk)")
    }

    /// ENGINE.md: a DampedSpring on a 1 kg body at 60 Hz with stiffness above about 4m/dt²
    /// (14,400) and no damping aborts the engine ("Body's velocity is invalid") within a
    /// few hundred steps. Here the step that would do so is refused instead.
    @Test func aStiffSpringDivergesIntoAnError() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        body.position = [10, 0]
        space.add(body, DampedSpring(a: space.staticBody, b: body, restLength: 0, stiffness: 20_000, damping: 0))
        var failure: ChipmunkError?
        for _ in 0..<2_000 {
            do { try space.step(1.0 / 60) } catch let error as ChipmunkError {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        guard case let .diverged(step, index, quantity, value) = error else {
            Issue.record("expected a divergence, got \(error)")
            return
        }
        // The body is carried past Parameter.maxCoordinate before its velocity overflows.
        // It grows about 3.5-fold a step: past 1e15 at step 29 (the engine's own abort, on
        // an overflowing velocity, came at step 301).
        #expect(step == space.stepsTaken && step == 29, "step \(step): it ran, without that body's update")
        #expect(index == 0 && quantity == .position && abs(value) > Parameter.maxCoordinate)
        #expect(error.description.hasPrefix("step \(step): the simulation diverged: body 0's"))
        #expect(body.position.isFinite && body.velocity == .zero, "the space stays readable; the body is stopped")
        // With the spring still there, the stopped body is pulled past the bound again: the
        // step after next (positions move before velocities, so the next only speeds it up).
        try space.step(1.0 / 60)
        #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
    }

    /// ENGINE.md: stiffness 1e308 aborts at once. The spring's impulse goes straight into
    /// the velocity before the engine checks it; the binding's law refuses it instead.
    @Test func aSpringWhoseImpulseWouldOverflowAppliesNone() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        body.position = [10, 0]
        space.add(body, DampedSpring(a: space.staticBody, b: body, restLength: 0, stiffness: 1e308, damping: 0))
        #expect(throws: ChipmunkError.diverged(step: 1, body: 0, quantity: .velocity, value: .infinity)) {
            try space.step(1.0 / 60)
        }
        #expect(body.velocity == .zero, "the refused impulse was not applied")
        let rotary = Space()
        let wheel = Body(mass: 1, moment: 1)
        wheel.angle = 100  // torque (100 - 0) * 1e308 overflows
        rotary.add(
            wheel, DampedRotarySpring(a: wheel, b: rotary.staticBody, restAngle: 0, stiffness: 1e308, damping: 0))
        #expect(throws: ChipmunkError.diverged(step: 1, body: 0, quantity: .angularVelocity, value: .infinity)) {
            try rotary.step(1.0 / 60)
        }
    }

    /// Growth that takes a while: damping 2 doubles the velocity every simulated second. It
    /// ends in a thrown error, not the engine's abort. (A motor's rate of 1e308, which this
    /// test also drove, is refused now: ``Parameter/motorRate``.)
    @Test func slowGrowthEndsInAnError() throws {
        let space = Space()
        space.damping = 2
        let body = Body(mass: 1, moment: 1)
        body.velocity = [1, 0]
        space.add(body)
        var failure: ChipmunkError?
        for _ in 0..<100_000 {
            do { try space.step(1.0 / 60) } catch let error as ChipmunkError {
                failure = error
                break
            }
        }
        guard case .diverged(_, 0, .position, _)? = failure else {
            Issue.record("expected body 0 to diverge, got \(String(describing: failure))")
            return
        }
    }

    @Test func hugeValuesThatOverflowInTheStep() throws {
        let fast = Space()
        let body = Body(mass: 1, moment: 1)
        body.velocity = [1e308, 0]
        body.position = [1e15, 0]
        fast.add(body)
        #expect(throws: ChipmunkError.diverged(step: 1, body: 0, quantity: .position, value: .infinity)) {
            try fast.step(100)
        }
        let heavy = Space()
        heavy.gravity = [0, -1e15]  // Parameter.spaceGravity's bound; the time step overflows the velocity
        heavy.add(Body(mass: 1, moment: 1))
        #expect(throws: ChipmunkError.diverged(step: 1, body: 0, quantity: .velocity, value: -.infinity)) {
            try heavy.step(1e300)
        }
        let spinning = Space()
        let kinematic = Body(kind: .kinematic)
        kinematic.angularVelocity = 1e308
        kinematic.angle = Parameter.maxCoordinate
        spinning.add(kinematic)
        #expect(throws: ChipmunkError.diverged(step: 1, body: 0, quantity: .angle, value: .infinity)) {
            try spinning.step(10)
        }
    }

    /// The solver can carry a velocity the integrators found finite to NaN: a motor between
    /// two bodies spinning near the largest double overflows their relative spin. The step
    /// that does so throws, and stops the bodies (a helper's attack: it returned normally
    /// with both spins NaN, and the space's snapshot did not read back).
    @Test func aSpinTheSolverOverflowsIsTheStepsError() throws {
        let space = Space()
        let a = Body(mass: 1, moment: 1)
        let b = Body(mass: 1, moment: 1)
        a.angularVelocity = 1e308
        b.angularVelocity = -1e308
        b.position = [3, 0]
        space.add(a, b, SimpleMotor(a: a, b: b, rate: 0))
        // A step short enough that the spins do not carry the angles past their bound.
        #expect {
            try space.step(1e-300)
        } throws: { error in
            guard case .diverged(1, _, .angularVelocity, let value) = error as? ChipmunkError else { return false }
            return !value.isFinite
        }
        #expect([a.angularVelocity, b.angularVelocity] == [0, 0])
        _ = try Snapshot(bytes: space.snapshot().bytes)
    }

    /// A ratchet whose angle overflows (`(delta - phase) / ratchet` past the largest double)
    /// while its bodies stay finite: the step throws, naming the dynamic body's angle, and
    /// the ratchet starts again from its bodies' relative angle. The rules keep a ratchet
    /// made through the API finite (angles and phases within 1e15, a ratchet of at least
    /// 1e-150), so the phase of 1e308 is written here as a crafted snapshot could hold it.
    @Test func aRatchetAngleThatOverflowsIsTheStepsError() throws {
        let space = Space()
        let a = Body(mass: 1, moment: 1)
        let b = Body(mass: 1, moment: 1)
        b.position = [3, 0]
        let ratchet = RatchetJoint(a: a, b: b, phase: 0, ratchet: 1e-150)
        space.add(a, b, ratchet)
        try space.step(1.0 / 60)
        #expect(ratchet.angle.isFinite)
        cpRatchetJointSetPhase(ratchet.handle, 1e308)
        #expect(throws: ChipmunkError.diverged(step: 2, body: 1, quantity: .angle, value: -.infinity)) {
            try space.step(1.0 / 60)
        }
        #expect(ratchet.angle.isFinite)
    }

    /// Two frictions of 1e300 make the contact's friction infinite, and infinity times the
    /// normal impulse of 0 of a box leaving the ground gives a tangent impulse of NaN, which the solver applies to the
    /// box and the space's static body (NaN times an inverse mass of 0). The step throws;
    /// the box, the static body and the contact's impulses are reset, the space's snapshot
    /// reads back, and with ordinary frictions the box rests on the ground again.
    /// `Shape.friction` now stops at `Parameter.maxCoefficient` (1e100), so the frictions
    /// are written through the engine here: the guard still answers them.
    @Test func frictionsWhoseProductOverflows() throws {
        let space = Space()
        space.gravity = [0, -100]
        let ground = Segment(body: space.staticBody, from: [-20, 0], to: [20, 0], radius: 0.1)
        let body = Body(mass: 1, moment: 1)
        // Touching the ground, and leaving it sideways: the contact's normal impulse is 0.
        body.position = [0, 0.599]
        body.velocity = [1, 5]
        let box = Polygon.box(body: body, width: 1, height: 1)
        space.add(ground, body, box)
        cpShapeSetFriction(ground.handle, 1e300)
        cpShapeSetFriction(box.handle, 1e300)
        var error: (any Error)?
        for _ in 0..<60 where error == nil {
            do { try space.step(1.0 / 60) } catch let thrown { error = thrown }
        }
        guard case .diverged? = error as? ChipmunkError else {
            Issue.record("expected a divergence, got \(String(describing: error))")
            return
        }
        let motion = [space.staticBody.velocity.x, space.staticBody.velocity.y, space.staticBody.angularVelocity]
        #expect(motion == [0, 0, 0] && body.velocity.isFinite)
        // A snapshot holding frictions past the rule's cap is refused as data; with them
        // back within it, the space's snapshot (the contact's impulses reset) reads back.
        #expect(throws: SnapshotError.self) { _ = try Snapshot(bytes: space.snapshot().bytes) }
        ground.friction = 1
        box.friction = 1
        _ = try Snapshot(bytes: space.snapshot().bytes)
        for _ in 0..<60 { try space.step(1.0 / 60) }
        #expect(body.position.isFinite && abs(body.position.y - 0.6) < 0.1)
    }

    /// Two bodies' angles of ±9e307 were accepted, and their difference overflowed: a
    /// ratchet between them started at an infinite angle, which no reset could clear, and
    /// the space's snapshots were refused (a helper's attack). Angles are bounded as
    /// coordinates are, and a spin that would carry one past the bound is a divergence.
    @Test func anglesStayWithinTheCoordinateBound() throws {
        #expect(!Parameter.bodyAngle.accepts(9e307) && Parameter.bodyAngle.accepts(-1e15))
        let space = Space()
        let a = Body(mass: 1, moment: 1)
        let b = Body(mass: 1, moment: 1)
        a.angle = 1e15
        b.angle = -1e15
        b.position = [2, 0]
        let ratchet = RatchetJoint(a: a, b: b, phase: 0, ratchet: 1)
        space.add(a, b, ratchet)
        #expect(ratchet.angle.isFinite)
        _ = try Snapshot(bytes: space.snapshot().bytes)
        a.angularVelocity = 1e15
        #expect(throws: ChipmunkError.diverged(step: 1, body: 0, quantity: .angle, value: 1e15 + 1e15 / 60)) {
            try space.step(1.0 / 60)
        }
        _ = try Snapshot(bytes: space.snapshot().bytes)
    }

    /// A pivot's impulse is the length of its accumulated impulse, which the engine's
    /// `cpvlength` overflowed to infinity for components of 1e300 (a body held by a static
    /// body moving at 1e300: a helper's attack); it is their `hypot` then.
    @Test func aPivotsImpulseDoesNotOverflowItsLength() throws {
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        let mover = Body(kind: .static)
        mover.position = [1, 0]
        mover.velocity = [1e300, 1e300]
        space.add(body, mover)
        let pivot = PivotJoint(a: body, b: mover, pivot: [0.5, 0])
        space.add(pivot)
        try space.step(1.0 / 60)
        #expect(pivot.impulse.isFinite && pivot.impulse > 1e299, "\(pivot.impulse)")
        let calm = PivotJoint(a: body, b: space.staticBody, pivot: [0, 0])
        #expect(calm.impulse == 0)
    }

    /// Issue: `cpBodySetType` on a sleeping body crashed inside the engine.
    @Test func aSleepingBodyCanBeFrozen() throws {
        let world = BallOnFloor()
        world.space.sleepTimeThreshold = 0.5
        for _ in 0..<300 { try world.space.step(1.0 / 60) }
        #expect(world.ball.isSleeping)
        world.ball.kind = .static
        #expect(world.ball.kind == .static && !world.ball.isSleeping)
        world.ball.kind = .kinematic
        try world.space.step(1.0 / 60)
    }

    /// Fuzzing found the engine aborting ("EPA vertexes are the same") on a polygon with a
    /// vertex at 3.5e25; coordinates stay within Parameter.maxCoordinate, and a body that a
    /// step would carry past it counts as diverged.
    @Test func coordinatesStayWhereCollisionsArePrecise() throws {
        #expect(throws: ChipmunkError.invalidValue(.polygonVertex, 3.5e25)) {
            try Polygon.check(vertices: [[0, 0], [0, 32], [3.5e25, 32], [32, 0]])
        }
        #expect(throws: ChipmunkError.invalidValue(.polygonVertex, 2e15)) {
            try Polygon.check(vertices: [[0, 0], [0, 1], [2, 1]], transform: .scale(x: 1e15, y: 1))
        }
        let space = Space()
        let body = Body(mass: 1, moment: 1)
        body.position = [1e15 - 1, 0]
        body.velocity = [120, 0]
        space.add(body)
        try space.step(1.0 / 120)
        #expect(throws: ChipmunkError.diverged(step: 2, body: 0, quantity: .position, value: 1e15 + 1)) {
            try space.step(1.0 / 120)
        }
        #expect(Parameter.bodyPosition.rule.description == "finite, from -1e15 to 1e15")
    }

    /// With a spatial hash of small cells, a position the rule accepts can lie past the
    /// hash's reach (2^30 cells from the origin): the step refuses it, and says that, not
    /// that the simulation diverged: the body was put there (a helper's attack).
    @Test func aPositionPastTheHashsReachIsToldAsSuch() throws {
        let space = Space()
        space.useSpatialHash(cellSize: 1e-6, count: 100)
        let body = Body(mass: 1, moment: 1)
        body.position = [1e15, 1e15]
        space.add(body)
        let error = #expect(throws: ChipmunkError.diverged(step: 1, body: 0, quantity: .position, value: 1e15)) {
            try space.step(1.0 / 60)
        }
        #expect(
            error?.description
                == "step 1: body 0's position is or would become 1000000000000000.0, past the reach of the space's spatial hash "
                + "(2^30 of its cells from the origin); use a larger cellSize, or keep the body nearer the origin")
        body.position = [1000, 0]
        try space.step(1.0 / 60)
        let far = ChipmunkError.diverged(step: 2, body: 0, quantity: .position, value: 1e15 + 1)
        #expect(
            far.description == "step 2: the simulation diverged: body 0's position would become 1000000000000001.0")
    }

    /// A body whose shapes carry no mass is a state the space holds (its step throws); its
    /// snapshot was written but refused as it was read (the engine's inverse mass is then
    /// infinite). It reads back now, and the restored space's step throws the same error.
    @Test func aMasslessBodysSnapshotReadsBack() throws {
        let space = Space()
        let body = Body(kind: .dynamic)
        let box = Polygon.box(body: body, width: 1, height: 1)
        box.mass = 1
        space.add(body, box)
        try space.step(1.0 / 60)
        box.mass = 0
        #expect(throws: ChipmunkError.massless(step: 2, body: 0)) { try space.step(1.0 / 60) }
        let restored = try Space(restoring: Snapshot(bytes: space.snapshot().bytes))
        #expect(throws: ChipmunkError.massless(step: 2, body: 0)) { try restored.step(1.0 / 60) }
        restored.shapes[0].mass = 1
        try restored.step(1.0 / 60)
    }

    @Test func dataIsCheckedWithParameterCheck() throws {
        #expect(throws: ChipmunkError.invalidValue(.bodyMass, -1)) { try Parameter.bodyMass.check(-1) }
        #expect(throws: ChipmunkError.invalidValue(.spaceGravity, .infinity)) {
            try Parameter.spaceGravity.check([0, .infinity])
        }
        try Parameter.spaceIterations.check(1_000)
        #expect(!Parameter.spaceIterations.accepts(1_001) && !Parameter.spaceIterations.accepts(1.5))
        #expect(Parameter.constraintMaxForce.accepts(.infinity) && !Parameter.shapeFriction.accepts(.infinity))
        #expect(
            ChipmunkError.invalidValue(.bodyMass, -1).description
                == "Body.mass must be from 1e-150 to 1e+150 (got -1.0)")
        // Every parameter names its type and has a rule that accepts some value.
        for parameter in Parameter.allCases {
            #expect(parameter.accepts(1) || parameter.accepts(0.5), "\(parameter)")
        }
    }
    /// Issue 28: bodies that start apart and meet while stepping passed any check made when
    /// they were added, then paired every two of them inside a step (5,000 ended in SIGSEGV
    /// at a 4 GB limit). Here 1,500 circles of one filter group (they pass through each
    /// other, as sensors would) fly at one point: the step that would pair them throws
    /// from its broad phase instead, before the pile claims the memory, and the space stays
    /// readable and safe to drop.
    @Test func bodiesMeetingWhileSteppingPassTheContactPairBudget() throws {
        let space = ghostRing(count: 1_500, radius: 100)
        space.maxContactPairs = 50_000
        var failure: ChipmunkError?
        for _ in 0..<90 where failure == nil {
            do { try space.step(1.0 / 60) } catch let error as ChipmunkError { failure = error }
        }
        guard case .tooManyContactPairs(let step, 50_000)? = failure else {
            Issue.record("expected tooManyContactPairs, got \(String(describing: failure))")
            return
        }
        // They meet at step 60; the shrinking ring, each circle overlapping dozens of its
        // neighbours, passes 50,000 pairs well before.
        #expect((20...61).contains(step), "step \(step)")
        #expect(space.isStoppedByContactPairs && space.stepsTaken == step)
        #expect(space.bodies.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite })
        // It stays stopped, with the same error.
        #expect(throws: ChipmunkError.tooManyContactPairs(step: step, limit: 50_000)) { try space.step(1.0 / 60) }
        #expect(
            "\(ChipmunkError.tooManyContactPairs(step: 1, limit: 50_000))"
                == "step 1: more than 50000 contact pairs: shapes are piled so close that every two of them pair; "
                + "spread them out, or raise Space.maxContactPairs")
        // Objects that outlive it leave the stopped space cleanly.
        let kept = space.bodies[0]
        _ = consume space
        #expect(kept.space == nil)
    }

    /// `count` circles of one filter group on a circle of `radius`, each flying at the
    /// centre, which they reach after 1 s.
    /// The budget bounds what a step makes, as the engine's pools grow (they never shrink):
    /// lowered below the pairs a space already holds, it took no effect (a helper's attack),
    /// as `maxContactPairs` now says. It does when the space next needs more.
    @Test func aBudgetLoweredBelowWhatASpaceHoldsTakesEffectWhenItNeedsMore() throws {
        let space = Space()
        func addGhosts(_ count: Int) {
            for _ in 0..<count {
                let body = Body(mass: 1, moment: 1)
                let circle = Circle(body: body, radius: 1)
                circle.filter = ShapeFilter(group: 1)
                space.add(body, circle)
            }
        }
        addGhosts(50)  // 1,225 pairs on one point, which stay
        for _ in 0..<2 { try space.step(1.0 / 60) }
        space.maxContactPairs = 1
        for _ in 0..<2 { try space.step(1.0 / 60) }
        addGhosts(150)  // 19,900 pairs: more than the pools hold
        let error = #expect(throws: ChipmunkError.self) { try space.step(1.0 / 60) }
        guard case .tooManyContactPairs(5, 1)? = error else {
            Issue.record("expected tooManyContactPairs at step 5, got \(String(describing: error))")
            return
        }
    }

    private func ghostRing(count: Int, radius: Double) -> Space {
        let space = Space()
        for i in 0..<count {
            let angle = Double(i) / Double(count) * 2 * .pi
            let body = Body(mass: 1, moment: 1)
            body.position = [radius * cos(angle), radius * sin(angle)]
            body.velocity = [-body.position.x, -body.position.y]
            let circle = Circle(body: body, radius: 1)
            circle.filter = ShapeFilter(group: 1)
            space.add(body, circle)
        }
        return space
    }

    /// The same pile under the default budget (1,000,000 pairs for 2,000 shapes, where
    /// they make 2 million at the centre); and a space of touching boxes, about 4 pairs a
    /// body, steps within it.
    @Test func theDefaultBudgetStopsAPileNotAStack() throws {
        let pile = ghostRing(count: 2_000, radius: 100)
        var failure: (any Error)?
        for _ in 0..<90 where failure == nil {
            do { try pile.step(1.0 / 60) } catch { failure = error }
        }
        guard case .tooManyContactPairs(_, 1_000_000)? = failure as? ChipmunkError else {
            Issue.record("expected tooManyContactPairs, got \(String(describing: failure))")
            return
        }
        let grid = Space()
        grid.gravity = [0, -10]
        grid.add(Segment(body: grid.staticBody, from: [-100, 0], to: [100, 0], radius: 0.1))
        for row in 0..<30 {
            for column in 0..<60 {
                let body = Body(mass: 1, moment: 1)
                body.position = [Double(column) - 30, Double(row) + 0.6]
                grid.add(body, Polygon.box(body: body, width: 1, height: 1))
            }
        }
        for _ in 0..<30 { try grid.step(1.0 / 60) }
        #expect(!grid.isStoppedByContactPairs)
    }

    @Test func aStoppedSpaceIsNotSaved() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let space = Space()
            for i in 0..<600 {
                let body = Body(mass: 1, moment: 1)
                body.position = [Double(i) * 10, 0]
                body.velocity = [-body.position.x, 0]
                let circle = Circle(body: body, radius: 1)
                circle.filter = ShapeFilter(group: 1)
                space.add(body, circle)
            }
            space.maxContactPairs = 1_000
            for _ in 0..<90 where !space.isStoppedByContactPairs { try? space.step(1.0 / 60) }
            _ = space.snapshot()
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("passed Space.maxContactPairs and was stopped inside the engine"), "\(text)")
    }
}
