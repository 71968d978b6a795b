import Chipmunk

/// A cubic Bézier timing curve from (0, 0) to (1, 1), as Core Animation's
/// `CAMediaTimingFunction` describes one by its two inner control points.
///
/// Calling it maps the fraction of time gone (x) to the fraction of the change made (y):
/// it solves the curve's x(t) = x for t to 1e-12, then returns y(t).
///
/// ```swift
/// let ease = TimingFunction.easeInEaseOut
/// ease(0.5)   // 0.5, by symmetry
/// ease(0.25)  // 0.129…
/// ```
public struct TimingFunction: Hashable, Sendable {
    /// The first control point; the curve starts at (0, 0) and ends at (1, 1).
    public let controlPoint1: Vector
    /// The second control point.
    public let controlPoint2: Vector

    /// A curve through the control points (x1, y1) and (x2, y2). The x values must be in
    /// 0...1, so that time runs one way, and the y values within ±1e15, so that the curve
    /// stays finite; anything else is a programming error.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        AnimationParameter.controlPointX.require(x1)
        AnimationParameter.controlPointX.require(x2)
        AnimationParameter.controlPointY.require(y1)
        AnimationParameter.controlPointY.require(y2)
        controlPoint1 = Vector(x: x1, y: y1)
        controlPoint2 = Vector(x: x2, y: y2)
    }

    /// `kCAMediaTimingFunctionLinear`: (0, 0, 1, 1).
    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1, 0.25, 1).
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)
    /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0, 1, 1).
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseOut`: (0, 0, 0.58, 1).
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0, 0.58, 1).
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)

    /// The curve's point at parameter `t` (not time: the Bézier parameter).
    public func point(at t: Double) -> Vector {
        Vector(x: Self.bezier(t, controlPoint1.x, controlPoint2.x), y: Self.bezier(t, controlPoint1.y, controlPoint2.y))
    }

    /// The fraction of the change made when `x` of the time has gone (clamped to 0...1). A NaN
    /// `x` gives NaN, as `sin(.nan)` does: a function of a number, where the properties of
    /// this module stop on NaN.
    public func callAsFunction(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        let x = min(max(x, 0), 1)
        return Self.bezier(parameter(forX: x), controlPoint1.y, controlPoint2.y)
    }

    /// The Bézier parameter whose x is `x`, to 1e-12: Newton's method from t = x, and
    /// bisection if Newton leaves the interval or stalls (x(t) is monotonic here).
    public func parameter(forX x: Double) -> Double {
        let (x1, x2) = (controlPoint1.x, controlPoint2.x)
        var t = x
        for _ in 0..<8 {
            let error = Self.bezier(t, x1, x2) - x
            if abs(error) <= 1e-12 { return t }
            let slope = Self.derivative(t, x1, x2)
            if abs(slope) < 1e-9 { break }
            let next = t - error / slope
            if !(0...1).contains(next) { break }
            t = next
        }
        var (low, high) = (0.0, 1.0)
        t = x
        for _ in 0..<200 {
            let error = Self.bezier(t, x1, x2) - x
            if abs(error) <= 1e-12 { return t }
            if error < 0 { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    /// One coordinate of the cubic Bézier with ends 0 and 1: 3(1-t)²t·p1 + 3(1-t)t²·p2 + t³.
    static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    static func derivative(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }
}
