import ArgumentParser
import Chipmunk
import ChipmunkCatalog
import ChipmunkPictures
import ChipmunkScenes
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two runs of a scene step by step: where they first differ, and how the difference grows.",
        discussion: """
            A and B are each a golden file (Tests/Golden/*.golden, from `verify --update`), an input \
            recording (from `record`), a built-in scene name, or a scene file, told apart by what the \
            file holds. A recording is replayed on its scene. A scene is run for the other side's \
            steps at the other side's time step, given the other side's inputs when that is a \
            recording; when both are scenes, each runs --steps steps (default: 10 s) at its own time \
            step. A side run here keeps at most 20,000,000 body states (every body at every step).

            The state hash is compared at every step, and every body's x, y, angle, vx, vy and w \
            bit for bit at every step both sides have states for (a golden file has them only at \
            its checkpoints). diff prints the first divergent step, the bodies and quantities that \
            differ there with both values (at the first checkpoint after it, for a golden file), \
            and one line per power of ten: the first step at which the largest absolute difference \
            reaches 1e-15, 1e-14, … Bodies are Space.bodies in order, as golden files count them.

            Exit status: 0 when the runs are identical, 1 when they differ, 65 when they cannot be \
            compared (a file or scene that cannot be read or run), 64 for a bad option.

            --format html -o FILE writes a self-contained page: both runs drawn over each other (B \
            in outline), the bodies that diverge outlined in red from the first divergent step, a \
            scrub bar and play button, and a chart of log10 of the largest difference against the step.

            Examples:
              chipmunk-sim diff Tests/Golden/crates.golden crates
              chipmunk-sim diff Scenes/crates.json my-crates.json --steps 600
              chipmunk-sim diff pushed.inputs.json pushed-again.inputs.json
              chipmunk-sim diff Tests/Golden/chains.golden chains --format html -o chains.html
            """
    )

    @Argument(help: "Run A: a golden file, an input recording, a built-in scene name or a scene file.")
    var a: String

    @Argument(help: "Run B, as A.")
    var b: String

    @Option(
        parsing: .unconditional,
        help: "Compare at most N steps; scenes compared with scenes run N steps (default: 10 simulated seconds).",
        transform: WholeNumber.parser(1...maxSteps, "steps", why: "as every body's state at every step is kept"))
    var steps: Int?

    @Option(help: "Output format: text, or html (the comparison page, with -o).")
    var format: DiffFormat = .text

    @Option(name: [.short, .long], help: "Write to this file instead of stdout ('-' is stdout).")
    var output: String = "-"

    /// The most steps compared: every body's state at every step is kept in memory.
    static let maxSteps = 1_000_000

    func validate() throws {
        if format == .html, output == "-" { throw ValidationError("--format html needs --output FILE (-o FILE)") }
        try Output.refuseOverwriting(output, option: "--output", inputs: [("run A's file", a), ("run B's file", b)])
    }

    func run() throws {
        let comparison: RunComparison
        let sideA: RunSource
        do {
            sideA = try RunSource.open(a)
            let sideB = try RunSource.open(b)
            try checkSize(sideA, sideB)
            comparison = try RunComparison(sideA, sideB, steps: steps)
        } catch {
            Self.fail("\(error)")
        }
        switch format {
        case .text:
            try Output.file(Array(comparison.report.utf8), to: output, option: "--output")
        case .html:
            let page = ComparisonPage(comparison, scene: sideA.makeScene())
            try Output.file(Array(page.html().utf8), to: output, option: "--output")
        }
        if output != "-" {
            Output.summary(
                comparison.firstDivergentStep.map { "wrote \(output): the runs first differ at step \($0)" }
                    ?? "wrote \(output): the runs are identical")
        }
        if !comparison.isIdentical {
            try Output.flushStandardOutput()
            Glibc.exit(ExitStatus.differencesFound.rawValue)  // not an error: nothing more to say on stderr
        }
    }

    /// The most body states a run made here keeps (every body at every step): 20,000,000,
    /// about 1 GB.
    static let maxStates = 20_000_000

    /// Refuses, before running anything, a comparison that would keep more than
    /// ``maxStates`` states for a side run here.
    func checkSize(_ a: RunSource, _ b: RunSource) throws {
        for (side, other) in [(a, b), (b, a)] {
            if case .golden = side { continue }
            if case .golden = other { continue }  // states kept at the golden file's checkpoints only
            guard let scene = side.makeScene() else { continue }
            let count =
                [steps, side.fixedSteps, other.fixedSteps].compactMap { $0 }.min()
                ?? Int(saturating: (10 / scene.timeStep).rounded())  // Int(_:) trapped at a time step of 1e-300
            if count > Self.maxSteps {
                throw RunComparisonError(
                    "\(side.argument): 10 s at its time step of \(scene.timeStep) s is more than \(Self.maxSteps) steps, "
                        + "the most diff compares; give --steps")
            }
            let bodies = max(scene.space.bodies.count, 1)
            if count > Self.maxStates / bodies {
                throw RunComparisonError(
                    "\(side.argument): \(count) steps of \(bodies) bodies would keep more than \(Self.maxStates) "
                        + "body states (every body at every step); compare fewer steps with --steps")
            }
        }
    }

    /// A comparison that could not be made: one line on stderr, exit status 65 (bad data).
    static func fail(_ message: String) -> Never {
        Output.note("chipmunk-sim: \(ChipmunkSim.oneLine(message))\n")
        Glibc.exit(ExitStatus.badData.rawValue)
    }
}

/// What `diff` writes.
enum DiffFormat: String, ExpressibleByArgument, CaseIterable {
    case text, html
}
