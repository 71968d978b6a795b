@testable import Chipmunk
import Foundation
import Testing
@testable import ChipmunkScenes
import ChipmunkTestSupport

@Suite struct GuardedCountTests {
    /// `guardedCollisions` counts the narrow-phase tests of a space's own steps that the
    /// engine guard answered. A callback may step another space: the outer space counted
    /// that step's guarded collisions too, since the count was the difference of a counter
    /// kept per thread (a helper's attack). Each step now counts its own.
    @Test("A step taken inside a callback counts its guarded collisions for its own space only")
    func aNestedStepCountsForItsOwnSpace() throws {
        let path = packageRoot.appendingPathComponent("Tests/ChipmunkScenesTests/Fixtures/epa-breakable-chain.json")
        let scene = try SceneDescription.decode(Data(contentsOf: path), source: "epa-breakable-chain.json").makeScene()
        let outer = Space()
        outer.gravity = [0, -10]
        outer.add(Segment(body: outer.staticBody, from: [-20, 0], to: [20, 0], radius: 0.1))
        for i in 0..<5 {
            let ball = Body(mass: 1, moment: 0.5)
            ball.position = [Double(i) * 1.2, 0.5]
            outer.add(ball, Circle(body: ball, radius: 0.5))
        }
        var sceneSteps = 0
        outer.defaultCollisionHandler.postSolve = { _ in
            if sceneSteps < 600 {
                try scene.step(scene.timeStep)
                sceneSteps += 1
            }
        }
        var outerSteps = 0
        while sceneSteps < 600 && outerSteps < 5000 {
            try outer.step(1.0 / 60)
            outerSteps += 1
        }
        #expect(sceneSteps == 600)
        #expect(scene.space.guardedCollisions > 0)
        #expect(outer.guardedCollisions == 0)
    }
}
