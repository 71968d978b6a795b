import Foundation
import Testing
import ChipmunkTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `chipmunk-sim play` in a real terminal: tmux runs it, sends keys and reads the screen,
/// as a person would use it.
@Suite(.serialized) struct PlayCommandTests {
    struct Tmux {
        let session = "play-\(UUID().uuidString.prefix(8))"
        /// A tmux server of the test's own (`tmux -L`): a user's tmux, or another program's
        /// `tmux kill-server`, neither sees nor ends it.
        let server = "chipmunk-tests-\(UUID().uuidString.prefix(8))"

        /// Runs tmux with posix_spawn, its output to a file. (Foundation's Process never
        /// returns from waitUntilExit() here: the tmux server that `new-session` leaves
        /// running holds on to what Process uses to watch its child.)
        @discardableResult
        func run(_ arguments: String...) throws -> String { try runWithStatus(arguments).output }

        /// tmux's output and exit status.
        func runWithStatus(_ arguments: [String]) throws -> (output: String, status: Int32) {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: output) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = (["tmux", "-L", server] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            // An empty signal mask and default dispositions: the test runner blocks SIGHUP in its
            // threads, and a tmux server spawned with that mask passed it on to the pane, whose
            // `sleep 600` then outlived `kill-server` (and kept the server) for 10 minutes.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid: pid_t = 0
            guard posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ) == 0 else {
                throw CocoaError(.executableNotLoadable)
            }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "", status)
        }

        func start(_ command: String) throws {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
                Issue.record("tmux is missing: install Debian's tmux (scripts/test.sh does)")
                return
            }
            try run("new-session", "-d", "-s", session, "-x", "120", "-y", "48", command)
        }

        /// The screen, or nil once the session is gone.
        func screen() throws -> String? {
            let (text, status) = try runWithStatus(["capture-pane", "-p", "-t", session])
            return status == 0 ? text : nil
        }

        /// Polls the screen until `test` holds, for up to `seconds`, or until the session is
        /// gone (its command ends with `sleep`, so that is never the program's own end): the
        /// last screen seen.
        func wait(seconds: Double = Patience.seconds, until test: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            var text = try screen() ?? ""
            while !test(text), Date() < deadline {
                usleep(100_000)
                guard let next = try screen() else {
                    Issue.record("the tmux session ended; its last screen:\n\(text)")
                    return text
                }
                text = next
            }
            return text
        }

        func stop() { _ = try? run("kill-server") }
    }

    static let binary = Tool.productsFolder.appendingPathComponent("chipmunk-sim").path

    /// The simulated time the status line shows, plus the time it says was dropped: the
    /// two add up to the wall-clock time played, however slow the build.
    func time(_ screen: String) -> Double? {
        guard let match = screen.firstMatch(of: #/t (\d+\.\d+) s · .* dropped (\d+\.\d+) s/#) else { return nil }
        return Double(match.1)! + Double(match.2)!
    }

    @Test("play draws the crates in real time with a status line, and q quits")
    func playAndQuit() throws {
        let tmux = Tmux()
        defer { tmux.stop() }
        let clock = ContinuousClock()
        let launched = clock.now
        try tmux.start("\(Self.binary) play crates --width 50; echo EXITED $?; sleep 600")
        let first = try tmux.wait { $0.contains("steps/frame") }
        #expect(first.contains("q quits"), "\(first)")
        #expect(first.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "the crates are drawn")
        #expect(first.contains("physics") && first.contains("% of simulated time") && first.contains("dropped"))
        #expect(!first.contains("⚠"), "the crates are light: no warning")
        // Real time, without a tolerance a busy machine can break: the played and dropped time
        // moves on, and never by more than the real time since the program was launched (a
        // loop that stepped as fast as it could would be far ahead).
        let t1 = try #require(time(first))
        let t2 = try #require(time(try tmux.wait { (time($0) ?? 0) > t1 + 0.2 }))
        #expect(t2 > t1 + 0.2, "the clock moves on: \(t1) then \(t2)")
        let real = clock.now - launched
        let realSeconds = Double(real.components.seconds) + Double(real.components.attoseconds) * 1e-18
        #expect(t2 - t1 <= realSeconds, "played or dropped \(t2 - t1) s in \(realSeconds) s of real time")
        try tmux.run("send-keys", "-t", tmux.session, "q")
        let end = try tmux.wait { $0.contains("EXITED") }
        #expect(end.contains("EXITED 0"), "\(end)")
        #expect(end.contains("play: ") && end.contains("steps,"))
    }

    @Test("A step longer than a frame: the 50 % warning and the advice to use --frame-interval 2")
    func heavyScene() throws {
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("\(Self.binary) play crates --width 40 --step-cost 20; echo EXITED $?; sleep 600")
        let screen = try tmux.wait { $0.contains("advice:") }
        #expect(screen.contains("⚠ physics takes") && screen.contains("over the book's 50 %"), "\(screen)")
        #expect(screen.contains("longer than a 16.7 ms frame: try --frame-interval 2"), "\(screen)")
        try tmux.run("send-keys", "-t", tmux.session, "q")
        #expect(try tmux.wait { $0.contains("EXITED") }.contains("EXITED 0"))
    }

    @Test("play --seconds stops by itself; bad options are named")
    func secondsAndErrors() throws {
        let timed = try Tool.sim("play", "ui-heavy", "--seconds", "0.5", "--width", "20")
        #expect(timed.status == 0, "\(timed.stderr)")
        #expect(timed.stderr.contains("play: ") && timed.stdout.contains("ui-heavy  t "))
        #expect(
            try Tool.sim("play", "crates", "--frame-interval", "0").stderr.contains(
                "The value '0' is invalid for '--frame-interval <frame-interval>': expected a whole number of display frames from 1 to 60"
            ))
        #expect(try Tool.sim("play", "nope").stderr.contains("no built-in scene has this name"))
    }
}

@Suite struct BallCommandTests {
    @Test("ball: on a jittery clock the timer's ball lags and ends late; the display link's follows the clock")
    func jittery() throws {
        let result = try Tool.sim("ball")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = result.stdout.split(separator: "\n").suffix(2)
        let timer = try #require(summary.first { $0.hasPrefix("timer:") })
        let link = try #require(summary.first { $0.hasPrefix("display-link:") })
        #expect(link.hasSuffix("at most 0.00 points from where the clock says"), "\(link)")
        let lag = try #require(timer.firstMatch(of: #/at most (\d+\.\d+) points/#).map { Double($0.1)! })
        #expect(lag > 10, "\(timer)")
        let steady = try Tool.sim("ball", "--jitter", "0", "--stall", "0", "--format", "csv")
        let rows = steady.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        #expect(rows.count == 120 && rows.allSatisfy { Double($0[6])! < 1e-9 }, "a steady clock: both exact")
        #expect(
            try Tool.sim("ball", "--ticker", "nsTimer").stderr.contains(
                "Please provide one of 'timer', 'display-link' or 'both'"))
    }
}
