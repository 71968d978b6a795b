/// What a parameter's values must be.
public enum Rule: Sendable, Hashable, CustomStringConvertible {
    /// Neither NaN nor infinite.
    case finite
    /// Greater than zero and finite.
    case positiveFinite
    /// Within the range (whose bounds are positive and finite).
    case within(ClosedRange<Double>)
    /// Finite, with a magnitude of at most the bound.
    case magnitudeAtMost(Double)
    /// Zero or more, and at most the bound.
    case nonNegativeAtMost(Double)
    /// Greater than zero, and at most the bound.
    case positiveAtMost(Double)
    /// Zero, or within the range (whose bounds are positive and finite).
    case zeroOrWithin(ClosedRange<Double>)
    /// Within the range (whose bounds are positive and finite), or positive infinity.
    case withinOrInfinity(ClosedRange<Double>)
    /// Either sign, with a magnitude within the range (whose bounds are positive and finite).
    case magnitudeWithin(ClosedRange<Double>)
    /// Zero or more, and finite.
    case nonNegativeFinite
    /// Zero or more; infinity allowed (for "no limit").
    case nonNegative
    /// Greater than zero; infinity allowed (for "never").
    case positive
    /// A whole number in the range.
    case wholeNumber(ClosedRange<Int>)

    /// Whether `value` keeps the rule.
    @inlinable
    public func accepts(_ value: Double) -> Bool {
        switch self {
        case .finite: return value.isFinite
        case .positiveFinite: return value > 0 && value.isFinite
        case .within(let range): return range.contains(value)
        case .magnitudeAtMost(let bound): return abs(value) <= bound
        case .nonNegativeAtMost(let bound): return value >= 0 && value <= bound
        case .positiveAtMost(let bound): return value > 0 && value <= bound
        case .magnitudeWithin(let range): return range.contains(abs(value))
        case .zeroOrWithin(let range): return value == 0 || range.contains(value)
        case .withinOrInfinity(let range): return range.contains(value) || value == .infinity
        case .nonNegativeFinite: return value >= 0 && value.isFinite
        case .nonNegative: return value >= 0
        case .positive: return value > 0
        case .wholeNumber(let range):
            return value.rounded() == value && value >= Double(range.lowerBound) && value <= Double(range.upperBound)
        }
    }

    /// The rule in words, to follow "must be".
    public var description: String {
        switch self {
        case .finite: return "finite"
        case .positiveFinite: return "positive and finite"
        case .within(let range): return "from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))"
        case .magnitudeAtMost(let bound): return "finite, from -\(Self.text(bound)) to \(Self.text(bound))"
        case .nonNegativeAtMost(let bound): return "from 0 to \(Self.text(bound))"
        case .positiveAtMost(let bound): return "greater than 0, and at most \(Self.text(bound))"
        case .zeroOrWithin(let range): return "0, or from \(range.lowerBound) to \(range.upperBound)"
        case .withinOrInfinity(let range):
            return "from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)), or infinity"
        case .magnitudeWithin(let range):
            return "of either sign, with a magnitude from \(range.lowerBound) to \(range.upperBound)"
        case .nonNegativeFinite: return "zero or more, and finite"
        case .nonNegative: return "zero or more (infinity allowed)"
        case .positive: return "greater than zero (infinity allowed)"
        case .wholeNumber(let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    /// A bound as people write it: `1e15` rather than `1000000000000000.0`.
    private static func text(_ bound: Double) -> String {
        var mantissa = bound
        var exponent = 0
        while mantissa >= 10, mantissa.truncatingRemainder(dividingBy: 10) == 0 {
            mantissa /= 10
            exponent += 1
        }
        return exponent >= 6 && mantissa < 1e15 ? "\(Int(mantissa))e\(exponent)" : "\(bound)"
    }
}
