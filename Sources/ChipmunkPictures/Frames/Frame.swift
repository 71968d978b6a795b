import Chipmunk

/// One frame of a space, as the engine's debug drawing describes it: shapes in the
/// Chipmunk demos' colours (static grey, sleeping dark, sensors faint), constraints, and
/// optionally contact points. Renderers turn it into SVG or text; coordinates stay in
/// physics units, y up.
public struct Frame: Sendable {
    /// One thing drawn, in physics units, as the engine's debug drawing reports it.
    public enum Primitive: Sendable, Equatable {
        /// A circle with a line from its centre at `angle`, to show its rotation.
        case circle(center: Vector, angle: Double, radius: Double, outline: DebugColor, fill: DebugColor)
        /// A thin line.
        case segment(from: Vector, to: Vector, color: DebugColor)
        /// A segment with rounded ends of `radius`.
        case fatSegment(from: Vector, to: Vector, radius: Double, outline: DebugColor, fill: DebugColor)
        /// A convex polygon, its corners rounded by `radius`.
        case polygon(vertices: [Vector], radius: Double, outline: DebugColor, fill: DebugColor)
        /// A dot `size` across, such as a contact point.
        case dot(size: Double, at: Vector, color: DebugColor)
    }

    /// What is drawn, in drawing order: first what the engine drew, then any contact normals.
    public var primitives: [Primitive] = []
    /// How many primitives the engine drew; the contact normals after them do not count
    /// in ``bounds``, so showing contacts does not move the fitted view.
    private var drawnCount = 0

    /// Draws `space` now. `opacity` scales each body's fill alpha (0…1; a UIKit item's
    /// `alpha`, say); nil leaves the engine's colours.
    public init(
        _ space: Space, options: DebugDrawOptions = [.shapes, .constraints], opacity: ((Body) -> Double)? = nil
    ) {
        var recorder = Recorder(opacity: opacity)
        space.debugDraw(
            &recorder, options: options, outlineColor: DebugColor(luminance: 0.2),
            constraintColor: DebugColor(red: 0, green: 0.75, blue: 0),
            collisionPointColor: DebugColor(red: 1, green: 0, blue: 0))
        primitives = recorder.primitives
        drawnCount = primitives.count
        if options.contains(.collisionPoints) { addContactNormals(space) }
    }

    /// A short red line from each contact point along the contact's normal (3 % of the
    /// picture's larger side long).
    private mutating func addContactNormals(_ space: Space) {
        guard let box = bounds else { return }
        let length = max(box.right - box.left, box.top - box.bottom) * 0.03
        let red = DebugColor(red: 1, green: 0, blue: 0)
        var normals: [Primitive] = []
        space.forEachContactPoint { p, normal in normals.append(.segment(from: p, to: p + normal * length, color: red))
        }
        primitives += normals
    }

    /// An opacity in 0…1; NaN counts as opaque.
    static func clampedOpacity(_ value: Double) -> Double { value.isNaN ? 1 : min(max(value, 0), 1) }

    /// The smallest box around everything drawn, or nil for an empty frame.
    public var bounds: BoundingBox? {
        var box: BoundingBox?
        func include(_ p: Vector, _ r: Double) {
            let b = BoundingBox(left: p.x - r, bottom: p.y - r, right: p.x + r, top: p.y + r)
            box = box.map { $0.union(b) } ?? b
        }
        for primitive in primitives.prefix(drawnCount) {
            switch primitive {
            case let .circle(center, _, radius, _, _): include(center, radius)
            case let .segment(a, b, _):
                include(a, 0)
                include(b, 0)
            case let .fatSegment(a, b, radius, _, _):
                include(a, radius)
                include(b, radius)
            case let .polygon(vertices, radius, _, _): for v in vertices { include(v, radius) }
            case let .dot(_, at, _): include(at, 0)
            }
        }
        return box
    }

    private struct Recorder: DebugDrawer {
        var primitives: [Primitive] = []
        let opacity: ((Body) -> Double)?

        func fillColor(for shape: Shape) -> DebugColor {
            var color = shape.debugFillColor
            if let opacity, shape.body.kind != .static {
                color.alpha *= Float(Frame.clampedOpacity(opacity(shape.body)))
            }
            return color
        }

        mutating func drawCircle(center: Vector, angle: Double, radius: Double, outline: DebugColor, fill: DebugColor) {
            primitives.append(.circle(center: center, angle: angle, radius: radius, outline: outline, fill: fill))
        }
        mutating func drawSegment(from a: Vector, to b: Vector, color: DebugColor) {
            primitives.append(.segment(from: a, to: b, color: color))
        }
        mutating func drawFatSegment(
            from a: Vector, to b: Vector, radius: Double, outline: DebugColor, fill: DebugColor
        ) {
            primitives.append(.fatSegment(from: a, to: b, radius: radius, outline: outline, fill: fill))
        }
        mutating func drawPolygon(_ vertices: [Vector], radius: Double, outline: DebugColor, fill: DebugColor) {
            primitives.append(.polygon(vertices: vertices, radius: radius, outline: outline, fill: fill))
        }
        mutating func drawDot(size: Double, at point: Vector, color: DebugColor) {
            primitives.append(.dot(size: size, at: point, color: color))
        }
    }
}

/// The part of the world a picture shows, and how big the picture is.
public struct FrameView: Sendable, Equatable {
    /// World rectangle: left, bottom (top when y points down), width, height.
    public var x: Double, y: Double, width: Double, height: Double
    /// Whether the world's y axis points down (UIKit's coordinates): then the picture's
    /// top is the rectangle's smallest y. By default y points up, as in physics.
    public var yPointsDown = false

    /// The widths and heights a view may have, in world units: the renderers turn them into
    /// whole pixels, which a denormal width (a scale of infinity) or 1e308 cannot give.
    public static let sizeRange = 1e-6...1e16
    /// The largest magnitude of a view's corner coordinates.
    public static let maxCorner = 1e16
    /// The most a view's width may exceed its height, or its height its width: past it, a
    /// picture of any sensible width is millions of pixels tall.
    public static let maxAspect = 1e4

    /// The most characters a text picture (``Frame/text(view:columns:)``) of one frame
    /// should have: 4,000,000, a screen of 2,000 × 2,000, about 12 MB of braille.
    public static let maxTextCharacters = 4_000_000

    /// The rows of a text picture of the view `columns` characters wide: a character is 2
    /// dots wide and 4 high, and the dots are square.
    public func textRows(columns: Int) -> Int {
        let dotSize = width / Double(max(columns, 1) * 2)
        return max(1, Int(min((height / (dotSize * 4)).rounded(.up), Double(Int.max / 4))))
    }

    /// A view of the world rectangle; a rectangle outside ``sizeRange``, ``maxCorner`` or
    /// ``maxAspect`` is a programming error (``problem(x:y:width:height:)`` checks data first).
    public init(x: Double, y: Double, width: Double, height: Double, yPointsDown: Bool = false) {
        if let problem = Self.problem(x: x, y: y, width: width, height: height) { stop("FrameView: \(problem)") }
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
        self.yPointsDown = yPointsDown
    }

    /// The nearest view to the rectangle that keeps the bounds: for views fitted to what
    /// a space holds, which a crafted snapshot can place anywhere.
    init(clamping x: Double, y: Double, width: Double, height: Double, yPointsDown: Bool = false) {
        func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
            value.isNaN ? range.lowerBound : min(max(value, range.lowerBound), range.upperBound)
        }
        let corners = -Self.maxCorner...Self.maxCorner
        var width = clamp(width, Self.sizeRange)
        var height = clamp(height, Self.sizeRange)
        width = max(width, height / Self.maxAspect)
        height = max(height, width / Self.maxAspect)
        self.init(x: clamp(x, corners), y: clamp(y, corners), width: width, height: height, yPointsDown: yPointsDown)
    }

    /// Why a rectangle cannot be a view, in words to follow "--view", or nil.
    public static func problem(x: Double, y: Double, width: Double, height: Double) -> String? {
        guard abs(x) <= maxCorner, abs(y) <= maxCorner else {
            return "x and y must be finite, from -1e16 to 1e16 (got \(x), \(y))"
        }
        guard sizeRange.contains(width), sizeRange.contains(height) else {
            return "width and height must be from 1e-06 to 1e16 (got \(width), \(height))"
        }
        guard width / height <= maxAspect, height / width <= maxAspect else {
            return "width and height may differ by a factor of at most 10000 (got \(width), \(height))"
        }
        return nil
    }

    /// The view grown in width or height, about its centre, to `aspect` (width / height),
    /// an aspect within ``maxAspect`` either way.
    public func widened(toAspect aspect: Double) -> FrameView {
        guard aspect > 0, aspect.isFinite else { return self }
        let aspect = min(max(aspect, 1 / Self.maxAspect), Self.maxAspect)
        var view = self
        if width / height < aspect {
            view.width = height * aspect
            view.x -= (view.width - width) / 2
        } else {
            view.height = width / aspect
            view.y -= (view.height - height) / 2
        }
        return view
    }

    /// A world y as a distance in world units from the picture's top edge.
    @inline(__always) func depth(_ worldY: Double) -> Double {
        yPointsDown ? worldY - y : y + height - worldY
    }

    /// The world y at a distance in world units from the picture's top edge.
    @inline(__always) func worldY(depth: Double) -> Double {
        yPointsDown ? y + depth : y + height - depth
    }

    /// The frame's bounds with a 5 % margin (a 1-unit square around an empty frame); y
    /// points down in the picture when `yPointsDown` is true (a UIKit-style world, such as
    /// a `DynamicAnimator`'s).
    public init(fitting frame: Frame, yPointsDown: Bool = false) {
        guard let b = frame.bounds else {
            self.init(x: -0.5, y: -0.5, width: 1, height: 1, yPointsDown: yPointsDown)
            return
        }
        let margin = max(b.right - b.left, b.top - b.bottom, 1) * 0.05
        self.init(
            clamping: b.left - margin, y: b.bottom - margin, width: b.right - b.left + 2 * margin,
            height: b.top - b.bottom + 2 * margin)
        self.yPointsDown = yPointsDown
    }
}

extension DebugColor {
    /// `rgb(r,g,b)` and an opacity, for SVG.
    var svg: (color: String, opacity: Float) {
        func byte(_ v: Float) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        return ("rgb(\(byte(red)),\(byte(green)),\(byte(blue)))", min(max(alpha, 0), 1))
    }
}
