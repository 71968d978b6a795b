import Foundation

/// The package's root folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A file in the package's `Scenes/` folder.
func sceneFile(_ name: String) -> URL {
    packageRoot.appendingPathComponent("Scenes").appendingPathComponent(name)
}
