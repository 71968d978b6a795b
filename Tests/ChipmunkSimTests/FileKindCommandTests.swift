import ChipmunkTestSupport
import Foundation
import Testing

/// The tool's own files given to a command that takes another kind are named for what
/// they are (a helper's attack: "not valid JSON" for a snapshot or a golden file where a
/// scene was expected, "unknown key 'content'" for a recording).
@Suite struct FileKindCommandTests {
    @Test func aFileOfAnotherKindIsNamed() throws {
        let folder = try TemporaryFolder("file-kinds")
        defer { folder.remove() }
        func sim(_ arguments: String...) throws -> Tool.Result {
            try Tool.run("chipmunk-sim", arguments, directory: folder.url)
        }
        #expect(try sim("snapshot", "crates", "--at", "3", "-o", "c.snapshot").status == 0)
        #expect(try sim("record", "crates", "--steps", "3", "-o", "c.inputs.json").status == 0)
        #expect(try sim("verify", "crates", "--update", "--steps", "3", "--golden", "c.golden").status == 0)
        let snapshot = "is a snapshot (run, render and synctest continue it)"
        let golden = "is a golden file (verify --golden and diff read it)"
        let recording = "is an input recording (replay, synctest and diff read it)"
        var cases: [([String], String)] = [
            (["snapshot", "c.snapshot", "--at", "5", "-o", "x.snapshot"], "c.snapshot: \(snapshot), not a scene file"),
            (["run", "c.inputs.json"], "c.inputs.json: \(recording), not a scene file"),
            (["run", "c.golden"], "c.golden: \(golden), not a scene file"),
            (["synctest", "c.golden"], "c.golden: \(golden), not a scene file"),
            (["replay", "c.snapshot"], "c.snapshot: \(snapshot), not an input recording"),
            (["replay", "c.golden"], "c.golden: \(golden), not an input recording"),
        ]
        // A recording without its format is still a recording, told by its hashes: diff read
        // it as a scene ("unknown key 'content'").
        let text = try String(contentsOf: folder.url.appending(path: "c.inputs.json"), encoding: .utf8)
        let unformatted = text.replacingOccurrences(
            of: #""format"\s*:\s*"chipmunk-inputs 2"\s*,"#, with: "", options: .regularExpression)
        #expect(unformatted != text)
        try unformatted.write(to: folder.url.appending(path: "n.inputs.json"), atomically: true, encoding: .utf8)
        cases.append(
            (["diff", "n.inputs.json", "crates"], "n.inputs.json: not an input recording: format: is required"))
        cases.append((["run", "n.inputs.json"], "n.inputs.json: \(recording), not a scene file"))
        for (arguments, message) in cases {
            let result = try Tool.run("chipmunk-sim", arguments, directory: folder.url)
            #expect(result.status == 65, "\(arguments)")
            #expect(result.stderr == "chipmunk-sim: \(message)\n", "\(arguments)")
        }
    }
}
