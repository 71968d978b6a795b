import Foundation
import Testing
import ChipmunkTestSupport

/// The README's `Package.swift` snippet, used as a newcomer would: a throwaway package that
/// depends on this checkout by path (whatever its folder is called), with a small
/// executable that imports Chipmunk and steps a space, built with `swift build --product`
/// into a scratch folder of its own, and run.
///
/// It compiles Chipmunk afresh (about a minute on one core of an idle machine, several on
/// a busy one), so it builds with one job and asserts nothing about time.
@Suite struct DependencyTests {
    /// The path the snippet gives; the test puts the checkout's path in its place.
    static let snippetPath = #"path: "../SwiftChipmunk""#

    /// The README's snippet: the Swift block after the `package-example` marker.
    static func snippet() throws -> String {
        let readme = try String(contentsOf: Tool.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let afterMarker = try #require(readme.components(separatedBy: "<!-- package-example").dropFirst().first)
        return afterMarker.components(separatedBy: "```swift\n")[1].components(separatedBy: "```")[0]
    }

    /// `swift` on the PATH, else the toolchain in /opt/swift that the scripts use.
    static func swift() -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin"] {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/opt/swift/usr/bin/swift")
    }

    /// Runs `executable` with `arguments` in `folder`; its output goes through a file.
    static func run(_ executable: URL, _ arguments: [String], in folder: TemporaryFolder) throws -> (
        status: Int32, output: String
    ) {
        let log = folder.url.appendingPathComponent("log-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }

    @Test("The snippet names the package whatever the checkout's folder is called")
    func snippetNamesThePackage() throws {
        let snippet = try Self.snippet()
        #expect(snippet.contains(#".package(name: "SwiftChipmunk", \#(Self.snippetPath))"#))
        #expect(snippet.contains(#".product(name: "Chipmunk", package: "SwiftChipmunk")"#))
    }

    @Test("A package made from the README's snippet builds one product against this checkout, and it runs")
    func throwawayPackageBuilds() throws {
        let folder = try TemporaryFolder("dependency")
        defer { folder.remove() }
        let snippet = try Self.snippet()
        try #require(snippet.contains(Self.snippetPath))
        let manifest = snippet.replacingOccurrences(
            of: Self.snippetPath, with: "path: \"\(Tool.packageRoot.standardizedFileURL.path)\"")
        try Data(manifest.utf8).write(to: folder.url.appendingPathComponent("Package.swift"))
        let sources = folder.url.appendingPathComponent("Sources/Falling")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // The crate scene's body, without the crate: from y = 250 under gravity 1000, 120
        // steps of 1/120 s (the README's determinism example shows the same number).
        try Data(
            """
            import Chipmunk

            let space = Space()
            space.gravity = [0, -1000]
            let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 10))
            body.position = [150, 250]
            space.add(body, Circle(body: body, radius: 10))
            for _ in 0..<120 { try space.step(1.0 / 120) }
            print("y = \\(body.position.y)")

            """.utf8
        ).write(to: sources.appendingPathComponent("main.swift"))

        let scratch = folder.url.appendingPathComponent("scratch").path
        let build = try Self.run(
            Self.swift(),
            ["build", "--package-path", folder.url.path, "--scratch-path", scratch, "-j", "1", "--product", "Falling"],
            in: folder)
        #expect(build.status == 0, "swift build failed:\n\(build.output)")
        guard build.status == 0 else { return }
        let binPath = try Self.run(
            Self.swift(), ["build", "--package-path", folder.url.path, "--scratch-path", scratch, "--show-bin-path"],
            in: folder)
        let bin = URL(fileURLWithPath: binPath.output.trimmingCharacters(in: .whitespacesAndNewlines))
        let falling = try Self.run(bin.appendingPathComponent("Falling"), [], in: folder)
        #expect(falling.status == 0, "\(falling.output)")
        // `chipmunk-sim run crate --steps 120` gives the same y (docs/binding.md, Exactness).
        #expect(falling.output == "y = -245.83333333333354\n")
    }
}
