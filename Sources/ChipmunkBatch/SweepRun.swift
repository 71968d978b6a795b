import Chipmunk
import ChipmunkScenes
import Foundation

/// The result of one run of a sweep: one row of its database.
public struct RunResult: Sendable, Equatable {
    public enum Outcome: String, Sendable { case ok, diverged, failed }

    public var key: String
    public var index: Int
    public var parameters: String
    public var outcome: Outcome
    /// The error's message, and the step it happened at (nil for a failure to load).
    public var error: String?
    public var errorStep: Int?
    /// Steps completed.
    public var steps: Int
    /// The first step after which every dynamic body slept, if that happened.
    public var asleepStep: Int?
    /// `Space.stateHash()` after the last completed step, in hex.
    public var finalHash: String?
    /// Total kinetic energy of the dynamic bodies at the end.
    public var kineticEnergy: Double?
    public var wallMilliseconds: Double

    /// Everything but the wall time, which differs from run to run.
    public func sameResult(as other: RunResult) -> Bool {
        var a = self
        var b = other
        a.wallMilliseconds = 0
        b.wallMilliseconds = 0
        return a == b
    }

    /// Runs one parameter set of a plan. Never throws: a scene that fails to load or a
    /// simulation that diverges is a result with its error.
    public static func run(_ plan: SweepPlan, index: Int) -> RunResult {
        let set = plan.runs[index]
        let start = ContinuousClock.now
        var result = RunResult(
            key: plan.key(of: set), index: index, parameters: set.json, outcome: .ok, error: nil, errorStep: nil,
            steps: 0, asleepStep: nil, finalHash: nil, kineticEnergy: nil, wallMilliseconds: 0)
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
                if result.asleepStep == nil, !dynamic.isEmpty, dynamic.allSatisfy(\.isSleeping) {
                    result.asleepStep = step
                }
            }
            result.finalHash = scene.space.stateHash().hexDigits
            var energy = 0.0
            for body in dynamic {
                let v = body.velocity
                let w = body.angularVelocity
                let linear: Double = body.mass * (v.x * v.x + v.y * v.y)
                let angular: Double = body.moment * w * w
                energy += 0.5 * (linear + angular)
            }
            result.kineticEnergy = energy
        } catch {
            result.outcome = .failed
            result.error = "\(error)"
        }
        let elapsed = ContinuousClock.now - start
        result.wallMilliseconds =
            Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        return result
    }
}
