import Chipmunk

/// Every value ChipmunkAnimation checks, named as the user writes it, with the core's
/// ``Rule`` it must keep: the animation side of `Parameter` (and of ChipmunkDynamics'
/// `DynamicsParameter`).
///
/// A value that breaks its rule is a programming error: the program stops with a message
/// that names the property, the rule and the value, such as
/// `DisplayLink.frameDuration must be from 1e-09 to 1e9 (got 0.0)`.
///
/// Times are bounded so that a ticker's arithmetic stays exact and finite: a frame
/// duration of 1e-300 made the number of frames a late callback skipped larger than an
/// `Int` holds (the program trapped), and a clock or an interval near 1e308 made
/// deadlines infinite and frame durations NaN.
package enum AnimationParameter: String, Sendable, CaseIterable, RuledParameter {
    case controlPointX = "TimingFunction control point x"
    case controlPointY = "TimingFunction control point y"
    case timerInterval = "IntervalTimer.interval"
    case frameDuration = "DisplayLink.frameDuration"
    case clockStart = "SimulatedClock start"
    case clockLateness = "SimulatedClock lateness"
    case clockAdvance = "SimulatedClock.advance seconds"
    case ballPoint = "BouncingBall.from and to"
    case ballDuration = "BouncingBall.duration"
    case ballStep = "BouncingBall.advance step"

    /// The longest interval, frame, lateness or step of work, in seconds (about 31 years).
    package static let maxInterval = 1e9
    /// The shortest interval or frame, in seconds.
    package static let minInterval = 1e-9
    /// The farthest a simulated clock may start from zero, in seconds.
    package static let maxClockStart = 1e15

    /// The rule the values must keep.
    package var rule: Rule {
        switch self {
        // Time runs one way along the curve only with x in 0...1.
        case .controlPointX: return .nonNegativeAtMost(1)
        // The curve's y is at most about 0.9 × (|y1| + |y2|) + 1: finite for these.
        case .controlPointY, .ballPoint: return .magnitudeAtMost(Parameter.maxCoordinate)
        case .timerInterval, .frameDuration, .ballDuration: return .within(Self.minInterval...Self.maxInterval)
        case .clockStart: return .magnitudeAtMost(Self.maxClockStart)
        case .clockLateness, .clockAdvance, .ballStep: return .nonNegativeAtMost(Self.maxInterval)
        }
    }

    /// The property as the API spells it, such as `DisplayLink.frameDuration`.
    package var description: String { rawValue }
}
