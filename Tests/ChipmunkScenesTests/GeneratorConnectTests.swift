import Chipmunk
import ChipmunkScenes
import Foundation
import Testing

/// A generator's `connect`: the same joint between neighbouring generated bodies.
@Suite struct GeneratorConnectTests {
    func scene(_ json: String) throws -> Scene {
        try SceneDescription.decode(Data(json.utf8), source: "t.json").makeScene()
    }

    @Test("rope.json: 19 generated pivots and one of its own; the rope swings down and its joints hold")
    func rope() throws {
        let scene = try SceneDescription.load(contentsOf: sceneFile("rope.json")).makeScene()
        let joints = scene.space.constraints.compactMap { $0 as? PivotJoint }
        #expect(joints.count == 20)
        // Generated first, in order: link k to link k+1, anchors in each body's coordinates.
        for (k, joint) in joints.prefix(19).enumerated() {
            #expect(scene.name(of: joint.bodyA) == "link\(k)" && scene.name(of: joint.bodyB) == "link\(k + 1)")
            #expect(joint.anchorA == [5, 0] && joint.anchorB == [-5, 0])
        }
        #expect(joints.last!.bodyA === scene.space.staticBody)
        let last = try #require(scene.body(named: "link19"))
        var worst = 0.0
        var lowest = Double.infinity
        for _ in 0..<600 {
            try scene.step(scene.timeStep)
            lowest = min(lowest, last.position.y)
            for joint in joints.prefix(19) {
                let gap = joint.bodyA.localToWorld(joint.anchorA) - joint.bodyB.localToWorld(joint.anchorB)
                worst = max(worst, gap.length)
            }
        }
        #expect(worst < 2, "a joint opened by \(worst)")
        // Released level at y 300, 200 long: it swings down below the pivot.
        #expect(lowest < 150, "the rope swings down (the last link's lowest y \(lowest))")
    }

    @Test("A grid connects each body to the next in its row and the one above: 3 × 3 bodies, 12 springs")
    func gridOfSprings() throws {
        let scene = try scene(
            #"""
            {"version": 2, "name": "t", "bodies": [{"id": "n", "mass": 1, "moment": 1,
              "generate": {"grid": {"columns": 3, "rows": 3, "spacing": [20, 20]}},
              "connect": {"type": "dampedSpring", "restLength": 20, "stiffness": 50, "damping": 1}}]}
            """#)
        let springs = scene.space.constraints.compactMap { $0 as? DampedSpring }
        #expect(springs.count == 12)
        let pairs = springs.map { "\(scene.name(of: $0.bodyA))-\(scene.name(of: $0.bodyB))" }
        #expect(
            pairs == [
                "n0-n1", "n1-n2", "n3-n4", "n4-n5", "n6-n7", "n7-n8",
                "n0-n3", "n1-n4", "n2-n5", "n3-n6", "n4-n7", "n5-n8",
            ])
        #expect(springs.allSatisfy { $0.restLength == 20 && $0.stiffness == 50 })
    }

    @Test("connect's mistakes are errors with their paths")
    func errors() throws {
        func error(_ body: String) -> String {
            do {
                _ = try scene(#"{"version": 2, "name": "t", "bodies": [\#(body)]}"#)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let base = #""mass": 1, "moment": 1, "generate": {"row": {"count": 3, "spacing": [1, 0]}}"#
        #expect(
            error(#"{\#(base), "connect": {"type": "pivot", "pivot": [0, 0]}}"#).contains(
                "bodies[0].connect.pivot: unknown key 'pivot'"))
        #expect(
            error(#"{\#(base), "connect": {"type": "pin", "a": "x"}}"#).contains("bodies[0].connect.a: unknown key"))
        #expect(
            error(#"{\#(base), "connect": {"type": "slide", "min": 2, "max": 1}}"#).contains(
                "bodies[0].connect.max: must be at least min"))
        #expect(
            error(#"{"mass": 1, "moment": 1, "connect": {"type": "pin"}}"#).contains(
                "bodies[0].connect: joins generated bodies: give 'generate' too"))
        #expect(error(#"{\#(base), "connect": {"type": "simpleMotor", "rate": 1}}"#) == "no error")
    }
}
