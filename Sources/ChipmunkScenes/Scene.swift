import Chipmunk

/// A space ready to run, with the gravity changes it carries over time.
///
/// Scenes come from Swift code (``BookScenes``) or from data files
/// (``SceneDescription``); both build a ``Space`` through the same API, and give
/// bit-identical trajectories.
///
/// ```swift
/// let scene = try BookScenes.crates()
/// for _ in 0..<1200 { try scene.step(1.0 / 120) }
/// ```
public final class Scene {
    /// The scene's name.
    public let name: String
    /// The simulated world.
    public let space: Space
    /// Gravity changes, in time order: the book's accelerometer tilt, made headless.
    public let gravitySchedule: [GravityChange]
    /// The time step the scene is meant to run at: 1/120 s (the book's) unless it says
    /// otherwise; Chipmunk's demos use 1/60 or 1/180. `chipmunk-sim run` uses it by default.
    public let timeStep: Double
    /// Simulated time so far, in seconds.
    public private(set) var time: Double = 0
    /// Steps taken so far.
    public private(set) var stepCount = 0
    private var nextChange = 0

    /// Creates a scene from a built space.
    ///
    /// - Throws: ``SceneError`` if a change has a negative or non-finite time or a
    ///   non-finite gravity, or the time step is not positive and finite. Changes are
    ///   applied in time order; ties keep their order.
    public init(name: String, space: Space, gravitySchedule: [GravityChange] = [], timeStep: Double = 1.0 / 120.0) throws(SceneError) {
        guard timeStep > 0, timeStep.isFinite else {
            throw SceneError(source: name, location: "timeStep", reason: "must be positive and finite (got \(timeStep))")
        }
        for (index, change) in gravitySchedule.enumerated() {
            guard change.time >= 0, change.time.isFinite else {
                throw SceneError(source: name, location: "gravitySchedule[\(index)].time", reason: "must be zero or more, and finite (got \(change.time))")
            }
            guard change.gravity.isFinite else {
                throw SceneError(source: name, location: "gravitySchedule[\(index)].gravity", reason: "must be finite (got \(change.gravity))")
            }
        }
        self.name = name
        self.space = space
        self.timeStep = timeStep
        self.gravitySchedule = gravitySchedule.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// Applies the gravity changes due by now, then steps the space by `dt`.
    ///
    /// - Throws: what ``Space/step(_:)`` throws.
    public func step(_ dt: Double) throws {
        let tolerance = dt * 1e-9
        while nextChange < gravitySchedule.count, gravitySchedule[nextChange].time <= time + tolerance {
            space.gravity = gravitySchedule[nextChange].gravity
            nextChange += 1
        }
        try space.step(dt)
        stepCount += 1
        time += dt
    }
}

/// From `time` seconds on, gravity is `gravity`.
public struct GravityChange: Hashable, Sendable, Codable {
    /// When the change takes effect, in simulated seconds.
    public var time: Double
    /// The new gravity.
    public var gravity: Vector

    /// Creates a change of gravity at `time`.
    public init(time: Double, gravity: Vector) {
        self.time = time
        self.gravity = gravity
    }

    /// The gravity the book's accelerometer handler sets for a device tilt:
    /// `(ay * 1000, -ax * 1000)`, from accelerometer readings in g.
    public static func tilt(at time: Double, accelerometerX ax: Double, accelerometerY ay: Double) -> GravityChange {
        GravityChange(time: time, gravity: Vector(x: ay * 1000, y: -ax * 1000))
    }
}
