import Foundation

/// How a sweep writes JSON: keys sorted, so that a value gives the same bytes in every
/// process (the runs' keys hash them). GRDB's default JSON encoder for records, written
/// down once: the results database's JSON columns and the run keys use this one.
enum SweepJSON {
    /// An encoder with sorted keys that refuses infinities and NaN (sweeps store them as null).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// `value` as JSON text; nil if it holds a number JSON cannot (an infinity or NaN).
    static func text(_ value: some Encodable) -> String? {
        guard let data = try? encoder().encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
