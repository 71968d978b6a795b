import Foundation

/// The book's easing, exactly as listing 11.1 of *iOS Core Animation: Advanced
/// Techniques* writes it (in `Double` here, the same operations in the same order).
public enum BookEasing {
    /// `interpolate(from, to, time)`: `(to - from) * time + from`.
    public static func interpolate(_ from: Double, _ to: Double, _ time: Double) -> Double {
        (to - from) * time + from
    }

    /// `bounceEaseOut(t)`: four parabolas, the ball landing at t = 4/11, 8/11, 9/10 and 1.
    public static func bounceEaseOut(_ t: Double) -> Double {
        if t < 4 / 11.0 {
            return (121 * t * t) / 16.0
        } else if t < 8 / 11.0 {
            return (363 / 40.0 * t * t) - (99 / 10.0 * t) + 17 / 5.0
        } else if t < 9 / 10.0 {
            return (4356 / 361.0 * t * t) - (35442 / 1805.0 * t) + 16061 / 1805.0
        }
        return (54 / 5.0 * t * t) - (513 / 25.0 * t) + 268 / 25.0
    }
}

/// Robert Penner's easing equations: ten curves, each eased in, out, or in and out.
///
/// Every one maps 0 to 0 and 1 to 1. Back and elastic overshoot (leave 0...1 on the
/// way); the others stay inside it, and all but bounce and elastic are monotonic.
///
/// ```swift
/// let ease = Easing(.cubic, .inOut)
/// ease(0.5)  // 0.5
/// ```
public struct Easing: Hashable, Sendable {
    /// Penner's curves, named by their "in" form at `t`.
    public enum Curve: String, CaseIterable, Sendable {
        /// t².
        case quad
        /// t³.
        case cubic
        /// t⁴.
        case quart
        /// t⁵.
        case quint
        /// 1 − cos(t·π/2).
        case sine
        /// 2^(10t − 10), and 0 at 0.
        case expo
        /// 1 − √(1 − t²).
        case circ
        /// Pulls back below 0 before it goes (overshoot 1.70158).
        case back
        /// A decaying oscillation past the end (Penner's elastic).
        case elastic
        /// Bounces like a dropped ball (Penner's bounce out, mirrored).
        case bounce
    }

    /// Which end of the animation the curve shapes.
    public enum Mode: String, CaseIterable, Sendable {
        /// Starts slowly: the curve as it is.
        case `in`
        /// Ends slowly: the curve mirrored, 1 − curve(1 − t).
        case out
        /// Starts and ends slowly: "in" for the first half, "out" for the second.
        case inOut
    }

    /// The curve.
    public let curve: Curve
    /// Which end the curve shapes.
    public let mode: Mode

    /// The easing of `curve` in `mode`, such as `Easing(.cubic, .inOut)`.
    public init(_ curve: Curve, _ mode: Mode) {
        self.curve = curve
        self.mode = mode
    }

    /// Every curve in every mode.
    public static let all: [Easing] = Curve.allCases.flatMap { curve in Mode.allCases.map { Easing(curve, $0) } }

    /// Whether the curve never goes back (back, elastic and bounce do).
    public var isMonotonic: Bool { ![.back, .elastic, .bounce].contains(curve) }

    /// The eased fraction at `t` (clamped to 0...1). A NaN `t` gives NaN, as `sin(.nan)` does:
    /// a function of a number, where the properties of this module stop on NaN.
    public func callAsFunction(_ t: Double) -> Double {
        if t.isNaN { return .nan }
        let t = min(max(t, 0), 1)
        switch mode {
        case .in: return Self.easeIn(curve, t)
        case .out: return 1 - Self.easeIn(curve, 1 - t)
        case .inOut:
            switch curve {
            case .back:
                // Penner's in-out back overshoots by 1.70158 × 1.525.
                let c2 = 1.70158 * 1.525
                return t < 0.5
                    ? (2 * t) * (2 * t) * ((c2 + 1) * 2 * t - c2) / 2
                    : ((2 * t - 2) * (2 * t - 2) * ((c2 + 1) * (t * 2 - 2) + c2) + 2) / 2
            case .elastic:
                // And its in-out elastic has a period of 4.5 (2π / 4.5), not 3.
                if t == 0 || t == 1 { return t }
                let c5 = 2 * Double.pi / 4.5
                return t < 0.5
                    ? -(pow(2, 20 * t - 10) * sin((20 * t - 11.125) * c5)) / 2
                    : pow(2, -20 * t + 10) * sin((20 * t - 11.125) * c5) / 2 + 1
            default:
                return t < 0.5 ? Self.easeIn(curve, 2 * t) / 2 : 1 - Self.easeIn(curve, 2 - 2 * t) / 2
            }
        }
    }

    /// The "in" form of each curve; "out" (and "in-out", but for back and elastic) are
    /// built from it by symmetry, which is what Penner's own equations come to.
    static func easeIn(_ curve: Curve, _ t: Double) -> Double {
        switch curve {
        case .quad: return t * t
        case .cubic: return t * t * t
        case .quart: return t * t * t * t
        case .quint: return t * t * t * t * t
        case .sine: return 1 - cos(t * .pi / 2)
        case .expo: return t == 0 ? 0 : pow(2, 10 * t - 10)
        case .circ: return 1 - (1 - t * t).squareRoot()
        case .back:
            let c1 = 1.70158
            return (c1 + 1) * t * t * t - c1 * t * t
        case .elastic:
            if t == 0 || t == 1 { return t }
            return -pow(2, 10 * t - 10) * sin((10 * t - 10.75) * (2 * .pi / 3))
        case .bounce: return 1 - bounceOut(1 - t)
        }
    }

    /// Penner's bounce out (n1 = 7.5625, d1 = 2.75).
    static func bounceOut(_ t: Double) -> Double {
        let (n1, d1) = (7.5625, 2.75)
        if t < 1 / d1 { return n1 * t * t }
        if t < 2 / d1 {
            let u = t - 1.5 / d1
            return n1 * u * u + 0.75
        }
        if t < 2.5 / d1 {
            let u = t - 2.25 / d1
            return n1 * u * u + 0.9375
        }
        let u = t - 2.625 / d1
        return n1 * u * u + 0.984375
    }
}
