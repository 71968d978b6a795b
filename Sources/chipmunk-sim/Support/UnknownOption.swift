import ArgumentParser
import Foundation

/// Finds an option the command does not have. ArgumentParser names one only when the rest
/// of the line parses: `sweep --parm speed=1,2 --db x.sqlite` said "give at least one
/// --param", and `record --stesp 5` "Missing expected argument '<scene>'", which hid the
/// typo that caused them.
enum UnknownOption {
    /// "Unknown option '--parm'. Did you mean '--param'?" for the first `--name` in
    /// `arguments` (the command line after the program's name) that its subcommand does not
    /// take, or nil. Values of options are skipped; `--` ends the options.
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        guard let name = arguments.first, !name.hasPrefix("-"),
            let options = options(of: name, root: root)
        else { return nil }
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            let option = String(argument.prefix { $0 != "=" })  // "" and "=x" too: split gave no element for ""
            if let takesValue = options[option] {  // a short one's value is skipped too: `-o --x.svg`
                if takesValue, !argument.contains("=") { index += 1 }
                continue
            }
            guard option.hasPrefix("--"), option.count > 2 else { continue }
            let near = options.keys.filter { distance($0, option) <= 2 }.min {
                distance($0, option) < distance($1, option)
            }
            return "Unknown option '\(option.excerpt())'" + (near.map { ". Did you mean '\($0)'?" } ?? "")
        }
        return nil
    }

    /// The options of subcommand `name` (`--steps`, `-o`), each with whether it takes a
    /// value, from ArgumentParser's description of the tool; nil for no such subcommand.
    private static func options(of name: String, root: any ParsableCommand.Type) -> [String: Bool]? {
        guard let data = root._dumpHelp().data(using: .utf8),
            let tool = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let command = tool["command"] as? [String: Any],
            let subcommands = command["subcommands"] as? [[String: Any]],
            let subcommand = subcommands.first(where: { $0["commandName"] as? String == name })
        else { return nil }
        var options: [String: Bool] = ["--help": false, "-h": false]
        for argument in subcommand["arguments"] as? [[String: Any]] ?? [] {
            let takesValue = argument["kind"] as? String == "option"
            for entry in argument["names"] as? [[String: Any]] ?? [] {
                guard let name = entry["name"] as? String else { continue }
                switch entry["kind"] as? String {
                case "long": options["--" + name] = takesValue
                case "short", "longWithSingleDash": options["-" + name] = takesValue
                default: break
                }
            }
        }
        return options
    }

    /// The edit distance between two short strings.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
