@testable import Chipmunk
import ChipmunkCatalog
@testable import ChipmunkScenes
import ChipmunkTestSupport
import Foundation
import Testing

@testable import ChipmunkLive

/// The live session without a server or a clock: frames of exactly 1/60 s.
@Suite struct LiveSessionTests {
    static let frame = 1.0 / 60

    func session(_ name: String = "crates") throws -> LiveSession {
        try LiveSession(source: name) { try SceneCatalog.scene(named: name) }
    }

    func run(_ session: LiveSession, frames: Int) {
        for _ in 0..<frames { session.frame(seconds: Self.frame) }
    }

    /// Replays the session's recording on a fresh scene: every step's hash must match.
    func replays(_ session: LiveSession) throws {
        let recording = session.recording
        let steps = try recording.replay(on: SceneCatalog.scene(named: recording.scene))
        #expect(steps == recording.hashes.count && steps > 0)
    }

    @Test func aDraggedCrateFollowsTheHandAndTheSessionReplays() throws {
        let session = try session()
        run(session, frames: 120)  // the crates settle
        let crate = session.scene.space.bodies[0]
        let start = crate.position
        let held = try #require(try session.grab(viewer: 1, at: start))
        #expect(held == session.scene.name(of: crate))
        let target = start + Vector(x: 40, y: 120)
        for i in 1...30 {
            session.moveHand(viewer: 1, to: start + (target - start) * (Double(i) / 30))
            run(session, frames: 1)
        }
        run(session, frames: 60)
        #expect((crate.position - target).length < 5, "the crate at \(crate.position), the hand at \(target)")
        try session.release(viewer: 1)
        #expect(!session.holds(viewer: 1))
        #expect(session.handLines.isEmpty)
        try session.tilt(gravity: Vector(x: 500, y: 0))
        try session.push(at: session.scene.space.bodies[2].position, velocityChange: Vector(x: 0, y: 300))
        run(session, frames: 60)
        let kinds = Set(session.recording.inputs.map { "\($0.input)".prefix(while: { $0 != "(" }) })
        #expect(kinds == ["grab", "velocity", "remove", "gravity", "impulse"])
        try replays(session)
    }

    /// Two fingers of one viewer carry two crates at once, each to its own point; one
    /// lets go and the other holds on; a finger that grabs again lets go of what it held
    /// first; the viewer leaving lets go with every finger. The session replays bit for bit.
    @Test func eachFingerHoldsItsOwnBody() throws {
        let session = try session()
        run(session, frames: 120)  // the crates settle
        let (left, right) = (session.scene.space.bodies[0], session.scene.space.bodies[1])
        let (leftStart, rightStart) = (left.position, right.position)
        #expect(try session.grab(viewer: 1, finger: 0, at: leftStart) == session.scene.name(of: left))
        #expect(try session.grab(viewer: 1, finger: 1, at: rightStart) == session.scene.name(of: right))
        let (leftTarget, rightTarget) = (Vector(x: 70, y: 240), Vector(x: 170, y: 240))  // apart, inside the walls
        for i in 1...30 {
            let f = Double(i) / 30
            session.moveHand(viewer: 1, finger: 0, to: leftStart + (leftTarget - leftStart) * f)
            session.moveHand(viewer: 1, finger: 1, to: rightStart + (rightTarget - rightStart) * f)
            run(session, frames: 1)
        }
        run(session, frames: 60)
        #expect((left.position - leftTarget).length < 5, "finger 0's crate at \(left.position), not \(leftTarget)")
        #expect((right.position - rightTarget).length < 5, "finger 1's crate at \(right.position), not \(rightTarget)")
        #expect(session.handLines.count == 2)

        try session.release(viewer: 1, finger: 0)
        run(session, frames: 60)
        #expect(session.holds(viewer: 1))
        #expect(session.handLines.count == 1)
        #expect((right.position - rightTarget).length < 5, "finger 1 still holds its crate")
        #expect(left.position.y < leftTarget.y - 20, "finger 0's crate fell: \(left.position)")

        // Finger 1 takes the other crate: it lets go of its first.
        #expect(try session.grab(viewer: 1, finger: 1, at: left.position) == session.scene.name(of: left))
        run(session, frames: 1)
        #expect(session.handLines.count == 1)
        #expect(try session.grab(viewer: 2, finger: 1, at: right.position) != nil)  // another viewer's finger 1
        run(session, frames: 1)
        #expect(session.handLines.count == 2)
        try session.release(viewer: 1)
        run(session, frames: 1)
        #expect(!session.holds(viewer: 1) && session.holds(viewer: 2))
        #expect(session.handLines.count == 1)
        try session.release(viewer: 2)
        run(session, frames: 30)
        #expect(session.handLines.isEmpty)
        try replays(session)
    }

    /// A scene stepped at 1e-300 s: its frame's step cap, its scrub ring's reach and a snap's
    /// length are counts of steps computed from seconds, and Int(_:) trapped on each (a
    /// newcomer's file with a typo in its exponent stopped `serve` at once).
    @Test func aTinyTimeStepIsServed() throws {
        let session = try LiveSession(source: "tiny") {
            let scene = try SceneCatalog.scene(named: "crate")
            return Scene(name: "tiny", space: scene.space, timeStep: 1e-300)
        }
        run(session, frames: 2)
        #expect(session.step == 2 * 10_000, "the frame's cap holds: 10,000 steps")
        let crate = try #require(session.scene.space.bodies.first)
        #expect(session.snap(viewer: 1, at: crate.position) == .chose(session.scene.name(of: crate)))
        #expect(session.snap(viewer: 1, at: [150, 200]) == .snapping(session.scene.name(of: crate)))
        run(session, frames: 1)
        #expect(session.snaps(viewer: 1), "a pull of 5 s at 1e-300 s goes on")
    }

    /// Snap mode, as UIKit Dynamics' snap demo: a tap on a crate chooses it, a tap elsewhere
    /// snaps it there, upright, and lets it go once it rests; the pull is logged as the
    /// crate's velocities, so the session replays bit for bit.
    @Test func aTappedCrateSnapsToTheNextTap() throws {
        let session = try session()
        run(session, frames: 120)
        let crate = session.scene.space.bodies[2]
        let name = session.scene.name(of: crate)
        #expect(session.snap(viewer: 1, at: [150, 250]) == .nothing)  // no body there, none chosen
        #expect(session.snap(viewer: 1, at: crate.position) == .chose(name))
        let target = Vector(x: 150, y: 250)
        #expect(session.snap(viewer: 1, at: target) == .snapping(name))
        #expect(session.handLines.count == 1)
        session.pause()
        var steps = 0
        while session.snaps(viewer: 1), steps < 800 {
            session.singleStep()
            steps += 1
        }
        #expect(!session.snaps(viewer: 1), "the snap did not end in 800 steps")
        #expect(steps > 120, "a snap takes a while: \(steps) steps")
        // Let go within 0.05 of the point and nearly still; that last step falls a little.
        #expect((crate.position - target).length < 0.15, "the crate at \(crate.position)")
        #expect(abs(crate.angle.remainder(dividingBy: 2 * Double.pi)) < 1e-3, "the crate turned to \(crate.angle)")
        #expect(session.handLines.isEmpty)
        // Free again: it falls.
        session.resume()
        run(session, frames: 30)
        #expect(crate.position.y < target.y - 10)
        let kinds = Set(session.recording.inputs.map { "\($0.input)".prefix(while: { $0 != "(" }) })
        #expect(kinds == ["velocity", "angularVelocity"])
        try replays(session)
    }

    /// A snap to a point no body can reach (inside a wall) pulls for 5 s, then lets go; a new
    /// snap replaces the last; a viewer leaving, a restart and a scrub end its snap.
    @Test func aSnapEnds() throws {
        let session = try session()
        run(session, frames: 120)
        let crate = session.scene.space.bodies[0]
        session.snap(viewer: 1, at: crate.position)
        session.snap(viewer: 1, at: [-40, 100])  // past the left wall
        run(session, frames: Int(LiveSession.snapSeconds * 60) + 5)
        #expect(!session.snaps(viewer: 1), "still pulling after \(LiveSession.snapSeconds) s")
        #expect(crate.position.x > 0, "the crate went through the wall: \(crate.position)")
        session.snap(viewer: 1, at: [100, 200])
        session.snap(viewer: 1, at: [200, 200])
        #expect(session.handLines.count == 1 && session.handLines[0].hand == [200, 200])
        try session.release(viewer: 1)
        #expect(!session.snaps(viewer: 1))
        session.snap(viewer: 2, at: crate.position)
        session.snap(viewer: 2, at: [100, 200])
        try session.restart()
        #expect(!session.snaps(viewer: 2))
        #expect(session.snap(viewer: 2, at: [100, 200]) == .nothing, "the choice survived the restart")
        run(session, frames: 120)
        session.snap(viewer: 2, at: session.scene.space.bodies[0].position)
        session.snap(viewer: 2, at: [100, 200])
        run(session, frames: 30)
        try session.scrub(to: 10)
        #expect(!session.snaps(viewer: 2))
    }

    /// A recording of no step (at the start, after Restart, scrubbed back to the start) is
    /// refused with why, for the page's notice: the page downloaded it, and `replay` refused
    /// the file ("hashes: is empty"). One step later the download replays.
    @Test func aRecordingOfNoStepIsRefusedWithWhy() throws {
        let session = try session()
        #expect(throws: LiveSession.Unrecorded.self) { try session.recordingFile() }
        do {
            _ = try session.recordingFile()
        } catch {
            #expect("\(error)".contains("holds no step yet"), "\(error)")
        }
        run(session, frames: 30)
        _ = try session.scrub(to: 0)
        // Scrubbed back to the start, the steps after are still recorded until the branch starts.
        #expect(session.recordedSteps == 60)
        _ = try session.recordingFile()
        try session.tilt(gravity: [0, -500])  // the branch starts at step 0
        #expect(throws: LiveSession.Unrecorded.self) { try session.recordingFile() }
        #expect(session.singleStep())
        let file = try session.recordingFile()
        let recording = try JSONDecoder().decode(InputRecording.self, from: Data(file))
        #expect(try recording.replay(on: SceneCatalog.scene(named: "crates")) == 1)
        try session.restart()
        #expect(throws: LiveSession.Unrecorded.self) { try session.recordingFile() }
    }

    @Test func scrubbingBackAndContinuingBranchesTheRecording() throws {
        let session = try session("crates-tilt")
        run(session, frames: 60)
        _ = try session.grab(viewer: 7, at: session.scene.space.bodies[1].position)
        session.moveHand(viewer: 7, to: [150, 200])
        run(session, frames: 60)
        let before = session.step
        let firstTime = session.recording.hashes[before - 50 - 1]
        #expect((before - 50) % session.limits.stateEvery != 0, "between two of the ring's states")
        let at = try session.scrub(to: before - 50)  // while the hand held the crate
        #expect(at == before - 50 && session.step == at)
        #expect(session.scene.space.stateHash().hexDigits == firstTime, "the step as it was the first time")
        #expect(session.isPaused && session.failure == nil)
        // Until the branch starts, the steps after stay: a scrub forward takes them again.
        #expect(session.recording.hashes.count == before && session.scrubRange.upperBound == before)
        let last = session.recording.hashes[before - 1]
        #expect(try session.scrub(to: before) == before)
        #expect(session.scene.space.stateHash().hexDigits == last, "the last step as it was")
        #expect(try session.scrub(to: before - 50) == at)
        session.resume()
        // The branch starts with the first input or step: the recording drops what came after.
        // The hand of then is nobody's now: it lets go as the branch starts.
        try session.tilt(gravity: Vector(x: -300, y: -300))
        #expect(session.recording.hashes.count == at)
        #expect(session.recording.inputs.allSatisfy { $0.step <= at + 1 })
        run(session, frames: 90)
        #expect(session.handLines.isEmpty)
        #expect(session.recording.hashes.count == session.step)
        try replays(session)
    }

    /// A scrub steps on from the ring's snapshot with the recorded inputs and checks each
    /// step's hash: a scene that reads outside its state is caught there.
    @Test func aScrubCatchesASceneThatIsNotDeterministic() throws {
        final class Counter { var calls = 0 }
        let counter = Counter()
        let session = try LiveSession(source: "counter") {
            let space = Space()
            space.gravity = [0, -100]
            let ball = Body(mass: 1, moment: 1)
            space.add(ball, Circle(body: ball, radius: 1))
            ball.velocityUpdate = { body, gravity, damping, dt in
                counter.calls += 1  // not state: a scrub does not wind it back
                let push = Vector(x: Double(counter.calls) * 1e-6, y: 0)
                try body.updateVelocity(gravity: gravity + push, damping: damping, dt: dt)
            }
            return Scene(name: "counter", space: space)
        }
        run(session, frames: 30)
        let at = try session.scrub(to: 30)
        let failure = try #require(session.failure)
        #expect(at == 25 && session.isPaused)
        #expect(failure.hasPrefix("step 25, taken again to scrub back, gave state hash"), "\(failure)")
        #expect(failure.hasSuffix("the scene is not deterministic"))
    }

    /// Chain links that broke since the kept state come back with their code: the scrub
    /// restores into the scene built again, not into the world as it is (where they came
    /// back as data without their break callback, and the scrub's own check then called
    /// the scene not deterministic).
    @Test func aScrubBackOverBrokenLinksBreaksThemAgain() throws {
        let session = try session("chains")
        let links = session.scene.space.constraints.count
        run(session, frames: 30)
        let broken = links - session.scene.space.constraints.count
        #expect(broken > 0 && session.step > 16, "links broke by step \(session.step)")
        let at = try session.scrub(to: 16)
        #expect(at == 16 && session.failure == nil)
        let back = try session.scrub(to: 0)
        #expect(back == 0 && session.failure == nil)
        session.resume()
        run(session, frames: 30)
        #expect(links - session.scene.space.constraints.count == broken, "the same links break again")
        try replays(session)
    }

    @Test func pauseStepAndSpeed() throws {
        let session = try session()
        session.pause()
        #expect(session.frame(seconds: Self.frame) == 0)
        #expect(session.singleStep())
        #expect(session.step == 1)
        session.resume()
        session.setSpeed(4)
        #expect(session.frame(seconds: Self.frame) == 8)
        session.setSpeed(100)
        #expect(session.speed == 4)
        session.setSpeed(0.25)
        #expect(session.frame(seconds: Self.frame) + session.frame(seconds: Self.frame) == 1)
    }

    @Test func aWorldThatDivergesStopsAndRestarts() throws {
        let session = try session()
        // A velocity whose next position is past the largest double: the step throws.
        try session.apply(.velocity(body: "0", velocity: Vector(x: 1e308, y: 0)))
        run(session, frames: 2)
        let failure = try #require(session.failure)
        #expect(failure.hasPrefix("step 1: the simulation diverged: body 0's position"), "\(failure)")
        #expect(session.isPaused)
        session.resume()
        #expect(session.isPaused, "a failed world does not run again")
        try session.restart()
        #expect(session.failure == nil && session.step == 0 && session.recording.inputs.isEmpty)
    }

    /// The Back slider after a divergence: the world's own state before it is restored into
    /// the diverged space, which steps on as it did the first time.
    @Test func aDivergedWorldScrubsBack() throws {
        let session = try session()
        run(session, frames: 60)  // 120 steps
        try session.apply(.velocity(body: "0", velocity: Vector(x: 1e308, y: 0)))
        run(session, frames: 2)
        let failure = try #require(session.failure)
        #expect(failure.hasPrefix("step 121: the simulation diverged"), "\(failure)")
        #expect(try session.scrub(to: 60) == 60)
        #expect(session.failure == nil && session.isPaused)
        #expect(session.scene.space.stateHash().hexDigits == session.recording.hashes[59])
        session.resume()
        run(session, frames: 60)
        #expect(session.failure == nil && session.step == 180, "the branch from 60 has no diverging input")
        try replays(session)
    }

    /// A scrub sets the world itself back (a `SceneState` saved every 12 steps): the same
    /// scene and the same bodies, not a scene built again; each step scrubbed to, back and
    /// forward, has the hash it was recorded with. The ring reuses the buffers of the states
    /// it drops, and keeps a snapshot every 120 steps for a world that cannot be restored into.
    @Test func aScrubRestoresTheWorldItself() throws {
        let session = try session()
        run(session, frames: 300)  // 600 steps
        let scene = session.scene
        let bodies = scene.space.bodies.map(ObjectIdentifier.init)
        let hashes = session.recording.hashes
        for target in [100, 599, 13, 350, 600, 1, 245] {
            #expect(try session.scrub(to: target) == target)
            #expect(session.scene === scene, "the scene was built again")
            #expect(session.scene.space.bodies.map(ObjectIdentifier.init) == bodies)
            #expect(session.scene.space.stateHash().hexDigits == hashes[target - 1], "step \(target)")
        }
        #expect(session.ring.states.map(\.step) == Array(stride(from: 0, through: 600, by: 12)))
        #expect(session.ring.snapshots.map(\.step) == [0, 120, 240, 360, 480, 600])
        session.resume()
        run(session, frames: 600)  // the branch from 245 on: 1,445 steps, past the 10 s the ring reaches
        // Kept last at 1,440.
        #expect(session.ring.states.first!.step == 1440 - 1200 && session.ring.states.count == 101)
        #expect(session.ring.snapshots.first!.step <= session.ring.states.first!.step)
        #expect(session.ring.snapshots.count <= 12)
        try replays(session)
    }

    /// The ring keeps to its memory, counted as allocated (a state's buffers grow by
    /// doubling), not as the bytes the states hold.
    @Test func theRingKeepsToItsMemory() throws {
        var limits = LiveSession.Limits()
        limits.ringBytes = 1 << 20
        let session = try LiveSession(source: "pyramid-stack", limits: limits) {
            try SceneCatalog.scene(named: "pyramid-stack")
        }
        run(session, frames: 120)
        let held = session.ring.states.reduce(0) { $0 + $1.state.byteCount }
        #expect(session.ring.states.count >= 3 && session.ring.states.count < 20, "\(session.ring.states.count) states")
        #expect(session.ring.bytes > held, "memory \(session.ring.bytes), held \(held)")
        #expect(session.ring.bytes - (session.ring.states.last?.state.heapBytes ?? 0) <= limits.ringBytes)
    }

    @Test func theRingAndTheRecordingAreBounded() throws {
        var limits = LiveSession.Limits()
        limits.scrubSeconds = 1
        limits.recordedSteps = 300
        let session = try LiveSession(source: "crates", limits: limits) { try SceneCatalog.scene(named: "crates") }
        run(session, frames: 300)  // 600 steps
        #expect(session.ring.states.count <= 11)
        #expect(session.scrubRange.lowerBound >= 600 - 120)
        #expect(session.recording.hashes.count == 300)
        #expect(session.recordingIsFull)
        try session.tilt(gravity: [0, 100])
        #expect(session.recording.inputs.isEmpty, "past the limit, inputs are not logged")
        try replays(session)
    }

    /// A snapshot of `crates` at step 300, written in `folder`: its path.
    func cratesAtStep300(in folder: TemporaryFolder) throws -> String {
        let scene = try SceneCatalog.scene(named: "crates")
        for _ in 0..<300 { try scene.step(scene.timeStep) }
        let path = folder.path("crates-300.snapshot")
        try Data(scene.snapshot(reference: "crates").bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aSessionServedFromASnapshotStartsThereAndReplaysFromIt() throws {
        let folder = try TemporaryFolder("live-snapshot")
        defer { folder.remove() }
        let path = try cratesAtStep300(in: folder)
        let session = try LiveSession(source: path) { try SceneCatalog.scene(opening: path) }
        #expect(session.step == 300)
        run(session, frames: 10)
        _ = try session.grab(viewer: 1, at: session.scene.space.bodies[3].position)
        session.moveHand(viewer: 1, to: [150, 250])
        run(session, frames: 50)
        let recording = session.recording
        #expect(recording.hashes.count == 120 && recording.inputs.first?.step == 21)
        #expect(try recording.replay(on: SceneCatalog.scene(opening: path)) == 120)
        // The synctest counts the recording's steps from the snapshot too: it looked its
        // hashes and inputs up 300 steps on, so it failed a longer session and applied no
        // input of this one.
        let scene = try SceneCatalog.scene(opening: path)
        let report = try SyncTest(depth: 8, frames: 120).run(scene, replaying: recording)
        #expect(report.frames == 120)
        #expect(scene.space.stateHash().hexDigits == recording.hashes.last, "ends where the session did")
    }

    /// The Snapshot link of a served snapshot names the scene the snapshot came from, not
    /// the snapshot file: `run` and `serve` build that scene again and continue the world.
    @Test func theSnapshotOfAServedSnapshotContinuesTheWorld() throws {
        let folder = try TemporaryFolder("live-snapshot-again")
        defer { folder.remove() }
        let path = try cratesAtStep300(in: folder)
        let session = try LiveSession(source: path) { try SceneCatalog.scene(opening: path) }
        run(session, frames: 10)
        let downloaded = folder.path("downloaded.snapshot")
        try Data(try session.snapshot().bytes).write(to: URL(fileURLWithPath: downloaded))
        let continued = try SceneCatalog.scene(opening: downloaded)
        #expect(continued.stepCount == 320)
        #expect(continued.space.stateHash() == session.scene.space.stateHash())
    }

    @Test func emptySpaceAndStaticBodiesCannotBeGrabbed() throws {
        let session = try session()
        #expect(try session.grab(viewer: 1, at: [-1000, -1000]) == nil)
        #expect(try session.grab(viewer: 1, at: [150, -2]) == nil)  // the floor segment
        #expect(try session.push(at: [-1000, -1000], velocityChange: [1, 1]) == nil)
    }

    /// 400 circles of one filter group flying at one point, under a budget of 2,000
    /// contact pairs: a step stops inside the engine's broad phase before they meet.
    static func pile() -> Scene {
        let space = Space()
        space.maxContactPairs = 2_000
        for i in 0..<400 {
            let angle = Double(i) / 400 * 2 * .pi
            let body = Body(mass: 1, moment: 1)
            body.position = [100 * cos(angle), 100 * sin(angle)]
            body.velocity = [-body.position.x, -body.position.y]
            let circle = Circle(body: body, radius: 1)
            circle.filter = ShapeFilter(group: 1)
            space.add(body, circle)
        }
        return Scene(name: "pile", space: space)
    }

    /// A world stopped by the contact pair budget cannot be saved or restored into: the
    /// download says so instead of stopping the server, and a scrub builds the scene again
    /// and restores the ring's snapshot into that.
    @Test func aWorldStoppedInsideTheEngineScrubsBackAndRefusesASnapshot() throws {
        let session = try LiveSession(source: "pile") { Self.pile() }
        run(session, frames: 60)
        let failure = try #require(session.failure)
        #expect(failure.hasPrefix("step \(session.step + 1): more than 2000 contact pairs"), "\(failure)")
        #expect(session.scene.space.isStoppedByContactPairs)
        let stoppedAt = session.step
        #expect(throws: LiveSession.Unsaved.self) { try session.snapshot() }
        let back = try session.scrub(to: 12)
        #expect(back == 12 && session.step == 12 && session.failure == nil && session.isPaused)
        #expect(!session.scene.space.isStoppedByContactPairs)
        #expect(try session.snapshot().stepsTaken == 12)
        session.resume()
        run(session, frames: 60)
        #expect(session.failure != nil && session.step == stoppedAt, "the same step stops it again")
        // The scene built again from the snapshot at 0 keeps states as it steps to 12 and on,
        // so the next scrubs step from the nearest (a helper's attack: each scrub stepped
        // from 0, and five of them spent the viewer's share of the world's time).
        #expect(try session.scrub(to: 12) == 12)
        #expect(session.ring.states.map(\.step) == [0, 12])
        #expect(try session.scrub(to: stoppedAt - 1) == stoppedAt - 1)
        let kept = Array(stride(from: 0, through: stoppedAt - 1, by: 12))
        #expect(session.ring.states.map(\.step) == kept && kept.count >= 3, "stopped at \(stoppedAt)")
        #expect(try session.scrub(to: 30) == 30)
        #expect(session.ring.states.map(\.step) == kept)
    }
}

/// The colours a viewer is sent once, with the scene.
@Suite struct LiveSceneColourTests {
    /// A viewer who joined while the pile slept got the demos' sleeping grey (0.2) as every
    /// body's colour, and the page darkened it again whenever a body slept: near black for
    /// good, even once woken. The scene message carries each shape's own colour; the page
    /// shows sleeping itself.
    @Test func aViewerJoiningASleepingPileGetsTheShapesOwnColours() throws {
        let session = try LiveSession(source: "pyramid-stack") { try SceneCatalog.scene(named: "pyramid-stack") }
        var frames = 0
        while !session.scene.space.bodies.allSatisfy(\.isSleeping), frames < 3_000 {
            session.frame(seconds: 1.0 / 60)
            frames += 1
        }
        let asleep = session.scene.space.bodies.allSatisfy(\.isSleeping)
        try #require(asleep, "the pile never slept")
        let shapes = session.scene.space.bodies.flatMap(\.shapes)
        #expect(shapes.allSatisfy { $0.debugFillColor == DebugColor(luminance: 0.2) })
        struct Message: Decodable {
            struct Body: Decodable { var shapes: [Shape] }
            struct Shape: Decodable { var fill: [Float] }
            var bodies: [Body]
        }
        let message = try JSONDecoder().decode(Message.self, from: Data(LiveFrames.sceneMessage(session).utf8))
        let sent = message.bodies.flatMap(\.shapes).map(\.fill)
        let own = shapes.map { c in
            [c.debugAwakeFillColor.red, c.debugAwakeFillColor.green, c.debugAwakeFillColor.blue, 1]
        }
        #expect(sent == own)
        #expect(Set(sent.map { $0.map(\.description).joined(separator: ",") }).count > 5, "the shapes' colours differ")
    }
}

/// What Inspect shows of a body that never turns.
@Suite struct LiveInspectionTests {
    /// A moment of infinity has no JSON number: the inspection said nothing at all (`{}`).
    @Test func aBodyOfInfiniteMomentIsInspected() throws {
        let json = #"""
            {"version": 2, "name": "paddle", "bodies": [{"id": "paddle", "mass": 1, "moment": "infinity",
             "shapes": [{"type": "box", "width": 20, "height": 6}]}]}
            """#
        let session = try LiveSession(source: "paddle.json") {
            try SceneDescription.decode(Data(json.utf8), source: "paddle.json").makeScene(source: "paddle.json")
        }
        let text = LiveFrames.inspection(session, at: .zero)
        #expect(text.contains(#""moment":"infinity""#) && text.contains(#""body":"paddle""#), "\(text)")
    }
}
