import ChipmunkCatalog
import ChipmunkScenes
import ChipmunkTestSupport
import Foundation
import Testing

/// The catalog of built-in scenes as the docs describe it: docs/cli.md's table lists every
/// scene `chipmunk-sim list` does (it listed 12 of 17), in its order, at each scene's own
/// time step.
@Suite struct CatalogDocsTests {
    /// The rows of the table under "## Built-in scenes" in docs/cli.md: (name, step).
    private func documentedScenes() throws -> [(name: String, step: String)] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Built-in scenes").dropFirst().first)
        let body = section.components(separatedBy: "\n## ").first ?? section
        return body.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`") else { return nil }
            return (String(cells[0].dropFirst().dropLast()), cells[1])
        }
    }

    @Test func theTableListsEveryBuiltInSceneInOrder() throws {
        let documented = try documentedScenes()
        #expect(documented.map(\.name) == SceneCatalog.builtIn.map(\.name))
    }

    @Test func eachRowGivesTheScenesOwnTimeStep() throws {
        for (name, step) in try documentedScenes() {
            let scene = try SceneCatalog.scene(named: name)
            let parts = step.split(separator: "/")
            let documented = parts.count == 2 ? Double(parts[0])! / Double(parts[1])! : Double(step) ?? .nan
            #expect(documented == scene.timeStep, "\(name): the docs say \(step), the scene steps \(scene.timeStep)")
        }
    }

    @Test func everySummaryIsOneLine() {
        for entry in SceneCatalog.builtIn {
            #expect(!entry.summary.isEmpty && !entry.summary.contains("\n"), "\(entry.name)")
        }
    }
}
