import Foundation
import PackagePlugin

/// Embeds a target's text files in its module at build time: `embed-files` turns them
/// into Swift source, one `enum` of constants, so the static `chipmunk-sim` binary needs no
/// resource bundle beside it.
@main
struct EmbedFiles: BuildToolPlugin {
    /// What each target embeds: the enum its files become, the folder they are in (from
    /// the package root), and the endings of their names.
    static let embeds: [String: (type: String, folder: String, endings: [String])] = [
        // The replay player's and the comparison page's HTML, CSS and JavaScript.
        "ChipmunkPictures": ("PageFiles", "Sources/ChipmunkPictures/Replay/Page", [".html", ".css", ".js"]),
        // The scene files, for `chipmunk-sim sweep crates` wherever the binary is.
        "ChipmunkCatalog": ("SceneFiles", "Scenes", [".json"]),
        // The live page's HTML, CSS and JavaScript.
        "ChipmunkLive": ("LivePageFiles", "Sources/ChipmunkLive/Page", [".html", ".css", ".js"]),
        // The chart program of `results --chart` (matplotlib).
        "chipmunk-sim": ("ChartFiles", "Sources/chipmunk-sim/Chart", [".py"]),
    ]

    struct NothingToEmbed: Error, CustomStringConvertible {
        let target: String
        var description: String { "EmbedFiles: the plugin lists no files for target \(target)" }
    }

    /// Further folders a target embeds, each as an enum of its own (kept apart from
    /// ``embeds`` so that each table stays one line per target).
    static let moreEmbeds: [String: [(type: String, folder: String, endings: [String])]] = [
        // The built-in scenes' golden files, for `chipmunk-sim verify crates` wherever the binary is.
        "ChipmunkCatalog": [("GoldenFiles", "Tests/Golden", [".golden"])]
    ]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let first = Self.embeds[target.name] else { throw NothingToEmbed(target: target.name) }
        return try ([first] + (Self.moreEmbeds[target.name] ?? [])).map { embed in
            let folder = context.package.directoryURL.appending(path: embed.folder)
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { file in embed.endings.contains { file.lastPathComponent.hasSuffix($0) } }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            let output = context.pluginWorkDirectoryURL.appending(path: "\(embed.type).swift")
            return .buildCommand(
                displayName: "Embedding \(files.count) files of \(embed.folder) as \(embed.type)",
                executable: try context.tool(named: "embed-files").url,
                arguments: [output.path, embed.type] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        }
    }
}
