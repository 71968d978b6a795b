internal import CChipmunk

/// An RGBA colour, each channel 0 to 1.
///
/// The corresponding C type is `cpSpaceDebugColor`.
public struct DebugColor: Hashable, Sendable {
    /// The channels, 0 to 1.
    public var red: Float, green: Float, blue: Float, alpha: Float
    /// Creates a colour, opaque unless `alpha` says otherwise.
    public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
    /// A grey of `luminance`, as the engine's demos define their colours.
    public init(luminance: Float, alpha: Float = 1) {
        self.init(red: luminance, green: luminance, blue: luminance, alpha: alpha)
    }

    init(_ c: cpSpaceDebugColor) { self.init(red: c.r, green: c.g, blue: c.b, alpha: c.a) }
    var cp: cpSpaceDebugColor { cpSpaceDebugColor(r: red, g: green, b: blue, a: alpha) }
}

/// Receives a space's shapes, constraints and contact points as simple primitives, for
/// pictures and renderers. Pass one to ``Space/debugDraw(_:options:outlineColor:constraintColor:collisionPointColor:)``.
///
/// ``fillColor(for:)`` has a default: the engine demos' scheme (sensors pale, sleeping
/// bodies grey, static bodies dark, dynamic bodies a colour from the shape's hash).
public protocol DebugDrawer {
    /// Draws a circle shape; `angle` is its body's rotation, for drawing a radius line.
    mutating func drawCircle(center: Vector, angle: Double, radius: Double, outline: DebugColor, fill: DebugColor)
    /// Draws a thin line: a constraint, or a spring.
    mutating func drawSegment(from a: Vector, to b: Vector, color: DebugColor)
    /// Draws a segment shape with rounded ends of `radius`.
    mutating func drawFatSegment(from a: Vector, to b: Vector, radius: Double, outline: DebugColor, fill: DebugColor)
    /// Draws a polygon shape, its corners rounded by `radius`.
    mutating func drawPolygon(_ vertices: [Vector], radius: Double, outline: DebugColor, fill: DebugColor)
    /// Draws a dot: a contact point, or a constraint's anchor.
    mutating func drawDot(size: Double, at point: Vector, color: DebugColor)
    /// The fill colour of a shape.
    func fillColor(for shape: Shape) -> DebugColor
}

extension DebugDrawer {
    /// The default: ``Shape/debugFillColor``, the engine demos' scheme.
    public func fillColor(for shape: Shape) -> DebugColor { shape.debugFillColor }
}

/// What ``Space/debugDraw(_:options:outlineColor:constraintColor:collisionPointColor:)`` draws.
///
/// The corresponding C type is `cpSpaceDebugDrawFlags`.
public struct DebugDrawOptions: OptionSet, Hashable, Sendable {
    /// The `cpSpaceDebugDrawFlags` bits.
    public var rawValue: UInt32
    /// Creates options from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Draw shapes.
    public static let shapes = DebugDrawOptions(rawValue: CP_SPACE_DEBUG_DRAW_SHAPES.rawValue)
    /// Draw constraints.
    public static let constraints = DebugDrawOptions(rawValue: CP_SPACE_DEBUG_DRAW_CONSTRAINTS.rawValue)
    /// Draw contact points.
    public static let collisionPoints = DebugDrawOptions(rawValue: CP_SPACE_DEBUG_DRAW_COLLISION_POINTS.rawValue)
    /// Draw everything.
    public static let all: DebugDrawOptions = [.shapes, .constraints, .collisionPoints]
}

extension Shape {
    /// The engine demos' fill colour for this shape (see ``DebugDrawer``).
    public var debugFillColor: DebugColor {
        if isSensor { return DebugColor(luminance: 1, alpha: 0.1) }
        if body.isSleeping { return DebugColor(luminance: 0.2) }
        if let space, body.idleTime > space.sleepTimeThreshold {
            return DebugColor(luminance: 0.66)
        }
        return debugAwakeFillColor
    }

    /// ``debugFillColor`` as if the body were awake and moving: the shape's own colour, for
    /// a viewer that is sent the colours once and shows sleeping itself (the live page, the
    /// replay player). Taken while the body slept, the demos' colour is grey for good.
    package var debugAwakeFillColor: DebugColor {
        if isSensor { return DebugColor(luminance: 1, alpha: 0.1) }
        // Robert Jenkins' 32-bit integer hash of the shape's id, as the demos use.
        var v = UInt32(truncatingIfNeeded: handle.pointee.hashid)
        v = (v &+ 0x7ed5_5d16) &+ (v << 12)
        v = (v ^ 0xc761_c23c) ^ (v >> 19)
        v = (v &+ 0x1656_67b1) &+ (v << 5)
        v = (v &+ 0xd3a2_646c) ^ (v << 9)
        v = (v &+ 0xfd70_46c5) &+ (v << 3)
        v = (v ^ 0xb55a_4f09) ^ (v >> 16)
        let r = Float(v & 0xFF)
        let g = Float((v >> 8) & 0xFF)
        let b = Float((v >> 16) & 0xFF)
        let high = Swift.max(r, g, b)
        let low = Swift.min(r, g, b)
        let intensity: Float = body.kind == .static ? 0.15 : 0.75
        guard high > low else { return DebugColor(red: intensity, green: 0, blue: 0) }
        let k = intensity / (high - low)
        return DebugColor(red: (r - low) * k, green: (g - low) * k, blue: (b - low) * k)
    }
}

extension Space {
    /// Feeds the space's shapes, constraints and contact points to `drawer`.
    ///
    /// Changes `drawer` makes to the space are deferred until drawing ends.
    ///
    /// The corresponding C function is `cpSpaceDebugDraw`.
    public func debugDraw<Drawer: DebugDrawer>(
        _ drawer: inout Drawer, options: DebugDrawOptions = .all,
        outlineColor: DebugColor = DebugColor(luminance: 0.2),
        constraintColor: DebugColor = DebugColor(red: 0, green: 0.75, blue: 0),
        collisionPointColor: DebugColor = DebugColor(red: 1, green: 0, blue: 0)
    ) {
        var erased: any DebugDrawer = drawer
        withUnsafeMutablePointer(to: &erased) { data in
            var c = cpSpaceDebugDrawOptions()
            c.flags = cpSpaceDebugDrawFlags(rawValue: options.rawValue)
            c.shapeOutlineColor = outlineColor.cp
            c.constraintColor = constraintColor.cp
            c.collisionPointColor = collisionPointColor.cp
            c.data = UnsafeMutableRawPointer(data)
            c.drawCircle = { center, angle, radius, outline, fill, data in
                Space.drawer(data).pointee.drawCircle(
                    center: Vector(center), angle: angle, radius: radius, outline: DebugColor(outline),
                    fill: DebugColor(fill))
            }
            c.drawSegment = { a, b, color, data in
                Space.drawer(data).pointee.drawSegment(from: Vector(a), to: Vector(b), color: DebugColor(color))
            }
            c.drawFatSegment = { a, b, radius, outline, fill, data in
                Space.drawer(data).pointee.drawFatSegment(
                    from: Vector(a), to: Vector(b), radius: radius, outline: DebugColor(outline), fill: DebugColor(fill)
                )
            }
            c.drawPolygon = { count, verts, radius, outline, fill, data in
                let vertices = (0..<Int(count)).map { Vector(verts![$0]) }
                Space.drawer(data).pointee.drawPolygon(
                    vertices, radius: radius, outline: DebugColor(outline), fill: DebugColor(fill))
            }
            c.drawDot = { size, point, color, data in
                Space.drawer(data).pointee.drawDot(size: size, at: Vector(point), color: DebugColor(color))
            }
            c.colorForShape = { shape, data in
                data!.assumingMemoryBound(to: (any DebugDrawer).self).pointee.fillColor(for: Shape.from(shape!)).cp
            }
            // The engine draws contact points without locking the space: treat the whole
            // call as a callback, so that changes the drawer makes wait for its end.
            callbacks.deferring { cpSpaceDebugDraw(handle, &c) }
        }
        drawer = erased as! Drawer
        applyPendingChangesIfIdle()
    }

    private static func drawer(_ data: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<any DebugDrawer> {
        data!.assumingMemoryBound(to: (any DebugDrawer).self)
    }
}
