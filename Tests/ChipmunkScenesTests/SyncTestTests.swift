import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Testing

/// The synctest: roll back and simulate again, every frame, and compare state hashes.
@Suite struct SyncTestTests {
    /// Every built-in scene re-simulates exactly at depth 1 and 8 (120 frames each here;
    /// `chipmunk-sim synctest` runs longer ones). ui-push failed here until a restore put
    /// its instantaneous push back as the saved step had left it (off, once it pushed).
    @Test(arguments: SceneCatalog.builtIn.map(\.name), [1, 8])
    func builtInScenesResimulateExactly(name: String, depth: Int) throws {
        let scene = try SceneCatalog.scene(named: name)
        let report = try SyncTest(depth: depth, frames: 120).run(scene)
        #expect(report.frames == 120 && report.rollbacks == 120)
        #expect(report.resimulatedFrames == (1...120).reduce(0) { $0 + min($1, depth) })
    }

    /// A scene whose step reads a counter outside its state: the second pass differs, and
    /// the synctest names the first frame that reads it.
    @Test func aSceneThatReadsOutsideItsStateIsCaught() throws {
        let space = Space()
        space.gravity = [0, -100]
        let ball = Body(mass: 1, moment: 1)
        space.add(ball, Circle(body: ball, radius: 1))
        final class Counter { var calls = 0 }
        let counter = Counter()
        ball.velocityUpdate = { body, gravity, damping, dt in
            counter.calls += 1  // not state: a rollback does not wind it back
            let push = counter.calls > 30 ? Vector(x: Double(counter.calls) * 1e-6, y: 0) : .zero
            try body.updateVelocity(gravity: gravity + push, damping: damping, dt: dt)
        }
        let scene = Scene(name: "counter", space: space)
        #expect(throws: SyncTest.Failure.self) { try SyncTest(depth: 4, frames: 60).run(scene) }
        do {
            try SyncTest(depth: 4, frames: 60).run(Scene(name: "counter", space: space))
        } catch {
            guard case .diverged(let frame, _, _, _) = error.kind else {
                Issue.record("not a divergence: \(error)")
                return
            }
            #expect(frame > 0 && "\(error)".contains("simulated again differs"))
        }
    }

    /// A hand grabbed before a save and let go after it comes back with the restore, and
    /// by its name: the scene's inputs name it again when they are simulated again. In a
    /// scene named by index (built in Swift), letting go forgot the name, so the restored
    /// hand answered to its index and the same `remove` found nothing the second time.
    @Test func aHandLetGoAfterASaveComesBackByName() throws {
        let space = Space()
        let ball = Body(mass: 1, moment: 1)
        space.add(ball, Circle(body: ball, radius: 1))
        let scene = Scene(name: "hand", space: space)
        try scene.apply(.grab(hand: "hand-1", body: "0", at: [0, 0], maxForce: 100))
        try scene.step(scene.timeStep)
        var state = SceneState()
        scene.save(into: &state)
        let hash = scene.space.stateHash()
        try scene.apply(.remove(body: "hand-1"))
        #expect(scene.body(named: "hand-1") == nil)
        try scene.step(scene.timeStep)
        try scene.restore(state)
        #expect(scene.space.stateHash() == hash)
        #expect(scene.bodyNamesNow == ["0", "hand-1"])
        try scene.apply(.remove(body: "hand-1"))
        #expect(scene.bodyNamesNow == ["0"])
        // A body that takes the identifier of one let go and gone does not take its name
        // (the state held the hand; dropped, so is the hand).
        state = SceneState()
        for _ in 0..<100 { scene.space.add(Body(mass: 1, moment: 1)) }
        #expect(!scene.bodyNamesNow.contains("hand-1"))
    }
}
