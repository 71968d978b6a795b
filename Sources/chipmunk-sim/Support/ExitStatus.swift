import ArgumentParser

/// The exit statuses every command follows; docs/cli.md prints the same table.
///
/// Usage errors and bad data take the codes of BSD's sysexits.h, so that a script can tell
/// "the runs differ" (1) from "the command could not run" (64, 65).
enum ExitStatus: Int32, CaseIterable {
    /// The command did its work; for `verify`, `replay` and `diff`: the runs match.
    case success = 0
    /// `verify`, `replay` or `diff` ran and found a step that differs.
    case differencesFound = 1
    /// The command line is wrong in itself: an unknown subcommand or option, a missing
    /// argument, a malformed or out-of-range option value, options that conflict.
    case usage = 64
    /// The data could not be used: a file or scene that is missing, unreadable or invalid, a
    /// value in it out of range, a database of another sweep, a run that diverged, an output
    /// that could not be written.
    case badData = 65

    /// The status for an error a command threw: ArgumentParser's usage errors (parsing,
    /// `ValidationError`) are usage errors, ``DifferencesFound`` is a difference, and any
    /// other error is bad data.
    static func of(_ error: any Error) -> ExitStatus {
        if error is DifferencesFound { return .differencesFound }
        return ChipmunkSim.exitCode(for: error) == .validationFailure ? .usage : .badData
    }
}

/// A check that ran and found a difference (`verify`, `replay`): its first difference, as one
/// line on stderr, and exit status 1.
struct DifferencesFound: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
