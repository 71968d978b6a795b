import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal while playing: raw keys without echo, the cursor hidden, each frame drawn
/// over the last; everything put back at the end (or on Ctrl-C).
final class Terminal {
    private var saved = termios()
    private let isTerminal = isatty(STDIN_FILENO) != 0
    private var active = false

    var columns: Int { size.columns }
    var rows: Int { size.rows }

    private var size: (columns: Int, rows: Int) {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        return (80, 24)
    }

    func begin() {
        guard !active else { return }
        active = true
        if isTerminal {
            tcgetattr(STDIN_FILENO, &saved)
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
                bytes[Int(VMIN)] = 0
                bytes[Int(VTIME)] = 0
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        }
        Terminal.restoreOnInterrupt = isTerminal ? saved : nil
        signal(SIGINT) { _ in
            if var saved = Terminal.restoreOnInterrupt { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            let reset = "\u{1B}[?25h\n"
            _ = reset.withCString { Glibc.write(STDOUT_FILENO, $0, strlen($0)) }
            _exit(130)
        }
        try? write("\u{1B}[?25l\u{1B}[2J")
    }

    func end() {
        guard active else { return }
        active = false
        if isTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        try? write("\u{1B}[?25h")
    }

    /// Whether `key` was pressed since the last look (other keys are dropped).
    func keyPressed(_ key: Character) -> Bool {
        var pending = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        var found = false
        while poll(&pending, 1, 0) > 0, pending.revents & Int16(POLLIN) != 0 {
            var byte: UInt8 = 0
            guard Glibc.read(STDIN_FILENO, &byte, 1) == 1 else { break }
            if Character(Unicode.Scalar(byte)) == key || Character(Unicode.Scalar(byte)) == Character(key.uppercased())
            {
                found = true
            }
        }
        return found
    }

    /// The frame over the last: home, the text, clear what is left.
    func draw(_ text: String) throws {
        try write("\u{1B}[H" + text.replacingOccurrences(of: "\n", with: "\u{1B}[K\n") + "\u{1B}[J")
    }

    private func write(_ text: String) throws {
        try Output.standardOutput(text)
    }

    nonisolated(unsafe) static var restoreOnInterrupt: termios?
}
