import Chipmunk
import ChipmunkScenes
import Foundation

/// Which parameter sets a sweep runs.
package enum SweepDesign: Sendable {
    /// Every combination of the axes' values; the last axis varies fastest.
    case grid([SweepAxis])
    /// `count` samples, each parameter drawn from its range with the project's splitmix64
    /// seeded with `seed`: the same seed gives the same runs on every machine.
    case random(count: Int, seed: UInt64, ranges: [SweepRange])
    /// The parameter sets, as listed.
    case table([[String: Double]])

    /// The most runs a sweep has.
    package static let maximumRuns = 10_000_000

    /// Checks the number of runs (at most ``maximumRuns``) without making them; `grid` names where
    /// a grid was given (`--param`, or a sweep file's `grid`).
    package func checkSize(grid: SweepError.Input = .parameterOptions) throws(SweepError) {
        switch self {
        case .grid(let axes):
            guard !axes.isEmpty else { throw .badInput(grid, .noAxes) }
            let total = axes.reduce(1.0) { $0 * Double($1.values.count) }
            guard total <= Double(Self.maximumRuns) else { throw .badInput(grid, .tooManyRuns(Int(total))) }
        case .random(let count, _, _):
            guard (1...Self.maximumRuns).contains(count) else {
                throw .badInput(.random(key: "count"), .randomCountOutOfRange)
            }
        case .table(let rows):
            guard !rows.isEmpty, rows.count <= Self.maximumRuns else {
                throw .badInput(.table(row: nil), .tableSizeOutOfRange)
            }
        }
    }

    /// The runs, in order.
    package func parameterSets() throws(SweepError) -> [ParameterSet] {
        try checkSize()
        switch self {
        case .grid(let axes):
            var seen = Set<String>()
            for axis in axes where !seen.insert(axis.name).inserted { throw .badInput(.axis(axis.name), .givenTwice) }
            var runs: [[String: Double]] = [[:]]
            for axis in axes {
                runs = runs.flatMap { partial in axis.values.map { partial.merging([axis.name: $0]) { $1 } } }
            }
            return runs.map(ParameterSet.init)
        case let .random(count, seed, ranges):
            var generator = SplitMix64(seed: seed)
            let ordered = ranges.sorted { $0.name < $1.name }
            var runs: [ParameterSet] = []
            runs.reserveCapacity(count)
            // A run is keyed by its parameters: a second draw of the same set would be one
            // run counted twice (a range of one value, or one too narrow for the count).
            var firstDraw: [ParameterSet: Int] = [:]
            for run in 0..<count {
                var values: [String: Double] = [:]
                for range in ordered {
                    let value = range.sample(&generator)
                    // A log range's top end can round up to infinity; no plan holds one.
                    guard value.isFinite else { throw .badInput(.randomRange(range.name), .sampleNotFinite) }
                    values[range.name] = value
                }
                let set = ParameterSet(values)
                if let first = firstDraw.updateValue(run, forKey: set) {
                    throw .badInput(.random(key: "ranges"), .repeatedDraw(run: run, of: first))
                }
                runs.append(set)
            }
            return runs
        case .table(let rows):
            for (index, row) in rows.enumerated() where row.values.contains(where: { !$0.isFinite }) {
                throw .badInput(.table(row: index), .tableValueNotFinite)
            }
            // A row given twice is refused by `SweepPlan`, which fills in the scene's values first.
            return rows.map(ParameterSet.init)
        }
    }
}
