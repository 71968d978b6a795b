import Foundation

/// Finds the first key that appears twice in one JSON object.
///
/// Foundation's decoders keep one of the two values without a word, so a scene file with
/// `"mass": 1, …, "mass": 100` would run with a mass the author did not mean. This reads
/// valid JSON (call it after decoding succeeded) and returns the path of the repeated key,
/// such as `bodies[2].mass`. Keys are compared as the decoder reads them, escapes decoded:
/// `"gr\u0061vity"` is `gravity` given again.
package enum DuplicateKeys {
    package static func first(in data: [UInt8]) -> String? {
        var scanner = Scanner(bytes: data)
        return scanner.value(path: "")
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// Scans one value; returns the path of a repeated key inside it, if any.
        mutating func value(path: String) -> String? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(path: path)
            case UInt8(ascii: "["): return array(path: path)
            case UInt8(ascii: "\""):
                _ = string()
                return nil
            default:
                // A number, true, false or null: up to the next delimiter.
                while index < bytes.count, !",]} \t\n\r".utf8.contains(bytes[index]) { index += 1 }
                return nil
            }
        }

        mutating func object(path: String) -> String? {
            index += 1  // {
            var seen = Set<String>()
            while true {
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return nil
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                let key = string()
                let keyPath = path.isEmpty ? key : "\(path).\(key)"
                if !seen.insert(key).inserted { return keyPath }
                skipSpace()
                index += 1  // :
                if let repeated = value(path: keyPath) { return repeated }
            }
        }

        mutating func array(path: String) -> String? {
            index += 1  // [
            var element = 0
            while true {
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return nil
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    element += 1
                    continue
                }
                if let repeated = value(path: "\(path)[\(element)]") { return repeated }
            }
        }

        /// A string's contents, escapes decoded as the decoder decodes them (`\u0061` is `a`),
        /// so that a key spelled with escapes is the same key as the one spelled without.
        mutating func string() -> String {
            let opening = index
            index += 1  // opening quote
            var escaped = false
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    escaped = true
                    index += 1
                }
                index += 1
            }
            index += 1  // closing quote
            let quoted = bytes[opening..<min(index, bytes.count)]
            guard escaped else { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
            // The JSON is valid (the decoder read it), so its string decodes alone; an escape the
            // decoder would refuse alone (a lone surrogate) keeps its spelling.
            return (try? JSONDecoder().decode(String.self, from: Data(quoted)))
                ?? String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        }
    }
}
