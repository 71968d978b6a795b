import Chipmunk
import Foundation

/// A size in points, as `CGSize`.
public struct Size: Hashable, Sendable {
    /// The width, in points.
    public var width: Double
    /// The height, in points.
    public var height: Double
    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in points, as `CGRect`: an origin (the top-left corner, y pointing down)
/// and a size.
public struct Rect: Hashable, Sendable {
    /// The top-left corner.
    public var origin: Vector
    /// The width and height.
    public var size: Size

    /// The rectangle with its top-left corner at (`x`, `y`), `width` wide and `height` tall.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Vector(x: x, y: y)
        size = Size(width: width, height: height)
    }

    /// The left edge's x.
    public var minX: Double { origin.x }
    /// The top edge's y.
    public var minY: Double { origin.y }
    /// The right edge's x.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge's y.
    public var maxY: Double { origin.y + size.height }
    /// The width, in points.
    public var width: Double { size.width }
    /// The height, in points.
    public var height: Double { size.height }
    /// The centre point.
    public var center: Vector { Vector(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    /// Whether `point` is inside the rectangle or on its edge.
    public func contains(_ point: Vector) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// Whether the two rectangles overlap or touch.
    public func intersects(_ other: Rect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// The rectangle shrunk by `insets` (`UIEdgeInsetsInsetRect`).
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: minX + insets.left, y: minY + insets.top, width: width - insets.left - insets.right,
            height: height - insets.top - insets.bottom)
    }
}

/// Insets from each edge, as `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable {
    /// The inset from the top edge, in points.
    public var top: Double
    /// The inset from the left edge, in points.
    public var left: Double
    /// The inset from the bottom edge, in points.
    public var bottom: Double
    /// The inset from the right edge, in points.
    public var right: Double
    /// Insets from each edge; those not given are 0.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }
    /// No inset (`UIEdgeInsetsZero`).
    public static let zero = EdgeInsets()
}

/// A range of values, as `UIFloatRange`; infinite ends mean no limit.
public struct FloatRange: Hashable, Sendable {
    /// The lower end; -infinity for no lower limit.
    public var minimum: Double
    /// The upper end; infinity for no upper limit.
    public var maximum: Double
    /// The range from `minimum` to `maximum`.
    public init(minimum: Double, maximum: Double) {
        self.minimum = minimum
        self.maximum = maximum
    }
    /// No limit either way (`UIFloatRangeInfinite`).
    public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
    /// Nothing but zero (`UIFloatRangeZero`).
    public static let zero = FloatRange(minimum: 0, maximum: 0)
    /// Whether both ends are unlimited (`UIFloatRangeIsInfinite`).
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}

/// A direction whose length is a magnitude, as gravity and pushes have: it keeps its
/// angle while the magnitude is zero, so that an angle set before the magnitude holds
/// (UIKit's `angle` and `magnitude` are independent; a zero vector has no angle of its own).
struct Heading {
    /// The direction times the magnitude.
    private(set) var vector: Vector
    /// The angle in radians (UIKit's y-down convention: π/2 points down); the last one
    /// set, or the vector's own while it is not zero.
    private(set) var angle: Double

    init(_ vector: Vector) {
        self.vector = vector
        angle = vector == .zero ? 0 : vector.angle
    }

    /// Sets the vector; a zero vector keeps the angle.
    mutating func set(_ vector: Vector) {
        self.vector = vector
        if vector != .zero { angle = vector.angle }
    }

    /// The vector's length, without the underflow of x² + y² (a direction of (1e-200, 0)
    /// had a length of 0, and turning it lost it).
    var magnitude: Double { hypot(vector.x, vector.y) }

    /// Turns the vector to `angle`, keeping its length.
    mutating func set(angle: Double) {
        self.angle = angle
        vector = Vector(angle: angle) * magnitude
    }

    /// Scales the vector to `magnitude`, keeping the angle.
    mutating func set(magnitude: Double) {
        vector = Vector(angle: angle) * magnitude
    }
}
