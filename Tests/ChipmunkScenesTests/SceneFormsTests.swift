import Chipmunk
import Foundation
import Testing
import ChipmunkCatalog
@testable import ChipmunkScenes
import ChipmunkTestSupport

/// Each built-in scene exists as Swift code and as a data file; both must give
/// bit-identical trajectories.
@Suite struct SceneFormsTests {
    /// The exact state of every dynamic body, as bit patterns.
    private func state(_ scene: Scene) -> [UInt64] {
        scene.space.bodies.filter { $0.kind == .dynamic }.flatMap { body -> [UInt64] in
            let p = body.position
            let v = body.velocity
            return [p.x, p.y, body.angle, v.x, v.y, body.angularVelocity].map(\.bitPattern)
        }
    }

    @Test(arguments: ["crate", "crates", "crates-tilt"])
    func swiftAndFileFormsAreBitIdentical(name: String) throws {
        let fromSwift = try SceneCatalog.scene(named: name)
        let fromFile = try SceneDescription.load(contentsOf: sceneFile("\(name).json")).makeScene()
        #expect(fromFile.name == name)
        #expect(fromSwift.space.bodies.count == fromFile.space.bodies.count)
        #expect(fromSwift.space.shapes.count == fromFile.space.shapes.count)
        #expect(fromSwift.gravitySchedule == fromFile.gravitySchedule)
        for step in 1...1200 {
            try fromSwift.step(1.0 / 120)
            try fromFile.step(1.0 / 120)
            guard state(fromSwift) == state(fromFile) else {
                Issue.record("\(name) differs after step \(step)")
                return
            }
        }
        #expect(fromSwift.time == fromFile.time)
    }

    @Test func everySceneFileLoadsAndRuns() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: packageRoot.appendingPathComponent("Scenes").path
        )
        .filter { $0.hasSuffix(".json") }
        #expect(files.count >= 3)
        for file in files {
            let scene = try SceneDescription.load(contentsOf: sceneFile(file)).makeScene()
            for _ in 0..<120 { try scene.step(1.0 / 120) }
            #expect(scene.space.bodies.allSatisfy { $0.position.isFinite }, "\(file)")
        }
    }

    @Test func theTiltScheduleSetsGravityAtItsTimes() throws {
        let scene = BookScenes.cratesTilt()
        var gravityAtStep: [Int: Vector] = [:]
        for step in 1...1200 {
            try scene.step(1.0 / 120)
            gravityAtStep[step] = scene.space.gravity
        }
        // Step 240 starts at t = 239/120 < 2 s; step 241 starts at t = 2 s.
        #expect(gravityAtStep[240] == [0, -1000])
        #expect(gravityAtStep[241] == [500, -500])  // ax 0.5, ay 0.5: (ay*1000, -ax*1000)
        #expect(gravityAtStep[481] == [-500, -500])
        #expect(gravityAtStep[721] == [0, 1000])
        #expect(gravityAtStep[961] == [0, -1000])
    }

    @Test func aSceneSortsItsSchedule() throws {
        let space = Space()
        let scene = Scene(
            name: "s", space: space,
            gravitySchedule: [
                GravityChange(time: 0.02, gravity: [0, -2]), GravityChange(time: 0, gravity: [0, -1]),
            ])
        #expect(scene.gravitySchedule.map(\.time) == [0, 0.02])
    }

    @Test func descriptionsRoundTripThroughJSON() throws {
        let description = try SceneDescription.load(contentsOf: sceneFile("crates-tilt.json"))
        let data = try JSONEncoder().encode(description)
        let again = try SceneDescription.decode(data, source: "encoded")
        #expect(again == description)
    }
}
