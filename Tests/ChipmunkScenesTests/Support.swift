import ChipmunkTestSupport
import Foundation

/// A file in the package's `Scenes/` folder.
func sceneFile(_ name: String) -> URL {
    packageRoot.appendingPathComponent("Scenes").appendingPathComponent(name)
}
