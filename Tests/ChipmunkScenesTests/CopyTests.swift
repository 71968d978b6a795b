import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Testing

/// `Space.copy()` of every built-in scene, part way through its run.
@Suite struct CopyTests {
    /// The copy's snapshot is the original's, byte for byte. Stepped on, the copy gives
    /// the same state hashes as a space restored from the original's snapshot (the copy
    /// is cloned in the engine, struct by struct; the restore rebuilds from records), and,
    /// where the scene runs no code of its own (planet's gravity, buoyancy's handlers and
    /// the UIKit behaviours are closures, which a copy does not keep), as the original.
    @Test(arguments: SceneCatalog.builtIn.map(\.name))
    func builtInSceneCopiesContinueExactly(name: String) throws {
        let scene = try SceneCatalog.scene(named: name)
        for _ in 0..<90 { try scene.step(scene.timeStep) }
        let snapshot = scene.space.snapshot()
        let copy = scene.space.copy()
        #expect(copy.snapshot().bytes == snapshot.bytes ? true : false, "\(name): the copy's snapshot")
        let restored = try Space(restoring: snapshot)
        var originalDiffers = false
        for step in 1...120 {
            try scene.space.step(scene.timeStep)
            try copy.step(scene.timeStep)
            try restored.step(scene.timeStep)
            guard copy.stateHash() == restored.stateHash() else {
                Issue.record("\(name): the copy and the restored snapshot differ \(step) steps on")
                return
            }
            originalDiffers = originalDiffers || scene.space.stateHash() != copy.stateHash()
        }
        let runsCode = ["planet", "buoyancy", "ui-heavy", "ui-drag", "ui-snake", "ui-snap"].contains(name)
        #expect(
            originalDiffers == runsCode, "\(name): the copy follows the original exactly unless the scene runs code")
    }
}
