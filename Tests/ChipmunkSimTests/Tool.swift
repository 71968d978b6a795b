import ChipmunkTestSupport
import Foundation

/// Runs one of the package's built executables and captures what it printed.
///
/// The executables sit beside the test binary in the build folder; output goes through
/// temporary files, so large outputs cannot fill a pipe and stall the child.
struct Tool {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    static let productsFolder: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent()
    }()

    static let packageRoot = ChipmunkTestSupport.packageRoot

    /// Runs `name` (a product of this package, or a program by absolute path); `stdoutPath` sends its standard output to that file (such as `/dev/full`)
    /// instead of capturing it; `environment`, if given, replaces the test's environment; `directory` is the
    /// folder it runs in (default: the package root).
    static func run(
        _ name: String, _ arguments: [String], stdoutPath: String? = nil, environment: [String: String]? = nil,
        directory: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL =
            name.hasPrefix("/") ? URL(fileURLWithPath: name) : productsFolder.appendingPathComponent(name)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = directory ?? packageRoot
        let folder = try TemporaryFolder("chipmunk-sim-tests")
        defer { folder.remove() }
        let out = folder.url.appendingPathComponent("stdout")
        let err = folder.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdoutPath.map(URL.init(fileURLWithPath:)) ?? out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    static func sim(_ arguments: String...) throws -> Result { try run("chipmunk-sim", arguments) }
    static func reference(_ arguments: String...) throws -> Result { try run("chipmunk-reference", arguments) }
}

/// CSV rows as fields.
func rows(_ csv: String) -> [[Substring]] {
    csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
}
