import ArgumentParser
import Chipmunk
import ChipmunkBatch
import Foundation

struct ResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Export a sweep's results database as CSV or JSON lines, or chart a metric against a parameter.",
        discussion: """
            Columns: \(SweepStore.columns.joined(separator: ", ")). parameters is a JSON object; \
            outcome is ok, diverged or failed. The database is plain SQLite: \
            sqlite3 DB "SELECT json_extract(parameters, '$.speed'), outcome FROM runs" works too.

            --chart PARAM:METRIC draws METRIC against the parameter PARAM with matplotlib \
            (pip install matplotlib) to -o FILE (.svg, .png or .pdf): ok runs as lines, one per \
            combination of the other parameters; diverged runs as red crosses and failed ones \
            as black, with a dashed line where they start. Metrics: \
            \(SweepChart.columnMetrics.joined(separator: ", ")), and NAME.min, NAME.max, \
            NAME.final for each quantity the sweep tracked (--track).

            Examples:
              chipmunk-sim results drop.sqlite > drop.csv
              chipmunk-sim results drop.sqlite --format jsonl -o drop.jsonl
              chipmunk-sim results spring.sqlite --chart stiffness:box.y.min -o spring.svg
            """
    )

    @Argument(help: "The results database.") var db: String
    @Option(help: "The export's format.") var format: ExportFormat = .csv
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Chart a metric against a parameter.", valueName: "param:metric"),
        transform: ChartRequest.parse)
    var chart: ChartRequest?
    @Option(
        name: [.short, .long],
        help: "Write the export to this file instead of stdout ('-' is stdout), or the chart (.svg, .png or .pdf).")
    var output: String?

    func validate() throws {
        if db.isEmpty { throw ValidationError("the results database's path is empty") }
        // `results DB -o DB` replaced the database with its own CSV, and said nothing.
        if let output {
            try Output.refuseOverwriting(
                output, option: "-o",
                inputs: [
                    ("the database being read", db), ("the database's write-ahead log", db + "-wal"),
                    ("the database's shared-memory file", db + "-shm"),
                ])
        }
        if chart != nil {
            guard let output, [".svg", ".png", ".pdf"].contains(where: { output.lowercased().hasSuffix($0) }) else {
                throw ValidationError("--chart needs -o FILE ending in .svg, .png or .pdf")
            }
        }
    }

    func run() throws {
        // A missing database is bad data (exit 65), as a damaged one is: not a usage error.
        guard FileManager.default.fileExists(atPath: db) else { throw RunError("no such database: \(db)") }
        let store = try SweepStore(path: db, readOnly: true)
        guard let chart, let output else {
            let target = output ?? "-"
            // An export keeps every value as stored, to read a damaged database's runs; the
            // first value this version never writes is named, as merge and --chart refuse it.
            do { try store.requireValuesItWrites() } catch { Output.warning("\(error) (exported as stored)") }
            try Output.file(Array(try store.export(asCSV: format == .csv).utf8), to: target, option: "-o")
            if target != "-" { Output.summary("wrote \(target): \(counted(try store.count(), "run"))") }
            return
        }
        let data = try store.chart(parameter: chart.parameter, metric: chart.metric)
        try ChartDrawer.draw(data, to: output)
        Output.note("results: \(data.summary) in \(output)\n")
    }
}

/// What `results` exports.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, jsonl
}
