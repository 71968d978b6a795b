import Chipmunk
import ChipmunkScenes
import Foundation

/// The parameter values of one run, by name.
package struct ParameterSet: Sendable, Hashable {
    package var values: [String: Double]

    package init(_ values: [String: Double]) { self.values = values }

    /// `{"a":1,"b":0.5}`: names sorted, numbers as shortest round-trip decimals.
    package var json: String {
        "{" + values.keys.sorted().map { "\"\($0)\":\(Self.number(values[$0]!))" }.joined(separator: ",") + "}"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) <= 0x1p53 ? String(Int64(value)) : "\(value)"
    }
}
