import ArgumentParser
import Chipmunk
import ChipmunkBench
import ChipmunkCatalog
import ChipmunkScenes

extension Bench {
    /// `--state`: for each world (and with `--built-in-scenes`, each built-in scene), steps
    /// it `--steps` times (default 300) and prints what saving and restoring cost then.
    func runState() throws {
        let warmUp = steps ?? 300
        for world in scene.items {
            let space = Space()
            _ = try world.build(in: space)
            for _ in 0..<warmUp { try space.step(world.timeStep) }
            let costs = try BenchRunner.stateCosts(of: space, timeStep: world.timeStep, rounds: rounds)
            print(Self.stateLine(name: world.rawValue, kind: "world", steps: warmUp, costs: costs))
        }
        guard builtInScenes else { return }
        for name in SceneCatalog.builtIn.map(\.name) {
            let scene = try SceneCatalog.scene(named: name)
            for _ in 0..<warmUp { try scene.step(scene.timeStep) }
            let costs = try BenchRunner.stateCosts(of: scene.space, timeStep: scene.timeStep, rounds: rounds)
            print(Self.stateLine(name: name, kind: "scene", steps: warmUp, costs: costs))
        }
    }

    static func stateLine(name: String, kind: String, steps: Int, costs c: StateCosts) -> String {
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        let fields: [(String, String)] = [
            ("scene", "\"\(name)\""), ("kind", "\"\(kind)\""), ("after_steps", "\(steps)"), ("bodies", "\(c.bodies)"),
            ("arbiters", "\(c.arbiters)"), ("step_us", number(c.stepMicroseconds)),
            ("save_us", number(c.saveMicroseconds)), ("restore_us", number(c.restoreMicroseconds)),
            ("snapshot_us", number(c.snapshotMicroseconds)),
            ("snapshot_read_us", number(c.snapshotReadMicroseconds)),
            ("snapshot_restore_us", number(c.snapshotRestoreMicroseconds)), ("copy_us", number(c.copyMicroseconds)),
            ("copy_free_us", number(c.copyFreeMicroseconds)),
            ("state_bytes", "\(c.stateBytes)"),
            ("state_bytes_per_body", number(Double(c.stateBytes) / Double(max(c.bodies, 1)))),
            ("snapshot_bytes", "\(c.snapshotBytes)"), ("exact", "\(c.exact)"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
