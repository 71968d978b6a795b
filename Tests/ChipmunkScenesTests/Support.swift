import Foundation

/// The package's root folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A file in the package's `Scenes/` folder.
func sceneFile(_ name: String) -> URL {
    packageRoot.appendingPathComponent("Scenes").appendingPathComponent(name)
}

/// A file an exit test's child appends its progress to, so that the parent can say where a
/// child stopped: `#expect(processExitsWith:)` returns no result (and so no standard error)
/// when the expectation fails.
struct ChildLog: Sendable, Codable {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log").path
        FileManager.default.createFile(atPath: path, contents: nil)
    }

    /// Appends a line and flushes it to the file before returning.
    func write(_ line: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        try? handle.close()
    }

    /// The last `count` lines, joined by " | ", and the file removed.
    func tail(_ count: Int) -> String {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(count).joined(separator: " | ")
    }
}
