import Chipmunk

/// A space ready to run, with the gravity changes it carries over time.
///
/// Scenes come from Swift code (``BookScenes``) or from data files
/// (``SceneDescription``); both build a `Space` through the same API, and give
/// bit-identical trajectories.
///
/// ```swift
/// let scene = BookScenes.crates()
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
    /// Version-2 inputs over time, in time order (ties keep their order), and the next one due.
    public private(set) var inputs: [TimedInput] = []
    private var nextInput = 0

    /// Names of bodies for output, from a version-2 scene file (each body's `id`, or its
    /// index in the file; "static" for the space's static body). Nil for other scenes,
    /// whose output numbers dynamic bodies from 0.
    public var bodyNames: [ObjectIdentifier: String]?

    /// Names of shapes for output, from a scene file: the `id`s of the shapes that have one.
    public var shapeNames: [ObjectIdentifier: String] = [:]

    /// Names of bodies added by inputs to a scene without ``bodyNames``: their `id`s. A
    /// body taken out keeps its name, so that a restore that puts it back (rollback) finds
    /// it by name again; each name is held beside its body, weakly, so that one whose body
    /// is gone names nothing (its identifier may be a new body's).
    var addedBodyNames: [ObjectIdentifier: AddedBodyName] = [:]

    /// The count of `addedBodyNames` at which the names of bodies that are gone are dropped
    /// (then twice the count left, at least 64): a rollback that applies a `grab` again
    /// makes a new hand each time.
    private var addedBodyNamesPruneCount = 64

    /// A name an input gave a body, beside that body.
    struct AddedBodyName {
        weak var body: Body?
        var name: String
    }

    /// The name an input gave `body` in a scene without ``bodyNames``, if any.
    func addedName(of body: Body) -> String? {
        guard let entry = addedBodyNames[ObjectIdentifier(body)], entry.body === body else { return nil }
        return entry.name
    }

    /// Gives `body`, which an input added, the name `name` (none when nil): in
    /// ``bodyNames`` when the scene has them, else in `addedBodyNames`.
    func nameAddedBody(_ body: Body, _ name: String?) {
        if bodyNames != nil {
            bodyNames?[ObjectIdentifier(body)] = name
        } else {
            addedBodyNames[ObjectIdentifier(body)] = name.map { AddedBodyName(body: body, name: $0) }
            if addedBodyNames.count >= addedBodyNamesPruneCount {
                addedBodyNames = addedBodyNames.filter { $0.value.body != nil }
                addedBodyNamesPruneCount = max(64, 2 * addedBodyNames.count)
            }
        }
    }

    /// Contact events recorded by `log` collision rules, oldest first.
    public package(set) var events: [CollisionEvent] = []

    /// Whether the scene's coordinates have y pointing down (UIKit's, for the behaviour
    /// scenes); pictures of it are drawn that way up.
    public let yAxisPointsDown: Bool

    /// What drives the scene around its space, if anything does (the UIKit-style scenes'
    /// animator): given when the scene is made.
    let driver: (any SceneDriver)?

    /// How opaque pictures draw each body, from 0 to 1, read when drawn: the driver's (a
    /// UIKit item's `alpha`, which the engine does not know: the snake's bricks dim while
    /// they touch an edge). Nil draws every body opaque.
    package var bodyOpacity: ((Body) -> Double)? {
        guard let driver else { return nil }
        return { [driver] body in driver.opacity(of: body) }
    }

    /// The output name of a body: its name (a version-2 scene's `id`, or its index in the
    /// file; an added body's `id`), or its index in `Space.bodies`; "static" for the
    /// space's static body.
    public func name(of body: Body) -> String {
        bodyNames?[ObjectIdentifier(body)] ?? addedName(of: body)
            ?? (body === space.staticBody ? "static" : String(body.indexInSpace))
    }

    /// The output name of a shape: its `id`, or else its body's name (so "static" for a
    /// static shape without an id).
    public func name(of shape: Shape) -> String {
        shapeNames[ObjectIdentifier(shape)] ?? name(of: shape.body)
    }

    func logEvent(_ kind: CollisionEvent.Kind, _ arbiter: Arbiter) {
        let (a, b) = arbiter.shapes
        events.append(
            CollisionEvent(
                kind: kind, step: stepCount + 1, shapeA: name(of: a), shapeB: name(of: b), bodyA: name(of: a.body),
                bodyB: name(of: b.body)))
    }

    /// A snapshot of the scene's space, with the scene's clock, for ``restore(_:)-(Snapshot)``.
    ///
    /// `reference` says how to build the scene again (`SceneCatalog.scene(restoring:)`): a
    /// built-in name or a scene file's path; by default the scene's name.
    public func snapshot(reference: String? = nil) -> Snapshot {
        space.snapshot(
            sceneName: reference ?? name, sceneTime: time, changesApplied: nextChange, inputsApplied: nextInput,
            // Bodies added by inputs (an `add`, a hand's `grab`) keep their ids across a restore.
            bodyNames: bodyNames == nil && !space.bodies.contains { addedName(of: $0) != nil }
                ? [] : space.bodies.map { self.name(of: $0) })
    }

    /// Sets the scene to a snapshot made by ``snapshot(reference:)`` of a scene built by the same
    /// code: its space's state (`Space.restore(_:)`, which keeps this scene's closures),
    /// its clock and its place in the gravity schedule.
    ///
    /// - Throws: `SnapshotError`, such as a structure mismatch when the snapshot came
    ///   from another scene.
    public func restore(_ snapshot: Snapshot) throws(SnapshotError) {
        let clock = snapshot.scene
        guard clock.changesApplied <= gravitySchedule.count, clock.inputsApplied <= inputs.count, clock.time.isFinite,
            clock.time >= 0
        else {
            throw .invalid(
                "the scene clock (\(clock.time) s, \(clock.changesApplied) gravity changes) does not fit scene \(name)")
        }
        if let problem = Self.bodyNamesProblem(clock.bodyNames, bodies: snapshot.bodyCount) {
            throw .invalid("the snapshot's body names: \(problem)")
        }
        try space.restore(snapshot)
        time = clock.time
        stepCount = snapshot.stepsTaken
        nextChange = clock.changesApplied
        nextInput = clock.inputsApplied
        if bodyNames != nil, clock.bodyNames.count == space.bodies.count {
            var names: [ObjectIdentifier: String] = [ObjectIdentifier(space.staticBody): "static"]
            for (body, name) in zip(space.bodies, clock.bodyNames) { names[ObjectIdentifier(body)] = name }
            bodyNames = names
        } else if bodyNames == nil {
            // A scene named by index: the names that are not indices are added bodies' ids.
            addedBodyNames = [:]
            if clock.bodyNames.count == space.bodies.count {
                for (index, (body, name)) in zip(space.bodies, clock.bodyNames).enumerated() where name != String(index)
                {
                    nameAddedBody(body, name)
                }
            }
        }
        driver?.sceneDidRestore(self)
    }

    /// What is wrong with a snapshot's body names, as ``snapshot(reference:)`` writes them:
    /// none, or one for each body, each not empty, not "static" and given once. A forged list
    /// was taken as it was: two bodies called "a", a body called "static", or a list of
    /// another length, which left the names of before the restore.
    static func bodyNamesProblem(_ names: [String], bodies: Int) -> String? {
        guard !names.isEmpty else { return nil }
        guard names.count == bodies else { return "\(names.count) names for \(bodies) bodies" }
        var seen = Set<String>()
        for (index, name) in names.enumerated() {
            if name.isEmpty || name == "static" || name.utf8.count > InputFile.longestPath
                || name.contains(where: \.isNewline)
            {
                return "body \(index) is called '\(name.excerpt())', which names no body"
            }
            if !seen.insert(name).inserted { return "'\(name.excerpt())' names two bodies" }
        }
        return nil
    }

    /// Saves the scene's state into `state` for a fast restore into this scene (rollback,
    /// scrubbing): its space's (`SpaceState`, reusing the buffers) and its clock.
    public func save(into state: inout SceneState) {
        space.save(into: &state.space)
        state.time = time
        state.stepCount = stepCount
        state.changesApplied = nextChange
        state.inputsApplied = nextInput
    }

    /// Sets the scene to a state saved from it by ``save(into:)``: its space
    /// (`Space.restore(_:)`, which takes out objects inputs added since and puts back those
    /// removed), its clock and its place in the gravity schedule and the inputs.
    ///
    /// - Throws: `SnapshotError` when the state is empty or from another scene.
    public func restore(_ state: SceneState) throws(SnapshotError) {
        try space.restore(state.space)
        time = state.time
        stepCount = state.stepCount
        nextChange = state.changesApplied
        nextInput = state.inputsApplied
        driver?.sceneDidRestore(self)
    }

    /// Sets the version-2 inputs (the loader does this), sorted by time, ties in order.
    func setInputs(_ inputs: [TimedInput]) {
        self.inputs = inputs.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
        nextInput = 0
    }

    /// Creates a scene from a built space.
    ///
    /// The time step must keep the rule of `Parameter/spaceTimeStep`, and each change
    /// a time of zero or more and a gravity that keeps `Parameter/spaceGravity`; anything
    /// else is a programming error (a scene file's loader checks these first). Changes are
    /// applied in time order; ties keep their order.
    ///
    /// `yAxisPointsDown` says that the coordinates have y pointing down (UIKit's), so that
    /// pictures draw the scene that way up.
    public convenience init(
        name: String, space: Space, gravitySchedule: [GravityChange] = [], timeStep: Double = 1.0 / 120.0,
        yAxisPointsDown: Bool = false
    ) {
        self.init(
            name: name, space: space, gravitySchedule: gravitySchedule, timeStep: timeStep,
            yAxisPointsDown: yAxisPointsDown, driver: nil)
    }

    /// A scene whose `driver` steps it and hears of its restores (see ``SceneDriver``).
    package init(
        name: String, space: Space, gravitySchedule: [GravityChange] = [], timeStep: Double = 1.0 / 120.0,
        yAxisPointsDown: Bool = false, driver: (any SceneDriver)?
    ) {
        Parameter.spaceTimeStep.require(timeStep)
        for change in gravitySchedule {
            ensure(
                change.time >= 0 && change.time.isFinite,
                "Scene: a gravity change's time must be zero or more, and finite (got \(change.time))")
            Parameter.spaceGravity.require(change.gravity)
        }
        self.name = name
        self.space = space
        self.timeStep = timeStep
        self.yAxisPointsDown = yAxisPointsDown
        self.driver = driver
        self.gravitySchedule = gravitySchedule.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// Applies the gravity changes due by now, then steps the space by `dt`.
    ///
    /// - Throws: what `Space/step(_:)` throws.
    public func step(_ dt: Double) throws {
        let tolerance = dt * 1e-9
        while nextChange < gravitySchedule.count, gravitySchedule[nextChange].time <= time + tolerance {
            space.gravity = gravitySchedule[nextChange].gravity
            nextChange += 1
        }
        while nextInput < inputs.count, inputs[nextInput].time <= time + tolerance {
            try? apply(inputs[nextInput].action)  // checked when the scene loaded
            nextInput += 1
        }
        if let driver { try driver.step(at: time, by: dt) } else { try space.step(dt) }
        stepCount += 1
        time += dt
    }
}

/// What drives a scene built on more than its space, given to it when it is made: the
/// UIKit-style scenes' animator, whose behaviours act around each step, whose items have an
/// `alpha` the engine does not know, and which keeps state beside the space.
package protocol SceneDriver: AnyObject {
    /// Steps the space by `dt` in place of `space.step(dt)`; `time` is the scene's time
    /// before the step.
    func step(at time: Double, by dt: Double) throws
    /// How opaque pictures draw `body`, from 0 to 1.
    func opacity(of body: Body) -> Double
    /// Called at the end of ``Scene/restore(_:)-(Snapshot)``, for the state the driver keeps
    /// beside the space (the scene's clock is the snapshot's then).
    func sceneDidRestore(_ scene: Scene)
}

/// A scene's state for a fast restore into the same scene: its space's `SpaceState`
/// and its clock. Keep one per frame in a ring, as with `SpaceState`.
public struct SceneState {
    var space = SpaceState()
    /// The scene's simulated time when saved, in seconds.
    public internal(set) var time = 0.0
    /// The scene's steps when saved.
    public internal(set) var stepCount = 0
    var changesApplied = 0
    var inputsApplied = 0

    /// An empty state, to save into.
    public init() {}

    /// The bytes the state holds (see `SpaceState.byteCount`).
    public var byteCount: Int { space.byteCount }

    /// The memory the state takes (see `SpaceState.heapBytes`).
    package var heapBytes: Int { space.heapBytes }
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

    private enum CodingKeys: String, CodingKey, CaseIterable { case time, gravity }

    /// Decodes `{"time": t, "gravity": [x, y]}`, rejecting unknown keys.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        time = try c.decode(Double.self, forKey: .time)
        gravity = try c.decode(Vector.self, forKey: .gravity)
    }

    /// The gravity the book's accelerometer handler sets for a device tilt:
    /// `(ay * 1000, -ax * 1000)`, from accelerometer readings in g.
    public static func tilt(at time: Double, accelerometerX ax: Double, accelerometerY ay: Double) -> GravityChange {
        GravityChange(time: time, gravity: Vector(x: ay * 1000, y: -ax * 1000))
    }
}
