import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import ChipmunkTestSupport
import Testing

/// Level 3 in the engine's default broad phase, as a user meets it: `chipmunk-sim snapshot`
/// of a normal run, `chipmunk-sim run` of the file in a new process, every step compared
/// with the uninterrupted run to step 1,800, for every built-in scene; for the crates
/// scenes, also with the raw C engine's run (chipmunk-reference).
@Suite struct SnapshotContinuationTests {
    static let lastStep = 1800

    /// Whether a row of `run --format csv` and one of chipmunk-reference hold the same step,
    /// body and bits (the C program prints `%.17g`, Swift the shortest exact form).
    static func sameRow(_ swift: [Substring], _ c: [Substring]) -> Bool {
        guard swift.count >= 8, c.count >= 8, swift[0] == c[0], swift[1] == c[1] else { return false }
        return (2..<8).allSatisfy { Double(swift[$0])?.bitPattern == Double(c[$0])?.bitPattern }
    }

    /// Where to snapshot a scene: early, in the middle, late, and the first step after which
    /// a body sleeps or an object has left the space (a broken chain link, a dimmed brick's
    /// contacts), when the scene has one.
    static func snapshotSteps(_ name: String) throws -> [Int] {
        var steps: Set = [1, 300, 1000]
        let scene = try SceneCatalog.scene(named: name)
        let objects = { scene.space.bodies.count + scene.space.shapes.count + scene.space.constraints.count }
        var before = objects()
        var sleepSeen = false
        var removalSeen = false
        for step in 1..<lastStep where !(sleepSeen && removalSeen) {
            try scene.step(scene.timeStep)
            if !sleepSeen, scene.space.bodies.contains(where: \.isSleeping) {
                sleepSeen = true
                steps.insert(step)
            }
            let now = objects()
            if !removalSeen, now < before {
                removalSeen = true
                steps.insert(step)
            }
            before = now
        }
        return steps.sorted()
    }

    @Test(
        "A snapshot of a default run, restored in a new process, continues with the uninterrupted run's bits to step 1,800",
        arguments: SceneCatalog.builtIn.map(\.name))
    func continuesExactly(scene: String) throws {
        let full = try Tool.sim("run", scene, "--steps", "\(Self.lastStep)", "--hash")
        try #require(full.status == 0, "\(full.stderr)")
        let expected = SnapshotCommandTests.hashes(full.stdout)
        let folder = try TemporaryFolder("continue")
        defer { folder.remove() }
        for at in try Self.snapshotSteps(scene) {
            let file = folder.path("\(scene)-\(at).snapshot")
            let made = try Tool.sim("snapshot", scene, "--at", "\(at)", "-o", file)
            try #require(made.status == 0, "\(made.stderr)")
            let saved = try SceneCatalog.loadSnapshot(contentsOf: URL(fileURLWithPath: file))
            #expect(saved.holdsBroadPhase, "\(scene) at \(at): the snapshot holds the broad phase")
            let continued = try Tool.sim("run", file, "--steps", "\(Self.lastStep - at)", "--hash")
            try #require(continued.status == 0, "\(continued.stderr)")
            let hashes = SnapshotCommandTests.hashes(continued.stdout)
            #expect(hashes.keys.sorted() == Array((at + 1)...Self.lastStep), "\(scene) at \(at)")
            if let step = ((at + 1)...Self.lastStep).first(where: { hashes[$0] != expected[$0] }) {
                Issue.record("\(scene) restored after step \(at) first differs at step \(step)")
            }
        }
    }

    @Test(
        "The crates scenes continued from a snapshot equal the raw C engine's uninterrupted run",
        arguments: ["crate", "crates", "crates-tilt"])
    func continuationEqualsRawC(scene: String) throws {
        let c = try Tool.reference(scene, "\(Self.lastStep)")
        try #require(c.status == 0)
        let cRows = rows(c.stdout).dropFirst()
        let folder = try TemporaryFolder("continue-c")
        defer { folder.remove() }
        for at in [1, 450, 1200] {
            let file = folder.path("\(scene)-\(at).snapshot")
            let made = try Tool.sim("snapshot", scene, "--at", "\(at)", "-o", file)
            try #require(made.status == 0, "\(made.stderr)")
            let continued = try Tool.sim("run", file, "--steps", "\(Self.lastStep - at)", "--format", "csv")
            try #require(continued.status == 0, "\(continued.stderr)")
            let swiftRows = rows(continued.stdout).dropFirst()
            let cTail = cRows.filter { Int($0[0])! > at }
            #expect(swiftRows.count == cTail.count && !cTail.isEmpty, "\(scene) at \(at)")
            if let (a, b) = zip(swiftRows, cTail).first(where: { !Self.sameRow($0.0, $0.1) }) {
                Issue.record("\(scene) restored after step \(at): \(a) differs from the C engine's \(b)")
            }
        }
    }

    @Test("Where the engine's broad-phase layout is not 7.0.3's, a snapshot holding it is refused, never misread")
    func anotherEngineLayoutIsRefused() throws {
        let folder = try TemporaryFolder("layout")
        defer { folder.remove() }
        let file = folder.path("tumble.snapshot")
        #expect(try Tool.sim("snapshot", "tumble", "--at", "120", "-o", file).status == 0)
        // The runtime's layout check fails as it would with another build of the engine.
        var environment = ProcessInfo.processInfo.environment
        environment["CHIPMUNK_TEST_UNKNOWN_ENGINE_LAYOUT"] = "1"
        let refused = try Tool.run("chipmunk-sim", ["run", file, "--steps", "10"], environment: environment)
        #expect(refused.status != 0)
        #expect(refused.stdout.isEmpty, "no step ran")
        #expect(refused.stderr.contains("does not have Chipmunk 7.0.3's broad-phase layout"), "\(refused.stderr)")

        // A snapshot made there lacks the history, says so, and restores anywhere.
        let lacking = folder.path("lacking.snapshot")
        let made = try Tool.run(
            "chipmunk-sim", ["snapshot", "tumble", "--at", "120", "-o", lacking], environment: environment)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("does not hold the broad phase's history"), "\(made.stderr)")
        #expect(try !SceneCatalog.loadSnapshot(contentsOf: URL(fileURLWithPath: lacking)).holdsBroadPhase)
        #expect(try Tool.sim("run", lacking, "--steps", "10").status == 0)
    }

    @Test("--canonical-broad-phase, which earlier versions needed, is accepted and said to be ignored")
    func theOldFlagIsIgnored() throws {
        let folder = try TemporaryFolder("old-flag")
        defer { folder.remove() }
        let file = folder.path("crates.snapshot")
        let made = try Tool.sim("snapshot", "crates", "--at", "10", "--canonical-broad-phase", "-o", file)
        #expect(made.status == 0)
        #expect(made.stderr.contains("--canonical-broad-phase is ignored"))
        let plain = try Tool.sim("run", "crates", "--steps", "20", "--hash")
        let flagged = try Tool.sim("run", "crates", "--steps", "20", "--hash", "--canonical-broad-phase")
        #expect(flagged.stdout == plain.stdout && flagged.stderr.contains("is ignored"))
    }
}
