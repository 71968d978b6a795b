import Chipmunk
import ChipmunkDynamics
@testable import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing

/// The chapter's examples, each tested for what it shows.
@Suite struct ChapterSceneTests {
    @Test("ui-heavy: the label rests on the bottom edge, then on the top edge after the flip")
    func heavy() throws {
        let heavy = DynamicsScenes.heavy()
        for _ in 0..<348 { try heavy.scene.step(heavy.scene.timeStep) }
        #expect(abs(heavy.label.center.y - 460) < 0.5, "\(heavy.label.center.y)")
        #expect(!heavy.animator.isRunning, "at rest before the tap")
        for _ in 348..<720 { try heavy.scene.step(heavy.scene.timeStep) }
        #expect(abs(heavy.label.center.y - 20) < 0.5, "\(heavy.label.center.y)")
        #expect(abs(heavy.label.center.x - 160) < 0.01 && abs(heavy.label.rotation) < 0.01)
    }

    @Test("ui-snake: the delegate's began and ended calls pair up, and a brick is dim exactly while it touches an edge")
    func snake() throws {
        let snake = DynamicsScenes.snake()
        var dimmedAtSomePoint = Set<String>()
        for _ in 0..<1200 {
            try snake.scene.step(snake.scene.timeStep)
            for brick in snake.bricks {
                let touching = snake.dimmer.touching[ObjectIdentifier(brick)] ?? 0
                #expect(touching >= 0)
                #expect((brick.alpha == 0.5) == (touching > 0))
                if touching > 0 { dimmedAtSomePoint.insert(brick.name) }
            }
        }
        let (began, ended) = (snake.dimmer.began, snake.dimmer.ended)
        let open = snake.dimmer.touching.values.reduce(0, +)
        #expect(began > 5)
        #expect(began - ended == open, "every began is ended, but for the contacts still open")
        // Each brick's calls alternate began/ended per boundary segment: never more ended than began.
        var balance: [String: Int] = [:]
        for call in snake.dimmer.calls {
            balance[call.item, default: 0] += call.began ? 1 : -1
            #expect(balance[call.item]! >= 0)
        }
        #expect(dimmedAtSomePoint.count >= 4, "\(dimmedAtSomePoint)")
        // Its contacts with the edges are the engine's: each touching brick has an arbiter with a boundary.
        for brick in snake.bricks where (snake.dimmer.touching[ObjectIdentifier(brick)] ?? 0) > 0 {
            var touchesStatic = false
            snake.animator.body(for: brick)!.forEachArbiter { arbiter in
                if arbiter.bodies.1.kind == .static || arbiter.bodies.0.kind == .static { touchesStatic = true }
            }
            #expect(touchesStatic, "\(brick.name)")
        }
    }

    @Test(
        "Each chapter scene runs from the CLI's catalog and draws",
        arguments: ["ui-heavy", "ui-drag", "ui-snake", "ui-snap", "ui-push"])
    func inCatalog(name: String) throws {
        let scene = try SceneCatalog.scene(named: name)
        #expect(scene.yAxisPointsDown)
        for _ in 0..<240 { try scene.step(scene.timeStep) }
        let dynamic = scene.space.bodies.filter { $0.kind == .dynamic }
        #expect(!dynamic.isEmpty)
        for body in dynamic {
            #expect(scene.bodyNames?[ObjectIdentifier(body)] != nil, "every item's body has the item's name")
        }
    }
}
