@testable import ChipmunkBatch
import Foundation
import Testing

/// Issue 28: `results --format csv` wrote `1000000000000000` and `1e+16` in one column
/// (the parameters' JSON). Each numeric column now has one format, and every value reads
/// back as the double it was.
@Suite struct ResultsCSVTests {
    @Test func eachColumnHasOneFormat() {
        #expect(NumberFormat(for: [1, 1000, 1e15]) == .integer)
        #expect(NumberFormat(for: [0.5, 1000, 1e15]) == .decimal)
        #expect(NumberFormat(for: [1, 1e15, 1e16]) == .scientific)
        #expect(NumberFormat(for: [0.25, 5e-5]) == .scientific)
        #expect(NumberFormat(for: [Double]()) == .integer)
        let column = [1.0, 1e15, 1e16, 0.1, 123.456, 5e-5, -2.5e300]
        let texts = column.map(NumberFormat.scientific)
        #expect(texts == ["1.0e+00", "1.0e+15", "1.0e+16", "1.0e-01", "1.23456e+02", "5.0e-05", "-2.5e+300"])
        #expect(zip(column, texts).allSatisfy { Double($1) == $0 })
    }

    /// Every finite double's scientific text reads back as itself.
    @Test func scientificTextRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 1...2046) << 52))
            #expect(Double(NumberFormat.scientific(value)) == value, "\(value)")
        }
        for value in [Double.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.leastNormalMagnitude, 0.1 + 0.2] {
            #expect(Double(NumberFormat.scientific(value)) == value, "\(value)")
        }
    }

    @Test func jsonColumnsBecomeAColumnPerNumber() {
        #expect(
            ResultsCSV.numbers(inJSON: #"{"speed": 1e16, "e": 0.2}"#, prefix: "param.")
                == ["param.speed": 1e16, "param.e": 0.2])
        #expect(
            ResultsCSV.numbers(inJSON: #"{"box.y": {"min": -1, "max": null}}"#, prefix: "track.")
                == ["track.box.y.min": -1, "track.box.y.max": Double?.none])
        // Not numbers: the column stays JSON text.
        #expect(ResultsCSV.numbers(inJSON: #"{"speed": "fast"}"#, prefix: "param.") == nil)
        #expect(ResultsCSV.numbers(inJSON: "[1, 2]", prefix: "param.") == nil)
        #expect(ResultsCSV.numbers(inJSON: "{", prefix: "param.") == nil)
    }
}
