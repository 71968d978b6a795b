import Foundation
import Testing

/// scripts/docs.sh builds DocC for every library target with warnings as errors.
@Suite struct DocsScriptTests {
    @Test("scripts/docs.sh names every library target of Package.swift, and treats DocC warnings as errors")
    func everyLibraryTarget() throws {
        let manifest = try String(contentsOf: Tool.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        // `.target(name: "X"` or `.target(\n name: "X"`: the library (non-test, non-executable)
        // targets written in Swift (DocC documents those; the C engine guard is internal).
        let libraries = Set(
            manifest.matches(of: #/\.target\(\s*name:\s*"([A-Za-z]+)"/#).map { String($0.1) }.filter { name in
                let folder = Tool.packageRoot.appendingPathComponent("Sources/\(name)").path
                let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
                return files.contains { $0.hasSuffix(".swift") }
            })
        let script = try String(contentsOf: Tool.packageRoot.appendingPathComponent("scripts/docs.sh"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("targets=(") })
        let named = Set(line.dropFirst("targets=(".count).dropLast().split(separator: " ").map(String.init))
        #expect(!libraries.isEmpty && named == libraries, "Package.swift: \(libraries.sorted())")
        #expect(script.contains("--warnings-as-errors"))
    }
}
