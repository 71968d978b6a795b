import Chipmunk

/// The values a generated test tries against a ``Rule``: STYLE.md, item 5d (a rule is a
/// promise: every value it accepts must step without an abort, a hang or a silent NaN).
extension Rule {
    /// Every candidate the rule accepts: the bounds, the next values inside them, ±0, the
    /// smallest denormal and normal, ±1, ±1e300, the largest finite value, and infinity
    /// where allowed.
    package var acceptedExtremes: [Double] {
        var candidates: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, -.leastNormalMagnitude,
            1, -1, 1e-300, -1e-300, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity,
            -.infinity,
        ]
        for bound in bounds {
            candidates += [bound, bound.nextUp, bound.nextDown, -bound, -bound.nextUp, -bound.nextDown]
        }
        var seen = Set<Double>()
        return candidates.filter { accepts($0) && seen.insert($0).inserted }
    }

    /// Values just outside the rule: next to its bounds, NaN, the infinities, and zero where
    /// the rule wants more.
    package var valuesOutside: [Double] {
        var candidates: [Double] = [.nan, .infinity, -.infinity, -1, -.leastNonzeroMagnitude, 0, -0.0]
        for bound in bounds {
            candidates += [bound.nextUp, bound.nextDown, bound + 1, bound - 1, -bound]
        }
        return candidates.filter { !accepts($0) }
    }

    private var bounds: [Double] {
        switch self {
        case .within(let range), .magnitudeWithin(let range), .zeroOrWithin(let range), .withinOrInfinity(let range):
            return [range.lowerBound, range.upperBound]
        case .magnitudeAtMost(let bound), .nonNegativeAtMost(let bound), .positiveAtMost(let bound): return [bound]
        case .wholeNumber(let range): return [Double(range.lowerBound), Double(range.upperBound)]
        default: return []
        }
    }
}
