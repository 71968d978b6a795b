import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing
import ChipmunkTestSupport

@Suite struct SnapshotCommandTests {
    /// step → hash, from `run --hash` CSV.
    static func hashes(_ csv: String) -> [Int: Substring] {
        var result: [Int: Substring] = [:]
        for row in rows(csv).dropFirst() { result[Int(row[0])!] = row[8] }
        return result
    }

    @Test(
        "A snapshot written by one process continues in others with the uninterrupted run's bits",
        arguments: ["crates-tilt", "chains", "tumble"])
    func continuesAcrossProcesses(scene: String) throws {
        let folder = try TemporaryFolder("snap")
        defer { folder.remove() }
        let file = folder.path("\(scene).snapshot")

        let full = try Tool.sim("run", scene, "--steps", "400", "--hash")
        #expect(full.status == 0, "\(full.stderr)")
        let made = try Tool.sim("snapshot", scene, "--at", "200", "-o", file)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("after step 200"))
        let first = try Tool.sim("run", file, "--steps", "200", "--hash")
        let second = try Tool.sim("run", file, "--steps", "200", "--hash")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout, "level 2: two processes restoring one file")
        let expected = Self.hashes(full.stdout)
        let continued = Self.hashes(first.stdout)
        #expect(continued.keys.sorted() == Array(201...400))
        for step in 201...400 where expected[step] != continued[step] {
            Issue.record("\(scene): step \(step) differs after the restore")
            break
        }

        // The file restores to what an in-memory restore gives.
        let original = try SceneCatalog.scene(named: scene)
        for _ in 0..<200 { try original.step(original.timeStep) }
        let fromFile = try SceneCatalog.scene(
            restoring: SceneCatalog.loadSnapshot(contentsOf: URL(fileURLWithPath: file)))
        let inMemory = try SceneCatalog.scene(named: scene)
        try inMemory.restore(original.snapshot())
        #expect(fromFile.space.snapshot().bytes == inMemory.space.snapshot().bytes)
    }

    @Test("A damaged snapshot file is refused with its name and the reason")
    func damagedFile() throws {
        let folder = try TemporaryFolder("snap")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("bad.snapshot")
        try Data("CHIPSNAP and then nonsense".utf8).write(to: file)
        let result = try Tool.sim("run", file.path, "--steps", "10")
        #expect(result.status != 0)
        #expect(result.stderr.contains("bad.snapshot"))
        #expect(result.stderr.contains("snapshot"))
        let missing = try Tool.sim("snapshot", "crates", "--at", "-3", "-o", folder.path("x"))
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--at"))
    }

    /// A snapshot of a scene file taken in the file's folder names the file by the path it
    /// was given; from another folder it was "cannot read the file". The file is looked for
    /// beside the snapshot too.
    @Test func aSnapshotOfASceneFileContinuesFromAnotherFolder() throws {
        let folder = try TemporaryFolder("snapshot-elsewhere")
        defer { folder.remove() }
        try FileManager.default.copyItem(
            at: Tool.packageRoot.appendingPathComponent("Scenes/drop.json"),
            to: folder.url.appendingPathComponent("drop.json"))
        let taken = try Tool.run(
            "chipmunk-sim", ["snapshot", "drop.json", "--at", "10", "-o", "drop.snapshot"], directory: folder.url)
        #expect(taken.status == 0, "\(taken.stderr)")
        let continued = try Tool.sim("run", folder.path("drop.snapshot"), "--steps", "5")
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout.split(separator: "\n").last?.hasPrefix("15,") == true, "\(continued.stdout)")
        // Without the scene file, the error says it is the snapshot's scene that is missing
        // (it said only ".../drop.json: no such file", as if that path had been given).
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("drop.json"))
        let snapshot = folder.path("drop.snapshot")
        let orphan = try Tool.sim("run", snapshot, "--steps", "5")
        #expect(orphan.status == 65)
        #expect(
            orphan.stderr.hasPrefix("chipmunk-sim: \(snapshot): the scene it was taken of cannot be opened: /")
                && orphan.stderr.hasSuffix("/drop.json: no such file\n"), "\(orphan.stderr)")
    }
}
