// Feeds arbitrary bytes to the scene loader as a scene file, builds the scene if it loads,
// and steps it 240 times (2 s at the default 1/120 s, through timed inputs, breaking joints
// and sleep), then snapshots it and restores the snapshot: every input must end in a
// scene, a SceneError, or a ChipmunkError from `step`. A trap, a signal or the engine's
// own abort is a finding, which libFuzzer saves.
import Chipmunk
import ChipmunkScenes
import Foundation
import FuzzDriver

runFuzzer { data, count in
    let bytes = Data(inputBytes(data, count))
    guard let description = try? SceneDescription.decode(bytes, source: "fuzz") else { return 0 }
    guard let scene = try? description.makeScene() else { return 0 }
    for _ in 0..<240 {
        do { try scene.step(scene.timeStep) } catch { break }
    }
    if let restored = try? Space(restoring: scene.space.snapshot()) {
        for _ in 0..<10 {
            do { try restored.step(scene.timeStep) } catch { break }
        }
    }
    return 0
}
