import Chipmunk

/// A value that can be blended between two others: `from` at time 0, `to` at time 1.
public protocol Interpolatable {
    /// The value `time` of the way from `from` (time 0) to `to` (time 1); times outside 0...1 extrapolate.
    static func interpolate(from: Self, to: Self, time: Double) -> Self
}

/// The value `time` of the way from `from` to `to`, as the book's `interpolate` does:
/// `(to - from) * time + from`, for each component. Times outside 0...1 extrapolate,
/// which eased values that overshoot (back, elastic) need.
public func interpolate<Value: Interpolatable>(_ from: Value, _ to: Value, _ time: Double) -> Value {
    Value.interpolate(from: from, to: to, time: time)
}

extension Double: Interpolatable {
    /// `(to - from) * time + from`.
    public static func interpolate(from: Double, to: Double, time: Double) -> Double {
        (to - from) * time + from
    }
}

extension Vector: Interpolatable {
    /// `(to - from) * time + from` for x and for y.
    public static func interpolate(from: Vector, to: Vector, time: Double) -> Vector {
        Vector(x: (to.x - from.x) * time + from.x, y: (to.y - from.y) * time + from.y)
    }
}

extension Transform: Interpolatable {
    /// Entry by entry, as a matrix. (Core Animation decomposes a transform into scale,
    /// rotation and translation first; blend those with ``interpolate(_:_:_:)`` on
    /// `Double`s when a rotation must stay rigid on the way.)
    public static func interpolate(from: Transform, to: Transform, time: Double) -> Transform {
        func blend(_ a: Double, _ b: Double) -> Double { (b - a) * time + a }
        return Transform(
            a: blend(from.a, to.a), b: blend(from.b, to.b), c: blend(from.c, to.c), d: blend(from.d, to.d),
            tx: blend(from.tx, to.tx), ty: blend(from.ty, to.ty))
    }
}
