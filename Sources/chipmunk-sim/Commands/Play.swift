import ArgumentParser
import Chipmunk
import ChipmunkAnimation
import ChipmunkPictures
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a scene in real time in the terminal, as the book's display link would drive it.",
        discussion: """
            A display-link ticker on CLOCK_MONOTONIC fires every frame (60 Hz, or every Nth \
            with --frame-interval N) with absolute deadlines, and skips a frame it missed rather \
            than firing twice. Each frame, the fixed-step stepper runs the scene for the frame's \
            measured duration in steps of the scene's time step (the remainder waits for the next \
            frame; whole steps past the cap are dropped, not run late), then the frame is drawn \
            with braille characters.

            The status line shows the steps in the frame, the time dropped so far, and the share \
            of simulated time the physics took on the CPU. Past the book's 50 % it warns; when one \
            step takes longer than a frame it advises --frame-interval 2, as the book does \
            (30 fps gives each frame twice the time). q quits.

            Examples:
              chipmunk-sim play crates
              chipmunk-sim play ui-snake --seconds 10
              chipmunk-sim play pyramid-stack --frame-interval 2
            """
    )

    @Argument(help: "A built-in scene, a scene file or a snapshot file.") var scene: String

    @Option(
        parsing: .unconditional, help: "Fire every Nth display frame (1: 60 fps, 2: 30 fps; default: 1).",
        transform: WholeNumber.parser(1...60, "display frames"))
    var frameInterval = 1

    @Option(
        parsing: .unconditional, help: "The display's refresh rate in Hz, from 1 to 1000 (default: 60).",
        transform: DecimalNumber.parser(1...1000, "Hz"))
    var fps = 60.0

    @Option(
        parsing: .unconditional, help: "Picture width in characters (default: the terminal's, at most 100).",
        transform: WholeNumber.parser(8...1000, "characters"))
    var width: Int?

    @OptionGroup var viewOption: ViewOption
    /// `--view`.
    var view: FrameView? { viewOption.view }

    @Option(
        parsing: .unconditional, help: "Stop after this many seconds of real time (default: run until q).",
        transform: DecimalNumber.parser(0...(.greatestFiniteMagnitude), "seconds", aboveLowerBound: true))
    var seconds: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Add this many milliseconds (0 to 1000) of busy work to every step, to see a scene too heavy for "
                + "its frames.",
            valueName: "ms"),
        transform: DecimalNumber.parser(0...1000, "milliseconds"))
    var stepCost = 0.0

    func run() throws {
        let scene = try SceneCatalog.scene(opening: self.scene, warn: Output.warning)
        var shown = view ?? FrameView(fitting: Frame(scene.space))
        shown.yPointsDown = scene.yAxisPointsDown
        let terminal = Terminal()
        let columns = width ?? min(100, max(20, terminal.columns - 2))
        // Leave room for the status lines.
        let rowsAvailable = max(8, terminal.rows - 5)
        let rowsWanted = Int((shown.height / (shown.width / Double(columns * 2)) / 4).rounded(.up))
        let columnsUsed = rowsWanted > rowsAvailable ? max(8, columns * rowsAvailable / rowsWanted) : columns

        var stepper = FixedStepper(timeStep: scene.timeStep, maxStepsPerFrame: 8)
        let link = DisplayLink(frameDuration: 1 / fps, frameInterval: frameInterval)
        let frameTime = link.period
        let cost = stepCost / 1000
        var worstStep = 0.0
        var shares: [Double] = []
        var failure: (any Error)?
        var outputFailure: (any Error)?
        let started = link.clock.now

        terminal.begin()
        defer { terminal.end() }
        link.run { frame in
            if terminal.keyPressed("q") { return .stop }
            if let seconds, link.clock.now - started >= seconds { return .stop }
            let report: FrameReport
            do {
                report = try stepper.advance(by: frame.index == 0 ? frameTime : frame.duration) { dt in
                    try scene.step(dt)
                    if cost > 0 { Play.busy(cost) }
                }
            } catch {
                failure = error
                return .stop
            }
            if report.steps > 0 { worstStep = max(worstStep, report.physicsTime / Double(report.steps)) }
            shares.append(report.cpuShare)
            if shares.count > 30 { shares.removeFirst() }
            let share = shares.reduce(0, +) / Double(shares.count)
            var screen = Frame(scene.space).text(view: shown, columns: columnsUsed)
            screen += String(
                format:
                    "%@  t %.2f s · %d steps/frame · dropped %.3f s · physics %.1f %% of simulated time · %.0f fps\n",
                scene.name, scene.time, report.steps, stepper.droppedTime, share * 100, 1 / frameTime)
            if share > stepper.cpuBudget {
                screen += String(
                    format: "⚠ physics takes %.0f %% of simulated time: over the book's 50 %%\n", share * 100)
            }
            if worstStep > frameTime {
                screen += String(
                    format: "advice: one step takes %.1f ms, longer than a %.1f ms frame: try --frame-interval %d\n",
                    worstStep * 1000, frameTime * 1000, frameInterval * 2)
            }
            screen += "q quits\n"
            do {
                try terminal.draw(screen)
            } catch {
                outputFailure = error
                return .stop
            }
            return .continue
        }
        terminal.end()
        if let failure { throw RunError("step \(scene.stepCount + 1) failed: \(failure)") }
        if let outputFailure { throw outputFailure }
        Output.note(
            String(
                format: "play: %d steps, %.2f s simulated, %.3f s dropped\n", scene.stepCount, scene.time,
                stepper.droppedTime))
    }

    /// Spins for `seconds` of this thread's CPU time.
    static func busy(_ seconds: Double) {
        func cpuTime() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
        }
        let start = cpuTime()
        while cpuTime() - start < seconds {}
    }
}
