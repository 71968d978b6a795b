import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing

/// Steps both scenes at their own time steps; the first step after which their state
/// hashes differ, or nil.
func firstDifference(_ a: Scene, _ b: Scene, steps: Int) throws -> Int? {
    for step in 1...steps {
        try a.step(a.timeStep)
        try b.step(b.timeStep)
        if a.space.stateHash() != b.space.stateHash() { return step }
    }
    return nil
}

/// The version-2 scene files in Scenes/, each with what it exists to show.
@Suite struct SceneVersion2Tests {
    func load(_ name: String) throws -> Scene {
        try SceneDescription.load(contentsOf: sceneFile(name)).makeScene()
    }

    @Test("pendulum.json: the bob stays 100 from the pivot and swings from side to side")
    func pendulum() throws {
        let scene = try load("pendulum.json")
        let bob = scene.space.bodies[0]
        var sides = Set<Bool>()
        var worst = 0.0
        for _ in 0..<600 {
            try scene.step(scene.timeStep)
            worst = max(worst, abs(bob.position.length - 100))
            if abs(bob.position.x) > 50 { sides.insert(bob.position.x > 0) }
        }
        // The joint's error correction lets it stretch by about 1 % at the bottom of a swing.
        #expect(worst < 2, "the bob strayed \(worst) from the joint's length")
        #expect(sides == [true, false])
        #expect(scene.name(of: bob) == "bob")
    }

    @Test("breakable-chain.json: the weight breaks joints that carry more than breakImpulse, and falls")
    func breakableChain() throws {
        let scene = try load("breakable-chain.json")
        #expect(scene.space.constraints.count == 5)
        for _ in 0..<900 { try scene.step(scene.timeStep) }
        #expect(scene.space.constraints.count < 5, "no joint broke")
        let weight = scene.space.bodies.last!
        #expect(weight.position.y < 60, "the weight should have fallen with the broken chain (y \(weight.position.y))")
    }

    @Test(
        "one-way.json: the same bits as the Swift one-way demo; the ball passes up and lands on the platform")
    func oneWayPlatform() throws {
        let data = try load("one-way.json")
        let swift = try SceneCatalog.scene(named: "one-way")
        let difference = try firstDifference(data, swift, steps: 600)
        #expect(difference == nil, "differs at step \(difference ?? 0)")
        #expect(abs(data.space.bodies[0].position.y - -75.1) < 0.01, "rests on the platform at y = -100 + 10 + 15")
    }

    @Test("sensor.json: the ball falls through the sensor to the ground, and the log records it entering and leaving")
    func sensorLog() throws {
        let scene = try load("sensor.json")
        for _ in 0..<360 { try scene.step(scene.timeStep) }
        #expect(scene.events.map(\.kind) == [.begin, .separate])
        #expect(scene.events.allSatisfy { $0.bodyB == "ball" && $0.bodyA == "static" })
        #expect(scene.events[0].step < scene.events[1].step)
        #expect(abs(scene.space.bodies[0].position.y - 11) < 0.1, "at rest on the ground, not on the sensor")
    }

    @Test("Version-2 keys in a version-1 file, and unknown body ids, are errors with their paths")
    func errors() throws {
        func error(_ json: String) -> String {
            do {
                _ = try SceneDescription.decode(Data(json.utf8), source: "t.json").makeScene()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(error(#"{"name": "t", "constraints": []}"#).contains("constraints: needs \"version\": 2"))
        #expect(
            error(#"{"name": "t", "bodies": [{"id": "a", "mass": 1, "moment": 1}]}"#).contains(
                "bodies[0].id: uses keys of format version 2"))
        let unknown = error(
            #"{"version": 2, "name": "t", "bodies": [{"id": "a", "mass": 1, "moment": 1}], "constraints": [{"type": "pin", "a": "static", "b": "c"}]}"#
        )
        #expect(unknown.contains("constraints[0].b: no body has id 'c' (ids: a, static)"), "\(unknown)")
        let range = error(
            #"{"version": 2, "name": "t", "bodies": [{"id": "a", "mass": 1, "moment": 1}], "constraints": [{"type": "slide", "a": "static", "b": "a", "min": 2, "max": 1}]}"#
        )
        #expect(range.contains("constraints[0].max: must be at least min"), "\(range)")
        #expect(
            error(#"{"version": 2, "name": "t", "bodies": [{"id": "static"}]}"#).contains(
                "'static' names the space's static body"))
    }
}

@Suite struct GeneratorTests {
    @Test("pyramid-stack.json, with a pyramid generator, gives the built-in demo's bits at every step, through sleep")
    func pyramidStackAsData() throws {
        let data = try SceneDescription.load(contentsOf: sceneFile("pyramid-stack.json")).makeScene()
        let swift = try SceneCatalog.scene(named: "pyramid-stack")
        #expect(data.space.bodies.count == 106)
        #expect(data.name(of: data.space.bodies[0]) == "box0" && data.name(of: data.space.bodies[105]) == "ball")
        let difference = try firstDifference(data, swift, steps: 1500)
        #expect(difference == nil, "differs at step \(difference ?? 0)")
        let allAsleep = data.space.bodies.allSatisfy { $0.isSleeping }
        #expect(allAsleep)
    }

    @Test("Generators place rows, grids and seeded random bodies; a seed gives the same scene again")
    func patterns() throws {
        func positions(_ generate: String) throws -> [Vector] {
            let json = #"{"version": 2, "name": "g", "bodies": [{"generate": \#(generate), "mass": 1, "moment": 1}]}"#
            return try SceneDescription.decode(Data(json.utf8), source: "g.json").makeScene().space.bodies.map(
                \.position)
        }
        let row = try positions(#"{"row": {"count": 3, "origin": [1, 2], "spacing": [10, 0]}}"#)
        #expect(row == [[1, 2], [11, 2], [21, 2]])
        let grid = try positions(#"{"grid": {"columns": 2, "rows": 2, "spacing": [5, 7]}}"#)
        #expect(grid == [[0, 0], [5, 0], [0, 7], [5, 7]])
        let random = #"{"random": {"count": 100, "seed": 42, "min": [-10, 0], "max": [10, 5]}}"#
        let a = try positions(random)
        let b = try positions(random)
        #expect(a == b)
        #expect(a.allSatisfy { $0.x >= -10 && $0.x < 10 && $0.y >= 0 && $0.y < 5 })
        #expect(Set(a.map(\.x)).count == 100)
        let tooMany =
            #"{"version": 2, "name": "g", "bodies": [{"generate": {"grid": {"columns": 1000000, "rows": 2, "spacing": [1, 1]}}, "mass": 1, "moment": 1}]}"#
        let refused: Bool
        do {
            _ = try SceneDescription.decode(Data(tooMany.utf8), source: "g.json")
            refused = false
        } catch {
            refused = "\(error)".contains("makes more than 1000000 bodies")
        }
        #expect(refused)
        let reversed =
            #"{"version": 2, "name": "g", "bodies": [{"generate": {"random": {"count": 2, "seed": 1, "min": [5, 5], "max": [0, 9]}}, "mass": 1, "moment": 1}]}"#
        #expect(throws: SceneError.self) { try SceneDescription.decode(Data(reversed.utf8), source: "g.json") }
        do {
            _ = try SceneDescription.decode(Data(reversed.utf8), source: "g.json")
        } catch {
            #expect(
                "\(error)"
                    == "g.json: bodies[0].generate.random.max: is below min on an axis (min [5.0, 5.0], max [0.0, 9.0])"
            )
        }
    }
}

@Suite struct TimedInputTests {
    @Test(
        "kicks.json: each input acts at its time: an impulse, a kinematic velocity, gravity, an added and a removed body"
    )
    func inputsAct() throws {
        let scene = try SceneDescription.load(contentsOf: sceneFile("kicks.json")).makeScene()
        func body(_ name: String) -> Body? { scene.space.bodies.first { scene.name(of: $0) == name } }
        func run(until seconds: Double) throws {
            while scene.time < seconds - 1e-9 { try scene.step(scene.timeStep) }
        }
        try run(until: 0.5)
        #expect(body("ball")!.velocity.x == 0)
        try run(until: 0.6)
        #expect(body("ball")!.velocity.x > 100, "kicked at 0.5 s")
        #expect(body("paddle")!.velocity == .zero)
        try run(until: 1.1)
        #expect(body("paddle")!.velocity == [100, 0])
        try run(until: 2.1)
        #expect(scene.space.gravity == [-200, -500])
        #expect(body("ball2") == nil)
        try run(until: 2.6)
        #expect(body("ball2") != nil)
        try run(until: 3.6)
        #expect(body("ball") == nil)
        #expect(scene.space.bodies.count == 2)
    }

    @Test("A snapshot taken between inputs continues exactly, inputs, names and all")
    func snapshotBetweenInputs() throws {
        let original = try SceneDescription.load(contentsOf: sceneFile("kicks.json")).makeScene()
        for _ in 0..<330 { try original.step(original.timeStep) }  // 2.75 s: ball2 added, ball not yet removed
        let snapshot = original.snapshot()
        let restored = try SceneDescription.load(contentsOf: sceneFile("kicks.json")).makeScene()
        try restored.restore(snapshot)
        #expect(restored.space.bodies.map { restored.name(of: $0) } == ["ball", "paddle", "ball2"])
        let difference = try firstDifference(original, restored, steps: 300)
        #expect(difference == nil, "differs \(difference ?? 0) steps after the restore")
        #expect(restored.space.bodies.map { restored.name(of: $0) } == ["paddle", "ball2"])
    }

    @Test("Inputs naming bodies that do not exist by then are errors with their paths")
    func inputErrors() throws {
        func error(_ inputs: String) -> String {
            let json =
                #"{"version": 2, "name": "t", "bodies": [{"id": "a", "mass": 1, "moment": 1}], "inputs": \#(inputs)}"#
            do {
                _ = try SceneDescription.decode(Data(json.utf8), source: "t.json").makeScene()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            error(#"[{"time": 1, "impulse": {"body": "b", "impulse": [1, 0]}}]"#).contains(
                "inputs[0].impulse.body: no body named 'b' exists at 1.0 s"))
        #expect(
            error(#"[{"time": 2, "remove": "a"}, {"time": 3, "velocity": {"body": "a", "velocity": [1, 0]}}]"#)
                .contains("inputs[1].velocity.body"))
        #expect(error(#"[{"time": -1, "gravity": [0, 1]}]"#).contains("inputs[0].time: must be zero or more"))
        #expect(error(#"[{"time": 1, "gravity": [0, 1], "remove": "a"}]"#).contains("give one action"))
        #expect(error(#"[{"time": 1, "add": {"mass": 1, "moment": 1}}]"#).contains("an added body needs an id"))
    }
}

@Suite struct BuiltInScenesAsDataTests {
    /// The built-in scenes the format cannot say: each needs code, not data.
    static let onlyInSwift: [String: String] = [
        "planet": "its bodies fall toward the planet under a custom velocity function (inverse-square gravity)",
        "buoyancy": "its preSolve handler clips each box at the water line and applies buoyancy and drag",
        "ui-heavy": "UIKit-style behaviours (ChipmunkDynamics) act around every step",
        "ui-drag": "UIKit-style behaviours (ChipmunkDynamics) act around every step",
        "ui-snake": "UIKit-style behaviours (ChipmunkDynamics) act around every step",
        "ui-snap": "UIKit-style behaviours (ChipmunkDynamics) act around every step",
        "ui-push": "UIKit-style behaviours (ChipmunkDynamics) act around every step",
    ]

    @Test(
        "Every built-in scene the format can say is in Scenes/ and gives the Swift form's bits at every step",
        arguments: SceneCatalog.builtIn.map(\.name))
    func sameBits(name: String) throws {
        let url = sceneFile("\(name).json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            #expect(Self.onlyInSwift[name] != nil, "\(name) has no data form and no reason why")
            return
        }
        #expect(Self.onlyInSwift[name] == nil)
        let data = try SceneDescription.load(contentsOf: url).makeScene()
        let swift = try SceneCatalog.scene(named: name)
        #expect(data.timeStep == swift.timeStep)
        let difference = try firstDifference(data, swift, steps: 600)
        #expect(difference == nil, "\(name) differs at step \(difference ?? 0)")
    }
}
