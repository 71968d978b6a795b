import Chipmunk
import ChipmunkScenes
import Foundation
import GRDB

/// The result of one run of a sweep: one row of its database's table `runs`.
package struct RunResult: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    package enum Outcome: String, Sendable, Codable { case ok, diverged, failed }

    /// A tracked quantity's least, greatest and final value over a run; nil where the
    /// quantity was never sampled (its body never joined) or is not finite.
    package struct Range: Sendable, Equatable, Codable {
        package var min: Double?
        package var max: Double?
        package var final: Double?

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeWithNulls([(.min, min), (.max, max), (.final, final)])
        }
    }

    /// A body's state at the end of a run; nil for a value that is not finite.
    package struct BodyState: Sendable, Equatable, Codable {
        package var x: Double?
        package var y: Double?
        package var angle: Double?
        package var vx: Double?
        package var vy: Double?
        package var w: Double?

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeWithNulls([(.x, x), (.y, y), (.angle, angle), (.vx, vx), (.vy, vy), (.w, w)])
        }
    }

    /// The table's columns, in the order `chipmunk-sim results` exports them.
    package enum CodingKeys: String, CodingKey, CaseIterable, ColumnExpression {
        case key
        case index = "run_index"
        case scene
        case sceneHash = "scene_hash"
        case parameters, outcome, error
        case errorStep = "error_step"
        case steps
        case asleepStep = "asleep_step"
        case finalHash = "final_hash"
        case kineticEnergy = "kinetic_energy"
        case quantities, bodies
        case guardedCollisions = "guarded_collisions"
        case wallMilliseconds = "wall_ms"
    }

    package static let databaseTableName = "runs"

    package static func databaseJSONEncoder(for column: String) -> JSONEncoder { SweepJSON.encoder() }

    package var key: String
    package var index: Int
    /// The scene file's name, as the sweep was given it.
    package var scene: String
    /// FNV-1a 64 of the scene file's bytes, in hex.
    package var sceneHash: String
    package var parameters: ParameterSet
    package var outcome: Outcome
    /// The error's message, and the step it happened at (nil for a failure to load).
    package var error: String?
    package var errorStep: Int?
    /// Steps completed.
    package var steps: Int
    /// The first step after which every dynamic body slept, if that happened.
    package var asleepStep: Int?
    /// `Space.stateHash()` after the last completed step, in hex.
    package var finalHash: String?
    /// Total kinetic energy of the dynamic bodies at the end.
    package var kineticEnergy: Double?
    /// The plan's tracked quantities by name (`bob.y`), in JSON
    /// `{"bob.y": {"final": …, "max": …, "min": …}}`; nil when nothing is tracked.
    package var quantities: [String: Range]?
    /// The plan's recorded bodies by name, in JSON
    /// `{"bob": {"angle": …, "vx": …, "vy": …, "w": …, "x": …, "y": …}}`; nil when none is recorded.
    package var bodies: [String: BodyState]?
    /// Narrow-phase tests the engine guard answered in the run (`Space.guardedCollisions`):
    /// a run whose bits depend on the guard, not the engine alone (0 in almost every run).
    package var guardedCollisions: Int = 0
    package var wallMilliseconds: Double

    /// Everything but the wall time, which differs from run to run.
    package func sameResult(as other: RunResult) -> Bool {
        var a = self
        var b = other
        a.wallMilliseconds = 0
        b.wallMilliseconds = 0
        return a == b
    }

    /// Runs one parameter set of a plan. Never throws: a scene that fails to load or a
    /// simulation that diverges is a result with its error.
    package static func run(_ plan: SweepPlan, index: Int) -> RunResult {
        let set = plan.runs[index]
        let start = ContinuousClock.now
        var result = RunResult(
            key: plan.key(of: set), index: index, scene: plan.sceneSource, sceneHash: plan.sceneHash,
            parameters: set, outcome: .ok, error: nil, errorStep: nil, steps: 0, asleepStep: nil, finalHash: nil,
            kineticEnergy: nil, quantities: nil, bodies: nil, guardedCollisions: 0,
            wallMilliseconds: 0)
        do {
            let description = try SceneDescription.decode(
                plan.sceneData, source: plan.sceneSource, parameters: set.values)
            let scene = try description.makeScene(source: plan.sceneSource)
            if let start = plan.start {
                // The saved state, with this run's configuration (its parameters).
                try scene.restore(start.applyingConfiguration(of: scene.snapshot()))
            }
            let dt = plan.timeStep ?? scene.timeStep
            let dynamic = scene.space.bodies.filter { $0.kind == .dynamic }
            // Bodies are found by name at each step: one added by an input is followed from
            // the step it joins, and one removed is no longer sampled.
            let names = Set(scene.bodyNamesOverTime)
            for name in Set(plan.tracked.compactMap(\.body) + plan.recordedBodies).sorted() where !names.contains(name)
            {
                throw SweepError.badInput(.body(name), .noSuchBody(names: names.sorted()))
            }
            var tracker = Tracker(quantities: plan.tracked, scene: scene, dynamic: dynamic)
            let guardedBefore = scene.space.guardedCollisions
            defer {
                result.quantities = tracker.ranges
                result.bodies = Self.bodyStates(plan.recordedBodies, scene)
                result.guardedCollisions = scene.space.guardedCollisions - guardedBefore
            }
            for step in 1...plan.steps {
                do {
                    try scene.step(dt)
                } catch {
                    result.outcome = error is ChipmunkError ? .diverged : .failed
                    result.error = "\(error)"
                    result.errorStep = step
                    break
                }
                result.steps = step
                tracker.sample()
                if result.asleepStep == nil, !dynamic.isEmpty, dynamic.allSatisfy(\.isSleeping) {
                    result.asleepStep = step
                }
            }
            result.finalHash = scene.space.stateHash().hexDigits
            result.kineticEnergy = Tracker.kineticEnergy(dynamic)
        } catch {
            result.outcome = .failed
            result.error = "\(error)"
        }
        let elapsed = ContinuousClock.now - start
        result.wallMilliseconds =
            Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        return result
    }

    /// The final state of each named body still in the scene; nil when no body is recorded.
    static func bodyStates(_ names: [String], _ scene: Scene) -> [String: BodyState]? {
        guard !names.isEmpty else { return nil }
        var states: [String: BodyState] = [:]
        for name in names {
            guard let body = scene.body(named: name) else { continue }
            let p = body.position
            let v = body.velocity
            states[name] = BodyState(
                x: finite(p.x), y: finite(p.y), angle: finite(body.angle), vx: finite(v.x), vy: finite(v.y),
                w: finite(body.angularVelocity))
        }
        return states
    }
}

/// Follows the tracked quantities through a run: min, max and final. A body's quantity
/// is sampled at the steps the body is in the space.
private struct Tracker {
    let quantities: [TrackedQuantity]
    let scene: Scene
    let dynamic: [Body]
    var low: [Double]
    var high: [Double]
    var last: [Double]
    /// The body last found for each name.
    var found: [String: Body] = [:]
    var samples = 0

    init(quantities: [TrackedQuantity], scene: Scene, dynamic: [Body]) {
        self.quantities = quantities
        self.scene = scene
        self.dynamic = dynamic
        low = Array(repeating: .infinity, count: quantities.count)
        high = Array(repeating: -.infinity, count: quantities.count)
        last = Array(repeating: .nan, count: quantities.count)
    }

    mutating func sample() {
        samples += 1
        for (index, quantity) in quantities.enumerated() {
            guard let value = value(quantity) else { continue }
            low[index] = min(low[index], value)
            high[index] = max(high[index], value)
            last[index] = value
        }
    }

    /// The body named `name` in the space now, if any.
    mutating func body(_ name: String) -> Body? {
        if let body = found[name], scene.space.contains(body) { return body }
        found[name] = scene.body(named: name)
        return found[name]
    }

    /// The quantity now; nil for a body not in the space now.
    mutating func value(_ quantity: TrackedQuantity) -> Double? {
        guard let name = quantity.body, let measure = quantity.measure else { return Self.kineticEnergy(dynamic) }
        guard let body = body(name) else { return nil }
        let p = body.position
        let v = body.velocity
        switch measure {
        case .x: return p.x
        case .y: return p.y
        case .vx: return v.x
        case .vy: return v.y
        case .speed: return (v.x * v.x + v.y * v.y).squareRoot()
        case .angle: return body.angle
        case .w: return body.angularVelocity
        }
    }

    static func kineticEnergy(_ bodies: [Body]) -> Double {
        var energy = 0.0
        for body in bodies {
            let v = body.velocity
            let w = body.angularVelocity
            let linear: Double = body.mass * (v.x * v.x + v.y * v.y)
            let angular: Double = body.moment * w * w
            energy += 0.5 * (linear + angular)
        }
        return energy
    }

    /// nil until a step has been sampled, or when nothing is tracked; a body's quantity
    /// never sampled (the body never joined) is null.
    var ranges: [String: RunResult.Range]? {
        guard !quantities.isEmpty, samples > 0 else { return nil }
        var ranges: [String: RunResult.Range] = [:]
        for (i, quantity) in quantities.enumerated() {
            ranges[quantity.name] = .init(min: finite(low[i]), max: finite(high[i]), final: finite(last[i]))
        }
        return ranges
    }
}

/// A number JSON can hold: nil for an infinity or NaN (null in the database).
private func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

extension KeyedEncodingContainer {
    /// Encodes each value, nil as null rather than as an absent key (what synthesized
    /// encoding writes): a body's quantity that was never sampled is there, as null.
    fileprivate mutating func encodeWithNulls(_ values: [(Key, Double?)]) throws {
        for (key, value) in values { try encode(value, forKey: key) }
    }
}
