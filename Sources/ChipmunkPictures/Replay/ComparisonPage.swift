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
    public var maximumFrames = 20_000

    /// A page for `comparison`, with shapes from `scene` (a fresh one) when given.
    public init(_ comparison: RunComparison, scene: Scene?) {
        self.comparison = comparison
        space = scene?.space
        yPointsDown = scene?.yAxisPointsDown ?? false
    }

    /// The steps the page shows: those both runs have states for, thinned to ``maximumFrames``.
    public var frameSteps: [Int] {
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

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func page(
        title: String, labelA: String, labelB: String, report: String, chart: String, header: String, data: String
    ) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(escaped(title)) — chipmunk-sim diff</title>
        <style>
        body { margin: 0; font: 14px system-ui, sans-serif; color: #222; background: #fafafa; }
        canvas { display: block; background: #fff; }
        #controls { display: flex; gap: 8px; align-items: center; padding: 8px; max-width: 800px; }
        #scrub { flex: 1 1 240px; }
        #clock { font-variant-numeric: tabular-nums; min-width: 9em; }
        #legend { padding: 0 8px; }
        #legend .a { color: #555; } #legend .b { color: #1565c0; } #legend .d { color: #d32f2f; }
        pre { padding: 8px; margin: 0; font-size: 12px; white-space: pre-wrap; }
        </style>
        </head>
        <body>
        <canvas id="view"></canvas>
        <div id="controls">
          <button id="play">▶ Play</button>
          <input id="scrub" type="range" min="0" max="0" step="1" value="0" aria-label="Step">
          <span id="clock"></span>
        </div>
        <div id="legend"><span class="a">■ A: \(escaped(labelA))</span>
          · <span class="b">□ B (outline): \(escaped(labelB))</span> · <span class="d">□ bodies that diverge</span></div>
        \(chart)
        <pre id="report">\(escaped(report))</pre>
        <script id="comparison-header" type="application/json">\(header)</script>
        <script id="comparison-data" type="application/octet-stream">\(data)</script>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    private static let script = """
        (function () {
          const H = JSON.parse(document.getElementById('comparison-header').textContent);
          const raw = atob(document.getElementById('comparison-data').textContent.trim());
          const bytes = new Uint8Array(raw.length);
          for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
          const poses = new Float32Array(bytes.buffer);
          const frames = H.steps.length, n = H.bodies, half = frames * n * 3;
          const canvas = document.getElementById('view'), ctx = canvas.getContext('2d');
          const [vx, vy, vw, vh] = H.view;
          const width = Math.round(Math.min(800, 600 * vw / vh)), height = Math.max(1, Math.round(vh * width / vw));
          canvas.width = width; canvas.height = height;
          const scale = width / vw;
          const scrub = document.getElementById('scrub'), clock = document.getElementById('clock');
          const playButton = document.getElementById('play');
          scrub.max = String(Math.max(0, frames - 1));
          const divergent = new Set(H.divergentBodies);
          const first = H.firstDivergentStep;
          document.body.dataset.firstDivergentStep = first == null ? '' : String(first);
          let frame = 0, timer = null;
          function toScreen(ctx) {
            if (H.yPointsDown) ctx.setTransform(scale, 0, 0, scale, -vx * scale, -vy * scale);
            else ctx.setTransform(scale, 0, 0, -scale, -vx * scale, (vy + vh) * scale);
          }
          function rgba(c) { return 'rgba(' + [c[0] * 255, c[1] * 255, c[2] * 255, c[3]].join(',') + ')'; }
          function shapePath(s) {
            ctx.beginPath();
            const p = s.points;
            if (s.type === 'circle') {
              ctx.arc(p[0], p[1], Math.max(s.radius, 0), 0, 2 * Math.PI);
            } else if (s.type === 'segment') {
              ctx.moveTo(p[0], p[1]); ctx.lineTo(p[2], p[3]);
            } else {
              for (let i = 0; i + 1 < p.length; i += 2) { if (i) ctx.lineTo(p[i], p[i + 1]); else ctx.moveTo(p[i], p[i + 1]); }
              ctx.closePath();
            }
          }
          function drawShape(s, fill, stroke, lineWidth) {
            shapePath(s);
            if (s.type === 'segment') {
              ctx.lineCap = 'round';
              ctx.lineWidth = Math.max(2 * s.radius, 1 / scale);
              ctx.strokeStyle = fill || stroke; ctx.stroke();
              if (fill && stroke) { ctx.lineWidth = lineWidth / scale; ctx.strokeStyle = stroke; ctx.stroke(); }
              return;
            }
            if (fill) { ctx.fillStyle = fill; ctx.fill(); }
            if (stroke) { ctx.lineWidth = lineWidth / scale; ctx.strokeStyle = stroke; ctx.stroke(); }
          }
          function drawBody(side, index, style) {
            const k = side * half + (frame * n + index) * 3;
            const x = poses[k], y = poses[k + 1], a = poses[k + 2];
            if (!isFinite(x) || !isFinite(y) || !isFinite(a)) return false;
            toScreen(ctx);
            ctx.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), x, y);
            const shapes = H.shapes[index] || [];
            if (shapes.length === 0) {
              ctx.beginPath(); ctx.arc(0, 0, 4 / scale, 0, 2 * Math.PI);
              if (style.fill) { ctx.fillStyle = '#666'; ctx.fill(); }
              if (style.stroke) { ctx.lineWidth = style.width / scale; ctx.strokeStyle = style.stroke; ctx.stroke(); }
              return true;
            }
            for (const s of shapes) drawShape(s, style.fill ? rgba(s.fill) : null, style.stroke, style.width);
            return true;
          }
          function draw() {
            ctx.setTransform(1, 0, 0, 1, 0, 0);
            ctx.clearRect(0, 0, width, height);
            toScreen(ctx);
            for (const s of H.staticShapes) drawShape(s, rgba(s.fill), null, 1);
            const step = H.steps[frame];
            const diverged = first != null && step >= first;
            let outlines = 0, highlighted = 0;
            for (let i = 0; i < n; i++) drawBody(0, i, { fill: true, stroke: null, width: 1 });
            for (let i = 0; i < n; i++) if (drawBody(1, i, { fill: false, stroke: '#1565c0', width: 1.5 })) outlines++;
            if (diverged) {
              for (const i of divergent) {
                if (drawBody(0, i, { fill: false, stroke: '#d32f2f', width: 3 })) highlighted++;
                drawBody(1, i, { fill: false, stroke: '#d32f2f', width: 3 });
              }
            }
            ctx.setTransform(1, 0, 0, 1, 0, 0);
            scrub.value = String(frame);
            clock.textContent = frames ? 'step ' + step + (diverged ? ' (diverged)' : '') : 'no steps';
            const cursor = document.getElementById('chart-cursor'), line = document.getElementById('chart-first');
            if (cursor && frames > 1) {
              const x0 = 56, x1 = 792, s0 = H.steps[0], s1 = Math.max(H.steps[frames - 1], s0 + 1);
              const cx = (x0 + (x1 - x0) * (step - s0) / (s1 - s0)).toFixed(1);
              cursor.setAttribute('x1', cx); cursor.setAttribute('x2', cx);
            }
            Object.assign(document.body.dataset, { step: String(step), outlines: String(outlines), highlighted: String(highlighted) });
          }
          function nearest(step) {
            let best = 0;
            for (let i = 0; i < frames; i++) if (Math.abs(H.steps[i] - step) < Math.abs(H.steps[best] - step)) best = i;
            return best;
          }
          function seek(step) { pause(); frame = nearest(step); draw(); }
          function pause() { if (timer) clearInterval(timer); timer = null; playButton.textContent = '▶ Play'; }
          function play() {
            if (timer || frames < 2) return;
            if (frame >= frames - 1) frame = 0;
            playButton.textContent = '❚❚ Pause';
            timer = setInterval(function () {
              if (frame >= frames - 1) { pause(); return; }
              frame++; draw();
            }, Math.max(4, 1000 * H.timeStep));
          }
          playButton.addEventListener('click', function () { if (timer) pause(); else play(); });
          scrub.addEventListener('input', function () { pause(); frame = Number(scrub.value); draw(); });
          window.comparison = {
            seek: seek, play: play, pause: pause,
            state: function () { return { step: H.steps[frame], frame: frame, playing: timer != null }; },
            firstDivergentStep: first
          };
          const wanted = /(?:^|[#&])step=(\\d+)/.exec(location.hash);
          if (wanted) frame = nearest(Number(wanted[1]));
          else if (first != null) frame = nearest(first);
          if (frames) draw();
          document.body.dataset.ready = '1';
        })();
        """
}
