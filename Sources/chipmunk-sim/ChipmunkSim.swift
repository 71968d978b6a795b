import ArgumentParser
import Foundation
import Chipmunk
#if canImport(Glibc)
    import Glibc
#endif

/// `chipmunk-sim`: headless Chipmunk2D runs from the command line.
@main
struct ChipmunkSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chipmunk-sim",
        abstract: "Run Chipmunk2D physics scenes headless and write their trajectories.",
        discussion: """
            Scenes are built in (see `chipmunk-sim list`) or JSON files (see docs/scene-format.md). \
            Data goes to stdout or --output; errors go to stderr as one line, with a non-zero exit.

            Exit status: 0 success (for verify, replay and diff: the runs match); 1 differences \
            found (verify, replay, diff); 64 a usage error (the command line is wrong); 65 bad \
            data (a file or scene that cannot be read or used, a run that diverged, an output that \
            cannot be written).
            """,
        subcommands: commands
    )

    #if Live
        static let commands: [any ParsableCommand.Type] = core + [Serve.self]
    #else
        static let commands: [any ParsableCommand.Type] = core
    #endif

    private static let core: [any ParsableCommand.Type] = [
        Run.self, List.self, Verify.self, Record.self, Replay.self, SnapshotCommand.self,
        SnapshotReportCommand.self, SweepCommand.self, ResultsCommand.self, MergeCommand.self, Render.self,
        Play.self, Ball.self, Diff.self, SyncTestCommand.self,
    ]

    /// A message on one line; a bulleted list ("- a", "- b") becomes "a, b".
    static func oneLine(_ message: String) -> String {
        var parts: [String] = []
        var items: [String] = []
        for line in message.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty
        {
            if line.hasPrefix("- ") {
                items.append(String(line.dropFirst(2)))
                continue
            }
            if !items.isEmpty {
                parts.append(items.joined(separator: ", "))
                items = []
            }
            parts.append(line)
        }
        if !items.isEmpty { parts.append(items.joined(separator: ", ")) }
        return escapingControlCharacters(parts.joined(separator: " "))
    }

    /// `text` with each control character written as Swift escapes it (`\0`, `\u{1B}`): a
    /// body named "a\0b" in an input cut the error line short, with no newline, and an
    /// escape sequence in a name reached the terminal (a helper's attack).
    static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                escaped += scalar.escaped(asASCII: true)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Errors become one line on stderr (`chipmunk-sim: <reason>`), never a usage dump.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
            try Output.flushStandardOutput()
        } catch {
            if exitCode(for: error) == .success {  // --help, --version
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            var message = oneLine(message(for: error))
            // A usage error that an unknown option caused says so (see UnknownOption).
            if ExitStatus.of(error) == .usage, !message.hasPrefix("Unknown option"),
                let unknown = UnknownOption.message(for: Array(CommandLine.arguments.dropFirst()), root: Self.self)
            {
                message = unknown
            }
            Output.note("chipmunk-sim: \(message)\n")
            Glibc.exit(ExitStatus.of(error).rawValue)
        }
    }
}
