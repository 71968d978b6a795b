import Foundation
import Testing

@Suite struct RunCommandTests {
    /// The acceptance test: `chipmunk-sim run crates --steps 1200 --format csv` equals the
    /// raw C engine bit for bit, every row and every column.
    @Test(arguments: ["crates", "crate", "crates-tilt"])
    func matchesTheRawCEngineBitForBit(scene: String) throws {
        let swift = try Tool.sim("run", scene, "--steps", "1200", "--format", "csv")
        let c = try Tool.reference(scene, "1200")
        #expect(swift.status == 0 && c.status == 0)
        #expect(swift.stderr.isEmpty)
        let a = rows(swift.stdout)
        let b = rows(c.stdout)
        #expect(a.first == ["step", "body", "x", "y", "angle", "vx", "vy", "w"])
        #expect(a.count == b.count && a.count == 1 + 1200 * (scene == "crate" ? 1 : 5))
        var mismatches = 0
        for (rowA, rowB) in zip(a.dropFirst(), b.dropFirst()) {
            #expect(rowA.count == 8)
            guard rowA[0] == rowB[0], rowA[1] == rowB[1] else {
                mismatches += 1
                continue
            }
            for (x, y) in zip(rowA[2...], rowB[2...]) where Double(x)!.bitPattern != Double(y)!.bitPattern {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test func theCrateLandsOnTheKnownValues() throws {
        // ENGINE.md: after 120 steps, y = -245.83333333333354 and vy = -1000.0000000000017.
        let result = try Tool.sim("run", "crate", "--steps", "120", "--every", "120")
        #expect(
            result.stdout
                == "step,body,x,y,angle,vx,vy,w\n120,0,150.0,-245.83333333333354,0.0,0.0,-1000.0000000000017,0.0\n")
    }

    @Test func stdoutCarriesOnlyData() throws {
        // The engine's debug banner ("Initializing cpSpace ...") must not reach stdout.
        let result = try Tool.sim("run", "crates", "--steps", "1")
        #expect(result.stdout.hasPrefix("step,body,x,y,angle,vx,vy,w\n1,0,"))
        #expect(!result.stdout.contains("Chipmunk") && !result.stderr.contains("Chipmunk"))
        #expect(rows(result.stdout).count == 6)
    }

    @Test func everyRecordsEveryKthStepAndTheLast() throws {
        let result = try Tool.sim("run", "crate", "--steps", "100", "--every", "30")
        #expect(rows(result.stdout).dropFirst().map { $0[0] } == ["30", "60", "90", "100"])
    }

    @Test func secondsAndTimeSteps() throws {
        let oneSecond = try Tool.sim("run", "crate", "--seconds", "1", "--every", "1000")
        #expect(rows(oneSecond.stdout).last?.first == "120")
        let fraction = try Tool.sim("run", "crate", "--seconds", "1", "--dt", "1/60", "--every", "1000")
        let decimal = try Tool.sim("run", "crate", "--seconds", "1", "--dt", "0.016666666666666666", "--every", "1000")
        #expect(rows(fraction.stdout).last?.first == "60")
        #expect(fraction.stdout == decimal.stdout)
        let byDefault = try Tool.sim("run", "crate", "--every", "100000")
        #expect(rows(byDefault.stdout).last?.first == "1200", "10 seconds at 1/120 s")
    }

    /// JSONL parsed with JSONDecoder gives the CSV's exact doubles. (Foundation's
    /// JSONSerialization on Linux rounds about half of all doubles wrongly by one ulp, so
    /// it is not used to read trajectories.)
    @Test func jsonlCarriesTheSameNumbers() throws {
        struct Line: Decodable {
            struct State: Decodable { var body: Int, x, y, angle, vx, vy, w: Double }
            var step: Int
            var bodies: [State]
        }
        let csv = rows(try Tool.sim("run", "crates", "--steps", "50", "--every", "25").stdout)
        let jsonl = try Tool.sim("run", "crates", "--steps", "50", "--every", "25", "--format", "jsonl").stdout
        let lines = try jsonl.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(lines.map(\.step) == [25, 50])
        let fromJSON = lines.flatMap { line in
            line.bodies.map { b in
                ["\(line.step)", "\(b.body)"] + [b.x, b.y, b.angle, b.vx, b.vy, b.w].map { "\($0.bitPattern)" }
            }
        }
        let fromCSV = csv.dropFirst().map { row in
            [String(row[0]), String(row[1])] + row[2...].map { "\(Double($0)!.bitPattern)" }
        }
        #expect(fromJSON == fromCSV)
    }

    @Test func outputToAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crates-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let toFile = try Tool.sim("run", "crates", "--steps", "240", "--output", path)
        let toStdout = try Tool.sim("run", "crates", "--steps", "240", "--output", "-")
        #expect(toFile.status == 0 && toFile.stdout.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == toStdout.stdout)
    }

    @Test func scenesFromFilesMatchTheBuiltIns() throws {
        let file = try Tool.sim("run", "Scenes/crates-tilt.json", "--steps", "1200", "--every", "60")
        let builtIn = try Tool.sim("run", "crates-tilt", "--steps", "1200", "--every", "60")
        #expect(file.status == 0 && file.stdout == builtIn.stdout)
    }

    /// The nine demos each run 1,000 steps (at their own time step) with finite output.
    @Test(arguments: [
        "pyramid-stack", "pyramid-topple", "tumble", "planet", "one-way", "joints", "theo-jansen", "chains", "buoyancy",
    ])
    func demosRunAThousandFiniteSteps(demo: String) throws {
        let result = try Tool.sim("run", demo, "--steps", "1000", "--every", "100")
        #expect(result.status == 0 && result.stderr.isEmpty)
        let data = rows(result.stdout).dropFirst()
        #expect(Set(data.map { $0[0] }) == Set(stride(from: 100, through: 1000, by: 100).map { Substring(String($0)) }))
        #expect(data.allSatisfy { $0.count == 8 && $0[2...].allSatisfy { Double($0)?.isFinite == true } })
    }

    @Test func scenesRunAtTheirOwnTimeStepUnlessTold() throws {
        // planet runs at 1/60: 10 seconds is 600 steps by default.
        let byDefault = try Tool.sim("run", "planet", "--every", "100000")
        #expect(rows(byDefault.stdout).last?.first == "600")
        let told = try Tool.sim("run", "planet", "--seconds", "1", "--dt", "1/120", "--every", "100000")
        #expect(rows(told.stdout).last?.first == "120")
    }

    @Test func runsAreIdenticalAcrossProcesses() throws {
        let first = try Tool.sim("run", "crates-tilt", "--steps", "1200")
        let second = try Tool.sim("run", "crates-tilt", "--steps", "1200")
        #expect(first.stdout == second.stdout && !first.stdout.isEmpty)
    }
}

@Suite struct CommandErrorTests {
    /// Each bad input: a non-zero exit, one line on stderr naming what was wrong, nothing on stdout.
    @Test(arguments: [
        (
            ["run", "cratez"],
            "chipmunk-sim: cratez: no built-in scene has this name, and no such file exists (built-in: crate, crates, crates-tilt, pyramid-stack, pyramid-topple, tumble, planet, one-way, joints, theo-jansen, chains, buoyancy, ui-heavy, ui-drag, ui-snake, ui-snap, ui-push)"
        ),
        (
            ["run", "crates", "--dt", "0"],
            "chipmunk-sim: The value '0' is invalid for '--dt <dt>': expected a fraction such as 1/120 or a decimal such as 0.005, from 1e-300 to 1e+300"
        ),
        (
            ["run", "crates", "--dt", "0x1p-7"],
            "chipmunk-sim: The value '0x1p-7' is invalid for '--dt <dt>': expected a fraction such as 1/120 or a decimal such as 0.005, from 1e-300 to 1e+300"
        ),
        (
            ["run", "crates", "--dt", "1/0"],
            "chipmunk-sim: The value '1/0' is invalid for '--dt <dt>': expected a fraction such as 1/120 or a decimal such as 0.005, from 1e-300 to 1e+300"
        ),
        // Positive and finite, but its inverse is not: it passed, and Space.step stopped the tool.
        (
            ["run", "crates", "--dt", "1e-310"],
            "chipmunk-sim: The value '1e-310' is invalid for '--dt <dt>': expected a fraction such as 1/120 or a decimal such as 0.005, from 1e-300 to 1e+300"
        ),
        (["run", "crates", "--steps", "10", "--seconds", "1"], "chipmunk-sim: give --steps or --seconds, not both"),
        (
            ["run", "crates", "--steps", "0"],
            "chipmunk-sim: The value '0' is invalid for '--steps <steps>': expected a whole number of steps from 1 to 9007199254740992 (2^53)"
        ),
        (
            ["run", "crates", "--steps", "ten"],
            "chipmunk-sim: The value 'ten' is invalid for '--steps <steps>': expected a whole number of steps from 1 to 9007199254740992 (2^53)"
        ),
        // Issue 28: a 20-digit value gets the range, and every command's step numbers share it.
        (
            ["run", "crates", "--steps", "99999999999999999999"],
            "chipmunk-sim: The value '99999999999999999999' is invalid for '--steps <steps>': expected a whole number of steps from 1 to 9007199254740992 (2^53)"
        ),
        (
            ["snapshot", "crates", "--at", "99999999999999999999"],
            "chipmunk-sim: The value '99999999999999999999' is invalid for '--at <at>': expected a whole number of steps from 0 to 9007199254740992 (2^53)"
        ),
        (
            ["render", "crates", "--step", "-1"],
            "chipmunk-sim: The value '-1' is invalid for '--step <step>': expected a whole number of steps from 0 to 9007199254740992 (2^53)"
        ),
        (
            ["diff", "crates", "crates", "--steps", "2000000"],
            "chipmunk-sim: The value '2000000' is invalid for '--steps <steps>': expected a whole number of steps from 1 to 1000000, as every body's state at every step is kept"
        ),
        (
            ["run", "crates", "--seconds=-1"],
            "chipmunk-sim: The value '-1' is invalid for '--seconds <seconds>': expected a number of seconds more than 0"
        ),
        (
            ["run", "crates", "--seconds", "abc"],
            "chipmunk-sim: The value 'abc' is invalid for '--seconds <seconds>': expected a number of seconds more than 0"
        ),
        (
            ["play", "crates", "--fps", "0x10"],
            "chipmunk-sim: The value '0x10' is invalid for '--fps <fps>': expected a number of Hz from 1 to 1000"
        ),
        (
            ["ball", "--jitter", "nan"],
            "chipmunk-sim: The value 'nan' is invalid for '--jitter <jitter>': expected a number of milliseconds from 0 to 1000"
        ),
        (
            ["run", "crates", "--every", "0"],
            "chipmunk-sim: The value '0' is invalid for '--every <every>': expected a whole number of steps from 1 to 9007199254740992 (2^53)"
        ),
        (
            ["run", "crates", "--format", "xml"],
            "chipmunk-sim: The value 'xml' is invalid for '--format <format>'. Please provide one of 'csv', 'jsonl' or 'html'."
        ),
        (
            ["run", "crates", "--output", "/nonexistent/out.csv"],
            "chipmunk-sim: cannot open --output /nonexistent/out.csv: No such file or directory"
        ),
        (
            ["run", "/nonexistent/scene.json"],
            "chipmunk-sim: /nonexistent/scene.json: no such file"
        ),
        (["fly"], "chipmunk-sim: Unexpected argument 'fly'"),
        (
            ["run", "crates", "--steps", "-1"],
            "chipmunk-sim: The value '-1' is invalid for '--steps <steps>': expected a whole number of steps from 1 to 9007199254740992 (2^53)"
        ),
        (
            ["run", "crates", "--every", "-3"],
            "chipmunk-sim: The value '-3' is invalid for '--every <every>': expected a whole number of steps from 1 to 9007199254740992 (2^53)"
        ),
        (["run", "/tmp"], "chipmunk-sim: /tmp: is a directory, not a scene file"),
        (
            ["run", "/dev/zero"],
            "chipmunk-sim: /dev/zero: is not a regular file (a FIFO, device or socket), not a scene file"
        ),
    ])
    func oneLineOnStderr(arguments: [String], expected: String) throws {
        let result = try Tool.run("chipmunk-sim", arguments)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == expected + "\n")
    }

    @Test func theOutputIsNeverTheSceneFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("self-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scene = #"{"name": "one", "bodies": [{"mass": 1, "moment": 1}]}"#
        try scene.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Tool.sim("run", path, "--steps", "1", "--output", path)
        #expect(result.status != 0)
        #expect(result.stderr == "chipmunk-sim: --output \(path) is the scene file being read; choose another file\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == scene, "the scene file is untouched")
    }

    /// A run that diverges: the rows before the failing step are kept, and one line names
    /// the step and the body.
    @Test func aDivergingRunKeepsItsRowsAndNamesTheStep() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runaway-\(UUID().uuidString).json")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"name": "runaway", "gravity": [0, -1e14], "bodies": [{"mass": 1, "moment": 1}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Tool.sim("run", path, "--steps", "1000")
        #expect(result.status == 65, "a run that diverged: exit status 65")
        #expect(
            result.stderr
                == "chipmunk-sim: step 538: the simulation diverged: body 0's position would become -1003145833333332.9 "
                + "(bodies[0] in \(URL(fileURLWithPath: path).lastPathComponent))\n"
        )
        let rows = result.stdout.split(separator: "\n")
        #expect(rows.count == 1 + 537 && rows.last!.hasPrefix("537,0,"), "every step before the failing one")
    }

    /// `--dt 1e160` used to abort the engine on the second step.
    @Test func aHugeTimeStepEndsInOneLine() throws {
        let result = try Tool.sim("run", "crates", "--steps", "10", "--dt", "1e160")
        #expect(result.status == 65 && result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("chipmunk-sim: step 2: the simulation diverged: body "))
        #expect(result.stdout.split(separator: "\n").count == 1 + 5, "the five crates after step 1")
    }

    @Test func aFullDiskIsReportedWithTheStepReached() throws {
        let result = try Tool.sim("run", "crates", "--output", "/dev/full")
        #expect(result.status != 0 && result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("chipmunk-sim: cannot write the output after step "))
        #expect(result.stderr.hasSuffix(": No space left on device\n"))
    }

    @Test func badSceneFilesNameTheProblem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"name": "bad", "bodies": [{"mass": -1, "moment": 1}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let result = try Tool.sim("run", path, "--steps", "1")
        #expect(result.status != 0 && result.stdout.isEmpty)
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(
            result.stderr
                == "chipmunk-sim: \(name): bodies[0].mass: must be from 1e-150 to 1e+150 (got -1.0)\n")
    }

    @Test func listAndHelp() throws {
        let list = try Tool.sim("list")
        #expect(list.status == 0)
        #expect(
            list.stdout.split(separator: "\n").map { $0.split(separator: " ").first! } == [
                "crate", "crates", "crates-tilt", "pyramid-stack", "pyramid-topple", "tumble", "planet", "one-way",
                "joints", "theo-jansen", "chains", "buoyancy", "ui-heavy", "ui-drag", "ui-snake", "ui-snap", "ui-push",
            ])
        let help = try Tool.sim("run", "--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: chipmunk-sim run <scene>") && help.stdout.contains("--every"))
        #expect(!help.stdout.contains("canonical"), "the ignored flag is hidden")
        let top = try Tool.sim("--help")
        #expect(top.status == 0 && top.stdout.contains("SUBCOMMANDS"))
    }
}
