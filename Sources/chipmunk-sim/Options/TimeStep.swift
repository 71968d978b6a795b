import ArgumentParser
import Chipmunk

/// A time step given as a fraction ("1/120") or a decimal ("0.005").
struct TimeStep: ExpressibleByArgument, CustomStringConvertible {
    let seconds: Double
    let text: String

    init(seconds: Double, text: String) {
        self.seconds = seconds
        self.text = text
    }

    init?(argument: String) {
        // Decimals only (DecimalNumber.decimal), a numerator and denominator alike.
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = DecimalNumber.decimal(argument)
        case 2:
            if let numerator = DecimalNumber.decimal(parts[0]), let denominator = DecimalNumber.decimal(parts[1]) {
                value = numerator / denominator
            } else {
                value = nil
            }
        default: value = nil
        }
        // The space's rule: what it takes is what `Space.step` takes (a step of 1e-310 stopped it).
        guard let value, Parameter.spaceTimeStep.accepts(value) else { return nil }
        self.init(seconds: value, text: argument)
    }

    var description: String { text }
    var defaultValueDescription: String { text }

    static func parse(_ argument: String) throws -> TimeStep {
        guard let step = TimeStep(argument: argument) else {
            throw ValidationError(
                "expected a fraction such as 1/120 or a decimal such as 0.005, \(Parameter.spaceTimeStep.rule)")
        }
        return step
    }
}
