import ChipmunkBatch
import Foundation

/// Draws a ``SweepChart`` with matplotlib (from PyPI): `Chart/chart.py`, given the chart
/// as JSON on standard input.
///
/// matplotlib rather than hand-written SVG: its axes, log scales, ticks, legends and
/// SVG/PNG/PDF output are what a person expects of a chart, and a few lines of Python
/// drive them.
enum ChartDrawer {
    /// Why a chart was not drawn.
    enum Failure: Error, CustomStringConvertible {
        /// An axis's values span more than a double can: `--chart` names the quantity.
        case axisTooWide(quantity: String, low: Double, high: Double)
        /// python3 could not be started.
        case noPython(String)
        /// The chart program stopped with this last line (matplotlib missing, or its own error).
        case program(String)

        var description: String {
            switch self {
            case .axisTooWide(let quantity, let low, let high):
                "--chart: \(quantity) spans \(low) to \(high), wider than a chart axis can hold; sweep a narrower range"
            case .noPython(let reason): "--chart needs python3 with matplotlib (pip install matplotlib): \(reason)"
            case .program(let lastLine): "--chart: \(lastLine)"
            }
        }
    }

    /// Draws `chart` into `output`; the suffix (.svg, .png, .pdf) picks the format.
    static func draw(_ chart: SweepChart, to output: String) throws {
        // An axis spans its values: one wider than the largest double (a sweep from -1.7e308
        // to 1.7e308) made matplotlib fail with its own words ("Axis limits cannot be NaN or Inf").
        for (name, values) in [
            (chart.parameter, chart.points.map(\.x)), (chart.metric, chart.points.compactMap(\.y)),
        ] {
            let finite = values.filter(\.isFinite)
            if let low = finite.min(), let high = finite.max(), !(high - low).isFinite {
                throw Failure.axisTooWide(quantity: name, low: low, high: high)
            }
        }
        let format = URL(fileURLWithPath: output).pathExtension.lowercased()
        let request: [String: Any] = [
            "format": format,
            "chart": try JSONSerialization.jsonObject(with: JSONEncoder().encode(chart)),
        ]
        // The request, the picture and the messages go through files: a pipe would stall
        // on a large chart, and a script that stops early would break it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("request.json")
        let picture = folder.appendingPathComponent("chart.\(format)")
        let messages = folder.appendingPathComponent("stderr")
        try JSONSerialization.data(withJSONObject: request).write(to: input)
        _ = FileManager.default.createFile(atPath: picture.path, contents: nil)
        _ = FileManager.default.createFile(atPath: messages.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: picture)
        process.standardError = try FileHandle(forWritingTo: messages)
        do {
            try process.run()
        } catch {
            throw Failure.noPython("\(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: messages, encoding: .utf8)) ?? ""
            let lastLine =
                message.split(separator: "\n").last.map(String.init)
                ?? "python3 exited with \(process.terminationStatus)"
            throw Failure.program(lastLine)
        }
        try Output.file(Array(try Data(contentsOf: picture)), to: output, option: "-o")
    }

    /// The program: `Chart/chart.py`, embedded at build time.
    static let script = ChartFiles.chartPY
}
