import Chipmunk
import ChipmunkScenes
import Foundation

/// One parameter's values in a sweep, as `chipmunk-sim sweep --param` spells them:
/// `name=1,2,5` (a list), `name=lin:FROM:TO:COUNT`, `name=log:FROM:TO:COUNT` (evenly
/// spaced in the logarithm; both ends positive).
package struct SweepAxis: Sendable, Equatable {
    package var name: String
    package var values: [Double]

    package init(name: String, values: [Double]) {
        self.name = name
        self.values = values
    }

    /// Parses `name=spec`; the error says what was wrong with it.
    package init(parsing text: String) throws(SweepError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .badInput(.parameterOption(text), .notNameEqualsValues)
        }
        name = String(text[..<equals])
        let spec = String(text[text.index(after: equals)...])
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 4, parts[0] == "lin" || parts[0] == "log" {
            guard let from = Double(decimal: parts[1]), let to = Double(decimal: parts[2]), let count = Int(parts[3]),
                from.isFinite, to.isFinite, (1...1_000_000).contains(count)
            else {
                throw .badInput(.parameterOption(text), .malformedRange(parts[0] == "lin" ? .lin : .log))
            }
            if parts[0] == "log" {
                guard from > 0, to > 0 else {
                    throw .badInput(.parameterOption(text), .logRangeNotAboveZero)
                }
                // Powers of ten, so that log:1:1e20:21 gives exactly 1, 10, 100, …
                let (a, b) = (log10(from), log10(to))
                values = (0..<count).map { count == 1 ? from : pow(10, a + (b - a) * Double($0) / Double(count - 1)) }
                if count > 1 {
                    values[0] = from
                    values[count - 1] = to
                }
            } else if (to - from).isFinite {
                values = (0..<count).map { count == 1 ? from : from + (to - from) * Double($0) / Double(count - 1) }
            } else {
                // From -1.8e308 to 1.8e308 the span overflows (a parameter of -inf was planned):
                // the weighted sum of the ends cannot.
                values = (0..<count).map { index in
                    let t = count == 1 ? 0 : Double(index) / Double(count - 1)
                    return from * (1 - t) + to * t
                }
            }
            guard values.allSatisfy(\.isFinite) else {
                throw .badInput(.parameterOption(text), .rangeValueNotFinite)
            }
        } else {
            var list: [Double] = []
            for item in spec.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = Double(decimal: item.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                    throw .badInput(.parameterOption(text), .notAFiniteNumber(String(item)))
                }
                list.append(value)
            }
            values = list
        }
        // A value given twice is one run (its key is the same), which the summary counted twice.
        var seen = Set<Double>()
        for value in values where !seen.insert(value).inserted {
            throw .badInput(.parameterOption(text), .repeatedValue(value))
        }
    }
}

/// A parameter's range for random samples: uniform, or uniform in the logarithm.
package struct SweepRange: Sendable, Equatable {
    package var name: String
    package var low: Double
    package var high: Double
    package var logarithmic: Bool

    package init(name: String, low: Double, high: Double, logarithmic: Bool) throws(SweepError) {
        guard low.isFinite, high.isFinite, low <= high else {
            throw .badInput(.axis(name), .lowAboveHigh(low: low, high: high))
        }
        guard !logarithmic || low > 0 else { throw .badInput(.axis(name), .logLowNotAboveZero) }
        // From -1e308 to 1e308 the span overflows, and every sample was infinite or NaN.
        guard logarithmic || (high - low).isFinite else {
            throw .badInput(.axis(name), .spanNotFinite(low: low, high: high))
        }
        (self.name, self.low, self.high, self.logarithmic) = (name, low, high, logarithmic)
    }

    func sample(_ generator: inout SplitMix64) -> Double {
        let unit = generator.nextUnit()
        return logarithmic ? pow(10, log10(low) + (log10(high) - log10(low)) * unit) : low + (high - low) * unit
    }
}
