@testable import Chipmunk
import ChipmunkDynamics
@testable import ChipmunkCatalog
import ChipmunkScenes
import Testing

/// Levels 1–3 of docs/snapshots.md, for every built-in scene.
@Suite struct SnapshotTests {
    static let names = SceneCatalog.builtIn.map(\.name)

    /// Steps a scene `steps` times and returns the state hash after each.
    static func hashes(_ scene: Scene, steps: Int) throws -> [UInt64] {
        var hashes: [UInt64] = []
        for _ in 0..<steps {
            try scene.step(scene.timeStep)
            hashes.append(scene.space.stateHash())
        }
        return hashes
    }

    @Test("Level 1: the snapshot of a restored space equals the snapshot, byte for byte", arguments: names)
    func roundTrip(name: String) throws {
        let scene = try SceneCatalog.scene(named: name)
        for step in 0...240 {
            let snapshot = scene.space.snapshot()
            let restored = try Space(restoring: snapshot)
            #expect(restored.snapshot().bytes == snapshot.bytes, "\(name) at step \(step)")
            #expect(restored.stateHash() == scene.space.stateHash())
            try scene.step(scene.timeStep)
        }
    }

    @Test("Level 3: a restored scene continues with the same bits", arguments: names)
    func continuesExactly(name: String) throws {
        let original = try SceneCatalog.scene(named: name)
        _ = try Self.hashes(original, steps: 120)
        let snapshot = original.snapshot()
        let expected = try Self.hashes(original, steps: 240)

        let fresh = try SceneCatalog.scene(named: name)
        try fresh.restore(snapshot)
        let continued = try Self.hashes(fresh, steps: 240)
        let firstDifference = zip(expected, continued).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "\(name): first differs \((firstDifference ?? -1) + 1) steps after the restore")
    }
}

/// State kept beside the space: the snake's collision delegate dims a brick while it
/// touches an edge. A snapshot holds the contacts, not the delegate's counts; the restored
/// scene tells the delegate of the contacts it holds, so the dimming goes on as if
/// uninterrupted.
@Suite struct SnapshotDelegateTests {
    @Test("ui-snake restored at step 200 dims the same bricks as the uninterrupted run, at every step to 480")
    func snakeDimming() throws {
        let original = DynamicsScenes.snake()
        for _ in 0..<200 { try original.scene.step(original.scene.timeStep) }
        let snapshot = original.scene.snapshot()
        let restored = DynamicsScenes.snake()
        try restored.scene.restore(snapshot)
        func dimmed(_ snake: DynamicsScenes.Snake) -> [Bool] { snake.bricks.map { $0.alpha == 0.5 } }
        #expect(dimmed(original).contains(true), "bricks on the edge at step 200")
        var compared = 0
        var changes = 0
        for step in 200..<480 {
            #expect(dimmed(restored) == dimmed(original), "step \(step)")
            #expect(restored.scene.space.stateHash() == original.scene.space.stateHash(), "step \(step)")
            let before = dimmed(original)
            try original.scene.step(original.scene.timeStep)
            try restored.scene.step(restored.scene.timeStep)
            if dimmed(original) != before { changes += 1 }
            compared += 1
        }
        #expect(changes > 3, "bricks met and left the edges while compared")
        #expect(restored.dimmer.touching.values.allSatisfy { $0 >= 0 }, "every end paired with a beginning")
    }
}

@Suite struct SnapshotDataTests {
    @Test("A snapshot of sleeping bodies continues exactly, and waking them works")
    func sleepingScene() throws {
        let original = try SceneCatalog.scene(named: "pyramid-stack")
        for _ in 0..<1500 { try original.step(original.timeStep) }
        #expect(original.space.bodies.contains { $0.isSleeping }, "the pyramid should be asleep by step 1500")
        let snapshot = original.snapshot()
        let restored = try SceneCatalog.scene(restoring: Snapshot(bytes: snapshot.bytes))
        #expect(restored.space.snapshot().bytes == original.space.snapshot().bytes)
        // Wake one box in both, then both must go on alike.
        for scene in [original, restored] { scene.space.bodies[50].applyImpulse([0, 500], at: .zero) }
        #expect(try SnapshotTests.hashes(original, steps: 300) == SnapshotTests.hashes(restored, steps: 300))
    }

    @Test("Damaged or foreign bytes throw, naming what is wrong")
    func invalidBytes() throws {
        let scene = try SceneCatalog.scene(named: "joints")
        for _ in 0..<30 { try scene.step(scene.timeStep) }
        let bytes = scene.snapshot().bytes
        #expect(throws: SnapshotError.notASnapshot) { try Snapshot(bytes: Array("{\"bodies\": []}".utf8)) }
        #expect(throws: SnapshotError.checksumMismatch) {
            var damaged = bytes
            damaged[damaged.count / 2] ^= 0x40
            return try Snapshot(bytes: damaged)
        }
        var future = bytes
        future[8] = 9
        #expect(throws: SnapshotError.unsupportedVersion(9)) { try Snapshot(bytes: future) }
        // Every truncation is refused (the checksum fails first), never a crash.
        for length in stride(from: 0, to: bytes.count, by: 97) {
            #expect(throws: SnapshotError.self) { try Snapshot(bytes: Array(bytes.prefix(length))) }
        }
    }

    @Test("A forged scene name no path can be is refused, and not echoed whole")
    func aForgedSceneNameIsRefused() throws {
        let space = Space()
        for (name, bytes) in [(String(repeating: "a", count: 100_000), 100_000), ("crates\nrm -rf /", 15)] {
            let forged = space.snapshot(sceneName: name, sceneTime: 0, changesApplied: 0, inputsApplied: 0)
            #expect {
                try SceneCatalog.scene(restoring: Snapshot(bytes: forged.bytes))
            } throws: { error in
                let message = "\(error)"
                return message.utf8.count < 300
                    && message.hasSuffix(
                        "a scene name of \(bytes) bytes, not a built-in scene's name or a path (at most 4096 bytes, on one line)"
                    )
            }
        }
    }

    @Test("A snapshot of another scene does not fit, and the space is left as it was")
    func structureMismatch() throws {
        let crates = try SceneCatalog.scene(named: "crates")
        let joints = try SceneCatalog.scene(named: "joints")
        let before = joints.space.snapshot().bytes
        #expect(throws: SnapshotError.self) { try joints.restore(crates.snapshot()) }
        #expect(joints.space.snapshot().bytes == before)
    }

    @Test("Space(restoring:) rebuilds every kind of shape and constraint, with handler wiring")
    func bareSpace() throws {
        let scene = try SceneCatalog.scene(named: "joints")
        for _ in 0..<100 { try scene.step(scene.timeStep) }
        let space = try Space(restoring: scene.space.snapshot())
        #expect(space.bodies.count == scene.space.bodies.count)
        #expect(space.constraints.map { "\(type(of: $0))" } == scene.space.constraints.map { "\(type(of: $0))" })
        #expect(space.shapes.map { "\(type(of: $0))" } == scene.space.shapes.map { "\(type(of: $0))" })
        try space.step(scene.timeStep)
    }
}

/// A snapshot's body names are the scene's, as `Scene.snapshot` writes them: none, or one a
/// body, each a name and given once. A forged list was taken as it was.
@Suite struct SnapshotBodyNameTests {
    @Test func aForgedListOfBodyNamesIsRefused() throws {
        let scene = try SceneCatalog.scene(named: "crates")
        let count = scene.space.bodies.count
        let good = (0..<count).map { "box\($0)" }
        func forged(_ names: [String]) -> Snapshot {
            scene.space.snapshot(
                sceneName: scene.name, sceneTime: 0, changesApplied: 0, inputsApplied: 0, bodyNames: names)
        }
        for (names, problem) in [
            (Array(good.dropLast()), "\(count - 1) names for \(count) bodies"),
            (["a", "a"] + good.dropFirst(2), "'a' names two bodies"),
            (["static"] + good.dropFirst(), "body 0 is called 'static', which names no body"),
            ([""] + good.dropFirst(), "body 0 is called '', which names no body"),
            (["a\nb"] + good.dropFirst(), "body 0 is called 'a\nb', which names no body"),
        ] {
            let target = try SceneCatalog.scene(named: "crates")
            #expect(throws: SnapshotError.invalid("the snapshot's body names: \(problem)")) {
                try target.restore(forged(names))
            }
            #expect(target.stepCount == 0)
        }
        let target = try SceneCatalog.scene(named: "crates")
        try target.restore(forged(good))
        #expect(target.name(of: target.space.bodies[1]) == "box1")
        try target.restore(forged([]))
    }
}
