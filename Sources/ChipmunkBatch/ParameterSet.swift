import Chipmunk
import ChipmunkScenes
import Foundation

/// The parameter values of one run, by name; in JSON, `{"a":1,"b":0.5}`.
package struct ParameterSet: Sendable, Hashable, Codable {
    package var values: [String: Double]

    package init(_ values: [String: Double]) { self.values = values }

    /// `{"a":1,"b":0.5}`: names sorted, numbers as shortest round-trip decimals (whole
    /// numbers up to 2⁵³ without a fraction). A run's key hashes these bytes.
    package var json: String { SweepJSON.text(self) ?? "{}" }

    /// A value as the JSON writes it: `5`, `0.5`, `1e+20`.
    package static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) <= 0x1p53 ? String(Int64(value)) : "\(value)"
    }

    package init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: Double].self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (name, value) in values {
            // A whole number is written as an integer: `1`, where a Double might be `1e+15`.
            if value == value.rounded(), abs(value) <= 0x1p53 {
                try container.encode(Int64(value), forKey: AnyCodingKey(name))
            } else {
                try container.encode(value, forKey: AnyCodingKey(name))
            }
        }
    }
}
