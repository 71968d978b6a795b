import Chipmunk
import ChipmunkScenes
import Foundation
import Testing

/// The `grab` input as a scene file scripts it: what `chipmunk-sim serve` records for a drag.
@Suite struct GrabInputTests {
    static func scene(_ inputs: String) throws -> Scene {
        let text = """
            {"version": 2, "name": "hand", "gravity": [0, -1000],
             "staticShapes": [{"type": "segment", "from": [-300, 0], "to": [300, 0], "radius": 2, "friction": 0.8}],
             "bodies": [{"id": "box", "mass": 2, "moment": {"box": {"width": 20, "height": 20}}, "position": [0, 10],
                         "shapes": [{"type": "box", "width": 20, "height": 20, "friction": 0.8}]},
                        {"id": "floor", "kind": "static", "position": [0, -50]}],
             "inputs": [\(inputs)]}
            """
        return try SceneDescription.decode(Data(text.utf8), source: "hand.json").makeScene()
    }

    @Test func aScriptedHandLiftsTheBoxAndLetsGo() throws {
        let scene = try Self.scene(
            """
            {"time": 0, "grab": {"hand": "h", "body": "box", "at": [0, 10], "maxForce": 200000}},
            {"time": 0, "velocity": {"body": "h", "velocity": [0, 100]}},
            {"time": 1, "velocity": {"body": "h", "velocity": [0, 0]}},
            {"time": 1.5, "remove": "h"}
            """)
        for _ in 0..<120 { try scene.step(1.0 / 120) }
        let box = try #require(scene.body(named: "box"))
        #expect(abs(box.position.y - 110) < 2, "held 100 units up: \(box.position)")
        #expect(scene.body(named: "h")?.kind == .kinematic)
        for _ in 0..<180 { try scene.step(1.0 / 120) }
        #expect(scene.body(named: "h") == nil)
        #expect(scene.space.constraints.isEmpty)
        #expect(box.position.y < 12, "dropped back: \(box.position)")
    }

    @Test(arguments: [
        (#"{"time": 0, "grab": {"hand": "h", "body": "floor", "at": [0, -50], "maxForce": 1}}"#, "only a dynamic body"),
        (
            #"{"time": 0, "grab": {"hand": "box", "body": "box", "at": [0, 10], "maxForce": 1}}"#,
            "inputs[0].grab.hand: 'box' is taken: a body or hand of that name exists at 0.0 s"
        ),
        (
            #"{"time": 0, "grab": {"hand": "static", "body": "box", "at": [0, 10], "maxForce": 1}}"#,
            "'static' names the space's static body; give a hand another name"
        ),
        (#"{"time": 0, "grab": {"hand": "", "body": "box", "at": [0, 10], "maxForce": 1}}"#, "a hand needs a name"),
        (
            #"{"time": 0, "add": {"id": "floor", "mass": 1, "moment": 1}}"#,
            "inputs[0].add.id: 'floor' is taken: a body or hand of that name exists at 0.0 s"
        ),
        (
            #"{"time": 0, "remove": "box"}, {"time": 0, "remove": "floor"}, {"time": 0, "remove": "box"}"#,
            "inputs[2].remove: no body named 'box' exists at 0.0 s (there are none)"
        ),
        (#"{"time": 0, "grab": {"hand": "h", "body": "box", "at": [0, 10], "maxForce": 0}}"#, "maxForce"),
        (#"{"time": 0, "grab": {"hand": "h", "body": "box", "at": [0, 1e300], "maxForce": 1}}"#, "grab.at"),
        (#"{"time": 0, "grab": {"hand": "h", "body": "nobody", "at": [0, 10], "maxForce": 1}}"#, "no body named"),
    ])
    func aBadGrabIsRefusedNamingWhy(input: String, words: String) {
        do {
            let scene = try Self.scene(input)
            try scene.step(1.0 / 120)
            Issue.record("accepted: \(input)")
        } catch {
            #expect("\(error)".contains(words), "\(error)")
        }
    }
}
