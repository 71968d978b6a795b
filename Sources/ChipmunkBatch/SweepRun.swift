import Chipmunk
import ChipmunkScenes
import Foundation

// A sweep's run: the simulation loop that makes a ``RunResult`` (the row it stores).

extension SweepPlan {
    /// Runs the plan's run at `index`. Never throws: a scene that fails to load or a
    /// simulation that diverges is a result with its error.
    package func run(at index: Int) -> RunResult {
        let plan = self
        let set = plan.runs[index]
        let start = ContinuousClock.now
        var result = RunResult(
            key: plan.key(of: set), index: index, scene: plan.sceneSource, sceneHash: plan.sceneHash,
            parameters: set, outcome: .ok, error: nil, errorStep: nil, steps: 0, asleepStep: nil, finalHash: nil,
            kineticEnergy: nil, quantities: nil, bodies: nil, guardedCollisions: 0,
            wallMilliseconds: 0)
        do {
            let description = try plan.template.description(parameters: set.values)
            let scene = try description.makeScene(source: plan.sceneSource)
            if let start = plan.start {
                // The saved state, with this run's configuration (its parameters).
                try scene.restore(start.applyingConfiguration(of: scene.snapshot()))
            }
            let dt = plan.timeStep ?? scene.timeStep
            // Bodies are found by name at each step: one added by an input is followed from
            // the step it joins, and one removed is no longer sampled.
            let names = Set(scene.bodyNamesOverTime)
            for name in Set(plan.tracked.compactMap(\.body) + plan.recordedBodies).sorted() where !names.contains(name)
            {
                throw SweepError.badInput(.body(name), .noSuchBody(names: names.sorted()))
            }
            var tracker = Tracker(quantities: plan.tracked, scene: scene)
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
                // The bodies in the space now: one added by an input counts from the step it
                // joins, one removed no longer does (both were fixed before step 1).
                let bodies = scene.space.bodies
                if result.asleepStep == nil, bodies.contains(where: { $0.kind == .dynamic }),
                    bodies.allSatisfy({ $0.kind != .dynamic || $0.isSleeping })
                {
                    result.asleepStep = step
                }
            }
            result.finalHash = scene.space.stateHash().hexDigits
            // Null when not finite, as a tracked quantity's or a body's value is: a body of
            // infinite moment that spins has an infinite energy, which JSON writes as nothing
            // (the JSON Lines export wrote it as the string "Infinity": a helper's attack).
            let energy = Tracker.kineticEnergy(of: scene.space)
            result.kineticEnergy = energy.isFinite ? energy : nil
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
    static func bodyStates(_ names: [String], _ scene: Scene) -> [String: RunResult.BodyState]? {
        guard !names.isEmpty else { return nil }
        var states: [String: RunResult.BodyState] = [:]
        for name in names {
            guard let body = scene.body(named: name) else { continue }
            let p = body.position
            let v = body.velocity
            states[name] = RunResult.BodyState(
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
    var low: [Double]
    var high: [Double]
    var last: [Double]
    /// The body last found for each name.
    var found: [String: Body] = [:]
    var samples = 0

    init(quantities: [TrackedQuantity], scene: Scene) {
        self.quantities = quantities
        self.scene = scene
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
        guard let name = quantity.body, let measure = quantity.measure else {
            return Self.kineticEnergy(of: scene.space)
        }
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

    /// The kinetic energy of the space's dynamic bodies now.
    static func kineticEnergy(of space: Space) -> Double {
        var energy = 0.0
        for body in space.bodies where body.kind == .dynamic {
            let v = body.velocity
            let w = body.angularVelocity
            let linear: Double = body.mass * (v.x * v.x + v.y * v.y)
            // As the engine's cpBodyKineticEnergy: a body of infinite moment that does not
            // spin has no rotational energy (infinity × 0 is NaN).
            let angular: Double = w == 0 ? 0 : body.moment * w * w
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
