import ChipmunkPictures
import Foundation
import Testing
import ChipmunkTestSupport

/// `chipmunk-sim diff`: two recordings of the crates, pushed at different steps, must
/// part at the earlier push's step; the comparison page, opened in headless Chromium, must
/// show the same step, draw run B in outline and the divergent bodies in red from that step.
@Suite("chipmunk-sim diff")
struct DiffCommandTests {
    /// Two recordings of `crates`, 200 steps, one crate pushed before step 70 in the first
    /// and before step 90 in the second: they are the same run up to step 69.
    static func recordings(in folder: TemporaryFolder) throws -> (String, String) {
        var paths: [String] = []
        for step in [70, 90] {
            let inputs = folder.path("push-\(step).json")
            try Data(#"[{"step": \#(step), "input": {"impulse": {"body": "2", "impulse": [0, 5000]}}}]"#.utf8)
                .write(to: URL(fileURLWithPath: inputs))
            let output = folder.path("pushed-\(step).inputs.json")
            let made = try Tool.sim("record", "crates", "--inputs", inputs, "--steps", "200", "--output", output)
            #expect(made.status == 0, "\(made.stderr)")
            paths.append(output)
        }
        return (paths[0], paths[1])
    }

    @Test("Identical runs: exit 0 and one line saying so")
    func identical() throws {
        let result = try Tool.sim("diff", "Tests/Golden/crates.golden", "crates")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("identical: 600 steps' state hashes and 6 steps' body states have the same bits"))
        #expect(result.stderr.isEmpty)
    }

    @Test("Two recordings pushed at steps 70 and 90: the first divergent step is 70; exit 1")
    func differing() throws {
        let folder = try TemporaryFolder("diff")
        defer { folder.remove() }
        let (a, b) = try Self.recordings(in: folder)
        let result = try Tool.sim("diff", a, b)
        #expect(result.status == 1)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("first divergent step: 70"))
        #expect(lines.contains { $0.hasPrefix("at step 70: ") })
        // The pushed crate's vertical velocity, with both values.
        #expect(lines.contains { $0.hasPrefix("  bodies[2].vy: A ") && $0.contains(", B ") })
        #expect(lines.contains("largest difference:"))
        #expect(lines.contains { $0.hasPrefix("  ≥ 1e-15") && $0.contains(": first at step 70 (") })
        // --steps 69 stops before the push: identical.
        let before = try Tool.sim("diff", a, b, "--steps", "69")
        #expect(before.status == 0, "\(before.stdout)\(before.stderr)")
    }

    @Test("Errors: one line naming the argument; exit 65 for what cannot be compared, 64 for a bad option")
    func errors() throws {
        let missing = try Tool.sim("diff", "missing.golden", "crates")
        #expect(missing.status == 65)
        #expect(missing.stderrLines == ["chipmunk-sim: missing.golden: no such golden file"])
        let noScene = try Tool.sim("diff", "crates", "no-such-scene")
        #expect(noScene.status == 65)
        #expect(noScene.stderrLines.count == 1 && noScene.stderr.contains("no-such-scene"))
        let steps = try Tool.sim("diff", "crates", "crates", "--steps", "0")
        #expect(steps.status == 64)
        #expect(steps.stderrLines.count == 1 && steps.stderr.contains("--steps"))
        // Every body's state at every step, kept in memory: refused before running.
        let large = try Tool.sim("diff", "pyramid-stack", "pyramid-stack", "--steps", "1000000")
        #expect(large.status == 65)
        #expect(large.stderrLines.count == 1 && large.stderr.contains("pyramid-stack: 1000000 steps of "))
        let html = try Tool.sim("diff", "crates", "crates", "--format", "html")
        #expect(html.status == 64)
        #expect(html.stderrLines == ["chipmunk-sim: --format html needs --output FILE (-o FILE)"])
        let folder = try TemporaryFolder("diff-snapshot")
        defer { folder.remove() }
        let file = folder.path("crates.snapshot")
        #expect(try Tool.sim("snapshot", "crates", "--at", "5", "-o", file).status == 0)
        let snapshot = try Tool.sim("diff", file, "crates")
        #expect(snapshot.status == 65)
        #expect(snapshot.stderrLines.count == 1 && snapshot.stderr.contains("is a snapshot, a state rather than a run"))
        let help = try Tool.sim("diff", "--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("chipmunk-sim diff Tests/Golden/crates.golden crates"))
        #expect(help.stdout.contains("Exit status: 0 when the runs are identical, 1 when they differ"))
    }

    @Test("verify --diff-page: a failed check writes the comparison page, naming the step verify names")
    func verifyWritesThePage() throws {
        let folder = try TemporaryFolder("verify-diff-page")
        defer { folder.remove() }
        // The crates' golden file with step 50's hash changed by one bit.
        let text = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Golden/crates.golden"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("step 50 ") })
        let hash = try #require(UInt64(lines[index].dropFirst("step 50 ".count), radix: 16))
        let flipped = String(hash ^ 1, radix: 16)
        lines[index] = "step 50 " + String(repeating: "0", count: 16 - flipped.count) + flipped
        let golden = folder.path("crates.golden")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: golden))
        let page = folder.path("crates.diff.html")
        let failed = try Tool.sim("verify", "crates", "--golden", golden, "--diff-page", page)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("wrote \(page): the comparison page"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("\"firstDivergentStep\":50,"))
        // A check that passes writes no page.
        let passed = try Tool.sim(
            "verify", "crates", "--golden", "Tests/Golden/crates.golden", "--diff-page", folder.path("none.html"))
        #expect(passed.status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path("none.html")))
    }

    /// Issue 28: a golden file with an `inf` or `nan` body value made the growth of the
    /// largest difference convert an infinite number to Int: diff and verify --diff-page
    /// died with SIGILL (132) and no message. Then such a file was compared, and reported as
    /// physics that differed (exit 1); but no recording holds one (a step that gives nan
    /// throws), so it is refused as a damaged file, its line named, and no page is written.
    @Test(
        "A golden file with inf or nan in a body state is refused: exit 65, its line named",
        arguments: ["inf", "nan", "1e999"])
    func nonFiniteGoldenValues(value: String) throws {
        let folder = try TemporaryFolder("diff-non-finite")
        defer { folder.remove() }
        let text = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Golden/crates.golden"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let checkpoint = try #require(lines.firstIndex(of: "checkpoint 100"))
        var fields = lines[checkpoint + 1].split(separator: " ").map(String.init)  // body 0 x y angle vx vy w
        fields[2] = value
        lines[checkpoint + 1] = fields.joined(separator: " ")
        let golden = folder.path("crates.golden")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: golden))
        let message = "chipmunk-sim: \(golden):\(checkpoint + 2): body 0: '\(value)' is not a finite decimal number\n"

        let diff = try Tool.sim("diff", golden, "crates")
        #expect(diff.status == 65 && diff.stdout.isEmpty)
        #expect(diff.stderr == message)
        let page = folder.path("crates.diff.html")
        let verify = try Tool.sim("verify", "crates", "--golden", golden, "--diff-page", page)
        #expect(verify.status == 65)
        #expect(verify.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: page))
    }

    /// Issue 28: a recording with no hashes stopped diff with exit 132 ("steps must be at
    /// least 1"), and replay said its 0 steps replayed bit for bit.
    @Test("A recording with no hashes: exit 65 and one line from diff, an error from replay")
    func recordingWithoutHashes() throws {
        let folder = try TemporaryFolder("diff-no-hashes")
        defer { folder.remove() }
        let recording = folder.path("crates.inputs.json")
        #expect(try Tool.sim("record", "crates", "--steps", "10", "--output", recording).status == 0)
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        let emptied = text.replacing(#/"hashes":\[[^\]]*\]/#, with: #""hashes":[]"#)
        #expect(emptied != text)
        try Data(emptied.utf8).write(to: URL(fileURLWithPath: recording))
        let message = "crates.inputs.json: hashes: is empty; a recording holds the hash after each step, at least one"
        for arguments in [[recording, "crates"], ["crates", recording]] {
            let diff = try Tool.run("chipmunk-sim", ["diff"] + arguments)
            #expect(diff.status == 65)
            #expect(diff.stderrLines.count == 1 && diff.stderr.contains(message), "\(diff.stderr)")
            #expect(diff.stderr.components(separatedBy: "crates.inputs.json:").count == 2, "named once: \(diff.stderr)")
        }
        let replay = try Tool.sim("replay", recording)
        #expect(replay.status == 65)
        #expect(replay.stderr.contains(message), "\(replay.stderr)")
    }

    /// The `<body>` attributes the page sets once drawn, opened at `fragment`.
    static func pageState(_ page: String, _ fragment: String) throws -> [String: String] {
        let dom = try Chromium.dom(URL(fileURLWithPath: page).absoluteString + fragment)
        guard let start = dom.range(of: "<body"), let end = dom.range(of: ">", range: start.upperBound..<dom.endIndex)
        else { return [:] }
        var attributes: [String: String] = [:]
        let tag = String(dom[start.upperBound..<end.lowerBound])
        for match in tag.matches(of: #/data-([a-z-]+)="([^"]*)"/#) {
            attributes[String(match.output.1)] = String(match.output.2)
        }
        return attributes
    }

    @Test("The page in headless Chromium: the text's first divergent step, B in outline, the divergent bodies in red")
    func page() throws {
        let folder = try TemporaryFolder("diff-page")
        defer { folder.remove() }
        let (a, b) = try Self.recordings(in: folder)
        let page = folder.path("diff.html")
        let made = try Tool.sim("diff", a, b, "--format", "html", "-o", page)
        #expect(made.status == 1)
        #expect(made.stderr == "wrote \(page): the runs first differ at step 70\n")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("http://") || html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!html.contains("https://") && !html.contains("<script src"))

        let opened = try Self.pageState(page, "")  // opens at the first divergent step
        #expect(opened["ready"] == "1")
        #expect(opened["first-divergent-step"] == "70")
        #expect(opened["step"] == "70")
        #expect(opened["outlines"] == "5")  // the five crates of run B
        #expect(opened["highlighted"].flatMap(Int.init).map { $0 >= 1 } == true)
        let before = try Self.pageState(page, "#step=69")
        #expect(before["step"] == "69" && before["outlines"] == "5" && before["highlighted"] == "0")

        // The chart: a line over the steps that differ, and the first divergent step marked.
        #expect(html.contains("<polyline id=\"chart-line\""))
        let points = html.firstMatch(of: #/id="chart-line"[^>]*points="([^"]*)"/#).map { String($0.output.1) }
        #expect((points?.split(separator: " ").count ?? 0) == 131)  // steps 70 to 200 differ
        #expect(html.contains("<line id=\"chart-first\" data-step=\"70\""))

        // Pixels: B's outline colour is drawn, and the red of divergence only from step 70.
        func count(_ image: FrameImage, near color: (Int, Int, Int)) -> Int {
            var n = 0
            for y in 0..<min(600, image.height) {
                for x in 0..<min(600, image.width) {
                    let c = image.color(x: x, y: y)
                    if abs(Int(c.red) - color.0) <= 12 && abs(Int(c.green) - color.1) <= 12
                        && abs(Int(c.blue) - color.2) <= 12
                    {
                        n += 1
                    }
                }
            }
            return n
        }
        let url = URL(fileURLWithPath: page).absoluteString
        let calm = try Chromium.screenshot(url + "#step=69", width: 820, height: 900)
        let parted = try Chromium.screenshot(url + "#step=120", width: 820, height: 900)
        let blue = (0x15, 0x65, 0xc0)
        let red = (0xd3, 0x2f, 0x2f)
        #expect(count(calm, near: blue) > 100)
        #expect(count(calm, near: red) == 0)
        #expect(count(parted, near: red) > 100)
    }

    /// A scene file stepped at 1e-300 s: 10 s of it, the default span, was converted to a
    /// step count with Int(_:), which trapped.
    @Test func aTinyTimeStepAsksForSteps() throws {
        let folder = try TemporaryFolder("diff-tiny")
        defer { folder.remove() }
        let scene = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent("Scenes/crate.json"), encoding: .utf8)
        let tiny = folder.path("tiny.json")
        try scene.replacingOccurrences(of: #""version""#, with: #""timeStep": 1e-300, "version""#).write(
            toFile: tiny, atomically: true, encoding: .utf8)
        let refused = try Tool.sim("diff", tiny, "crate")
        #expect(refused.status == 65)
        #expect(
            refused.stderr
                == "chipmunk-sim: \(tiny): 10 s at its time step of 1e-300 s is more than 1000000 steps, "
                + "the most diff compares; give --steps\n")
        #expect(try Tool.sim("diff", tiny, tiny, "--steps", "3").status == 0)
    }

    /// A file holding more steps than the other side says so: "identical" over a golden
    /// file's 5 steps said nothing of a recording's 10 (a helper's attack).
    @Test func aLongerFileSaysHowManyStepsItHolds() throws {
        let folder = try TemporaryFolder("diff-lengths")
        defer { folder.remove() }
        let golden = folder.path("c.golden")
        let recording = folder.path("c.inputs.json")
        #expect(try Tool.sim("verify", "crates", "--update", "--steps", "5", "--golden", golden).status == 0)
        #expect(try Tool.sim("record", "crates", "--steps", "10", "-o", recording).status == 0)
        let result = try Tool.sim("diff", golden, recording)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("note: \(recording) holds 10 steps; the first 5 are compared\n"), "\(result.stdout)")
        // Said once: "… has 5 steps, … 10; compared 5" said it again.
        #expect(result.stdout.components(separatedBy: "note: ").count == 2, "\(result.stdout)")
        #expect(result.stdout.contains("B: \(recording) (crates, 5 steps)\n"), "\(result.stdout)")
    }
}
