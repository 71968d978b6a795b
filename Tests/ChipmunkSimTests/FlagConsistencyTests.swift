import ChipmunkTestSupport
import Foundation
import Testing

/// Issue 28: flags that differed between commands for no reason.
@Suite struct FlagConsistencyTests {
    @Test("record takes -o as run, snapshot, render and diff do")
    func recordTakesShortOutput() throws {
        let folder = try TemporaryFolder("record-o")
        defer { folder.remove() }
        let file = folder.path("crates.inputs.json")
        let result = try Tool.sim("record", "crates", "--steps", "5", "-o", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "wrote \(file): 5 steps, 0 inputs\n" && result.stdout.isEmpty)
        #expect(try Tool.sim("replay", file).status == 0)
    }

    @Test("results -o FILE without --chart writes the export to the file (it was refused)")
    func resultsExportToFile() throws {
        let folder = try TemporaryFolder("results-o")
        defer { folder.remove() }
        let db = folder.path("drop.sqlite")
        let sweep = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "speed=1,2", "--seconds", "0.1", "--jobs", "1", "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        for format in ["csv", "jsonl"] {
            let file = folder.path("drop.\(format)")
            let written = try Tool.sim("results", db, "--format", format, "-o", file)
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stdout.isEmpty)
            let printed = try Tool.sim("results", db, "--format", format)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
        }
        // A chart still needs a picture's suffix.
        let chart = try Tool.sim("results", db, "--chart", "speed:steps", "-o", folder.path("c.csv"))
        #expect(chart.status == 64)
        #expect(chart.stderrLines == ["chipmunk-sim: --chart needs -o FILE ending in .svg, .png or .pdf"])
    }

    @Test("sweep --help states the default of --jobs once")
    func sweepHelpDefaultOnce() throws {
        let help = try Tool.sim("sweep", "--help")
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Worker threads (default: one per core)."), "\(text)")
        #expect(text.components(separatedBy: "(default: ").count == 2, "one default in sweep's help: \(text)")
    }

    /// A value that starts with a minus sign was taken for an option by ArgumentParser,
    /// which said only "Missing value" for `--shard -1/3`, `--size -5`, `snapshot --dt -5`
    /// and `--chart -5`: every option that takes a number or a pair reads what follows it,
    /// and says the option's own rule.
    @Test(
        "A negative value gets the option's rule, not 'Missing value'",
        arguments: [
            ["run", "crates", "--steps"], ["run", "crates", "--seconds"], ["run", "crates", "--dt"],
            ["run", "crates", "--every"], ["run", "crates", "--width"], ["run", "crates", "--view"],
            ["render", "crates", "--step"], ["render", "crates", "--width"], ["render", "crates", "--size"],
            ["play", "crates", "--width"], ["play", "crates", "--seconds"],
            ["snapshot", "crates", "-o", "x.snapshot", "--at"], ["snapshot", "crates", "-o", "x.snapshot", "--dt"],
            ["verify", "crates", "--every"], ["synctest", "crates", "--depth"], ["synctest", "crates", "--frames"],
            ["sweep", "Scenes/drop.json", "--param", "speed=1", "--db", "x.sqlite", "--jobs"],
            ["sweep", "Scenes/drop.json", "--param", "speed=1", "--db", "x.sqlite", "--shard"],
            ["results", "x.sqlite", "--chart"], ["ball", "--jitter"], ["ball", "--stall"], ["ball", "--stall-every"],
            ["ball", "--seed"],
        ])
    func negativeValuesAreReadAsValues(command: [String]) throws {
        let result = try Tool.run("chipmunk-sim", command + ["-5"])
        #expect(result.status == 64, "\(command): \(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(command): \(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "\(command): \(result.stderr)")
        #expect(result.stderr.contains("-5"), "the message names the value: \(command): \(result.stderr)")
    }
}

/// Options that were taken and then ignored, or misused, are refused before any work (a
/// newcomer's pass: `render -o x.gif` wrote SVG into x.gif, `verify --every` without
/// `--update` did nothing, `run --width` with CSV did nothing, `run --events adir` ran the
/// whole scene first, `play --step-cost -1` was "Missing value"); text frames named with a
/// printf number go one file a frame (they all went into one file named `d-%d.txt`).
@Suite struct IgnoredOptionTests {
    @Test func optionsThatWouldBeIgnoredOrFailLateAreRefusedFirst() throws {
        let folder = try TemporaryFolder("ignored-options")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("adir"), withIntermediateDirectories: false)
        let cases: [([String], Int32, String)] = [
            (
                ["render", "crates", "-o", "x.gif"], 64,
                "-o x.gif: .gif is no format render writes; end it in .svg, .png or .txt, or give --format"
            ),
            (
                ["verify", "crates", "--every", "5"], 64,
                "--every chooses the checkpoints --update records; verify takes them from the golden file"
            ),
            (
                ["run", "crates", "--steps", "2", "--width", "100"], 64,
                "--width shapes the html player; give --format html, or leave it out"
            ),
            (
                ["run", "crates", "--steps", "2", "--view", "0,0,1,1"], 64,
                "--view shapes the html player; give --format html, or leave it out"
            ),
            (["run", "crates", "--steps", "2", "--events", "adir"], 65, "cannot write --events adir: Is a directory"),
            (
                ["play", "crates", "--seconds", "1", "--step-cost", "-1"], 64,
                "The value '-1' is invalid for '--step-cost <ms>': expected a number of milliseconds from 0 to 1000"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = try Tool.run("chipmunk-sim", arguments, directory: folder.url)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines == ["chipmunk-sim: \(message)"], "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments): nothing ran")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.gif")))
        // An explicit --format writes what it says, whatever the name.
        #expect(
            try Tool.run("chipmunk-sim", ["render", "crates", "--format", "svg", "-o", "x.gif"], directory: folder.url)
                .status == 0)

        let frames = try Tool.run(
            "chipmunk-sim", ["render", "crates", "--step", "4", "--every", "2", "-o", "d-%d.txt"], directory: folder.url
        )
        #expect(frames.status == 0, "\(frames.stderr)")
        for step in [0, 2, 4] { #expect(FileManager.default.fileExists(atPath: folder.path("d-\(step).txt"))) }
        #expect(!FileManager.default.fileExists(atPath: folder.path("d-%d.txt")))
    }
}
