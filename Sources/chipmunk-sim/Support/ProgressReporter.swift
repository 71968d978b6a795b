import Chipmunk
import Foundation

/// A progress bar on a terminal (done/total, rate, ETA, diverged and failed runs, in the
/// summary's words), or a plain line every
/// few seconds when stderr is a file or a pipe.
final class ProgressReporter: Sendable {
    private let isTerminal = isatty(FileHandle.standardError.fileDescriptor) != 0
    private let start = Date()
    private let label: String
    /// When the last line was printed, and whether a bar is on the terminal's last line.
    private let printed = Locked((last: Date.distantPast, bar: false))

    init(label: String) { self.label = label }

    func report(done: Int, total: Int, diverged: Int, failed: Int) {
        printed.withLock { printed in
            let now = Date()
            let interval = isTerminal ? 0.1 : 5
            guard done == total || now.timeIntervalSince(printed.last) >= interval else { return }
            printed.last = now
            let elapsed = now.timeIntervalSince(start)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let eta = rate > 0 ? Double(total - done) / rate : 0
            let numbers =
                "\(done)/\(total) \(label), \(String(format: "%.1f", rate))/s, ETA \(String(format: "%.0f", eta)) s, \(diverged) diverged, \(failed) failed"
            if isTerminal {
                let width = 30
                let filled = total > 0 ? width * done / total : width
                let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
                Output.note("\r\(bar) \(numbers)\u{1B}[K")
                printed.bar = true
            } else {
                Output.note("progress: \(numbers)\n")
            }
        }
    }

    func finish() {
        printed.withLock { printed in
            if printed.bar { Output.note("\n") }
        }
    }
}
