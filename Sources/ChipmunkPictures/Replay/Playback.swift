import Chipmunk
import Foundation

/// A run recorded for the HTML replay player: each moving body's shapes once, in its own
/// coordinates, the static geometry once, and per recorded step every body's position,
/// angle and velocities, its sleep state, which constraints are there, and the contact
/// points.
///
/// Record the state before the first step and after every step (or every Kth); ``html()``
/// writes one self-contained page (no network access) that plays the run in real time,
/// interpolating between recorded steps.
///
/// ```swift
/// var replay = Playback(title: "crates", timeStep: 1.0 / 120)
/// replay.record(step: 0, space: space)
/// for step in 1...1200 {
///     try space.step(1.0 / 120)
///     replay.record(step: step, space: space)
/// }
/// let page = try replay.html()
/// ```
public struct Playback {
    /// The page's title.
    public var title: String
    /// Seconds per step.
    public let timeStep: Double
    /// The world rectangle the player shows; nil fits everything recorded.
    public var view: FrameView?
    /// The player's canvas width in pixels (the height follows the view); nil fits the
    /// view into 800 × 600.
    public var pixelWidth: Int?
    /// How opaque to draw each body's fill, 0…1, read at every recorded step: a UIKit
    /// item's `alpha`, which the engine does not know. Nil draws every body opaque and
    /// records nothing for it. Set it before the first ``record(step:space:)``.
    public var opacity: ((Body) -> Double)?

    private var bodies: [RecordedBody] = []
    private var bodyIndex: [ObjectIdentifier: Int] = [:]
    private var constraints: [RecordedConstraint] = []
    private var constraintIndex: [ObjectIdentifier: Int] = [:]
    private var staticShapes: [ShapeGeometry] = []
    private var staticShapeIDs: Set<ObjectIdentifier> = []
    private var steps: [Int32] = []
    private var contactCounts: [UInt32] = []
    private var contacts: [PayloadLayout.Contact] = []
    private var bounds: BoundingBox?
    private let name: (Body) -> String

    /// A recorder. `name` gives each body's id for the player's hover text (default: its
    /// index among the recorded bodies).
    public init(
        title: String, timeStep: Double, view: FrameView? = nil, pixelWidth: Int? = nil,
        name: ((Body) -> String)? = nil
    ) {
        self.title = title
        self.timeStep = timeStep
        self.view = view
        self.pixelWidth = pixelWidth
        self.name = name ?? { _ in "" }
    }

    /// How many steps are recorded.
    public var recordedSteps: Int { steps.count }

    /// The most recorded steps a page should hold: 100,000, 14 minutes at 120 Hz. The
    /// browser inflates and decodes the whole trajectory when the page opens, and keeps it
    /// decoded; for longer runs, record every Kth step.
    public static let suggestedMaximumSteps = 100_000

    /// Records the space's state after step `step`. Steps must increase.
    public mutating func record(step: Int, space: Space) {
        ensure(steps.last.map { Int($0) < step } ?? true, "Replay.record steps must increase (got \(step))")
        let frame = steps.count
        steps.append(Int32(clamping: step))

        for shape in space.shapes where shape.body.kind == .static {
            let id = ObjectIdentifier(shape)
            if staticShapeIDs.insert(id).inserted {
                let geometry = ShapeGeometry(shape, in: .world)
                staticShapes.append(geometry)
                include(geometry.bounds(at: .zero, angle: 0))
            }
        }
        for body in space.bodies where body.kind != .static {
            let index: Int
            if let known = bodyIndex[ObjectIdentifier(body)] {
                index = known
            } else {
                index = bodies.count
                bodyIndex[ObjectIdentifier(body)] = index
                let label = name(body)
                bodies.append(
                    RecordedBody(
                        id: label.isEmpty ? String(index) : label, kind: body.kind,
                        shapes: body.shapes.map { ShapeGeometry($0, in: .body) }))
            }
            let state: PayloadLayout.BodyState =
                body.isSleeping ? .asleep : (body.idleTime > space.sleepTimeThreshold ? .idle : .awake)
            let alpha = opacity.map { UInt8((Frame.clampedOpacity($0(body)) * 255).rounded()) } ?? 255
            bodies[index].append(frame: frame, body: body, state: state, opacity: alpha)
            for shape in bodies[index].shapes {
                include(shape.bounds(at: body.position, angle: body.angle))
            }
        }
        for constraint in space.constraints {
            let id = ObjectIdentifier(constraint)
            if constraintIndex[id] == nil, let recorded = RecordedConstraint(constraint, bodyIndex: bodyIndex) {
                constraintIndex[id] = constraints.count
                constraints.append(recorded)
            }
            if let index = constraintIndex[id] {
                constraints[index].record(at: frame, constraint)
                // Anchors on static bodies are in the picture too.
                for k in 0..<3 {
                    let p = Vector(
                        x: constraints[index].point(2 * k, at: frame), y: constraints[index].point(2 * k + 1, at: frame)
                    )
                    include(BoundingBox(left: p.x, bottom: p.y, right: p.x, top: p.y))
                }
            }
        }
        var count: UInt32 = 0
        space.forEachContactPoint { p, normal in
            contacts.append(.init(x: Float(p.x), y: Float(p.y), normalX: Float(normal.x), normalY: Float(normal.y)))
            count += 1
        }
        contactCounts.append(count)
    }

    private mutating func include(_ box: BoundingBox?) {
        guard let box, box.left.isFinite, box.right.isFinite, box.bottom.isFinite, box.top.isFinite,
            max(abs(box.left), abs(box.right), abs(box.bottom), abs(box.top)) < 1e12
        else { return }
        bounds = bounds.map { $0.union(box) } ?? box
    }

    /// Whether the world's y axis points down (UIKit-style scenes); the player draws it so.
    public var yPointsDown = false

    /// The view the player shows: the one given, or everything recorded with a 5 % margin.
    public var effectiveView: FrameView {
        if let view { return view }
        guard let b = bounds else { return FrameView(x: -0.5, y: -0.5, width: 1, height: 1) }
        let margin = max(b.right - b.left, b.top - b.bottom, 1) * 0.05
        return FrameView(
            clamping: b.left - margin, y: b.bottom - margin, width: b.right - b.left + 2 * margin,
            height: b.top - b.bottom + 2 * margin, yPointsDown: yPointsDown)
    }

    /// The binary part, before deflating, section by section as ``PayloadLayout`` names
    /// them; `replay-payload.js` reads it back in the page. Every number is
    /// a zigzag LEB128 varint of a quantised value less its prediction, so that resting
    /// bodies cost a byte a value and deflate to almost nothing:
    /// - the recorded steps, each less the one before;
    /// - per body, per quantity (x, y, angle, vx, vy, w), per frame: positions on a grid of
    ///   ``Quantisation/position`` and angles of ``Quantisation/angle``, predicted by the
    ///   two frames before (constant velocity); velocities on ``Quantisation/velocity``,
    ///   predicted by the frame before;
    /// - per body a state byte a frame (0 awake, 1 idle, 2 asleep, 3 not in the space), and
    ///   per constraint a byte a frame (1 when in the space), raw;
    /// - with ``opacity``, per body its fill's opacity a frame, in 255ths, raw;
    /// - per constraint, its three world points' six coordinates per frame, on the
    ///   position grid, predicted as positions are;
    /// - the contact counts, one a frame;
    /// - the contacts: x and y on the ``Quantisation/contact`` grid and the normal's
    ///   direction in 256ths of a turn, each predicted by the same contact of the frame
    ///   before.
    func payload(view: FrameView) -> [UInt8] {
        let q = Quantisation(view: view)
        let frames = steps.count
        var out = VarintWriter()
        var previousStep: Int64 = 0
        for step in steps {
            out.append(Int64(step) - previousStep)
            previousStep = Int64(step)
        }
        for body in bodies {
            for quantity in PayloadLayout.Quantity.allCases {
                let grid = quantity.grid(q)
                var older: Int64 = 0
                var old: Int64 = 0
                for frame in 0..<frames {
                    let value = Quantisation.grid(body.value(quantity, at: frame), grid)
                    let prediction =
                        quantity.isPredictedFromTwoFrames
                        ? (frame == 0 ? 0 : frame == 1 ? old : 2 &* old &- older) : old
                    out.append(value &- prediction)
                    (older, old) = (old, value)
                }
            }
        }
        for body in bodies { out.bytes += body.states(frames: frames).map(\.rawValue) }
        for constraint in constraints { out.bytes += constraint.presence(frames: frames) }
        if opacity != nil {
            for body in bodies { out.bytes += body.opacities(frames: frames) }
        }
        for constraint in constraints {
            for k in 0..<6 {
                var older: Int64 = 0
                var old: Int64 = 0
                for frame in 0..<frames {
                    let value = Quantisation.grid(constraint.point(k, at: frame), q.position)
                    out.append(value &- (frame == 0 ? 0 : frame == 1 ? old : 2 &* old &- older))
                    (older, old) = (old, value)
                }
            }
        }
        for count in contactCounts { out.append(Int64(count)) }
        var start = 0
        var previous: [Int64] = []
        for count in contactCounts {
            var current: [Int64] = []
            current.reserveCapacity(Int(count) * 3)
            for k in 0..<Int(count) {
                let contact = contacts[start + k]
                let turn = atan2(Double(contact.normalY), Double(contact.normalX)) / (2 * .pi)
                let direction = (turn * 256).rounded()
                let values = [
                    Quantisation.grid(Double(contact.x) - view.x, q.contact),
                    Quantisation.grid(Double(contact.y) - view.y, q.contact),
                    (Int64(direction.isFinite ? direction : 0) % 256 + 256) % 256,
                ]
                for (index, value) in values.enumerated() {
                    out.append(value &- (k * 3 + index < previous.count ? previous[k * 3 + index] : 0))
                }
                current += values
            }
            previous = current
            start += Int(count)
        }
        return out.bytes
    }

    /// The player page. Throws if zlib fails, which it does only when memory runs out.
    public func html() throws(ReplayError) -> String {
        let view = effectiveView
        let width = max(1, pixelWidth ?? Int(min(800, 600 * view.width / view.height).rounded()))
        let height = max(1, Int((view.height * Double(width) / view.width).rounded()))
        let header = ReplayHeader(
            title: title, timeStep: timeStep, frames: steps.count, view: [view.x, view.y, view.width, view.height],
            yPointsDown: view.yPointsDown || yPointsDown, opacity: opacity != nil,
            width: width, height: height, staticShapes: staticShapes,
            bodies: bodies.map { .init(id: $0.id, kind: "\($0.kind)", shapes: $0.shapes) },
            constraints: constraints.map(\.header), contacts: contactCounts.reduce(0) { $0 + Int($1) },
            grid: Quantisation(view: view))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        guard let json = try? encoder.encode(header) else { throw .headerNotEncodable }
        let data = try Deflate.compress(payload(view: view))
        return ReplayPlayer.page(
            title: title,
            header: String(decoding: json, as: UTF8.self)
                .replacingOccurrences(of: "</", with: "<\\/"),
            data: Data(data).base64EncodedString())
    }
}

/// A shape's geometry for the player, in its body's coordinates (or the world's for
/// static shapes), with its fill colour.
package struct ShapeGeometry: Encodable {
    /// Whose coordinates the points are in (not `Space`, which would shadow `Chipmunk.Space`).
    package enum Coordinates { case body, world }
    /// "circle", "segment" or "polygon".
    var type: String
    /// Circle: centre; segment: both ends; polygon: the vertices. Flattened x, y pairs.
    var points: [Double]
    var radius: Double
    /// r, g, b, a from 0 to 1: the engine demos' colour, as if the body were awake (a
    /// viewer shows sleeping bodies darker itself, whenever they sleep).
    var fill: [Float]
    var sensor: Bool

    package init(_ shape: Shape, in coordinates: Coordinates) {
        let transform: (Vector) -> Vector =
            coordinates == .body ? { $0 } : { shape.body.localToWorld($0) }
        switch shape {
        case let circle as Circle:
            type = "circle"
            points = [transform(circle.offset)].flatMap { [$0.x, $0.y] }
            radius = circle.radius
        case let segment as Segment:
            type = "segment"
            points = [transform(segment.start), transform(segment.end)].flatMap { [$0.x, $0.y] }
            radius = segment.radius
        case let polygon as Polygon:
            type = "polygon"
            points = polygon.vertices.map(transform).flatMap { [$0.x, $0.y] }
            radius = polygon.radius
        default:
            type = "polygon"
            points = []
            radius = 0
        }
        let color = shape.debugAwakeFillColor
        fill = [color.red, color.green, color.blue, color.alpha]
        sensor = shape.isSensor
    }

    /// The box around the shape placed at `position`, turned by `angle`.
    func bounds(at position: Vector, angle: Double) -> BoundingBox? {
        let rotation = Vector(x: cos(angle), y: sin(angle))
        var box: BoundingBox?
        var index = 0
        while index + 1 < points.count {
            let local = Vector(x: points[index], y: points[index + 1])
            let p =
                position
                + Vector(x: local.x * rotation.x - local.y * rotation.y, y: local.x * rotation.y + local.y * rotation.x)
            let b = BoundingBox(left: p.x - radius, bottom: p.y - radius, right: p.x + radius, top: p.y + radius)
            box = box.map { $0.union(b) } ?? b
            index += 2
        }
        return box
    }
}

private struct RecordedBody {
    var id: String
    var kind: Body.Kind
    var shapes: [ShapeGeometry]
    /// Six values a frame, from the first frame the body was seen.
    private var firstFrame = -1
    private var samples: [Double] = []
    private var stateBytes: [PayloadLayout.BodyState] = []
    private var opacityBytes: [UInt8] = []

    init(id: String, kind: Body.Kind, shapes: [ShapeGeometry]) {
        self.id = id
        self.kind = kind
        self.shapes = shapes
    }

    mutating func append(frame: Int, body: Body, state: PayloadLayout.BodyState, opacity: UInt8) {
        if firstFrame < 0 { firstFrame = frame }
        // Frames the body missed (out of the space) repeat its last values and are marked absent.
        while firstFrame + stateBytes.count < frame {
            samples += samples.suffix(PayloadLayout.Quantity.allCases.count)
            stateBytes.append(.absent)
            opacityBytes.append(255)
        }
        samples += PayloadLayout.Quantity.allCases.map { $0.value(of: body) }
        stateBytes.append(state)
        opacityBytes.append(opacity)
    }

    /// A quantity at a frame. Before the body was added: where it first appears; after it
    /// left: where it was last.
    func value(_ quantity: PayloadLayout.Quantity, at frame: Int) -> Double {
        let index = min(max(frame - firstFrame, 0), stateBytes.count - 1)
        return samples[index * PayloadLayout.Quantity.allCases.count + quantity.rawValue]
    }

    /// The state of every frame: absent before the body was seen and after it left.
    func states(frames: Int) -> [PayloadLayout.BodyState] { everyFrame(stateBytes, frames: frames, otherwise: .absent) }

    /// The opacity of every frame, in 255ths: opaque where the body was not recorded.
    func opacities(frames: Int) -> [UInt8] { everyFrame(opacityBytes, frames: frames, otherwise: 255) }

    private func everyFrame<T>(_ bytes: [T], frames: Int, otherwise absent: T) -> [T] {
        (0..<frames).map { frame in
            let index = frame - firstFrame
            return bytes.indices.contains(index) ? bytes[index] : absent
        }
    }
}

private struct RecordedConstraint {
    struct Header: Encodable {
        /// pin, slide, pivot, spring or groove.
        var type: String
        /// Body indices (-1 for a static body), for hiding a constraint whose body left.
        var a: Int
        var b: Int
    }
    var header: Header
    private var firstFrame = -1
    private var frames: [Int] = []
    /// Per frame seen: the world points (pin, slide, pivot, spring: a's anchor, b's
    /// anchor; groove: the groove's ends, then b's anchor), padded to three.
    private var points: [Double] = []

    init?(_ constraint: Constraint, bodyIndex: [ObjectIdentifier: Int]) {
        func index(_ body: Body) -> Int { body.kind == .static ? -1 : bodyIndex[ObjectIdentifier(body)] ?? -1 }
        let type: String
        switch constraint {
        case is PinJoint: type = "pin"
        case is SlideJoint: type = "slide"
        case is PivotJoint: type = "pivot"
        case is DampedSpring: type = "spring"
        case is GrooveJoint: type = "groove"
        default: return nil  // The rotary kinds: nothing to draw, as in the engine's debug drawing.
        }
        header = Header(type: type, a: index(constraint.bodyA), b: index(constraint.bodyB))
    }

    /// Where the constraint's points are now, in world coordinates (anchors on static
    /// bodies move too: a finger dragging an attachment's anchor).
    mutating func record(at frame: Int, _ constraint: Constraint) {
        let (a, b) = (constraint.bodyA, constraint.bodyB)
        let world: [Vector]
        switch constraint {
        case let joint as PinJoint: world = [a.localToWorld(joint.anchorA), b.localToWorld(joint.anchorB)]
        case let joint as SlideJoint: world = [a.localToWorld(joint.anchorA), b.localToWorld(joint.anchorB)]
        case let joint as PivotJoint: world = [a.localToWorld(joint.anchorA), b.localToWorld(joint.anchorB)]
        case let joint as DampedSpring: world = [a.localToWorld(joint.anchorA), b.localToWorld(joint.anchorB)]
        case let joint as GrooveJoint:
            world = [a.localToWorld(joint.grooveA), a.localToWorld(joint.grooveB), b.localToWorld(joint.anchorB)]
        default: world = []
        }
        if firstFrame < 0 { firstFrame = frame }
        // Frames missed (out of the space) repeat the last points.
        while firstFrame + points.count / 6 < frame { points += points.suffix(6) }
        let padded = world + Array(repeating: world.last ?? .zero, count: max(0, 3 - world.count))
        points += padded.flatMap { [$0.x, $0.y] }
        frames.append(frame)
    }

    /// Coordinate `k` (0-5) at a frame, held before the first and after the last seen.
    func point(_ k: Int, at frame: Int) -> Double {
        let seen = points.count / 6
        guard seen > 0 else { return 0 }
        return points[min(max(frame - firstFrame, 0), seen - 1) * 6 + k]
    }

    func presence(frames count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        for frame in frames { bytes[frame] = 1 }
        return bytes
    }
}

private struct ReplayHeader: Encodable {
    struct Body: Encodable {
        var id: String
        var kind: String
        var shapes: [ShapeGeometry]
    }
    var title: String
    var timeStep: Double
    var frames: Int
    var view: [Double]
    var yPointsDown: Bool
    /// Whether the payload holds each body's opacity per frame.
    var opacity: Bool
    var width: Int
    var height: Int
    var staticShapes: [ShapeGeometry]
    var bodies: [Body]
    var constraints: [RecordedConstraint.Header]
    var contacts: Int
    var grid: Quantisation
}

/// The payload's vocabulary, as `replay-payload.js` names it too (`Quantity`,
/// `BodyState`): what each number and byte of ``Playback/payload(view:)`` is.
enum PayloadLayout {
    /// A body's sampled quantities, in their order in the payload (and the page's
    /// `samples`, six a frame).
    enum Quantity: Int, CaseIterable {
        case x, y, angle, vx, vy, w

        /// Positions and angles are predicted from the two frames before (constant
        /// velocity); velocities from the frame before.
        var isPredictedFromTwoFrames: Bool {
            switch self {
            case .x, .y, .angle: true
            case .vx, .vy, .w: false
            }
        }

        /// The grid the quantity is quantised on.
        func grid(_ q: Quantisation) -> Double {
            switch self {
            case .x, .y: q.position
            case .angle: q.angle
            case .vx, .vy, .w: q.velocity
            }
        }

        /// The quantity of `body` now.
        func value(of body: Body) -> Double {
            switch self {
            case .x: body.position.x
            case .y: body.position.y
            case .angle: body.angle
            case .vx: body.velocity.x
            case .vy: body.velocity.y
            case .w: body.angularVelocity
            }
        }
    }

    /// A body's state byte, one a frame.
    enum BodyState: UInt8 {
        case awake = 0
        case idle = 1
        case asleep = 2
        /// Not in the space at that frame (not added yet, or removed).
        case absent = 3
    }

    /// A contact point and its normal, as recorded (the payload keeps x and y on the
    /// contact grid and the normal's direction in 256ths of a turn).
    struct Contact {
        var x: Float
        var y: Float
        var normalX: Float
        var normalY: Float
    }
}
