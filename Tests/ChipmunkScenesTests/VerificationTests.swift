@testable import Chipmunk
import Foundation
import Testing

import ChipmunkCatalog
@testable import ChipmunkScenes
import ChipmunkTestSupport

/// Golden files and `Scene.verify`: every built-in scene reproduces its checked-in golden
/// file bit for bit, and a changed scene is caught at the exact step it first differs.
@Suite struct VerificationTests {
    static let goldenFolder = packageRoot.appendingPathComponent("Tests/Golden")

    @Test(arguments: SceneCatalog.builtIn.map(\.name))
    func everyBuiltInSceneMatchesItsGoldenFile(name: String) throws {
        // On failure the test carries the comparison page (VerifyAttachingDiff.swift).
        let summary = try verifyAttachingDiff(
            { try SceneCatalog.scene(named: name) }, against: Self.goldenFolder.appendingPathComponent("\(name).golden")
        )
        #expect(summary.steps > 0)
    }

    @Test func aBuiltInSceneAndItsDataFileHaveOneContentHash() throws {
        for name in ["crate", "crates", "crates-tilt"] {
            let builtIn = try SceneCatalog.scene(named: name)
            let file = try SceneDescription.load(contentsOf: sceneFile("\(name).json")).makeScene(source: name)
            #expect(builtIn.contentHash() == file.contentHash(), "\(name)")
        }
    }

    /// A deliberately changed parameter: verification names the first step that differs,
    /// which is found here independently, by stepping both scenes side by side.
    @Test func aChangedParameterIsFoundAtTheFirstStepThatDiffers() throws {
        let golden = try GoldenFile(
            parsing: String(contentsOf: Self.goldenFolder.appendingPathComponent("crates.golden"), encoding: .utf8),
            source: "crates.golden")
        func changed() -> Scene {
            let scene = BookScenes.crates()
            scene.space.shapes[6].friction = 0.2  // one crate's friction: it matters only once it touches
            return scene
        }
        let original = BookScenes.crates()
        let modified = changed()
        var firstDifferent: Int?
        for step in 1...golden.steps where firstDifferent == nil {
            try original.step(golden.timeStep)
            try modified.step(golden.timeStep)
            if original.space.stateHash() != modified.space.stateHash() { firstDifferent = step }
        }
        let expected = try #require(firstDifferent, "the change shows within the golden file's steps")
        #expect(expected > 1, "the first steps are the same: the crates are still falling")

        let failure = try #require(throws: VerificationFailure.self) { try changed().verify(against: golden) }
        #expect(failure.firstDifferingStep == expected)
        #expect(failure.environment.contains { $0.contains("the scene itself changed") })
        guard case .differs(_, _, _, let checkpoint?, let differences) = failure.kind else {
            Issue.record("expected body differences at a checkpoint: \(failure)")
            return
        }
        #expect(checkpoint >= expected && checkpoint % golden.checkpointInterval == 0 || checkpoint == golden.steps)
        #expect(!differences.isEmpty)
        #expect(failure.summary.contains("first at step \(expected)"))
        #expect(failure.description.contains("bodies[\(differences[0].body)].\(differences[0].quantity)"))
    }

    @Test func aGoldenFileRoundTripsThroughItsText() throws {
        let golden = try BookScenes.crates().recordGolden(steps: 250, checkpointEvery: 100)
        let parsed = try GoldenFile(parsing: golden.text, source: "memory")
        #expect(parsed == golden)
        #expect(golden.checkpoints.map(\.step) == [100, 200, 250])
        #expect(try BookScenes.crates().verify(against: parsed).steps == 250)
    }

    @Test func sleepingIsACheckpoint() throws {
        let golden = try SceneCatalog.scene(named: "pyramid-stack").recordGolden(steps: 2000, checkpointEvery: 1000)
        let asleep = try #require(golden.asleepStep, "the pyramid falls asleep")
        #expect(golden.checkpoints.contains { $0.step == asleep })
    }

    /// Issue 19: `verify` read a checkpoint's body lines only after a hash differed, so a
    /// golden file whose body lines were damaged passed. They are compared at every checkpoint.
    @Test func aDamagedCheckpointFails() throws {
        let golden = try BookScenes.crate().recordGolden(steps: 120, checkpointEvery: 100)
        let damaged = golden.text.replacingOccurrences(of: "\nbody 0 150.0 ", with: "\nbody 0 151.0 ")
        #expect(damaged != golden.text)
        let parsed = try GoldenFile(parsing: damaged, source: "damaged.golden")
        let failure = try #require(throws: VerificationFailure.self) { try BookScenes.crate().verify(against: parsed) }
        guard case .checkpointDiffers(let checkpoint, let differences) = failure.kind else {
            Issue.record("\(failure)")
            return
        }
        #expect(checkpoint == 100 && differences.count == 1)
        #expect(failure.summary.contains("the state hashes match, but checkpoint 100's body lines do not"))
        #expect(failure.summary.contains("bodies[0].x: the run has 150.0, the file 151.0"), "\(failure.summary)")
    }

    /// Golden files record the engine library's build id (issue 22). Another build that
    /// computes the same bits passes; when the physics differs, the failure names the build.
    @Test func anotherBuildOfTheEngineIsNamedWhenThePhysicsDiffers() throws {
        let golden = try BookScenes.crate().recordGolden(steps: 10)
        #expect(golden.engineBuild == Engine.buildID && Engine.buildID.count == 40, "\(Engine.buildID)")
        #expect(golden.text.contains("\nengine-build \(Engine.buildID)\n"))
        #expect(try GoldenFile(parsing: golden.text, source: "x.golden") == golden)
        var rebuilt = golden
        rebuilt.engineBuild = String(repeating: "0", count: 40)
        try BookScenes.crate().verify(against: rebuilt)
        rebuilt.hashes[4] ^= 1
        let failure = try #require(throws: VerificationFailure.self) { try BookScenes.crate().verify(against: rebuilt) }
        #expect(failure.firstDifferingStep == 5)
        #expect(
            failure.description.contains(
                "note: the golden file was made with another build of engine 7.0.3 (build id 0000"), "\(failure)")
        // Format 1 files, without the line, are still read.
        let formatOne = golden.text.replacingOccurrences(of: "chipmunk-golden 2\n", with: "chipmunk-golden 1\n")
            .replacingOccurrences(of: "engine-build \(Engine.buildID)\n", with: "")
        #expect(try GoldenFile(parsing: formatOne, source: "old.golden").engineBuild == nil)
        #expect(throws: GoldenFileError.self) {
            try GoldenFile(
                parsing: golden.text.replacingOccurrences(of: "engine-build \(Engine.buildID)\n", with: ""),
                source: "x.golden")
        }
    }

    @Test func anotherEnvironmentIsReportedAsSuch() throws {
        var golden = try BookScenes.crate().recordGolden(steps: 10)
        golden.architecture = "sparc"
        golden.engineVersion = "6.2.1"
        let failure = try #require(throws: VerificationFailure.self) { try BookScenes.crate().verify(against: golden) }
        guard case .environmentOnly = failure.kind else {
            Issue.record("\(failure)")
            return
        }
        #expect(failure.summary.contains("the physics matches"))
        #expect(failure.summary.contains("made on sparc"))
        #expect(failure.summary.contains("engine 6.2.1"))
    }

    /// A helper's attack on golden files: a checkpoint past the last step was never
    /// compared (verify said it matched), `asleep -3` was accepted, a bad header value gave
    /// one message naming four keys and no line, and a byte-order mark passed verify but
    /// not diff.
    @Test func aGoldenFilesHeaderAndCheckpointsAreCheckedByLine() throws {
        let golden = try BookScenes.crate().recordGolden(steps: 120, checkpointEvery: 100)
        func error(_ text: String) -> String {
            do {
                _ = try GoldenFile(parsing: text, source: "x.golden")
                return "accepted"
            } catch {
                return error.description
            }
        }
        func replacing(_ prefix: String, with line: String) -> String {
            golden.text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(prefix) ? line : String($0) }.joined(separator: "\n")
        }
        let lines = golden.text.split(separator: "\n")
        let contentLine = try #require(lines.firstIndex { $0.hasPrefix("content ") }) + 1
        let asleepLine = try #require(lines.firstIndex { $0.hasPrefix("asleep ") }) + 1
        #expect(
            error(replacing("content ", with: "content xyz"))
                == "x.golden:\(contentLine): 'content xyz': content must be 16 hex digits")
        #expect(
            error(replacing("asleep ", with: "asleep -3"))
                == "x.golden:\(asleepLine): 'asleep -3': asleep must be a step from 1 to 120, or '-'")
        let checkpointLine = try #require(lines.firstIndex { $0 == "checkpoint 100" }) + 1
        #expect(
            error(replacing("checkpoint 100", with: "checkpoint 99999"))
                == "x.golden:\(checkpointLine): 'checkpoint 99999': checkpoints must come in order, from step 1 to 120")
        // The checkpoints are the recorder's: 'every' was never checked against them.
        #expect(
            error(replacing("checkpoint 100", with: "checkpoint 50"))
                == "x.golden:\(checkpointLine): 'checkpoint 50': with 'every 100', 'steps 120' and 'asleep -', "
                + "checkpoints are at multiples of 100, the last step and the asleep step")
        #expect(
            error(replacing("every ", with: "every 50"))
                == "x.golden: no 'checkpoint 50': with 'every 50', 'steps 120' and 'asleep -', there is one at step 50")
        // A body's nan or inf is refused as data: it never matched, and verify said the physics differed.
        let bodyLine = try #require(lines.firstIndex { $0.hasPrefix("body 0 ") }) + 1
        for bad in ["nan", "inf", "1e400", "0x1p3"] {
            let text = golden.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { $0.offset + 1 == bodyLine ? "body 0 \(bad) 1 2 3 4 5" : String($0.element) }
                .joined(separator: "\n")
            #expect(error(text) == "x.golden:\(bodyLine): body 0: '\(bad)' is not a finite decimal number")
        }
        #expect(try GoldenFile(parsing: "\u{FEFF}" + golden.text, source: "x.golden") == golden)
        // Checked out for Windows (CRLF): the same file, not "its first line must be …".
        let crlf = golden.text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try GoldenFile(parsing: crlf, source: "x.golden") == golden)
        // A time step is a decimal: Double(_:) read "0x1p-7" as 1/128.
        let dtLine = try #require(lines.firstIndex { $0.hasPrefix("dt ") }) + 1
        #expect(
            error(replacing("dt ", with: "dt 0x1p-7"))
                == "x.golden:\(dtLine): 'dt 0x1p-7': dt must be a decimal time step from 1e-300 to 1e+300 seconds")
    }

    @Test(arguments: [
        (
            "not a golden file\n",
            "x.golden:1: not a golden file of format 1 or 2 (its first line must be 'chipmunk-golden 2')"
        ),
        ("chipmunk-golden 1\nscene a\n\nend\n", "x.golden:3: an empty line"),
        ("chipmunk-golden 1\nend\nscene a\n", "x.golden:3: text after 'end'"),
        ("chipmunk-golden 1\nscene a\nstep 2 0000000000000000\n", "x.golden:3: step 2 out of order (expected step 1)"),
        ("chipmunk-golden 1\nscene a\nwhat 1\n", "x.golden:3: unknown line 'what'"),
        ("chipmunk-golden 1\nscene a\nstep 1 0000000000000000\nend\n", "x.golden: 'content' is missing"),
        (
            "chipmunk-golden 1\nscene a\nstep 1 00000000000000zz\n",
            "x.golden:3: expected 'step N HASH' with 16 hex digits"
        ),
        ("chipmunk-golden 1\nscene a\n", "x.golden: the file ends before 'end'"),
        // Found by ReaderFuzzer: a body line before any checkpoint, its index not a number (a trap).
        (
            "chipmunk-golden 2\nscene a\nbody x 1 2 3 4 5 6\n",
            "x.golden:3: expected 'body INDEX x y angle vx vy w' after a checkpoint, bodies in order"
        ),
    ])
    func badGoldenFilesNameTheLine(text: String, message: String) {
        #expect(throws: GoldenFileError.self) { try GoldenFile(parsing: text, source: "x.golden") }
        do {
            _ = try GoldenFile(parsing: text, source: "x.golden")
        } catch {
            #expect(error.description == message)
        }
    }
}
