// Feeds arbitrary bytes to the other file readers of the tools, chosen by the input's
// first byte: golden files (read, then verified against the built-in scene they name),
// input recordings (read, then replayed), sweep files (read, planned, and their first runs
// run, over a scene with parameters written beside them), and results databases (opened
// read-only, then listed and exported). Every input must end in a value or a thrown error:
// a trap, a signal or the engine's abort is a finding, which libFuzzer saves.
//
// Files whose claims would take long (a golden file or a recording of many steps, a sweep
// of many runs or steps) are read but only partly run: the readers and the first steps
// are what can trap.
import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import FuzzDriver

// Sweeps' API is package-level (chipmunk-sim is its interface): scripts/fuzz.sh builds with
// -enable-testing so that this harness, in a package of its own, can reach it.
@testable import ChipmunkBatch

/// A folder of this process's own for the files the readers take by path.
let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("reader-fuzzer-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    // A scene with parameters for sweep files to name: the built-in drop.
    try? SceneCatalog.sceneFile(named: "drop")?.write(to: url.appendingPathComponent("drop.json"))
    return url
}()

func write(_ bytes: ArraySlice<UInt8>, as name: String) -> URL {
    let url = folder.appendingPathComponent(name)
    try? Data(bytes).write(to: url)
    return url
}

/// A built-in scene by name, or nil.
func builtIn(_ name: String) -> Scene? {
    guard SceneCatalog.builtIn.contains(where: { $0.name == name }) else { return nil }
    return try? SceneCatalog.scene(named: name)
}

runFuzzer { data, count in
    let input = inputBytes(data, count)
    guard let reader = input.first else { return 0 }
    let bytes = input.dropFirst()
    switch reader % 4 {
    case 0:  // a golden file
        guard let golden = try? GoldenFile(parsing: String(decoding: bytes, as: UTF8.self), source: "fuzz.golden"),
            golden.steps <= 240, let scene = builtIn(golden.scene)
        else { return 0 }
        _ = try? scene.verify(against: golden)
    case 1:  // an input recording
        guard let recording = try? InputRecording.load(contentsOf: write(bytes, as: "fuzz.inputs.json")),
            recording.hashes.count <= 240, let scene = builtIn(recording.scene)
        else { return 0 }
        _ = try? recording.replay(on: scene)
    case 2:  // a sweep file, over drop.json beside it
        guard let file = try? SweepFile.load(contentsOf: write(bytes, as: "fuzz.sweep.json")),
            let data = try? Data(contentsOf: file.scene),
            var plan = try? SweepPlan(
                sceneSource: file.scene.lastPathComponent, sceneData: data, design: file.design,
                steps: min(file.steps ?? 120, 120), timeStep: file.timeStep)
        else { return 0 }
        plan.recordedBodies = file.bodies
        for index in plan.runs.indices.prefix(2) { _ = plan.run(at: index) }
    default:  // a results database
        let url = write(bytes, as: "fuzz.sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        guard let store = try? SweepStore(path: url.path, readOnly: true) else { return 0 }
        _ = try? store.sweeps()
        _ = try? store.count()
        _ = try? store.export(asCSV: true)
        _ = try? store.export(asCSV: false)
    }
    return 0
}
