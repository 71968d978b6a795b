import Foundation
import Testing

/// The README and docs/ show `chipmunk-sim` command lines; each must name a subcommand the
/// tool has and only options its `--help` lists, so that the docs cannot drift from the code.
@Suite struct DocsCommandTests {
    /// Every `chipmunk-sim SUBCOMMAND …` in a Markdown file, up to a backtick or the line's end.
    static func commandLines() throws -> [(place: String, subcommand: String, options: [String])] {
        let files = try markdownFiles()
        let command = try Regex(#"chipmunk-sim ([a-z][a-z-]*)([^`\n]*)"#)
        let option = try Regex(#"(?:^|[^\w-])(--[a-z][a-z-]*)"#)
        var found: [(String, String, [String])] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                for match in line.matches(of: command) {
                    let subcommand = String(match.output[1].substring!)
                    let options = match.output[2].substring!.matches(of: option).map { String($0.output[1].substring!) }
                    found.append(("\(file.lastPathComponent):\(index + 1)", subcommand, options))
                }
            }
        }
        return found
    }

    /// Whether `help` lists `option` whole: `--step` is not found in `--steps`.
    static func lists(_ help: String, _ option: String) -> Bool {
        var rest = help[...]
        while let range = rest.range(of: option) {
            let next = rest[range.upperBound...].first
            if next.map({ !($0.isLetter || $0 == "-") }) ?? true { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// The Markdown files: README.md, then docs/*.md.
    static func markdownFiles() throws -> [URL] {
        let docs = Tool.packageRoot.appendingPathComponent("docs")
        return [Tool.packageRoot.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil))
            .filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
    }

    /// Each console block after an `<!-- output-example` marker: its `$ chipmunk-sim …`
    /// commands (no pipes), each with the lines shown after it.
    static func outputExamples() throws -> [(place: String, arguments: [String], output: [String])] {
        var found: [(String, [String], [String])] = []
        for file in try markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for block in text.components(separatedBy: "<!-- output-example").dropFirst() {
                let body = block.components(separatedBy: "```console\n")[1].components(separatedBy: "```")[0]
                var current: ([String], [String])?
                for line in body.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                    if line.hasPrefix("$ chipmunk-sim ") {
                        if let current { found.append((file.lastPathComponent, current.0, current.1)) }
                        current = (line.dropFirst("$ chipmunk-sim ".count).split(separator: " ").map(String.init), [])
                    } else {
                        current?.1.append(String(line))
                    }
                }
                if let current { found.append((file.lastPathComponent, current.0, current.1)) }
            }
        }
        return found
    }

    @Test("The console examples marked output-example print exactly what the docs show")
    func outputExamplesMatch() throws {
        let examples = try Self.outputExamples()
        #expect(examples.count >= 2, "the README's determinism example has two commands")
        for example in examples {
            let result = try Tool.run("chipmunk-sim", example.arguments)
            #expect(result.status == 0, "\(example.place): \(example.arguments): \(result.stderr)")
            let printed = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
            #expect(
                printed == example.output, "\(example.place): chipmunk-sim \(example.arguments.joined(separator: " "))")
        }
    }

    @Test("Every chipmunk-sim command in README.md and docs/ uses a real subcommand and real options")
    func commandsExist() throws {
        let lines = try Self.commandLines()
        #expect(lines.count > 30, "the docs show many commands; found \(lines.count)")
        var help: [String: String?] = [:]
        for line in lines {
            #if !Live
                // Built without the Live trait (the release and sanitizer builds), there is no serve.
                if line.subcommand == "serve" { continue }
            #endif
            if help[line.subcommand] == nil {
                let result = try Tool.sim(line.subcommand, "--help")
                // An unknown word gets the root command's help, whose usage line is not its own.
                let isSubcommand =
                    result.status == 0 && Self.lists(result.stdout, "USAGE: chipmunk-sim \(line.subcommand)")
                help[line.subcommand] = .some(isSubcommand ? result.stdout : nil)
            }
            guard let text = help[line.subcommand]! else {
                Issue.record("\(line.place): chipmunk-sim has no subcommand \(line.subcommand)")
                continue
            }
            for option in line.options where !Self.lists(text, option) {
                Issue.record("\(line.place): chipmunk-sim \(line.subcommand) has no \(option)")
            }
        }
    }
}
