import ArgumentParser
import Chipmunk
import ChipmunkPictures
import ChipmunkCatalog
import ChipmunkScenes
import Foundation
import SystemPackage

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Step a scene in fixed time steps and write the state of its dynamic bodies.",
        discussion: """
            CSV has the header step,body,x,y,angle,vx,vy,w and one row per dynamic body per \
            recorded step. Steps count from 1 (the state after the first step); bodies count \
            from 0 in creation order, dynamic bodies only. A version-2 scene file names each body \
            by its id (or its index in the file) instead, and --kinematic adds kinematic bodies. \
            Numbers are shortest round-trip decimals, so they parse back to the exact doubles.

            A built-in name wins over a file of the same name: write ./crate to run a file \
            called crate. If a step fails (a simulation that diverges), every row computed \
            before it is written, and the one-line error names the step and the body.

            --format html writes the replay player: one self-contained page (no network \
            access) holding each body's shapes once and the trajectory deflated. It plays in real \
            time at 0.25× to 4×, interpolating between recorded steps, with a scrub bar, step \
            buttons, contact and constraint toggles, and a body's values on hover. Open it in any \
            browser; #step=N in its URL opens it paused at step N. The state before the first \
            step is recorded too; a page holds at most 100,000 recorded steps (--every K records \
            every Kth).

            A snapshot file (from `chipmunk-sim snapshot`, ending in .snapshot) continues the run it \
            was taken from: step numbers go on from the snapshot's step, and --steps counts the \
            steps to add. Its scene is built again by name, so the scene's callbacks are there.

            Examples:
              chipmunk-sim run crates --steps 1200 --every 120
              chipmunk-sim run crates-120.snapshot --steps 120 --hash
              chipmunk-sim run pyramid-stack --format html -o pyramid.html
            """
    )

    @Argument(
        help:
            "A built-in scene name (see `chipmunk-sim list`), a scene file (.json, or any path with a '/'), or a snapshot file (.snapshot)."
    )
    var scene: String

    /// Accepted and ignored: snapshots hold the broad phase's history now.
    @Flag(help: .hidden) var canonicalBroadPhase = false

    @OptionGroup var runLength: RunLength  // --steps, --seconds, --dt (default: 10 seconds)

    @Option(
        parsing: .unconditional, help: "Record every Kth step, and always the last (default: 1).",
        transform: WholeNumber.parser(1...WholeNumber.maxStep, "steps"))
    var every: Int = 1

    @Option(help: "Output format: csv, jsonl, or html (the replay player).")
    var format: RunFormat = .csv

    @Option(
        parsing: .unconditional,
        help: "html: the player's canvas width in pixels (default: the view fitted into 800×600).",
        transform: WholeNumber.parser(16...8192, "pixels"))
    var width: Int?

    @OptionGroup var viewOption: ViewOption
    /// `--view`.
    var view: FrameView? { viewOption.view }

    @Flag(
        help:
            "Add each recorded step's state hash (Space.stateHash(), 16 hex digits): a 'hash' column in CSV, a 'hash' field in JSONL."
    )
    var hash = false

    @Option(name: [.short, .long], help: "Write to this file instead of stdout ('-' is stdout).")
    var output: String = "-"

    @Flag(help: "Write kinematic bodies too (dynamic bodies are always written).")
    var kinematic = false

    @Option(
        help: ArgumentHelp(
            "Write the contact events of the scene's `log` collision rules to this file, as JSON lines: {\"step\":12,\"event\":\"begin\",\"a\":\"sensor\",\"b\":\"ball\",\"bodyA\":\"static\",\"bodyB\":\"ball\"}: a and b are the shapes (their id, else their body's name), bodyA and bodyB their bodies.",
            valueName: "file"))
    var events: String?

    func validate() throws {
        if let dt = runLength.dt { _ = try runLength.stepCount(dt: dt.seconds, defaultSeconds: 10) }
        if format == .html {
            if output == "-" { throw ValidationError("--format html needs --output FILE (-o FILE)") }
            if hash { throw ValidationError("--hash is for csv and jsonl; the player has no hash column") }
        }
        if format != .html, width != nil || view != nil {
            // They shape the player's picture: with csv or jsonl they were taken and ignored.
            throw ValidationError(
                "--\(width != nil ? "width" : "view") shapes the html player; give --format html, or leave it out")
        }
        try Output.refuseOverwriting(output, option: "--output", inputs: [("the scene file being read", scene)])
        if let events {
            try Output.refuseOverwriting(
                events, option: "--events",
                inputs: [("the scene file being read", scene), ("the --output file too", output)])
        }
    }

    func run() throws {
        if let events { try Output.checkWritable(events, option: "--events") }
        let scene = try SceneCatalog.scene(opening: self.scene, warn: Output.warning)
        if canonicalBroadPhase { Output.note(CanonicalBroadPhase.ignored) }
        // Said on stderr however the run ends: its bits depended on the guard.
        defer { EngineGuardNote.report(scene.space.guardedCollisions) }
        let firstStep = scene.stepCount
        let dt = runLength.timeStep(sceneDefault: scene.timeStep)
        let totalSteps = try runLength.stepCount(dt: dt, defaultSeconds: 10)
        let stepNumbers = try RunLength.stepRange(after: firstStep, count: totalSteps)
        if format == .html {
            return try runReplay(scene, from: firstStep, steps: totalSteps, dt: dt)
        }
        let out = try openOutput()
        defer { if out != .standardOutput { try? out.close() } }

        // writeAll retries interrupted and partial writes; what it throws is an Errno.
        var recorded = 0
        var writer = TrajectoryWriter(format: format == .jsonl ? .jsonl : .csv, includesStateHash: hash) { bytes in
            _ = try out.writeAll(bytes)
        }
        do {
            for step in stepNumbers {
                do {
                    try scene.step(dt)
                } catch {
                    // Keep what was computed: write it out, then report where the run stopped.
                    try? writer.finish()
                    try? writeEvents(scene)
                    throw RunError(describe(error, at: step, in: scene))
                }
                if (step - firstStep) % every == 0 || step == firstStep + totalSteps {
                    try writer.record(
                        step: step, space: scene.space, names: scene.bodyNames, includingKinematic: kinematic)
                    recorded += 1
                }
            }
            try writer.finish()
            try writeEvents(scene)
            if output != "-" { Output.summary("wrote \(output): \(counted(recorded, "recorded step"))") }
        } catch let error as TrajectoryWriter.WriteError {
            throw RunError("cannot write the output after step \(scene.stepCount): \(error.reason)")
        }
    }

    /// The run as the HTML replay player. A failing step ends the recording there: the page
    /// is written with every step before it, then the error is reported.
    private func runReplay(_ scene: Scene, from firstStep: Int, steps totalSteps: Int, dt: Double) throws {
        // The state before the first step, every Kth step, and the last.
        let recorded = 1 + (totalSteps + every - 1) / every
        if recorded > Playback.suggestedMaximumSteps {
            let needed = (totalSteps + Playback.suggestedMaximumSteps - 2) / (Playback.suggestedMaximumSteps - 1)
            throw ValidationError(
                "the player holds at most \(Playback.suggestedMaximumSteps) recorded steps, and \(totalSteps) steps with --every \(every) would record \(recorded): add --every \(needed) or more"
            )
        }
        var shown = view
        shown?.yPointsDown = scene.yAxisPointsDown
        var replay = Playback(
            title: self.scene, timeStep: dt, view: shown, pixelWidth: width, name: { scene.name(of: $0) })
        replay.yPointsDown = scene.yAxisPointsDown
        replay.opacity = scene.bodyOpacity
        replay.record(step: firstStep, space: scene.space)
        var failure: RunError?
        for step in try RunLength.stepRange(after: firstStep, count: totalSteps) {
            do {
                try scene.step(dt)
            } catch {
                failure = RunError(describe(error, at: step, in: scene) + "; the replay holds the steps before it")
                break
            }
            if (step - firstStep) % every == 0 || step == firstStep + totalSteps {
                replay.record(step: step, space: scene.space)
            }
        }
        let page: String
        do {
            page = try replay.html()
        } catch {
            throw RunError("cannot write the replay: \(error)")
        }
        try Output.file(Array(page.utf8), to: output, option: "--output")
        try writeEvents(scene)
        Output.summary("wrote \(output): the player, \(counted(replay.recordedSteps, "recorded step"))")
        if let failure { throw failure }
    }

    /// One line for an error a step threw. The engine's own errors name their step and
    /// body; for a scene file, the body is also named by its path in the file, since the
    /// file's bodies are the space's bodies in the same order.
    private func describe(_ error: any Error, at step: Int, in running: Scene) -> String {
        guard let error = error as? ChipmunkError else { return ChipmunkError.stepFailure(step, "\(error)") }
        let isFile = !SceneCatalog.builtIn.contains { $0.name == scene }
        switch error {
        case .diverged(_, let body, _, _) where isFile && body >= 0, .massless(_, let body) where isFile && body >= 0:
            // A version-2 file's body by its name in output; a version-1 file's by its path.
            let name =
                running.bodyNames != nil && body < running.space.bodies.count
                ? running.name(of: running.space.bodies[body]) : "bodies[\(body)]"
            return "\(error) (\(name) in \(URL(fileURLWithPath: scene).lastPathComponent))"
        case .unsolvable where isFile, .cannotTurn where isFile:
            // The space's constraint index: a file's generators can add constraints of their own.
            return "\(error) (a constraint of \(URL(fileURLWithPath: scene).lastPathComponent))"
        default:
            return "\(error)"
        }
    }

    /// The events the scene logged, as JSON lines, to `--events`: written as text, so that
    /// the keys keep their order (Foundation's JSONEncoder on Linux orders an object's keys
    /// by hash, differently in each process), each string quoted by JSONEncoder.
    private func writeEvents(_ scene: Scene) throws {
        guard let events else { return }
        var text = ""
        for event in scene.events {
            text +=
                "{\"step\":\(event.step),\"event\":\"\(event.kind.rawValue)\",\"a\":\(jsonString(event.shapeA)),\"b\":\(jsonString(event.shapeB)),"
                + "\"bodyA\":\(jsonString(event.bodyA)),\"bodyB\":\(jsonString(event.bodyB))}\n"
        }
        try Output.file(Array(text.utf8), to: events, option: "--events")
    }

    private func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    /// Standard output, or the `--output` file, which must not be the scene file itself.
    private func openOutput() throws -> FileDescriptor {
        guard output != "-" else { return .standardOutput }
        do {
            return try FileDescriptor.open(
                FilePath(output), .writeOnly, options: [.create, .truncate],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw RunError("cannot open --output \(output): \(error)")  // 65, as every output that cannot be written
        }
    }
}
