import ArgumentParser
import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a scene against its golden file: the same bits, step by step.",
        discussion: """
            The golden file holds the state hash (Space.stateHash()) after every step, every body's \
            state at checkpoints, and the scene's content hash, engine, binding and CPU architecture \
            (format: docs/determinism.md). verify runs the scene at the file's time step for the \
            file's steps. If every hash matches, it prints a line and exits 0. Otherwise it names \
            the first step that differs, and at the first checkpoint after it the bodies and \
            quantities that differ with both values, and exits 1. A golden file made from another \
            scene, engine, binding or architecture is reported as such. With --diff-page FILE, a \
            check that fails also writes the page of `diff --format html`: the golden file against \
            this run, drawn over each other, with a chart of how the difference grows.

            --update runs the scene and writes the golden file instead (--steps or --seconds, --dt \
            and --every choose what it records; by default 5 seconds at the scene's time step, a \
            checkpoint every 100 steps).

            A built-in scene is checked against its golden file as Tests/Golden/ held it when \
            chipmunk-sim was built (the binary carries them, so this works from any folder); \
            --golden FILE checks another. A scene file is checked against FILE.golden beside it.

            Examples:
              chipmunk-sim verify crates
              chipmunk-sim verify crates --golden crates.arm64.golden
              chipmunk-sim verify Scenes/crates.json --update --seconds 10
            """
    )

    @Argument(help: "A built-in scene name (see `chipmunk-sim list`), or a scene file.")
    var scene: String

    @Option(
        help:
            "The golden file. Default: the one built in for a built-in scene (with --update: Tests/Golden/<name>.golden), the file's path with .golden for a file."
    )
    var golden: String?

    @Flag(help: "Write the golden file from this run instead of checking it.")
    var update = false

    @Option(help: "When the check fails, write the comparison page of `diff --format html` to this file.")
    var diffPage: String?

    @OptionGroup(title: "With --update") var runLength: RunLength  // default: 5 seconds

    // Optional, so that `verify X --every 5` (which checks, and has nothing to record) is
    // told, as --steps is; --help states the default in words.
    @Option(
        name: .customLong("every"), parsing: .unconditional,
        help: "With --update: a checkpoint of every body's state every N steps (default: 100).",
        transform: WholeNumber.parser(1...WholeNumber.maxStep, "steps"))
    var everyGiven: Int?

    /// --every, or 100.
    var every: Int { everyGiven ?? 100 }

    func validate() throws {
        if !update, runLength.isGiven {
            throw ValidationError(
                "--steps, --seconds and --dt choose what --update records; verify takes them from the golden file")
        }
        if !update, everyGiven != nil {
            throw ValidationError(
                "--every chooses the checkpoints --update records; verify takes them from the golden file")
        }
        if update, diffPage != nil {
            throw ValidationError("--diff-page is written when a check fails; --update checks nothing")
        }
        if update {
            try Output.refuseOverwriting(goldenPath, option: "--golden", inputs: [("the scene file being read", scene)])
        } else if let diffPage {
            try Output.refuseOverwriting(
                diffPage, option: "--diff-page",
                inputs: [("the scene file being read", scene), ("the golden file being read", golden)])
        }
    }

    var isBuiltIn: Bool { SceneCatalog.builtIn.contains(where: { $0.name == scene }) }

    /// Where `--update` writes, or the file checked when there is one to read.
    var goldenPath: String {
        if let golden { return golden }
        if isBuiltIn { return "Tests/Golden/\(scene).golden" }
        let url = URL(fileURLWithPath: scene)
        return url.deletingPathExtension().appendingPathExtension("golden").path
    }

    /// The golden file to check against and how messages name it: `--golden`'s file, the
    /// one built into the binary for a built-in scene, or the scene file's neighbour.
    func goldenText() throws -> (text: String, label: String) {
        if golden == nil, isBuiltIn {
            guard let text = SceneCatalog.goldenFile(named: scene) else {
                throw RunError("chipmunk-sim was built without a golden file for \(scene); give one with --golden FILE")
            }
            return (text, "built-in \(scene).golden")
        }
        let path = goldenPath
        let text: String
        do {
            guard let read = String(data: try InputFile.read(path, kind: "golden file"), encoding: .utf8) else {
                throw InputFile.Problem(description: "is not UTF-8 text, not a golden file")
            }
            text = read
        } catch {
            // For a built-in scene, --update would only record this build against itself.
            throw RunError(
                isBuiltIn
                    ? "the golden file \(path): \(error) (without --golden, verify \(scene) checks the one built in)"
                    : "the golden file \(path): \(error) (write one with --update)")
        }
        return (text, path)
    }

    func run() throws {
        let scene = try SceneCatalog.scene(named: self.scene, warn: Output.warning)
        if update {
            let path = goldenPath
            let dt = runLength.timeStep(sceneDefault: scene.timeStep)
            let total = try runLength.stepCount(dt: dt, defaultSeconds: 5)
            guard total <= 1_000_000 else {
                throw ValidationError("a golden file holds at most 1,000,000 steps, a line each (asked for \(total))")
            }
            // A file verify and diff cannot read back is not written (one of 110 MB was, and
            // refused by the next verify): before the run, by the least a body's line takes
            // ("body 0 0.0 0.0 0.0 0.0 0.0 0.0", 30 bytes), and after it, exactly.
            let tooLarge = { (bytes: Int, atLeast: Bool) in
                "the golden file would be \(atLeast ? "at least " : "")\(bytes) bytes, more than the "
                    + "\(InputFile.largest) verify and diff read; record fewer steps, or checkpoints further apart (--every)"
            }
            // A step's line is at least 23 bytes ("step 1 " and 16 hex digits).
            let leastBytes = total * 23 + (total / every + 1) * max(scene.space.bodies.count, 1) * 30
            guard leastBytes <= InputFile.largest else { throw ValidationError(tooLarge(leastBytes, true)) }
            let file = try scene.recordGolden(steps: total, checkpointEvery: every, timeStep: dt)
            let text = Array(file.text.utf8)
            guard text.count <= InputFile.largest else { throw RunError(tooLarge(text.count, false)) }
            // Only the default folder for a built-in scene's golden file is made: a --golden
            // in a folder that does not exist is refused, as every other output is (a mistyped
            // path made its folders, at the root when run as root).
            if golden == nil {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                } catch {
                    throw RunError("cannot make the folder \(folder.path) for \(path)")
                }
            }
            try Output.file(text, to: path, option: "the golden file")
            Output.summary(
                "wrote \(path): \(counted(file.steps, "step")), \(counted(file.checkpoints.count, "checkpoint"))"
                    + (file.asleepStep.map { ", everything asleep after step \($0)" } ?? ""))
            if golden == nil, isBuiltIn {
                Output.summary(
                    "(verify \(self.scene) checks the golden file built into chipmunk-sim: rebuild it to check this one)"
                )
            }
            return
        }
        let (text, label) = try goldenText()
        let golden = try GoldenFile(parsing: text, source: label)
        do {
            let summary = try scene.verify(against: golden)
            print("\(summary) (\(label))")
        } catch {
            // A run that fails (diverges, or cannot step) is bad data, 65, as for diff and run;
            // the golden file recorded one that stepped.
            if case .stepFailed = error.kind { throw RunError(error.summary) }
            print(error.description)  // every difference, on stdout
            if let diffPage { try writeComparisonPage(golden: golden, goldenPath: label, to: diffPage) }
            throw DifferencesFound(error.summary)  // the first, on stderr; exit status 1
        }
    }
}
