import ArgumentParser
import ChipmunkCatalog
import ChipmunkScenes

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Name the built-in scenes, one per line, with what each shows.")

    func run() {
        let width = SceneCatalog.builtIn.map(\.name.count).max() ?? 0
        for entry in SceneCatalog.builtIn {
            print(entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.summary)
        }
    }
}
