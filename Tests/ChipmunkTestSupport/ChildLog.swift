import Foundation

/// A file an exit test's child appends its progress to, so that the parent can say where a
/// child stopped: `#expect(processExitsWith:)` returns no result (and so no standard error)
/// when the expectation fails.
package struct ChildLog: Sendable, Codable {
    package let path: String

    package init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
    }

    /// Appends a line and flushes it to the file before returning.
    package func write(_ line: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        try? handle.close()
    }

    /// The last `count` lines, joined by " | ", and the file removed.
    package func tail(_ count: Int) -> String {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(count).joined(separator: " | ")
    }
}
