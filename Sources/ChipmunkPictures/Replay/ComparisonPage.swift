import Chipmunk
import ChipmunkScenes
import Foundation

/// Two runs of a scene drawn over each other in one self-contained page (no network
/// access), for a `RunComparison`: `chipmunk-sim diff --format html`.
///
/// Run A is drawn filled in the engine demos' colours, run B over it in outline; from the
/// first divergent step on, the bodies that differ there are outlined in red. A scrub
/// bar and a play button move through the steps both runs have states for, and an inline
/// SVG chart shows log10 of the largest absolute difference against the step, with the
/// first divergent step marked.
///
/// `#step=N` at the end of the page's address opens it at step N (the nearest step with
/// states). Once drawn, `<body>` carries `data-ready="1"`, `data-first-divergent-step`
/// (empty when the runs are identical), and for the step shown `data-step`,
/// `data-outlines` (run B's bodies drawn in outline) and `data-highlighted` (bodies drawn
/// in red); `window.comparison` answers `seek(step)` and `state()`.
public struct ComparisonPage {
    /// The comparison drawn.
    public let comparison: RunComparison
    /// Where the bodies' shapes come from: a fresh scene of the runs (bodies by index in
    /// `Space.bodies`). Without it, or for a body it does not have, a body is a dot.
    public let space: Space?
    /// Whether the world's y axis points down (UIKit-style scenes).
    public var yPointsDown: Bool
    /// The most frames (steps with states) the page holds; longer runs keep every Kth, and
    /// always the step where the differences were read.
    package var maximumFrames = 20_000

    /// A page for `comparison`, with shapes from `scene` (a fresh one) when given.
    public init(_ comparison: RunComparison, scene: Scene?) {
        self.comparison = comparison
        space = scene?.space
        yPointsDown = scene?.yAxisPointsDown ?? false
    }

    /// The steps the page shows: those both runs have states for, thinned to ``maximumFrames``.
    package var frameSteps: [Int] {
        let all = comparison.samples.map(\.step)
        guard all.count > maximumFrames else { return all }
        let stride = (all.count + maximumFrames - 1) / maximumFrames
        var kept = Set(all.enumerated().filter { $0.offset % stride == 0 }.map(\.element))
        if let last = all.last { kept.insert(last) }
        if let step = comparison.differencesStep { kept.insert(step) }
        return all.filter { kept.contains($0) }
    }

    /// The page.
    public func html() -> String {
        let steps = frameSteps
        let wanted = Set(steps)
        func poses(_ trace: RunTrace) -> [Int: [GoldenFile.BodyState]] {
            var result: [Int: [GoldenFile.BodyState]] = [:]
            for checkpoint in trace.checkpoints where wanted.contains(checkpoint.step) {
                result[checkpoint.step] = checkpoint.bodies
            }
            return result
        }
        let posesA = poses(comparison.a)
        let posesB = poses(comparison.b)
        let bodyCount = steps.map { max(posesA[$0]?.count ?? 0, posesB[$0]?.count ?? 0) }.max() ?? 0
        // x, y, angle per body per frame, A then B, as little-endian Float32; NaN: no body.
        var floats: [Float] = []
        floats.reserveCapacity(steps.count * bodyCount * 6)
        for poses in [posesA, posesB] {
            for step in steps {
                let bodies = poses[step] ?? []
                for index in 0..<bodyCount {
                    let body = index < bodies.count ? bodies[index] : nil
                    floats.append(body.map { Float($0.x) } ?? .nan)
                    floats.append(body.map { Float($0.y) } ?? .nan)
                    floats.append(body.map { Float($0.angle) } ?? .nan)
                }
            }
        }
        let bytes = floats.withUnsafeBufferPointer { Data(buffer: $0) }

        // Shapes: each body's in its own coordinates; the static body's in the world's.
        var bodyShapes: [[ShapeGeometry]] = Array(repeating: [], count: bodyCount)
        var staticShapes: [ShapeGeometry] = []
        if let space {
            for (index, body) in space.bodies.enumerated() where index < bodyCount {
                bodyShapes[index] = body.shapes.map { ShapeGeometry($0, in: .body) }
            }
            staticShapes = space.staticBody.shapes.map { ShapeGeometry($0, in: .world) }
        }

        // The view: everything drawn, over every frame of both runs.
        var box: BoundingBox?
        func include(_ b: BoundingBox?) {
            guard let b, [b.left, b.right, b.bottom, b.top].allSatisfy({ $0.isFinite && abs($0) < 1e12 }) else {
                return
            }
            box = box.map { $0.union(b) } ?? b
        }
        for shape in staticShapes { include(shape.bounds(at: .zero, angle: 0)) }
        for poses in [posesA, posesB] {
            for step in steps {
                for (index, state) in (poses[step] ?? []).enumerated() {
                    let at = Vector(x: state.x, y: state.y)
                    if bodyShapes[index].isEmpty {
                        include(BoundingBox(left: at.x, bottom: at.y, right: at.x, top: at.y))
                    }
                    for shape in bodyShapes[index] { include(shape.bounds(at: at, angle: state.angle)) }
                }
            }
        }
        let b = box ?? BoundingBox(left: -1, bottom: -1, right: 1, top: 1)
        let margin = max(b.right - b.left, b.top - b.bottom, 1) * 0.05
        let view = [b.left - margin, b.bottom - margin, b.right - b.left + 2 * margin, b.top - b.bottom + 2 * margin]

        let header = Header(
            steps: steps, bodies: bodyCount, shapes: bodyShapes, staticShapes: staticShapes, view: view,
            yPointsDown: yPointsDown, firstDivergentStep: comparison.firstDivergentStep,
            divergentBodies: comparison.divergentBodies, labelA: comparison.a.source, labelB: comparison.b.source,
            timeStep: comparison.a.timeStep)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let json = (try? encoder.encode(header)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let title = "\(comparison.a.source) against \(comparison.b.source)"
        return Self.page(
            title: title, labelA: comparison.a.source, labelB: comparison.b.source, report: comparison.report,
            chart: chart(),
            header: json.replacingOccurrences(of: "</", with: "<\\/"), data: bytes.base64EncodedString())
    }

    private struct Header: Encodable {
        var steps: [Int]
        var bodies: Int
        var shapes: [[ShapeGeometry]]
        var staticShapes: [ShapeGeometry]
        var view: [Double]
        var yPointsDown: Bool
        var firstDivergentStep: Int?
        var divergentBodies: [Int]
        var labelA: String
        var labelB: String
        var timeStep: Double
    }

    /// The chart's size in the SVG's units.
    static let chartSize = (width: 800.0, height: 220.0, left: 56.0, bottom: 28.0)

    /// log10 of the largest difference against the step, as an inline SVG: a polyline
    /// (`#chart-line`) over the steps whose largest difference is above 0, a red line at the
    /// first divergent step (`#chart-first`), and a cursor at the step shown (`#chart-cursor`).
    func chart() -> String {
        let (width, height, left, bottom) = Self.chartSize
        let samples = comparison.samples
        let firstStep = samples.first?.step ?? 0
        let lastStep = max(samples.last?.step ?? 1, firstStep + 1)
        let logs = samples.compactMap { s -> (Int, Double)? in
            guard s.largest > 0 else { return nil }
            return (s.step, s.largest.isFinite ? log10(s.largest) : 309)
        }
        let low = min(-16, (logs.map(\.1).min() ?? -16).rounded(.down))
        let high = max(0, (logs.map(\.1).max() ?? 0).rounded(.up))
        func x(_ step: Int) -> Double {
            left + (width - left - 8) * Double(step - firstStep) / Double(lastStep - firstStep)
        }
        func y(_ value: Double) -> Double { 8 + (height - bottom - 8) * (high - value) / (high - low) }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var svg = """
            <svg id="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) \(Int(height))" \
            width="\(Int(width))" height="\(Int(height))" role="img" \
            aria-label="log10 of the largest absolute difference against the step">
            <rect x="\(f(left))" y="8" width="\(f(width - left - 8))" height="\(f(height - bottom - 8))" fill="#fff" stroke="#999"/>

            """
        let tick = max(1, Int(((high - low) / 8).rounded(.up)))
        var power = Int(low)
        while Double(power) <= high {
            svg +=
                "<line x1=\"\(f(left))\" x2=\"\(f(width - 8))\" y1=\"\(f(y(Double(power))))\" y2=\"\(f(y(Double(power))))\" stroke=\"#eee\"/>"
                + "<text x=\"\(f(left - 4))\" y=\"\(f(y(Double(power)) + 4))\" text-anchor=\"end\" font-size=\"11\">1e\(power)</text>\n"
            power += tick
        }
        svg +=
            "<text x=\"\(f(left))\" y=\"\(f(height - 8))\" font-size=\"11\">step \(firstStep)</text>"
            + "<text x=\"\(f(width - 8))\" y=\"\(f(height - 8))\" font-size=\"11\" text-anchor=\"end\">step \(lastStep)</text>\n"
        // At most 2,000 points: the largest of each run of samples.
        let stride = max(1, (logs.count + 1999) / 2000)
        var points: [String] = []
        var index = 0
        while index < logs.count {
            let chunk = logs[index..<min(index + stride, logs.count)]
            let top = chunk.max { $0.1 < $1.1 }!
            points.append("\(f(x(top.0))),\(f(y(min(top.1, high))))")
            index += stride
        }
        svg +=
            "<polyline id=\"chart-line\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
        if let first = comparison.firstDivergentStep {
            svg +=
                "<line id=\"chart-first\" data-step=\"\(first)\" x1=\"\(f(x(first)))\" x2=\"\(f(x(first)))\" y1=\"8\" "
                + "y2=\"\(f(height - bottom))\" stroke=\"#d32f2f\" stroke-dasharray=\"4 3\"/>\n"
        }
        svg +=
            "<line id=\"chart-cursor\" x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"8\" y2=\"\(f(height - bottom))\" stroke=\"#333\"/>\n"
        svg += "</svg>"
        return svg
    }

    /// The page's template (Page/comparison-page.html), filled in once.
    private static let template = PageTemplate(PageFiles.comparisonPageHTML)

    private static func page(
        title: String, labelA: String, labelB: String, report: String, chart: String, header: String, data: String
    ) -> String {
        template.filled([
            "title": PageTemplate.escaped(title), "style": PageFiles.comparisonPageCSS,
            "labelA": PageTemplate.escaped(labelA), "labelB": PageTemplate.escaped(labelB), "chart": chart,
            "report": PageTemplate.escaped(report), "header": header, "data": data,
            "script": PageFiles.comparisonPageJS,
        ])
    }
}
