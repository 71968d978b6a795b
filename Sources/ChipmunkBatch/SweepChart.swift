import Chipmunk
import Foundation
import GRDB

/// One metric of a sweep's runs against one of its parameters, ready to plot: a point a
/// run, failed and diverged runs included, so a chart can mark where a scene stops
/// working.
package struct SweepChart: Sendable, Encodable {
    package struct Point: Sendable, Encodable, Equatable {
        /// The parameter's value.
        package var x: Double
        /// The metric's value; nil when the run has none (a run that failed before it).
        package var y: Double?
        /// ok, diverged or failed.
        package var outcome: String
        /// The step a diverged or failed run stopped at.
        package var errorStep: Int?
        /// The run's other parameters, as `name=value` joined by commas: runs with the same
        /// group form one series.
        package var group: String
    }

    package var scene: String
    package var parameter: String
    package var metric: String
    package var points: [Point]
    /// Every run in the database, plotted or not.
    package var runCount: Int
    /// Runs left out because they have no value of the parameter (from another sweep,
    /// merged with `--allow-mixed`).
    package var withoutParameter: Int

    /// The runs drawn: not-ok runs always (as crosses), ok runs when they have the metric.
    package var plotted: Int { points.filter { $0.outcome != "ok" || $0.y != nil }.count }

    /// `box.y.min against stiffness for 82 of 82 runs (30 not ok)`, and why any run was left out.
    package var summary: String {
        let notOK = points.filter { $0.outcome != "ok" }.count
        var left: [String] = []
        if withoutParameter > 0 { left.append("\(withoutParameter) have no \(parameter)") }
        let withoutMetric = points.count - plotted
        if withoutMetric > 0 { left.append("\(withoutMetric) ok runs have no \(metric)") }
        let leftOut = left.isEmpty ? "" : "; left out: \(left.joined(separator: ", "))"
        return
            "\(metric) against \(parameter) for \(plotted) of \(counted(runCount, "run")) (\(notOK) not ok\(leftOut))"
    }

    /// The metrics every database has; quantities tracked with `--track` add
    /// `NAME.min`, `NAME.max` and `NAME.final`.
    package static let columnMetrics = ["steps", "error_step", "asleep_step", "kinetic_energy", "wall_ms"]
}

extension SweepStore {
    /// `metric` against `parameter` over every run, ordered by the parameter.
    ///
    /// `metric` is one of ``SweepChart/columnMetrics`` or a tracked quantity's
    /// `NAME.min|max|final` (such as `box.y.min` or `energy.max`). An unknown parameter or
    /// metric is an error that lists the known ones.
    package func chart(parameter: String, metric: String) throws(SweepError) -> SweepChart {
        let results = try results()
        guard !results.isEmpty else { throw .database(path, .noRuns) }
        var parameterNames: Set<String> = []
        var quantityMetrics: Set<String> = []
        var points: [SweepChart.Point] = []
        var withoutParameter = 0
        for result in results {
            let parameters = result.parameters.values
            parameterNames.formUnion(parameters.keys)
            var metrics: [String: Double] = [:]
            let columns: [String: Double?] = [
                "steps": Double(result.steps), "error_step": result.errorStep.map(Double.init),
                "asleep_step": result.asleepStep.map(Double.init), "kinetic_energy": result.kineticEnergy,
                "wall_ms": result.wallMilliseconds,
            ]
            for column in SweepChart.columnMetrics {
                if let value = columns[column] ?? nil, value.isFinite { metrics[column] = value }
            }
            for (name, range) in result.quantities ?? [:] {
                for (statistic, number) in [("min", range.min), ("max", range.max), ("final", range.final)] {
                    quantityMetrics.insert("\(name).\(statistic)")
                    if let number, number.isFinite { metrics["\(name).\(statistic)"] = number }
                }
            }
            guard let x = parameters[parameter] else {
                withoutParameter += 1
                continue
            }
            let group = parameters.keys.filter { $0 != parameter }.sorted()
                .map { "\($0)=\(parameters[$0].map(ParameterSet.text) ?? "")" }.joined(separator: ", ")
            points.append(
                .init(
                    x: x, y: metrics[metric], outcome: result.outcome.rawValue, errorStep: result.errorStep,
                    group: group))
        }
        guard parameterNames.contains(parameter) else {
            throw .badInput(
                .chartOption(parameter: parameter, metric: metric),
                .noSuchParameter(parameter, database: path, known: parameterNames.sorted()))
        }
        let known = SweepChart.columnMetrics + quantityMetrics.sorted()
        guard known.contains(metric) else {
            throw .badInput(.chartOption(parameter: parameter, metric: metric), .noSuchMetric(metric, known: known))
        }
        let scene = results.first?.scene ?? ""
        return SweepChart(
            scene: scene, parameter: parameter, metric: metric,
            points: points.sorted { ($0.group, $0.x) < ($1.group, $1.x) }, runCount: results.count,
            withoutParameter: withoutParameter)
    }
}
