import Chipmunk
import Foundation

extension Frame {
    /// The frame as a standalone SVG document, `pixelWidth` wide, y pointing up as in
    /// the physics (or down, when the view says so). Circles show their angle with a radius line, as the Chipmunk demos do.
    public func svg(view: FrameView, pixelWidth: Int = 640) -> String {
        let scale = Double(pixelWidth) / view.width
        let pixelHeight = max(1, Int((view.height * scale).rounded()))
        func x(_ v: Double) -> String { number((v - view.x) * scale) }
        func y(_ v: Double) -> String { number(view.depth(v) * scale) }
        func length(_ v: Double) -> String { number(v * scale) }
        func paint(_ attribute: String, _ color: DebugColor) -> String {
            let (rgb, opacity) = color.svg
            return opacity < 1
                ? "\(attribute)=\"\(rgb)\" \(attribute)-opacity=\"\(number(Double(opacity)))\""
                : "\(attribute)=\"\(rgb)\""
        }
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixelWidth)" height="\(pixelHeight)" \
            viewBox="0 0 \(pixelWidth) \(pixelHeight)">
            <rect width="100%" height="100%" fill="white"/>

            """
        for primitive in primitives {
            switch primitive {
            case let .circle(c, angle, r, outline, fill):
                let edge = c + Vector(x: cos(angle), y: sin(angle)) * r
                out +=
                    "<circle cx=\"\(x(c.x))\" cy=\"\(y(c.y))\" r=\"\(length(r))\" \(paint("fill", fill)) \(paint("stroke", outline))/>"
                out +=
                    "<line x1=\"\(x(c.x))\" y1=\"\(y(c.y))\" x2=\"\(x(edge.x))\" y2=\"\(y(edge.y))\" \(paint("stroke", outline))/>\n"
            case let .segment(a, b, color):
                out +=
                    "<line x1=\"\(x(a.x))\" y1=\"\(y(a.y))\" x2=\"\(x(b.x))\" y2=\"\(y(b.y))\" \(paint("stroke", color))/>\n"
            case let .fatSegment(a, b, r, outline, fill):
                let line =
                    "x1=\"\(x(a.x))\" y1=\"\(y(a.y))\" x2=\"\(x(b.x))\" y2=\"\(y(b.y))\" stroke-linecap=\"round\""
                out += "<line \(line) stroke-width=\"\(length(2 * r + 2 / scale))\" \(paint("stroke", outline))/>"
                // At least a pixel wide, as Cairo draws it, so a thin segment shows its fill.
                out += "<line \(line) stroke-width=\"\(length(max(2 * r, 1 / scale)))\" \(paint("stroke", fill))/>\n"
            case let .polygon(vertices, r, outline, fill):
                let points = vertices.map { "\(x($0.x)),\(y($0.y))" }.joined(separator: " ")
                let rounding = r > 0 ? " stroke-width=\"\(length(2 * r))\" stroke-linejoin=\"round\"" : ""
                if r > 0 {
                    out += "<polygon points=\"\(points)\" \(paint("fill", fill)) \(paint("stroke", fill))\(rounding)/>"
                }
                out += "<polygon points=\"\(points)\" \(paint("fill", fill)) \(paint("stroke", outline))/>\n"
            case let .dot(size, p, color):
                out +=
                    "<circle cx=\"\(x(p.x))\" cy=\"\(y(p.y))\" r=\"\(number(max(size / 2, 1)))\" \(paint("fill", color))/>\n"
            }
        }
        return out + "</svg>\n"
    }

    /// The frame drawn with Unicode braille characters (2×4 dots each), `columns` wide:
    /// a dot is set where a shape covers it. For a look in a terminal.
    public func text(view: FrameView, columns: Int = 80) -> String {
        let columns = max(columns, 1)
        let dotSize = view.width / Double(columns * 2)
        // Terminal cells are about twice as tall as wide: 4 dots down per 2 across.
        let rows = view.textRows(columns: columns)
        var cells = Array(repeating: Array(repeating: UInt8(0), count: columns), count: rows)
        let half = dotSize / 2
        let (dotColumns, dotRows) = (columns * 2, rows * 4)
        // Each primitive tests only the dots inside its own box (fast enough to draw every
        // frame of `chipmunk-sim play`).
        for primitive in primitives {
            guard let box = primitive.bounds(padding: half) else { continue }
            let depths = (view.depth(box.top), view.depth(box.bottom))
            let firstColumn = max(0, index(((box.left - view.x) / dotSize).rounded(.down)))
            let lastColumn = min(dotColumns - 1, index(((box.right - view.x) / dotSize).rounded(.up)))
            let firstRow = max(0, index((min(depths.0, depths.1) / dotSize).rounded(.down)))
            let lastRow = min(dotRows - 1, index((max(depths.0, depths.1) / dotSize).rounded(.up)))
            guard firstColumn <= lastColumn, firstRow <= lastRow else { continue }
            for row in firstRow...lastRow {
                for column in firstColumn...lastColumn {
                    let point = Vector(
                        x: view.x + (Double(column) + 0.5) * dotSize,
                        y: view.worldY(depth: (Double(row) + 0.5) * dotSize))
                    guard primitive.covers(point, tolerance: half) else { continue }
                    // Braille dot numbering: columns 0/1, rows 0-3.
                    let bit: UInt8 = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]][row % 4][column % 2]
                    cells[row / 4][column / 2] |= bit
                }
            }
        }
        return cells.map { line in
            String(line.map { Character(Unicode.Scalar(0x2800 + UInt32($0))!) }).replacingTrailingBlanks()
        }.joined(separator: "\n") + "\n"
    }
}

extension Frame.Primitive {
    /// The box around everything the primitive may cover, grown by `padding`; nil for none.
    func bounds(padding: Double) -> BoundingBox? {
        func around(_ points: [Vector], _ r: Double) -> BoundingBox? {
            guard let first = points.first else { return nil }
            var box = BoundingBox(left: first.x, bottom: first.y, right: first.x, top: first.y)
            for p in points.dropFirst() { box = box.union(BoundingBox(left: p.x, bottom: p.y, right: p.x, top: p.y)) }
            let grow = r + padding
            return BoundingBox(
                left: box.left - grow, bottom: box.bottom - grow, right: box.right + grow, top: box.top + grow)
        }
        switch self {
        case let .circle(c, _, r, _, _): return around([c], r)
        case let .segment(a, b, _): return around([a, b], padding)
        case let .fatSegment(a, b, r, _, _): return around([a, b], max(r, padding))
        case let .polygon(vertices, r, _, _): return around(vertices, r)
        case .dot: return nil
        }
    }

    /// Whether the primitive covers `p`, lines thickened to `tolerance` so they show.
    func covers(_ p: Vector, tolerance: Double) -> Bool {
        switch self {
        case let .circle(c, _, r, _, _): return (p - c).length <= r + tolerance * 0.5
        case let .segment(a, b, _): return distance(p, a, b) <= tolerance
        case let .fatSegment(a, b, r, _, _): return distance(p, a, b) <= max(r, tolerance)
        case let .polygon(vertices, r, _, _):
            if inside(p, vertices) { return true }
            return vertices.indices.contains {
                distance(p, vertices[$0], vertices[($0 + 1) % vertices.count]) <= max(r, tolerance * 0.5)
            }
        case .dot: return false
        }
    }

    private func distance(_ p: Vector, _ a: Vector, _ b: Vector) -> Double {
        let ab = b - a
        let lengthSquared = ab.dot(ab)
        let t = lengthSquared > 0 ? min(max((p - a).dot(ab) / lengthSquared, 0), 1) : 0
        return (p - (a + ab * t)).length
    }

    private func inside(_ p: Vector, _ vertices: [Vector]) -> Bool {
        guard vertices.count >= 3 else { return false }
        var sign = 0.0
        for index in vertices.indices {
            let a = vertices[index]
            let b = vertices[(index + 1) % vertices.count]
            let cross = (b - a).cross(p - a)
            if cross != 0 {
                if sign != 0, (cross > 0) != (sign > 0) { return false }
                sign = cross
            }
        }
        return true
    }
}

/// A number for SVG: at most 2 decimals, no trailing zeros. A coordinate far outside the
/// picture (a body at 1e15 in a view of one unit, a crafted snapshot's anchor at 1e300)
/// keeps Swift's exponent form, which SVG reads; converting it to `Int` trapped.
private func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 100).rounded() / 100
    guard abs(rounded) < 1e15 else { return "\(rounded)" }
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

/// `value` as an `Int` clamped to ±1e15: for dot and pixel indices, compared with a
/// picture's bounds right after (a primitive far outside the view trapped converting).
private func index(_ value: Double) -> Int {
    value.isNaN ? 0 : Int(min(max(value, -1e15), 1e15))
}

extension String {
    /// Without the blank braille cells at the end of a line.
    fileprivate func replacingTrailingBlanks() -> String {
        var text = self
        while text.last == "\u{2800}" { text.removeLast() }
        return text
    }
}
