import ChipmunkTestSupport
import ChipmunkCatalog
import Foundation
import Testing

/// `chipmunk-sim verify`, `record` and `replay`, run as a user runs them: each in a new
/// process, against files written by another.
@Suite struct VerifyAndReplayCommandTests {
    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chipmunk-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func verifyPassesOnACheckedInGoldenFile() throws {
        let result = try Tool.sim("verify", "crates")  // the golden file built in, from Tests/Golden
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("crates: ") && result.stdout.contains("steps match"))
    }

    /// Issue 28: installed and run elsewhere, `verify crates` looked for Tests/Golden in the
    /// current folder and advised `--update`, which checks a run against itself.
    @Test func verifyByNameWorksFromAnyFolder() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Tool.run("chipmunk-sim", ["verify", "crates"], directory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "crates: 600 steps match, 6 checkpoints (built-in crates.golden)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written")

        // A missing --golden file for a built-in scene: never the advice to write one from this run.
        let missing = try Tool.run(
            "chipmunk-sim", ["verify", "crates", "--golden", "crates.golden"], directory: folder)
        #expect(missing.status == 65)
        #expect(
            missing.stderr
                == "chipmunk-sim: the golden file crates.golden: no such file (without --golden, verify crates checks the one built in)\n"
        )
        // A scene file's golden file is still read beside it.
        let scene = folder.appendingPathComponent("crates.json")
        try FileManager.default.copyItem(at: Tool.packageRoot.appendingPathComponent("Scenes/crates.json"), to: scene)
        #expect(try Tool.run("chipmunk-sim", ["verify", "crates.json"], directory: folder).stderr.contains("--update"))
        let update = try Tool.run(
            "chipmunk-sim", ["verify", "crates.json", "--update", "--steps", "20"], directory: folder)
        #expect(
            update.stderr == "wrote \(folder.appendingPathComponent("crates.golden").path): 20 steps, 1 checkpoint\n")
        let file = try Tool.run("chipmunk-sim", ["verify", "crates.json"], directory: folder)
        #expect(file.status == 0, "\(file.stderr)")
    }

    /// The golden files built into chipmunk-sim are Tests/Golden's, every one.
    @Test func theBuiltInGoldenFilesAreTheRepositorys() throws {
        for entry in SceneCatalog.builtIn {
            let file = Tool.packageRoot.appendingPathComponent("Tests/Golden/\(entry.name).golden")
            #expect(SceneCatalog.goldenFile(named: entry.name) == (try String(contentsOf: file, encoding: .utf8)))
        }
        #expect(SceneCatalog.goldenFile(named: "no-such-scene") == nil)
    }

    @Test func aChangedSceneFileFailsAtTheFirstDifferingStep() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The same scene as a file, with a golden file of its own, then one mass changed.
        let scene = folder.appendingPathComponent("crates.json")
        let original = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent("Scenes/crates.json"), encoding: .utf8)
        try original.write(to: scene, atomically: true, encoding: .utf8)
        let update = try Tool.sim("verify", scene.path, "--update", "--steps", "600", "--every", "50")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try Tool.sim("verify", scene.path).status == 0)

        let mass = try #require(original.range(of: "\"mass\": 100"))
        let changed = original.replacingCharacters(in: mass, with: "\"mass\": 101")  // one crate's mass
        #expect(changed != original)
        try changed.write(to: scene, atomically: true, encoding: .utf8)
        let result = try Tool.sim("verify", scene.path)
        #expect(result.status == 1)
        let line = try #require(result.stderr.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("chipmunk-sim: crates: differs from the golden file first at step "), "\(line)")
        #expect(result.stdout.contains("note: the scene's content hash is"))
        #expect(result.stdout.contains("bodies["))

        // The step it names is the first whose hash differs, by `run --hash` on both files.
        let golden = try String(contentsOf: folder.appendingPathComponent("crates.golden"), encoding: .utf8)
        let run = try Tool.sim("run", scene.path, "--steps", "600", "--hash")
        let hashes = rows(run.stdout).dropFirst().filter { $0[1] == "0" }.map { String($0[8]) }
        let recorded = golden.split(separator: "\n").filter { $0.hasPrefix("step ") }.map {
            String($0.split(separator: " ")[2])
        }
        let first = try #require(zip(hashes, recorded).enumerated().first { $0.element.0 != $0.element.1 }?.offset)
        #expect(line.contains("first at step \(first + 1) "))
    }

    @Test func aRecordingWithMidRunInputsReplaysInANewProcess() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("inputs.json")
        // A push, a gravity change, a body added and one removed, a velocity set, a push on
        // the added body at its centre of gravity: a scene file's input vocabulary.
        try """
        [
          {"step": 100, "input": {"impulse": {"body": "0", "impulse": [20000, 50000], "at": [150, 100]}}},
          {"step": 150, "input": {"gravity": [300, -500]}},
          {"step": 200, "input": {"add": {"id": "boxA", "mass": 5, "moment": {"box": {"width": 20, "height": 20}},
              "position": [150, 250], "shapes": [{"type": "box", "width": 20, "height": 20, "friction": 0.5}]}}},
          {"step": 260, "input": {"remove": "1"}},
          {"step": 300, "input": {"velocity": {"body": "2", "velocity": [-100, 300]}}},
          {"step": 320, "input": {"impulse": {"body": "boxA", "impulse": [0, 2000]}}}
        ]
        """.write(to: inputs, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("crates.inputs.json")
        let record = try Tool.sim("record", "crates", "--inputs", inputs.path, "--steps", "480", "--output", log.path)
        #expect(record.status == 0, "\(record.stderr)")
        let replay = try Tool.sim("replay", log.path)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("480 steps and 6 inputs replay bit for bit"))

        // Change one recorded input: the replay names the first step that differs.
        let text = try String(contentsOf: log, encoding: .utf8)
        let tampered = text.replacingOccurrences(of: "[-100,300]", with: "[-100,301]")
        #expect(tampered != text)
        try tampered.write(to: log, atomically: true, encoding: .utf8)
        let diverged = try Tool.sim("replay", log.path)
        #expect(diverged.status == 1)
        #expect(diverged.stderr.contains("the replay diverges at step 300:"), "\(diverged.stderr)")
    }

    @Test func badInputsAreNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("inputs.json")
        try #"[{"step": 10, "input": {"remove": "42"}}]"#.write(
            to: inputs, atomically: true, encoding: .utf8)
        let result = try Tool.sim(
            "record", "crates", "--inputs", inputs.path, "--steps", "20", "--output",
            folder.appendingPathComponent("x").path)
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "chipmunk-sim: \(inputs.path): [0], the input before step 10, failed: input: remove: no body named "
                + "'42' exists now (names: 0, 1, 2, 3, 4)\n",
            "\(result.stderr)")
        // Control characters in a name are escaped: a NUL cut the line short, and an escape
        // sequence reached the terminal.
        try #"[{"step": 1, "input": {"gravity": [0, 1]}}, {"step": 2, "input": {"remove": "a\u0000b\u001b[31m"}}]"#
            .write(to: inputs, atomically: true, encoding: .utf8)
        let escaped = try Tool.sim(
            "record", "crates", "--inputs", inputs.path, "--steps", "20", "-o", folder.appendingPathComponent("x").path)
        #expect(escaped.status == 65)
        #expect(
            escaped.stderr.hasSuffix(
                #"[1], the input before step 2, failed: input: remove: no body named 'a\0b\u{1B}[31m' exists now (names: 0, 1, 2, 3, 4)"#
                    + "\n"), "\(escaped.stderr)")
        let missing = try Tool.sim("verify", "crates", "--golden", folder.appendingPathComponent("none.golden").path)
        #expect(missing.status == 65 && missing.stderr.contains("no such file"))
    }

    /// A recording made beside its scene replays from a folder that holds another scene of
    /// the same name (a helper's attack: the current folder's won, and the recording was
    /// "not the scene recorded"); when neither fits, the error names the scene it opened.
    @Test func aRecordingFindsItsOwnSceneBesideIt() throws {
        let folder = try TemporaryFolder("recording-beside")
        defer { folder.remove() }
        let other = folder.url.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: "Scenes/drop.json", encoding: .utf8)
        try text.write(toFile: folder.path("drop.json"), atomically: true, encoding: .utf8)
        let changed = text.replacingOccurrences(of: #""gravity": [0, -1000]"#, with: #""gravity": [0, -500]"#)
        #expect(changed != text)
        try changed.write(to: other.appendingPathComponent("drop.json"), atomically: true, encoding: .utf8)
        let record = try Tool.run(
            "chipmunk-sim", ["record", "drop.json", "--steps", "10", "-o", "rec.json"], directory: other)
        #expect(record.status == 0, "\(record.stderr)")
        for command in ["replay", "synctest"] {
            let result = try Tool.run("chipmunk-sim", [command, "other/rec.json"], directory: folder.url)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        try text.write(to: other.appendingPathComponent("drop.json"), atomically: true, encoding: .utf8)
        let neither = try Tool.run("chipmunk-sim", ["replay", "other/rec.json"], directory: folder.url)
        #expect(neither.status == 65)
        #expect(
            neither.stderr.hasPrefix("chipmunk-sim: other/rec.json: the scene drop.json: the scene's content hash is "),
            "\(neither.stderr)")
    }
}
