import Chipmunk
import ChipmunkCatalog
@testable import ChipmunkScenes
import Foundation
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

    /// A recorded session of the crates: a push, a gravity change, a body added and one
    /// removed, a hand that grabs, drags and lets go, each inside a depth-8 window of later
    /// frames, so that every rollback across it applies it again.
    static func session() throws -> InputRecording {
        let inputs = try JSONDecoder().decode(
            [InputRecording.Entry].self,
            from: Data(
                """
                [
                  {"step": 20, "input": {"impulse": {"body": "0", "impulse": [20000, 50000], "at": [150, 100]}}},
                  {"step": 40, "input": {"gravity": [300, -500]}},
                  {"step": 60, "input": {"add": {"id": "boxA", "mass": 5, "moment": {"box": {"width": 20, "height": 20}},
                      "position": [150, 250], "shapes": [{"type": "box", "width": 20, "height": 20}]}}},
                  {"step": 61, "input": {"remove": "1"}},
                  {"step": 80, "input": {"grab": {"hand": "hand-1", "body": "boxA", "at": [150, 250], "maxForce": 1e6}}},
                  {"step": 81, "input": {"velocity": {"body": "hand-1", "velocity": [-100, 300]}}},
                  {"step": 95, "input": {"remove": "hand-1"}}
                ]
                """.utf8))
        let recorder = SceneRecorder(try SceneCatalog.scene(named: "crates"), source: "crates")
        var next = 0
        for step in 1...120 {
            while next < inputs.count, inputs[next].step == step {
                try recorder.apply(inputs[next].input)
                next += 1
            }
            try recorder.step()
        }
        #expect(recorder.recording.inputs.count == inputs.count)
        return recorder.recording
    }

    /// Issue 27: the synctest takes a recording's inputs, in both passes, and checks the first
    /// pass against the recording as a replay does.
    @Test(arguments: [1, 8])
    func aRecordedSessionResimulatesExactly(depth: Int) throws {
        let recording = try Self.session()
        let report = try SyncTest(depth: depth, frames: 120).run(
            SceneCatalog.scene(named: "crates"), replaying: recording)
        #expect(report.resimulatedFrames == (1...120).reduce(0) { $0 + min($1, depth) })
        // The inputs did something: without them, the crates end elsewhere.
        let plain = try SceneCatalog.scene(named: "crates")
        for _ in 0..<120 { try plain.step(plain.timeStep) }
        #expect(plain.space.stateHash().hexDigits != recording.hashes.last)
        // Past the recording's steps, frames run on without inputs or hashes to compare.
        try SyncTest(depth: depth, frames: 150).run(SceneCatalog.scene(named: "crates"), replaying: recording)
    }

    @Test func aRecordingThatDoesNotReplayOrRunIsNamed() throws {
        let recording = try Self.session()
        func failure(_ recording: InputRecording, on name: String = "crates") throws -> SyncTest.Failure.Kind? {
            let scene = try SceneCatalog.scene(named: name)
            do {
                try SyncTest(depth: 8, frames: 120).run(scene, replaying: recording)
                return nil
            } catch {
                return error.kind
            }
        }
        // A hash changed: the first pass names its step.
        var tampered = recording
        tampered.hashes[89] = "0123456789abcdef"
        guard case .recordingDiffers(let frame, let step, let expected, _)? = try failure(tampered) else {
            Issue.record("a changed hash passed")
            return
        }
        #expect(frame == 90 && step == 90 && expected == "0123456789abcdef")
        // Another scene than the one recorded.
        guard case .otherScene? = try failure(recording, on: "crates-tilt") else {
            Issue.record("another scene ran")
            return
        }
        // An input that names a body gone by then.
        var broken = recording
        broken.inputs.append(.init(step: 100, input: .remove(body: "hand-1")))
        guard case .inputFailed(let inputFrame, let inputStep, let error)? = try failure(broken) else {
            Issue.record("a failing input passed")
            return
        }
        #expect(inputFrame == 100 && inputStep == 100 && error.contains("no body named 'hand-1'"), "\(error)")
    }

    /// A recording's inputs must come before steps it holds, in the order applied. An input
    /// out of order, or at a step the recording never reached (-7, 0, 100,000), was skipped
    /// without a word by `replay` and the synctest, which then said every step matched (a
    /// helper's attack). An input after the last step (given, but no step followed before
    /// the recording was saved, as a live session's download can end) is kept.
    @Test func inputsOutOfOrderOrPastTheStepsAreNamed() throws {
        let recording = try Self.session()
        var misordered = recording
        misordered.inputs.swapAt(1, 2)
        var past = recording
        past.inputs.append(.init(step: 100_000, input: .gravity([0, 1])))
        var before = recording
        before.inputs.insert(.init(step: 0, input: .gravity([0, 1])), at: 0)
        let cases = [
            (misordered, "inputs[2].step: 40 comes after step 60 of inputs[1]"),
            (past, "inputs[7].step: 100000 is outside 1 to 121"),
            (before, "inputs[0].step: 0 is outside 1 to 121"),
        ]
        let folder = FileManager.default.temporaryDirectory.appending(path: "inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, (bad, message)) in cases.enumerated() {
            #expect(bad.inputStepProblem?.hasPrefix(message) == true, "\(String(describing: bad.inputStepProblem))")
            #expect(throws: ReplayFailure.self) { try bad.replay(on: SceneCatalog.scene(named: "crates")) }
            #expect {
                try SyncTest(depth: 1, frames: 120).run(SceneCatalog.scene(named: "crates"), replaying: bad)
            } throws: { error in
                guard case .inputFailed(_, _, let text) = (error as? SyncTest.Failure)?.kind else { return false }
                return text.hasPrefix(message)
            }
            let url = folder.appending(path: "\(index).inputs.json")
            try bad.write(to: url)
            #expect {
                try InputRecording.load(contentsOf: url)
            } throws: { error in
                "\(error)" == "\(index).inputs.json: \(bad.inputStepProblem!)"
            }
        }
        var last = recording
        last.inputs.append(.init(step: 121, input: .gravity([0, 1])))
        #expect(last.inputStepProblem == nil)
        try last.replay(on: SceneCatalog.scene(named: "crates"))
    }

    /// What a recording's JSON gets wrong is named by its path: a key given twice (Foundation
    /// keeps one value without a word), and a step that is a number but not a whole one
    /// (Foundation says "not valid JSON", without a path). The same for `record --inputs`.
    @Test func aRecordingsKeysAndNumbersAreNamed() throws {
        let recording = try Self.session()
        let text = String(decoding: try recording.encoded(), as: UTF8.self)
        let folder = FileManager.default.temporaryDirectory.appending(path: "inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = [
            (
                text.replacingOccurrences(
                    of: #"{"input""#, with: #"{"step":5,"input""#, options: [], range: text.range(of: #"{"input""#)),
                "r.inputs.json: inputs[0].step: appears twice in one object; give each key once"
            ),
            (
                text.replacingOccurrences(of: #""step":20"#, with: #""step":20.5"#),
                "r.inputs.json: not an input recording: inputs[0].step: expected a whole number, found 20.5"
            ),
            (
                text.replacingOccurrences(of: #""step":20"#, with: #""step":1e300"#),
                "r.inputs.json: not an input recording: inputs[0].step: expected a whole number, found 1e+300 (too large)"
            ),
        ]
        // A hash as the recorder writes it, or refused by its index: replay compared the
        // text and synctest the number, so "ABC…" or "0abc…" failed one and passed the other.
        let first = recording.hashes[0]
        let hashCases = [first.uppercased(), "0" + first, "zzzz"].filter { $0 != first }.map { bad in
            (
                text.replacingOccurrences(of: "\"\(first)\"", with: "\"\(bad)\""),
                "r.inputs.json: hashes[0]: expected 16 lowercase hex digits, found '\(bad)'"
            )
        }
        // Keys the format does not have were ignored ("stpe", a key of another tool), and a
        // content hash that no scene has was reported at replay as a changed scene.
        let content = try #require(text.range(of: #""content":"[0-9a-f]{16}""#, options: .regularExpression))
        let strictCases = [
            (
                text.replacingOccurrences(of: #""scene":"#, with: #""extra":1,"scene":"#),
                "r.inputs.json: not an input recording: extra: unknown key 'extra'; expected one of 'format', "
                    + "'scene', 'content', 'timeStep', 'inputs', 'hashes'"
            ),
            (
                text.replacingOccurrences(of: #"{"input""#, with: #"{"stpe":3,"input""#),
                "r.inputs.json: not an input recording: inputs[0].stpe: unknown key 'stpe'; expected one of 'step', "
                    + "'input'"
            ),
            (
                text.replacingCharacters(in: content, with: #""content":"XYZ""#),
                "r.inputs.json: content: expected 16 lowercase hex digits, found 'XYZ'"
            ),
        ]
        for (json, message) in cases + hashCases + strictCases {
            let url = folder.appending(path: "r.inputs.json")
            try json.write(to: url, atomically: true, encoding: .utf8)
            #expect { try InputRecording.load(contentsOf: url) } throws: { "\($0)" == message }
        }
        let entries = #"[{"step": 3, "input": {"gravity": [0, 1]}, "step": 4}]"#
        #expect {
            try InputRecording.entries(from: Data(entries.utf8), source: "pushes.json")
        } throws: { "\($0)" == "pushes.json: [0].step: appears twice in one object; give each key once" }
        #expect {
            try InputRecording.entries(
                from: Data(#"[{"step": 2.5, "input": {"gravity": [0, 1]}}]"#.utf8), source: "p.json")
        } throws: { "\($0)".hasPrefix("p.json: [0].step: expected a whole number") }
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
