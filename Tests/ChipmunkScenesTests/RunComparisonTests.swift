import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import Testing

/// `RunComparison`: two runs of a scene compared bit for bit. The expected first divergent
/// steps come from elsewhere: the step an input was given at, and `Scene.verify`'s
/// own report.
@Suite("Run comparison")
struct RunComparisonTests {
    static let goldenFolder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

    static func golden(_ name: String) throws -> GoldenFile {
        let url = goldenFolder.appendingPathComponent("\(name).golden")
        return try GoldenFile(parsing: String(contentsOf: url, encoding: .utf8), source: url.lastPathComponent)
    }

    /// A tiny push on the third crate before step `step`: a perturbation with a known start.
    static func nudge(at step: Int) -> InputRecording.Entry {
        .init(step: step, input: .impulse(body: "2", impulse: [1e-9, 0], at: nil))
    }

    @Test("A golden file and its scene are identical at every step both have")
    func identical() throws {
        let golden = try Self.golden("crates")
        let run = try RunTrace(
            running: SceneCatalog.scene(named: "crates"), steps: golden.steps, timeStep: golden.timeStep,
            source: "crates")
        let comparison = RunComparison(RunTrace(golden: golden, source: "crates.golden"), run)
        #expect(comparison.isIdentical)
        #expect(comparison.steps == golden.steps)
        #expect(comparison.samples.map(\.step) == golden.checkpoints.map(\.step))
        #expect(comparison.samples.allSatisfy { $0.largest == 0 })
        #expect(comparison.growth.isEmpty && comparison.differences.isEmpty)
        #expect(comparison.report.contains("identical: \(golden.steps) steps' state hashes"))
    }

    /// Issue 28: the growth rounded log10 of an infinite difference to Int and trapped.
    @Test(
        "A non-finite value in one run differs by infinity; the growth counts the finite differences",
        arguments: [
            Double.infinity, -.infinity, .nan,
        ])
    func nonFiniteValues(value: Double) throws {
        let golden = try Self.golden("crates")
        var a = RunTrace(golden: golden, source: "crates.golden")
        let b = RunTrace(golden: golden, source: "other.golden")
        let index = try #require(a.checkpoints.firstIndex { $0.step == 300 })
        a.checkpoints[index].bodies[1].vy = value
        a.checkpoints[index + 1].bodies[1].x += 1e-9  // and a finite difference after it
        let comparison = RunComparison(a, b)
        #expect(comparison.firstDivergentStep == 300)
        #expect(comparison.differences.count == 1 && comparison.differences[0].path == "bodies[1].vy")
        #expect(comparison.differences[0].magnitude == .infinity)
        #expect(comparison.samples.first { $0.step == 300 }?.largest == .infinity)
        #expect(comparison.growth.first?.step == 400 && comparison.growth.allSatisfy { $0.largest.isFinite })
        #expect(comparison.report.contains("  bodies[1].vy: A \(value), B "))
    }

    @Test("Two runs, one nudged before step 50: the first divergent step is 50, and the nudged body differs there")
    func nudged() throws {
        let a = try RunTrace(running: SceneCatalog.scene(named: "crates"), steps: 400, source: "A")
        let b = try RunTrace(
            running: SceneCatalog.scene(named: "crates"), steps: 400, inputs: [Self.nudge(at: 50)], source: "B")
        let comparison = RunComparison(a, b)
        #expect(comparison.firstDivergentStep == 50)
        #expect(comparison.differencesStep == 50)
        #expect(comparison.divergentBodies.contains(2))
        #expect(comparison.differences.contains { $0.path == "bodies[2].vx" })
        // Each listed difference is one of step 50's states, with both values.
        let stateA = a.checkpoints[50].bodies
        let stateB = b.checkpoints[50].bodies
        for difference in comparison.differences {
            let quantityA = stateA[difference.body].quantities.first { $0.name == difference.quantity }!.value
            let quantityB = stateB[difference.body].quantities.first { $0.name == difference.quantity }!.value
            #expect(quantityA.bitPattern == difference.a.bitPattern && quantityB.bitPattern == difference.b.bitPattern)
            #expect(quantityA.bitPattern != quantityB.bitPattern)
        }
        #expect(comparison.samples.prefix(50).allSatisfy { $0.largest == 0 })
        #expect(comparison.samples[50].largest > 0)
        #expect(comparison.report.contains("first divergent step: 50\n"))
    }

    @Test("The growth table: each power of ten's line is the first step at which the largest difference reaches it")
    func growth() throws {
        let a = try RunTrace(running: SceneCatalog.scene(named: "crates"), steps: 600, source: "A")
        let b = try RunTrace(
            running: SceneCatalog.scene(named: "crates"), steps: 600, inputs: [Self.nudge(at: 20)], source: "B")
        let comparison = RunComparison(a, b)
        let growth = comparison.growth
        #expect(growth.first?.power == -15)
        #expect(growth.map(\.power) == Array(-15..<(-15 + growth.count)))
        let peak = comparison.samples.map(\.largest).max()!
        #expect(growth.last.map { peak >= Double("1e\($0.power)")! && peak < Double("1e\($0.power + 1)")! } == true)
        for entry in growth {
            let threshold = Double("1e\(entry.power)")!
            let first = comparison.samples.first { $0.largest >= threshold }
            #expect(first?.step == entry.step, "1e\(entry.power)")
            #expect(first?.largest == entry.largest)
        }
        // The largest difference at a step, recomputed from both runs' states.
        for sample in comparison.samples.prefix(200) {
            let x = a.checkpoints[sample.step].bodies
            let y = b.checkpoints[sample.step].bodies
            var largest = 0.0
            for (p, q) in zip(x, y) {
                for (u, v) in zip(p.quantities, q.quantities) { largest = max(largest, abs(u.value - v.value)) }
            }
            #expect(largest == sample.largest, "step \(sample.step)")
        }
    }

    @Test("A golden file against a changed scene: the first divergent step is the one verify names")
    func goldenAgainstChangedScene() throws {
        let golden = try Self.golden("crates")
        func changed() throws -> Scene {
            let scene = try SceneCatalog.scene(named: "crates")
            scene.space.bodies[1].velocity = [0, -1e-12]
            return scene
        }
        var expected: Int?
        do {
            try changed().verify(against: golden)
        } catch let error as VerificationFailure {
            expected = error.firstDifferingStep
        }
        let comparison = RunComparison(
            RunTrace(golden: golden, source: "crates.golden"),
            try RunTrace(running: changed(), steps: golden.steps, timeStep: golden.timeStep, source: "changed"))
        #expect(expected != nil)
        #expect(comparison.firstDivergentStep == expected)
        // The golden file has states only at checkpoints: the differences are read at the next one.
        let checkpoint = golden.checkpoints.map(\.step).first { $0 >= expected! }
        #expect(comparison.differencesStep == checkpoint)
        #expect(!comparison.differences.isEmpty)
        #expect(comparison.notes.contains { $0.contains("content hashes differ") })
    }

    @Test("A body removed before step 30 in one run: the step is named with both counts, the rest still compared")
    func bodyCounts() throws {
        let a = try RunTrace(running: SceneCatalog.scene(named: "crates"), steps: 100, source: "A")
        let b = try RunTrace(
            running: SceneCatalog.scene(named: "crates"), steps: 100,
            inputs: [.init(step: 30, input: .remove(body: "4"))], source: "B")
        let comparison = RunComparison(a, b)
        #expect(comparison.firstDivergentStep == 30)
        #expect(comparison.differencesStep == 30)
        #expect(comparison.bodyCounts.map { [$0.a, $0.b] } == [5, 4])
        #expect(comparison.report.contains("at step 30: A has 5 bodies, B 4\n"))
        // Before step 30 nothing differs; the four crates both runs have are still compared.
        #expect(comparison.samples.prefix(30).allSatisfy { $0.largest == 0 })
        #expect(comparison.samples.allSatisfy { $0.largest.isFinite })
    }

    @Test("Two golden files: hashes at every step, states at checkpoints")
    func twoGoldenFiles() throws {
        let golden = try Self.golden("crates")
        let same = RunComparison(RunTrace(golden: golden, source: "a"), RunTrace(golden: golden, source: "b"))
        #expect(same.isIdentical)
        var edited = golden
        edited.hashes[122] ^= 1  // step 123's hash
        edited.checkpoints[2].bodies[4].w = edited.checkpoints[2].bodies[4].w.nextUp  // step 300
        let comparison = RunComparison(RunTrace(golden: golden, source: "a"), RunTrace(golden: edited, source: "b"))
        #expect(comparison.firstDivergentStep == 123)
        #expect(comparison.differencesStep == edited.checkpoints[2].step)
        #expect(comparison.differences.map(\.path) == ["bodies[4].w"])
    }

    @Test("Sources are told apart by what the file holds; a recording is replayed with its inputs")
    func sources() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-comparison-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func record(nudgeAt step: Int) throws -> String {
            let recorder = SceneRecorder(try SceneCatalog.scene(named: "crates"), source: "crates")
            for s in 1...200 {
                if s == step { try recorder.apply(Self.nudge(at: step).input) }
                try recorder.step()
            }
            let path = folder.appendingPathComponent("nudged-\(step).json").path
            try recorder.recording.write(to: URL(fileURLWithPath: path))
            return path
        }
        let first = try record(nudgeAt: 70)
        let second = try record(nudgeAt: 90)
        let goldenPath = Self.goldenFolder.appendingPathComponent("crates.golden").path
        guard case .recording = try RunSource.open(first) else {
            Issue.record("not a recording")
            return
        }
        guard case .golden = try RunSource.open(goldenPath) else {
            Issue.record("not a golden file")
            return
        }
        guard case .scene = try RunSource.open("crates") else {
            Issue.record("not a scene")
            return
        }

        let recordings = try RunComparison(RunSource.open(first), RunSource.open(second))
        #expect(recordings.firstDivergentStep == 70)
        #expect(recordings.steps == 200)
        #expect(recordings.notes.isEmpty, "\(recordings.notes)")
        // A recording against the plain scene: the scene is given the recording's inputs.
        let withInputs = try RunComparison(RunSource.open("crates"), RunSource.open(first))
        #expect(withInputs.isIdentical)
        let goldenAndScene = try RunComparison(RunSource.open(goldenPath), RunSource.open("crates"))
        #expect(goldenAndScene.isIdentical)
        // The scene keeps its states only at the golden file's checkpoints.
        let golden = try Self.golden("crates")
        #expect(goldenAndScene.b.checkpoints.map(\.step) == golden.checkpoints.map(\.step))
        #expect(goldenAndScene.b.steps == golden.steps)
        #expect(throws: RunComparisonError.self) { try RunSource.open("missing.golden") }
        #expect(throws: SceneError.self) { try RunSource.open("no-such-scene") }
    }
}
