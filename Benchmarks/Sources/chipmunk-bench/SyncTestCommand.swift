import Chipmunk
import ChipmunkBench
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

extension Bench {
    /// `--synctest`: for each world (and with `--built-in-scenes`, each built-in scene) and
    /// each `--depth`, what a synctest costs against the plain run of the same frames.
    func runSyncTest() throws {
        let depths = depth.isEmpty ? [8] : depth
        for world in scene.items {
            for depth in depths {
                let costs = try BenchRunner.synctestCosts(
                    depth: depth, frames: frames ?? world.synctestFrames, repeats: `repeat`
                ) {
                    let space = Space()
                    _ = try world.build(in: space)
                    return Scene(name: world.rawValue, space: space, timeStep: world.timeStep)
                }
                print(Self.syncTestLine(name: world.rawValue, kind: "world", costs: costs))
            }
        }
        guard builtInScenes else { return }
        for name in SceneCatalog.builtIn.map(\.name) {
            for depth in depths {
                let costs = try BenchRunner.synctestCosts(depth: depth, frames: frames ?? 600, repeats: `repeat`) {
                    try SceneCatalog.scene(named: name)
                }
                print(Self.syncTestLine(name: name, kind: "scene", costs: costs))
            }
        }
    }

    static func syncTestLine(name: String, kind: String, costs c: SyncTestCosts) -> String {
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let fields: [(String, String)] = [
            ("scene", quoted(name)), ("kind", quoted(kind)), ("depth", "\(c.depth)"), ("frames", "\(c.frames)"),
            ("resimulated_frames", "\(c.resimulatedFrames)"), ("plain_ms", number(c.plainMilliseconds)),
            ("synctest_ms", number(c.synctestMilliseconds)), ("ratio", number(c.ratio)),
            ("passed", "\(c.failure == nil)"), ("failure", c.failure.map(quoted) ?? "null"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
