import Foundation

/// The package's root folder, found from this file's path (its real one: Sanitizers/Tests is a link to Tests).
package let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh folder under the temporary directory; `remove()` it in a `defer`.
package struct TemporaryFolder {
    package let url: URL

    package init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the folder and everything in it.
    package func remove() { try? FileManager.default.removeItem(at: url) }
}
