import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import ChipmunkTestSupport
import Foundation
import Testing

@testable import ChipmunkLive

/// The defects of a helper's attack on the live server (helper 22), each as it was found.
@Suite struct LiveAttackFollowUpTests {
    func closeReason(_ stream: AsyncStream<LiveWorld.Outbound>) async -> String? {
        for await item in stream { if case .close(let reason) = item { return reason } }
        return nil
    }

    /// 2,000 restarts from one viewer kept pyramid-topple at step 3 for everyone: handled one
    /// after another, no second ever held 400 of them. Counted by the world's time they take,
    /// the viewer is closed long before; the others and the world go on. A few restarts and
    /// scrubs, as the page sends them, are no flood.
    ///
    /// The clock, read both as the time and as the work a message is charged, moves 100 ms
    /// at every reading, so that a restart seems to take 100 ms of work (on this scene it
    /// takes about 20 in release) and 100 ms pass between two: each costs 75 ms of the 2 s
    /// budget, and the 27th closes the viewer on any machine.
    @Test func aFloodOfRestartsClosesItsViewer() async throws {
        let clock = TestClock(perRead: .milliseconds(100))
        let world = try LiveWorld(source: "pyramid-topple", now: clock.now, workTime: clock.work)
        let other = try #require(await world.join())
        let flooding = try #require(await world.join())
        var sent = 0
        while await world.viewerCount == 2, sent < 2_000 {
            await world.receive(#"{"type":"restart"}"#, from: flooding.id)
            sent += 1
        }
        #expect(await world.viewerCount == 1 && sent == 27, "closed after \(sent) restarts")
        #expect(
            await closeReason(flooding.outbound)
                == "its messages took more of the world's time than its share (a restart builds the scene again, a scrub restores a state and steps again)"
        )
        for _ in 0..<30 { await world.tick(seconds: 1.0 / 60) }
        #expect(await world.withSession { $0.step } > 0)
        // A few restarts and scrubs are no flood.
        let crates = try LiveWorld(source: "crates", now: clock.now, workTime: clock.work)
        let viewer = try #require(await crates.join())
        for _ in 0..<3 {
            await crates.receive(#"{"type":"restart"}"#, from: viewer.id)
            await crates.receive(#"{"type":"scrub","step":0}"#, from: viewer.id)
        }
        #expect(await crates.viewerCount == 1, "a few restarts and scrubs are no flood")
        #expect(await world.viewerCount == 1)
        _ = other
    }

    /// Gravity changes at one step (a phone tilted over a paused world) log one input, and
    /// the recording still replays; other inputs are bounded by `Limits.recordedInputs`,
    /// after which the recording keeps the steps it has, and still replays.
    @Test func inputsAtOneStepAreBounded() throws {
        var limits = LiveSession.Limits()
        limits.recordedInputs = 10
        let session = try LiveSession(source: "crates-tilt", limits: limits) {
            try SceneCatalog.scene(named: "crates-tilt")
        }
        for _ in 0..<30 { session.frame(seconds: 1.0 / 60) }
        session.pause()
        for i in 0..<500 { try session.tilt(gravity: [Double(i), -500]) }
        #expect(session.recordedInputs.count == 1)
        #expect(session.scene.space.gravity == [499, -500])
        session.resume()
        for _ in 0..<10 { session.frame(seconds: 1.0 / 60) }
        let body = session.scene.space.bodies[1].position
        for _ in 0..<20 { try session.push(at: body, velocityChange: [1, 0]) }
        #expect(session.recordingIsFull && session.recordedInputs.count == 10)
        let steps = session.recordedSteps
        for _ in 0..<10 { session.frame(seconds: 1.0 / 60) }
        #expect(session.recordedSteps == steps, "a full recording keeps the steps it has")
        let recording = session.recording
        #expect(try recording.replay(on: SceneCatalog.scene(named: "crates-tilt")) == steps)
    }

    /// A hand takes no name a scene's own input uses: a hand named as the scene's `add`
    /// made that add fail without a word, and the scene lost a crate.
    @Test func aHandTakesNoNameTheSceneUses() throws {
        let json = #"""
            {"version": 2, "name": "handclash", "gravity": [0, -100],
             "bodies": [{"kind": "static", "shapes": [{"type": "segment", "from": [-100, 0], "to": [100, 0]}]},
                        {"id": "crate", "mass": 1, "moment": 100, "position": [0, 10],
                         "shapes": [{"type": "box", "width": 10, "height": 10}]}],
             "inputs": [{"time": 0.5, "add": {"id": "hand1", "mass": 1, "moment": 100, "position": [30, 20],
                         "shapes": [{"type": "box", "width": 10, "height": 10}]}}]}
            """#
        let session = try LiveSession(source: "handclash.json") {
            try SceneDescription.decode(Data(json.utf8), source: "handclash.json").makeScene(source: "handclash.json")
        }
        session.frame(seconds: 1.0 / 60)
        let held = try session.grab(viewer: 1, at: session.scene.space.bodies[0].position)
        #expect(held == "crate")
        #expect(session.recordedInputs.allSatisfy { $0.input.body != "hand1" }, "\(session.recordedInputs)")
        for _ in 0..<60 { session.frame(seconds: 1.0 / 60) }
        #expect(session.scene.body(named: "hand1")?.shapes.count == 1, "the scene's own body came")
    }

    /// A scene file's downloads name it by its full path: they land in another folder.
    @Test func aServedFileIsNamedByItsFullPath() throws {
        // Scenes/crates.json as a path relative to where the tests run (the package's root,
        // or Sanitizers/ for scripts/sanitize.sh).
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.pathComponents
        let there = packageRoot.appendingPathComponent("Scenes/crates.json").standardizedFileURL.pathComponents
        let shared = zip(here, there).prefix { $0 == $1 }.count
        let relative = (Array(repeating: "..", count: here.count - shared) + there[shared...]).joined(separator: "/")
        let full = LiveWorld.fullPath(relative)
        #expect(!relative.hasPrefix("/") && full.hasPrefix("/") && full.hasSuffix("/Scenes/crates.json"), "\(full)")
        #expect(LiveWorld.fullPath("crates") == "crates")
        #expect(LiveWorld.fullPath("no-such-file.json") == "no-such-file.json")
    }

    /// Restart and the Back slider build the scene from the file as it was last read: after
    /// a bad save, or the file's deletion, they still work, and the deletion is told.
    @Test func aBadSaveOrADeletionLeavesTheBackSliderWorking() async throws {
        let folder = try TemporaryFolder("live-reload")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("served.json")
        try Data(#"{"name": "served", "bodies": [{"mass": 1, "moment": 1, "position": [0, 10]}]}"#.utf8).write(to: file)
        let world = try LiveWorld(source: file.path)
        let viewer = try #require(await world.join())
        for _ in 0..<120 { await world.tick(seconds: 1.0 / 60) }
        /// The notices a viewer gets over the next 30 ticks (the file is checked at the last).
        func noticesOverThirtyTicks() async throws -> [String] {
            let watcher = try #require(await world.join())
            for _ in 0..<30 { await world.tick(seconds: 1.0 / 60) }
            await world.leave(watcher.id)
            var notices: [String] = []
            for await item in watcher.outbound {
                if case .text(let text) = item, text.contains(#""type":"error""#) { notices.append(text) }
            }
            return notices
        }
        // A modification time that differs for sure from the first.
        try Data(#"{"name": "served", "gravty": [0, 1]}"#.utf8).write(to: file)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file.path)
        let bad = try await noticesOverThirtyTicks()
        #expect(bad.count == 1 && bad[0].contains("gravty") && bad[0].contains("the last good scene goes on"), "\(bad)")
        await world.handle(.scrub(step: 60), from: viewer.id)
        #expect(await world.withSession { $0.step } == 60)
        await world.handle(.restart, from: viewer.id)
        #expect(await world.withSession { $0.step } == 0)
        #expect(await world.withSession { $0.failure } == nil)
        await world.handle(.resume, from: viewer.id)  // a scrub paused the world
        try FileManager.default.removeItem(at: file)
        let gone = try await noticesOverThirtyTicks()
        #expect(gone.count == 1 && gone[0].contains("served.json is gone (the last good scene goes on)"), "\(gone)")
        await world.handle(.scrub(step: 10), from: viewer.id)
        let (step, failure, range) = await world.withSession { ($0.step, $0.failure, $0.scrubRange) }
        #expect(step == 10 && failure == nil, "at \(step) of \(range): \(failure ?? "")")
    }

    /// Inspecting a kinematic body (mass and moment of infinity) said nothing: JSON has no
    /// number for infinity, and the encoder gave up.
    @Test func aKinematicBodyIsInspected() throws {
        let session = try LiveSession(source: "tumble") { try SceneCatalog.scene(named: "tumble") }
        let box = try #require(session.scene.space.bodies.first { $0.kind == .kinematic })
        let text = LiveFrames.inspection(session, at: box.shapes[0].boundingBox.center)
        #expect(text.contains(#""kind":"kinematic""#) && text.contains(#""mass":"infinity""#), "\(text)")
    }
}

/// A second helper's attack on the first's fixes (helper 23).
@Suite struct LiveSnapshotSourceTests {
    /// A served snapshot's Restart and Back slider read the snapshot's scene file again:
    /// with the file moved away, both failed. The scene is read once, at the start.
    @Test func aServedSnapshotBuildsItsSceneFromWhatWasRead() async throws {
        let folder = try TemporaryFolder("live-snapshot")
        defer { folder.remove() }
        let scene = folder.url.appendingPathComponent("ball.json")
        try Data(#"{"name": "ball", "bodies": [{"mass": 1, "moment": 1, "position": [0, 10]}]}"#.utf8).write(to: scene)
        let built = try SceneCatalog.scene(named: scene.path)
        for _ in 0..<50 { try built.step(built.timeStep) }
        let file = folder.url.appendingPathComponent("ball50.snapshot")
        try Data(built.snapshot(reference: "ball.json").bytes).write(to: file)
        let world = try LiveWorld(source: file.path)
        let viewer = try #require(await world.join())
        for _ in 0..<120 { await world.tick(seconds: 1.0 / 60) }
        try FileManager.default.removeItem(at: scene)
        await world.handle(.scrub(step: 100), from: viewer.id)
        #expect(await world.withSession { $0.step } == 100)
        await world.handle(.restart, from: viewer.id)
        #expect(await world.withSession { $0.step } == 50)
        #expect(await world.withSession { $0.failure } == nil)
    }
}
