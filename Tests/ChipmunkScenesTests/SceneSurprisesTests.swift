import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing

/// The scene format without surprises (issue 20): inputs act where a reader expects, every
/// output names bodies and shapes the same way, recordings speak the scene's vocabulary.
@Suite struct SceneSurprisesTests {
    func scene(_ json: String) throws -> Scene {
        try SceneDescription.decode(Data(json.utf8), source: "t.json").makeScene()
    }

    /// A body of mass 1 and moment 1 at (0, 100), kicked at 0 s by `impulse`.
    func kicked(_ impulse: String) throws -> Body {
        let scene = try scene(
            #"""
            {"version": 2, "name": "t", "bodies": [{"id": "link", "mass": 1, "moment": 1, "position": [0, 100]}],
             "inputs": [{"time": 0, "impulse": \#(impulse)}]}
            """#)
        try scene.step(1.0 / 120)
        return try #require(scene.body(named: "link"))
    }

    @Test("An impulse without `at` acts at the body's centre of gravity: it turns nothing")
    func impulseWithoutAtActsAtTheCentreOfGravity() throws {
        let body = try kicked(#"{"body": "link", "impulse": [-60, 0]}"#)
        #expect(body.angularVelocity == 0)
        #expect(body.velocity == [-60, 0])
        // `at` is a world point: the world origin is 100 below the body, so the same impulse
        // there turns it at r × J = (0, -100) × (-60, 0) = -6000 rad/s for a moment of 1.
        let atOrigin = try kicked(#"{"body": "link", "impulse": [-60, 0], "at": [0, 0]}"#)
        #expect(atOrigin.angularVelocity == -6000)
    }

    @Test("The centre of gravity is the body's, not its origin: shapes with an offset")
    func impulseAtAnOffsetCentreOfGravity() throws {
        let scene = try scene(
            #"""
            {"version": 2, "name": "t", "bodies": [{"id": "b", "position": [5, 7], "angle": 1,
              "shapes": [{"type": "circle", "radius": 2, "offset": [10, 0], "mass": 3}]}],
             "inputs": [{"time": 0, "impulse": {"body": "b", "impulse": [0, 30]}}]}
            """#)
        try scene.step(1.0 / 120)
        let body = try #require(scene.body(named: "b"))
        #expect(body.centerOfGravity == [10, 0])
        #expect(body.angularVelocity == 0)
        #expect(body.velocity == [0, 10])
    }

    @Test("sensor.json: contact events name shapes by id (the sensor, not 'static'), and their bodies")
    func eventsNameShapes() throws {
        let scene = try SceneDescription.load(contentsOf: sceneFile("sensor.json")).makeScene()
        for _ in 0..<240 { try scene.step(scene.timeStep) }
        #expect(scene.events.map(\.kind) == [.begin, .separate])
        #expect(scene.events.allSatisfy { $0.shapeA == "sensor" && $0.bodyA == "static" })
        #expect(scene.events.allSatisfy { $0.shapeB == "ball" && $0.bodyB == "ball" }, "no id: the body's name")
        let ground = try #require(scene.space.shapes.first { $0.body === scene.space.staticBody && !$0.isSensor })
        #expect(scene.name(of: ground) == "ground")
    }

    @Test("A restored snapshot keeps the shapes' names, and its events name them")
    func shapeNamesSurviveARestore() throws {
        let original = try SceneDescription.load(contentsOf: sceneFile("sensor.json")).makeScene()
        for _ in 0..<30 { try original.step(original.timeStep) }
        let restored = try SceneDescription.load(contentsOf: sceneFile("sensor.json")).makeScene()
        try restored.restore(original.snapshot())
        #expect(Set(restored.space.shapes.map { restored.name(of: $0) }) == ["ground", "sensor", "ball"])
        for _ in 0..<210 { try restored.step(restored.timeStep) }
        #expect(restored.events.first?.shapeA == "sensor")
    }

    @Test("Shape ids are unique, need version 2, and number with a generator")
    func shapeIDs() throws {
        func error(_ json: String) -> String {
            do {
                _ = try scene(json)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            error(
                #"{"version": 2, "name": "t", "staticShapes": [{"type": "circle", "radius": 1, "id": "a"}, {"type": "circle", "radius": 1, "id": "a"}]}"#
            ).contains("staticShapes[1].id: 'a' is empty or taken by another shape"))
        #expect(
            error(#"{"name": "t", "staticShapes": [{"type": "circle", "radius": 1, "id": "a"}]}"#).contains(
                "staticShapes[0]: uses keys of format version 2"))
        let made = try scene(
            #"{"version": 2, "name": "t", "bodies": [{"id": "b", "mass": 1, "moment": 1, "generate": {"row": {"count": 2, "spacing": [10, 0]}}, "shapes": [{"type": "circle", "radius": 1, "id": "c"}]}]}"#
        )
        #expect(Set(made.space.shapes.map { made.name(of: $0) }) == ["c0", "c1"])
    }

    @Test("verify names a version-2 scene's bodies as run does (boxA.x, not bodies[9].x)")
    func verifyNamesBodiesByID() throws {
        let json = #"""
            {"version": 2, "name": "t", "gravity": [0, -100],
             "bodies": [{"id": "ball", "mass": 1, "moment": 1}, {"id": "boxA", "mass": MASS, "moment": 1, "position": [50, 0]}],
             "inputs": [{"time": 0.05, "impulse": {"body": "boxA", "impulse": [1, 0]}}]}
            """#
        let golden = try scene(json.replacingOccurrences(of: "MASS", with: "1")).recordGolden(
            steps: 20, checkpointEvery: 10)
        do {
            try scene(json.replacingOccurrences(of: "MASS", with: "2")).verify(against: golden)
            Issue.record("a changed mass verified")
        } catch let failure as VerificationFailure {
            #expect(failure.summary.contains("first boxA.x "), "\(failure.summary)")
            #expect(!failure.description.contains("bodies["), "\(failure.description)")
        }
    }

    @Test("--track's names: a body added by an input is among the scene's names over time")
    func namesOverTime() throws {
        let scene = try SceneDescription.load(contentsOf: sceneFile("kicks.json")).makeScene()
        #expect(scene.bodyNamesOverTime == ["ball", "paddle", "ball2"])
        #expect(scene.body(named: "ball2") == nil)
    }
}

@Suite struct RecordingVocabularyTests {
    @Test("A recording's inputs are a scene file's: {\"gravity\": [x, y]}, add and remove by name")
    func recordingSpeaksTheSceneVocabulary() throws {
        let scene = try SceneCatalog.scene(named: "crates")
        let recorder = SceneRecorder(scene, source: "crates")
        let box = try SceneDescription.decode(
            Data(#"{"name": "b", "bodies": [{"mass": 5, "moment": 50, "position": [150, 250]}]}"#.utf8), source: "b"
        ).bodies![0]
        var added = box
        added.id = "boxA"
        try recorder.apply(.gravity([300, -500]))
        try recorder.apply(.add(added))
        try recorder.step()
        try recorder.apply(.impulse(body: "boxA", impulse: [0, 100], at: nil))
        try recorder.apply(.remove(body: "0"))
        try recorder.step()
        let json = String(decoding: try recorder.recording.encoded(), as: UTF8.self)
        #expect(json.contains(#""format":"chipmunk-inputs 2""#))
        #expect(json.contains(#"{"gravity":[300,-500]}"#), "\(json)")
        #expect(json.contains(#"{"remove":"0"}"#))
        #expect(json.contains(#""add":{"#) && !json.contains("_0") && !json.contains("addBody"))
        #expect(scene.name(of: scene.space.bodies.last!) == "boxA")
        let decoded = try JSONDecoder().decode(InputRecording.self, from: Data(json.utf8))
        #expect(decoded == recorder.recording)
        // The same words are a scene file's timed inputs.
        let timed = try JSONDecoder().decode(TimedInput.self, from: Data(#"{"time": 1, "gravity": [300, -500]}"#.utf8))
        #expect(timed.action == recorder.recording.inputs[0].input)
    }

    @Test("A version-1 recording is refused with a message that says why and what to do")
    func oldRecordingsAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("old-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"""
        {"format": "chipmunk-inputs 1", "scene": "crates", "content": "0", "timeStep": 0.01,
         "inputs": [{"step": 1, "input": {"gravity": {"_0": [0, 1]}}}], "hashes": ["0"]}
        """#.write(to: folder, atomically: true, encoding: .utf8)
        do {
            _ = try InputRecording.load(contentsOf: folder)
            Issue.record("a version-1 recording loaded")
        } catch {
            #expect("\(error)".contains("format 'chipmunk-inputs 1' (bodies by index"), "\(error)")
            #expect("\(error)".contains("record it again with chipmunk-sim record"))
        }
    }

    @Test("A recording whose scene is \"\" names the key, not the folder it would open")
    func anEmptySceneIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"""
        {"format": "\#(InputRecording.currentFormat)", "scene": "", "content": "0", "timeStep": 0.01,
         "inputs": [], "hashes": ["0000000000000000"]}
        """#.write(to: file, atomically: true, encoding: .utf8)
        #expect {
            try InputRecording.load(contentsOf: file)
        } throws: {
            "\($0)".hasSuffix(
                "\(file.lastPathComponent): scene: is empty; name a built-in scene or a scene file's path")
        }
    }
}
