import ArgumentParser
import Chipmunk

/// Decimal options (seconds, rates, milliseconds), parsed at the boundary with their range
/// in the message, whatever the text, as ``WholeNumber`` does for whole numbers: `--fps abc`
/// said only "is invalid", and the range came only once a value parsed.
enum DecimalNumber {
    /// A parser for an option whose values are decimals in `range` (more than its lower
    /// bound when `aboveLowerBound`, for durations that must pass); `unit` names them in the
    /// message ("seconds", "ms"). Decimals only (``decimal(_:)``).
    static func parser(_ range: ClosedRange<Double>, _ unit: String, aboveLowerBound: Bool = false)
        -> @Sendable (String) throws -> Double
    {
        { text in
            if let value = decimal(text), range.contains(value),
                !aboveLowerBound || value > range.lowerBound
            {
                return value
            }
            let lower = aboveLowerBound ? "more than \(number(range.lowerBound))" : "from \(number(range.lowerBound))"
            let upper = range.upperBound < .greatestFiniteMagnitude ? " to \(number(range.upperBound))" : ""
            throw ValidationError("expected a number of \(unit) \(lower)\(upper)")
        }
    }

    /// The value of `text` when it is a decimal ("0.005", "-2", "1e-3"), else nil: `Double`
    /// also reads hexadecimal ("0x10" was 16 s), "nan" and "inf", which no one means.
    static func decimal(_ text: Substring) -> Double? { Double(decimal: text) }

    static func decimal(_ text: String) -> Double? { decimal(text[...]) }

    /// 1000 for 1000.0, 0.5 for 0.5.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
