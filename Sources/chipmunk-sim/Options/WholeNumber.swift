import ArgumentParser

/// Whole-number options (step counts, step numbers, frames), parsed at the boundary with
/// their range in the message, whatever the text: a 20-digit number, which `Int` cannot
/// hold, is refused as out of range, not as "invalid" with no range given.
enum WholeNumber {
    /// The step numbers every command reaches, and the most steps a run takes: 2^53, where
    /// a double still counts whole steps (a scene's clock is steps times its time step).
    static let maxStep = 1 << 53

    /// A parser for an option whose values are whole numbers in `range`; `unit` names them
    /// in the message ("steps", "frames"; nil for a number such as a port), `why` says where
    /// a limit below 2^53 comes from.
    static func parser(_ range: ClosedRange<Int>, _ unit: String?, why: String? = nil)
        -> @Sendable (String) throws -> Int
    {
        { text in
            if let value = Int(text), range.contains(value) { return value }
            let upper = range.upperBound == maxStep ? "\(maxStep) (2^53)" : "\(range.upperBound)"
            throw ValidationError(
                "expected a whole number\(unit.map { " of \($0)" } ?? "") from \(range.lowerBound) to \(upper)"
                    + (why.map { ", \($0)" } ?? ""))
        }
    }
}
