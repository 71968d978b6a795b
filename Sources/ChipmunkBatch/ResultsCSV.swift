import ChipmunkScenes
import Foundation
import GRDB

/// The results table as CSV, one number format per column.
///
/// The JSON columns (`parameters`, `quantities`, `bodies`) become a column for each number
/// they hold: `param.speed`, `track.box.y.min`, `body.box.x`. Each numeric column, those
/// and the table's own REAL columns, is written in one format chosen from its values:
/// whole numbers below 10^16 as integers (`1000`), values from 0.0001 to 10^16 as decimals
/// (`0.25`), and a column with anything else (`1e+16`, `5e-05`) in scientific notation
/// throughout (`1.0e+03`), every value the shortest that reads back as the same double.
/// The parameters JSON wrote `1000000000000000` and `1e+16` in one column. A database whose
/// JSON columns are not flat objects of numbers (damaged, or written by hand) keeps them
/// as they are stored, as JSON text.
struct ResultsCSV {
    /// The header and rows, columns in ``SweepStore/columns`` order with each JSON column
    /// replaced by its numbers' columns.
    static func text(rows: [Row], columns: [String]) -> String {
        let jsonColumns: [String: String] = [
            RunResult.CodingKeys.parameters.rawValue: "param.",
            RunResult.CodingKeys.quantities.rawValue: "track.",
            RunResult.CodingKeys.bodies.rawValue: "body.",
        ]
        // Each JSON column's numbers by name, per row, and their names, when every row's
        // value is numbers (a column with one that is not stays JSON text).
        var flattened: [String: (rows: [[String: Double?]], names: [String])] = [:]
        for (column, prefix) in jsonColumns {
            let values = rows.map { row -> [String: Double?]? in
                switch (row[column] as DatabaseValue).storage {
                case .null: return [:]
                case .string(let text): return numbers(inJSON: text, prefix: prefix)
                default: return nil
                }
            }
            let parsed = values.compactMap { $0 }
            if parsed.count == values.count {
                flattened[column] = (parsed, Set(parsed.flatMap { $0.keys }).sorted())
            }
        }
        var header: [String] = []
        var cells: [[String]] = Array(repeating: [], count: rows.count)
        for column in columns {
            if let (values, names) = flattened[column] {
                for name in names {
                    let numbers = values.map { $0[name] ?? nil }
                    header.append(name)
                    let format = NumberFormat(for: numbers)
                    for (r, number) in numbers.enumerated() { cells[r].append(number.map(format.text) ?? "") }
                }
                continue
            }
            header.append(column)
            let stored = rows.map { $0[column] as DatabaseValue }
            let doubles = stored.compactMap { value -> Double? in
                if case .double(let number) = value.storage { return number }
                return nil
            }
            let format = NumberFormat(for: doubles)
            for (r, value) in stored.enumerated() {
                switch value.storage {
                case .null: cells[r].append("")
                case .int64(let integer): cells[r].append(String(integer))
                case .double(let double): cells[r].append(format.text(double))
                case .string(let string): cells[r].append(field(string))
                case .blob(let data): cells[r].append(data.base64EncodedString())
                }
            }
        }
        var out = header.map(field).joined(separator: ",") + "\n"
        for row in cells { out += row.joined(separator: ",") + "\n" }
        return out
    }

    /// The numbers in a JSON object of numbers (or nulls), or of such objects one level
    /// down, by dotted name with `prefix`; nil for anything else.
    static func numbers(inJSON text: String, prefix: String) -> [String: Double?]? {
        guard case .object(let members)? = try? JSONDecoder().decode(JSONTree.self, from: Data(text.utf8)) else {
            return nil
        }
        var result: [String: Double?] = [:]
        func add(_ name: String, _ value: JSONTree, depth: Int) -> Bool {
            switch value {
            case .null: result[name] = .some(nil)
            case .integer(let number): result[name] = Double(number)
            case .unsigned(let number): result[name] = Double(number)
            case .number(let number): result[name] = number
            case .object(let inner) where depth == 0:
                for (key, value) in inner where !add(name + "." + key, value, depth: 1) { return false }
            default: return false
            }
            return true
        }
        for (key, value) in members where !add(prefix + key, value, depth: 0) { return nil }
        return result
    }

    /// A CSV field: quoted when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

/// How one numeric column writes its values (see ``ResultsCSV``).
enum NumberFormat {
    case integer, decimal, scientific

    init(for values: [Double?]) { self.init(for: values.compactMap { $0 }) }

    init(for values: [Double]) {
        let finite = values.filter(\.isFinite)
        if finite.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e16 }) {
            self = .integer
        } else if finite.allSatisfy({ $0 == 0 || (abs($0) >= 1e-4 && abs($0) < 1e16) }) {
            self = .decimal
        } else {
            self = .scientific
        }
    }

    /// `value` in this format: the shortest digits that read back as `value` (Swift's own
    /// description), only their notation chosen; `inf`, `-inf` and `nan` as they are.
    func text(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        switch self {
        case .integer: return String(Int64(value))
        case .decimal: return "\(value)"
        case .scientific: return Self.scientific(value)
        }
    }

    /// Shortest round-trip digits as d.ddde±XX (at least one decimal, two exponent digits).
    static func scientific(_ value: Double) -> String {
        if value == 0 { return value.sign == .minus ? "-0.0e+00" : "0.0e+00" }
        let text = "\(abs(value))"
        var digits: String
        var exponent: Int
        if let e = text.firstIndex(of: "e") {
            let mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...])!
            let point = mantissa.firstIndex(of: ".")
            let whole = point.map { mantissa[..<$0] } ?? mantissa
            digits = String(mantissa.filter { $0 != "." })
            exponent += whole.count - 1
        } else {
            let point = text.firstIndex(of: ".") ?? text.endIndex
            let whole = text[..<point]
            let fraction = point < text.endIndex ? text[text.index(after: point)...] : ""
            let all = String(whole) + String(fraction)
            let leading = all.prefix { $0 == "0" }.count
            digits = String(all.dropFirst(leading))
            exponent = whole.count - 1 - leading
        }
        while digits.count > 1, digits.hasSuffix("0") { digits.removeLast() }
        let mantissa = String(digits.prefix(1)) + "." + (digits.count > 1 ? String(digits.dropFirst()) : "0")
        let sign = exponent < 0 ? "-" : "+"
        let magnitude = abs(exponent)
        return (value < 0 ? "-" : "") + mantissa + "e" + sign + (magnitude < 10 ? "0" : "") + String(magnitude)
    }
}
