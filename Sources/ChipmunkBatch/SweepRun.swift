import Chipmunk
import ChipmunkScenes
import Foundation

/// The result of one run of a sweep: one row of its database.
package struct RunResult: Sendable, Equatable {
    package enum Outcome: String, Sendable { case ok, diverged, failed }

    package var key: String
    package var index: Int
    package var parameters: String
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
    /// `{"bob.y": {"min": …, "max": …, "final": …}}` for the plan's tracked quantities.
    package var quantities: String?
    /// `{"bob": {"x": …, "y": …, "angle": …, "vx": …, "vy": …, "w": …}}` for the plan's recorded bodies.
    package var bodies: String?
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
            key: plan.key(of: set), index: index, parameters: set.json, outcome: .ok, error: nil, errorStep: nil,
            steps: 0, asleepStep: nil, finalHash: nil, kineticEnergy: nil, quantities: nil, bodies: nil,
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
                throw SweepError.badAxis(
                    "body \(name)",
                    "the scene has no body of that name (names: \(names.sorted().prefix(20).joined(separator: ", ")))"
                )
            }
            var tracker = Tracker(quantities: plan.tracked, scene: scene, dynamic: dynamic)
            defer {
                result.quantities = tracker.json
                result.bodies = Self.bodiesJSON(plan.recordedBodies, scene)
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

    /// The final state of each named body still in the scene.
    static func bodiesJSON(_ names: [String], _ scene: Scene) -> String? {
        guard !names.isEmpty else { return nil }
        let fields = names.compactMap { name -> String? in
            guard let body = scene.body(named: name) else { return nil }
            let p = body.position
            let v = body.velocity
            return
                "\(jsonKey(name)):{\"x\":\(jsonNumber(p.x)),\"y\":\(jsonNumber(p.y)),\"angle\":\(jsonNumber(body.angle)),\"vx\":\(jsonNumber(v.x)),\"vy\":\(jsonNumber(v.y)),\"w\":\(jsonNumber(body.angularVelocity))}"
        }
        return "{" + fields.joined(separator: ",") + "}"
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
    var json: String? {
        guard !quantities.isEmpty, samples > 0 else { return nil }
        let fields = quantities.indices.map { i in
            "\(jsonKey(quantities[i].name)):{\"min\":\(jsonNumber(low[i])),\"max\":\(jsonNumber(high[i])),\"final\":\(jsonNumber(last[i]))}"
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// A number for JSON: shortest round-trip decimal; null for what JSON cannot hold.
private func jsonNumber(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }

private func jsonKey(_ text: String) -> String {
    String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"?\"".utf8), as: UTF8.self)
}
