// Turns text files into Swift source, at build time (the EmbedFiles plugin runs it), so that
// chipmunk-sim carries its pages and built-in scene files with no bundle beside it.
//
//   embed-files OUTPUT.swift TYPE FILE...
//
// writes `enum TYPE` with one constant per file, its text byte for byte (a raw string
// literal whose delimiter no line of the file can end), and `all`, every file by its name.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: embed-files OUTPUT.swift TYPE FILE...\n".utf8))
    exit(64)
}
let (output, type, files) = (arguments[0], arguments[1], arguments.dropFirst(2).sorted())

/// `replay-player.js` → `replayPlayerJS`: the words of the name, the extension in capitals.
func identifier(_ fileName: String) -> String {
    let name = (fileName as NSString).deletingPathExtension
    let suffix = (fileName as NSString).pathExtension.uppercased()
    let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    let joined = words.enumerated().map { $0 == 0 ? $1.lowercased() : $1.prefix(1).uppercased() + $1.dropFirst() }
        .joined()
    return (joined.first?.isNumber ?? true ? "file" : "") + joined + suffix
}

/// The longest run of `#` in `text`: a raw literal with one more cannot be ended or escaped by it.
func longestHashRun(_ text: String) -> Int {
    var (longest, run) = (0, 0)
    for character in text.unicodeScalars {
        run = character == "#" ? run + 1 : 0
        longest = max(longest, run)
    }
    return longest
}

var source = """
    // Generated at build time by the EmbedFiles plugin (Sources/embed-files); do not edit.

    /// Files carried in the binary, each as its text, byte for byte.
    enum \(type) {

    """
var names: [(file: String, identifier: String)] = []
for path in files {
    let file = (path as NSString).lastPathComponent
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
        !text.contains("\r")
    else {
        FileHandle.standardError.write(Data("embed-files: \(path): not UTF-8 text with LF line ends\n".utf8))
        exit(1)
    }
    let hashes = String(repeating: "#", count: longestHashRun(text) + 1)
    // A multi-line literal drops the line break before its closing delimiter, and strips no
    // indentation when that delimiter starts its line: the literal is the file exactly.
    source += "    /// `\(file)`.\n    static let \(identifier(file)) = \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)\n\n"
    names.append((file, identifier(file)))
}
source += "    /// Every file, by its name.\n    static let all: [String: String] = [\n"
source += names.map { "        \"\($0.file)\": \($0.identifier),\n" }.joined()
source += names.isEmpty ? "        :\n" : ""
source += "    ]\n}\n"
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("embed-files: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
