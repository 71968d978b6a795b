import ChipmunkTestSupport
import Foundation
import Glibc
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
        for fifo in ["fifo.json", "f.snapshot"] { #expect(mkfifo(folder.path(fifo), 0o600) == 0) }
        try FileManager.default.createDirectory(
            atPath: folder.path("adir.snapshot"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.path("loop1.json"), withDestinationPath: "loop2.json")
        try FileManager.default.createSymbolicLink(atPath: folder.path("loop2.json"), withDestinationPath: "loop1.json")
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
            // A FIFO as a scene blocked run, render, synctest and serve for good (the snapshot
            // check opened it); a snapshot's reader gave Foundation's words.
            (
                ["run", "fifo.json"],
                "\(folder.url.path)/fifo.json: is not a regular file (a FIFO, device or socket), not a scene file"
            ),
            (
                ["synctest", "fifo.json"],
                "\(folder.url.path)/fifo.json: is not a regular file (a FIFO, device or socket), not a scene file"
            ),
            (
                ["run", "f.snapshot"],
                "\(folder.url.path)/f.snapshot: is not a regular file (a FIFO, device or socket), not a snapshot"
            ),
            (["run", "adir.snapshot"], "\(folder.url.path)/adir.snapshot: is a directory, not a snapshot"),
            (["run", "none.snapshot"], "\(folder.url.path)/none.snapshot: no such file"),
            (
                ["run", "loop1.json"],
                "\(folder.url.path)/loop1.json: is a symbolic link that leads to no file (a loop of links?), not a scene file"
            ),
        ]
        for (arguments, message) in cases {
            let result = try Tool.run("chipmunk-sim", arguments, directory: folder.url)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines == ["chipmunk-sim: \(message)"], "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("r.json")))
    }

    /// What record and verify --update write, replay, verify and diff read back: a file past
    /// the readers' 64 MiB is refused before the run where the steps alone say so (a
    /// recording of 4,000,000 steps, 76 MB, and golden files of 110 and 518 MB were written,
    /// then refused).
    @Test func nothingIsWrittenThatCannotBeReadBack() throws {
        let folder = try TemporaryFolder("too-large")
        defer { folder.remove() }
        let record = try Tool.run(
            "chipmunk-sim", ["record", "crate", "--steps", "4000000", "-o", "r.json"], directory: folder.url)
        #expect(record.status == 64)
        #expect(
            record.stderrLines == [
                "chipmunk-sim: a recording holds at most 1,000,000 steps, a hash each (asked for 4000000)"
            ])
        let golden = try Tool.run(
            "chipmunk-sim",
            ["verify", "crates", "--update", "--steps", "1000000", "--every", "1", "--golden", "g.golden"],
            directory: folder.url)
        #expect(golden.status == 64)
        #expect(golden.stderr.contains("the golden file would be at least "), "\(golden.stderr)")
        #expect(golden.stderr.contains("bytes, more than the 67108864 verify and diff read"), "\(golden.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "nothing written")
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
