import ChipmunkTestSupport
import Foundation
import Testing

/// Issue 28: one exit-status table for every command (docs/cli.md, "Exit status"): 0
/// success, 1 differences found, 64 usage errors, 65 bad data. Before it, the same kind of
/// problem exited differently (`sweep --param friction=a,b` 1 but `--shard 3/2` 64;
/// `results` on a missing database 64, on a damaged one 1; diff 2 where others said 1).
@Suite struct ExitCodeTests {
    static let cases: [(status: Int32, arguments: [String])] = [
        (0, ["list"]),
        (0, ["verify", "crates"]),
        (0, ["diff", "a.inputs.json", "a.inputs.json"]),
        (0, ["replay", "a.inputs.json"]),
        (1, ["diff", "a.inputs.json", "b.inputs.json"]),
        (1, ["verify", "crates", "--golden", "changed.golden"]),
        (1, ["replay", "tampered.inputs.json"]),
        (64, ["frobnicate"]),
        (64, ["run", "crates", "--steps", "0"]),
        (64, ["run", "crates", "--no-such-option"]),
        (64, ["sweep", "crates", "--param", "friction=a,b", "--db", "x.sqlite"]),
        (64, ["sweep", "crates", "--param", "friction=1", "--shard", "3/2", "--db", "x.sqlite"]),
        (64, ["diff", "crates", "crates", "--steps", "0"]),
        (64, ["results", "damaged.sqlite", "--chart", "nocolon"]),
        (64, ["merge", "out.sqlite"]),
        (65, ["run", "missing.json"]),
        (65, ["run", "crates", "--steps", "10", "-o", "/dev/full"]),
        (65, ["run", "crates", "--steps", "10", "--dt", "1e160"]),  // diverges at step 2
        (65, ["results", "missing.sqlite"]),
        (65, ["results", "damaged.sqlite"]),
        (65, ["merge", "out.sqlite", "missing.sqlite"]),
        (65, ["sweep", "crates", "--param", "nosuch=1", "--db", "x.sqlite"]),
        (65, ["sweep", "crates", "--param", "friction=1", "--body", "nobody", "--db", "x.sqlite"]),
        (65, ["diff", "missing.golden", "crates"]),
        (65, ["verify", "crates", "--golden", "missing.golden"]),
        (65, ["replay", "missing.inputs.json"]),
        // The other commands, by the same table.
        (0, ["snapshot", "crates", "--at", "5", "-o", "c.snapshot"]),
        (0, ["render", "crates", "--step", "10", "-o", "c.svg"]),
        (0, ["synctest", "crates", "--frames", "20"]),
        (0, ["synctest", "b.inputs.json"]),
        (1, ["synctest", "tampered.inputs.json"]),
        (64, ["snapshot", "crates", "--at", "-1", "-o", "x.snapshot"]),
        (64, ["render", "crates", "--step", "99999999999999999999", "-o", "x.svg"]),
        (64, ["record", "crates", "--steps", "0", "-o", "x.inputs.json"]),
        (64, ["synctest", "crates", "--depth", "0"]),
        (64, ["synctest", "crates", "--depth", "-1"]),
        (64, ["play", "crates", "--seconds", "0"]),
        (65, ["snapshot", "missing.json", "--at", "5", "-o", "x.snapshot"]),
        (65, ["snapshot", "crates", "--at", "5", "-o", "/dev/full"]),
        (65, ["render", "missing.json", "-o", "x.svg"]),
        (65, ["record", "missing.json", "--steps", "5", "-o", "x.inputs.json"]),
        (65, ["synctest", "missing.json"]),
        (65, ["play", "missing.json"]),
        // A helper's attack: a run that diverges under verify exited 1, diff's 65; an output
        // that could not be opened by run 64, everyone else's 65; an empty -o said "no folder .".
        (65, ["verify", "crates", "--golden", "huge-dt.golden"]),
        (65, ["diff", "huge-dt.golden", "crates"]),
        (65, ["run", "crates", "--steps", "3", "-o", "."]),
        (65, ["record", "crates", "--steps", "3", "-o", ""]),
        (64, ["record", "crates", "--steps", "3", "-o", "a.inputs.json", "--inputs", "a.inputs.json"]),
    ]

    @Test("Every command exits by the table: 0, 1 differences, 64 usage, 65 bad data")
    func statuses() throws {
        let folder = try TemporaryFolder("exit-codes")
        defer { folder.remove() }
        let at = folder.url
        func sim(_ arguments: String...) throws -> Tool.Result {
            try Tool.run("chipmunk-sim", arguments, directory: at)
        }
        // Two recordings of the crates, the second pushed before step 3; one tampered with.
        #expect(try sim("record", "crates", "--steps", "5", "-o", "a.inputs.json").status == 0)
        try Data(#"[{"step": 3, "input": {"impulse": {"body": "2", "impulse": [0, 5000]}}}]"#.utf8)
            .write(to: at.appendingPathComponent("push.json"))
        #expect(try sim("record", "crates", "--inputs", "push.json", "--steps", "5", "-o", "b.inputs.json").status == 0)
        let recording = try String(contentsOf: at.appendingPathComponent("a.inputs.json"), encoding: .utf8)
        let hash = try #require(recording.firstMatch(of: #/"hashes":\["([0-9a-f]{16})"/#)?.output.1)
        try Data(recording.replacingOccurrences(of: hash, with: String(repeating: "0", count: 16)).utf8)
            .write(to: at.appendingPathComponent("tampered.inputs.json"))
        // The crates' golden file with step 50's hash changed.
        let golden = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Golden/crates.golden"), encoding: .utf8)
        let line = try #require(golden.firstMatch(of: #/\nstep 50 [0-9a-f]{16}\n/#)?.output)
        try Data(golden.replacingOccurrences(of: line, with: "\nstep 50 0000000000000000\n").utf8)
            .write(to: at.appendingPathComponent("changed.golden"))
        try Data("not a database at all, but long enough".utf8).write(to: at.appendingPathComponent("damaged.sqlite"))
        let dtLine = try #require(golden.firstMatch(of: #/\ndt [^\n]+\n/#)?.output)
        try Data(golden.replacingOccurrences(of: dtLine, with: "\ndt 1e308\n").utf8)
            .write(to: at.appendingPathComponent("huge-dt.golden"))

        for (status, arguments) in Self.cases {
            let result = try Tool.run("chipmunk-sim", arguments, directory: at)
            #expect(
                result.status == status,
                "chipmunk-sim \(arguments.joined(separator: " ")): \(result.status), not \(status): \(result.stderr)")
            if status > 1 {
                #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("chipmunk-sim: "), "\(result.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: at.appendingPathComponent("out.sqlite").path))
    }

    @Test("chipmunk-sim --help and docs/cli.md state the same table")
    func helpAndDocs() throws {
        let help = try Tool.sim("--help").stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            help.contains(
                "Exit status: 0 success (for verify, replay and diff: the runs match); 1 differences found "
                    + "(verify, replay, diff); 64 a usage error (the command line is wrong); 65 bad data"), "\(help)")
        let docs = try String(contentsOf: Tool.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let rows = docs.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.dropFirst(2).first?.isNumber == true }
        #expect(
            rows.map { $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces) } == ["0", "1", "64", "65"])
    }

    /// ArgumentParser names an unknown option only when the rest of the line parses: a typo
    /// that also left a required option out said what was missing, not what was misspelt.
    @Test(
        "An unknown option is named, with the nearest one, even when the line has another error",
        arguments: [
            (
                ["sweep", "Scenes/drop.json", "--parm", "speed=1,2", "--db", "x.sqlite"],
                "Unknown option '--parm'. Did you mean '--param'?"
            ),
            (["record", "--stesp", "5"], "Unknown option '--stesp'. Did you mean '--steps'?"),
            (["sweep", "--bogus", "--db", "x.sqlite"], "Unknown option '--bogus'"),
            (
                ["render", "crates", "--view", "-1,0,3,3", "--every", "2", "--sise", "3x3"],
                "Unknown option '--sise'. Did you mean '--size'?"
            ),
            // An empty argument and one that starts with '=' (an empty one stopped the scan).
            (["record", "", "=x", "--stesp", "5"], "Unknown option '--stesp'. Did you mean '--steps'?"),
            // An option's value that looks like an option is its value, as ArgumentParser reads it.
            (["run", "crates", "-o", "--weird", "--steps", "0"], "Missing value for '-o <output>'"),
        ])
    func anUnknownOptionIsNamed(arguments: [String], message: String) throws {
        let result = try Tool.run("chipmunk-sim", arguments, directory: Tool.packageRoot)
        #expect(result.status == 64)
        #expect(result.stderr == "chipmunk-sim: \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: Tool.packageRoot.appendingPathComponent("x.sqlite").path))
    }
}
