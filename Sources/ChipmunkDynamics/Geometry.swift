import Chipmunk
import Foundation

/// A size in points, as `CGSize`.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in points, as `CGRect`: an origin (the top-left corner, y pointing down)
/// and a size.
public struct Rect: Hashable, Sendable {
    public var origin: Vector
    public var size: Size

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Vector(x: x, y: y)
        size = Size(width: width, height: height)
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var center: Vector { Vector(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    public func contains(_ point: Vector) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

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
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }
    public static let zero = EdgeInsets()
}

/// A range of values, as `UIFloatRange`; infinite ends mean no limit.
public struct FloatRange: Hashable, Sendable {
    public var minimum: Double
    public var maximum: Double
    public init(minimum: Double, maximum: Double) {
        self.minimum = minimum
        self.maximum = maximum
    }
    /// No limit either way (`UIFloatRangeInfinite`).
    public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
    /// Nothing but zero (`UIFloatRangeZero`).
    public static let zero = FloatRange(minimum: 0, maximum: 0)
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}

extension Vector {
    /// This vector turned to `angle` radians, keeping its length (UIKit's y-down
    /// convention: π/2 points down). The angle and magnitude of gravity and pushes.
    func withAngle(_ angle: Double) -> Vector { Vector(angle: angle) * length }

    /// This vector scaled to `magnitude`, keeping its angle.
    func withMagnitude(_ magnitude: Double) -> Vector { Vector(angle: angle) * magnitude }
}
