import ChipmunkTestSupport
import Foundation
import Testing

/// A file that cannot be read is refused with why, in one line naming it (a newcomer's
/// pass: "cannot read adir", "cannot read --inputs missing.json" and "cannot read
/// /tmp/crates" for a built-in scene's name said none of it).
@Suite struct UnreadableInputTests {
    @Test func everyReaderSaysWhyAFileCannotBeRead() throws {
        let folder = try TemporaryFolder("unreadable")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("adir"), withIntermediateDirectories: false)
        try Data([0xFF, 0xFE, 0x00, 0x80]).write(to: folder.url.appendingPathComponent("binary.golden"))
        try Data([0xFF, 0xFE, 0x00, 0x80]).write(to: folder.url.appendingPathComponent("binary.snapshot"))
        let cases: [([String], String)] = [
            (["replay", "adir"], "\(folder.url.path)/adir: is a directory, not a recording"),
            (["replay", "/dev/zero"], "/dev/zero: is not a regular file (a FIFO, device or socket), not a recording"),
            (
                ["replay", "crates"],
                "crates is a built-in scene, not a recording: record one with "
                    + "chipmunk-sim record crates --steps 600 -o crates.inputs.json"
            ),
            (["diff", "crates", "adir"], "adir: is a directory, not a golden file, recording or scene file"),
            (
                ["diff", "crates", "binary.snapshot"],
                "binary.snapshot: not a snapshot (it does not start with CHIPSNAP), and diff compares golden files, "
                    + "input recordings and scenes, not snapshots"
            ),
            (
                ["verify", "crates", "--golden", "adir"],
                "the golden file adir: is a directory, not a golden file (without --golden, verify crates checks the one built in)"
            ),
            (
                ["verify", "crates", "--golden", "binary.golden"],
                "the golden file binary.golden: is not UTF-8 text, not a golden file (without --golden, verify crates checks the one built in)"
            ),
            (
                ["record", "crates", "-o", "r.json", "--inputs", "adir"],
                "--inputs adir: is a directory, not a list of inputs"
            ),
            (["record", "crates", "-o", "r.json", "--inputs", "none.json"], "--inputs none.json: no such file"),
            (["run", "none.json"], "\(folder.url.path)/none.json: no such file"),
        ]
        for (arguments, message) in cases {
            let result = try Tool.run("chipmunk-sim", arguments, directory: folder.url)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines == ["chipmunk-sim: \(message)"], "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("r.json")))
    }

    /// A recording naming a scene that cannot be opened says which recording named it.
    @Test func aRecordingsMissingSceneIsNamedWithTheRecording() throws {
        let folder = try TemporaryFolder("recording-scene")
        defer { folder.remove() }
        let recorded = try Tool.run(
            "chipmunk-sim", ["record", "crates", "--steps", "5", "-o", "r.json"], directory: folder.url)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let text = try String(contentsOfFile: folder.path("r.json"), encoding: .utf8)
        let renamed = text.replacingOccurrences(of: #""scene":"crates""#, with: #""scene":"nonexist""#)
        #expect(renamed != text)
        try renamed.write(toFile: folder.path("r.json"), atomically: true, encoding: .utf8)
        for command in ["replay", "synctest"] {
            let result = try Tool.run("chipmunk-sim", [command, "r.json"], directory: folder.url)
            #expect(result.status == 65)
            #expect(
                result.stderr.hasPrefix(
                    "chipmunk-sim: r.json: the scene it was recorded on cannot be opened: nonexist: no built-in scene"),
                "\(command): \(result.stderr)")
        }
    }
}
