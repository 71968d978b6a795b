import Foundation
import Testing
import ChipmunkTestSupport

/// Output that cannot be written is an error that names it, never a crash: Foundation's
/// `FileHandle.write` trapped on a full disk (`render crates > /dev/full` died with
/// SIGILL), and `print` failed silently (`list > /dev/full` exited 0).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
struct OutputFailureTests {
    @Test(
        "Standard output on a full disk: exit 1 and one line naming it",
        arguments: [
            ["list"], ["render", "crates"], ["render", "crates", "--step", "20", "--every", "10", "--format", "text"],
            ["ball"], ["verify", "crates"],
        ])
    func fullStandardOutput(arguments: [String]) throws {
        let result = try Tool.run("chipmunk-sim", arguments, stdoutPath: "/dev/full")
        #expect(result.status != 0)
        #expect(result.stderr == "chipmunk-sim: cannot write standard output: No space left on device\n")
    }

    @Test(
        "-o on a full disk names the option and the file",
        arguments: [
            ["render", "crates", "-o", "/dev/full"],
            ["render", "crates", "--format", "png", "-o", "/dev/full"],
            ["snapshot", "crates", "--at", "10", "-o", "/dev/full"],
            ["run", "crates", "--steps", "10", "--format", "html", "-o", "/dev/full"],
        ])
    func fullFile(arguments: [String]) throws {
        let result = try Tool.run("chipmunk-sim", arguments)
        #expect(result.status == 65, "an output that cannot be written: exit status 65")
        let option = arguments[0] == "run" ? "--output" : "-o"
        #expect(result.stderr == "chipmunk-sim: cannot write \(option) /dev/full: No space left on device\n")
    }

    @Test("A missing folder is named; a folder is not a file")
    func missingFolder() throws {
        let missing = try Tool.sim("render", "crates", "-o", "/nonexistent-folder/crates.svg")
        #expect(
            missing.stderr
                == "chipmunk-sim: cannot write -o /nonexistent-folder/crates.svg: no folder /nonexistent-folder\n")
        let folder = try Tool.sim("render", "crates", "-o", FileManager.default.temporaryDirectory.path)
        #expect(folder.stderr.hasSuffix(": Is a directory\n"), "\(folder.stderr)")
    }

    /// `-o /dev/stdout` must write through the link: an atomic rename replaced the link
    /// itself (as root) with a plain file. Tried on a link of the test's own, not on /dev.
    @Test("-o through a symbolic link writes the file it points to and leaves the link alone")
    func throughALink() throws {
        let folder = try TemporaryFolder("output")
        defer { folder.remove() }
        let link = folder.path("latest.svg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "frame.svg")
        let result = try Tool.sim("render", "crates", "-o", link)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "frame.svg")
        let text = try String(contentsOfFile: folder.path("frame.svg"), encoding: .utf8)
        #expect(text.hasPrefix("<svg"))
    }

    /// The file is renamed into place whole: no temporary file is left beside it, and
    /// writing over an existing file replaces it.
    @Test("A file is replaced whole, with nothing left beside it")
    func atomicReplace() throws {
        let folder = try TemporaryFolder("output")
        defer { folder.remove() }
        let target = folder.path("frame.svg")
        try Data(String(repeating: "old ", count: 10_000).utf8).write(to: URL(fileURLWithPath: target))
        let result = try Tool.sim("render", "crates", "-o", target)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: target, encoding: .utf8)
        #expect(text.hasPrefix("<svg") && !text.contains("old "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["frame.svg"])
    }
}
