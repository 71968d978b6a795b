import Chipmunk
import ChipmunkScenes
import Foundation

/// A sweep: one scene file, the runs' parameter sets in a fixed order, and how long each runs.
package struct SweepPlan: Sendable {
    package var sceneSource: String
    /// The scene file's bytes.
    package var sceneData: Data
    /// The scene file, parsed once: every run makes its scene from it.
    package let template: SceneTemplate
    /// FNV-1a 64 of the scene file's bytes, in hex.
    package var sceneHash: String
    package var runs: [ParameterSet]
    package var steps: Int
    /// The time step; nil: the scene's own.
    package var timeStep: Double?
    /// The saved state every run starts from (`--from`), if any: each run builds the
    /// scene with its parameters, takes its configuration, and continues this state.
    package var start: Snapshot?
    /// Quantities to follow in every run (min, max and final): `energy`, or `BODY.q` with
    /// q one of x, y, vx, vy, speed, angle, w, and BODY a body's name in output.
    package var tracked: [TrackedQuantity] = []
    /// Bodies whose final state every run records, by their names in output.
    package var recordedBodies: [String] = []

    /// The runs of `design`, each checked against the parameters the scene declares.
    package init(
        sceneSource: String, sceneData: Data, design: SweepDesign, steps: Int, timeStep: Double?,
        start: Snapshot? = nil
    ) throws(SweepError) {
        let template: SceneTemplate
        do {
            template = try SceneTemplate(sceneData, source: sceneSource)
        } catch {
            throw .scene(error)
        }
        try self.init(
            template: template, sceneData: sceneData, design: design, steps: steps, timeStep: timeStep, start: start)
    }

    /// The runs of `design` over a scene file already parsed (`template`, of `sceneData`).
    package init(
        template: SceneTemplate, sceneData: Data, design: SweepDesign, steps: Int, timeStep: Double?,
        start: Snapshot? = nil
    ) throws(SweepError) {
        let sceneSource = template.source
        let declared = template.declared
        let runs = try design.parameterSets()
        let swept = Set(runs.flatMap(\.values.keys)).sorted()
        var sweptDefaults: [String: Double] = [:]
        for name in swept {
            guard let value = declared[name] else {
                throw .badInput(
                    .parameter(name),
                    declared.isEmpty
                        ? .noParametersDeclared : .undeclaredParameter(name, declared: declared.keys.sorted()))
            }
            sweptDefaults[name] = value
        }
        // A table row given twice names one run twice, and so do rows that leave out different
        // parameters: {"speed": 1} and {"elasticity": 0.5, "speed": 1} when the scene's
        // elasticity is 0.5. Rows are compared with the scene's values filled in.
        if case .table = design {
            var firstRow: [ParameterSet: Int] = [:]
            for (index, run) in runs.enumerated() {
                let full = ParameterSet(run.values.merging(sweptDefaults) { given, _ in given })
                guard let first = firstRow.updateValue(index, forKey: full) else { continue }
                // The values one row gives and the other takes from the scene.
                let filled = sweptDefaults.filter { (runs[first].values[$0.key] == nil) != (run.values[$0.key] == nil) }
                throw .badInput(
                    .table(row: index),
                    filled.isEmpty
                        ? .repeatedRow(of: first) : .repeatedRowWithDefaults(of: first, defaults: ParameterSet(filled)))
            }
        }
        // A swept parameter no number refers to would change nothing from run to run: refused
        // before any run (each run refused it alone, and the sweep ended "N failed").
        do {
            try template.check(parameters: sweptDefaults)
        } catch {
            throw .scene(error)
        }
        self.sceneSource = sceneSource
        self.sceneData = sceneData
        self.template = template
        self.sceneHash = FNV1a.hash(sceneData).hexDigits
        self.runs = runs
        self.steps = steps
        self.timeStep = timeStep
        self.start = start
    }

    /// A run's key: FNV-1a 64 of the scene's hash, the steps and time step, and the
    /// parameter set, in hex. The same run has the same key in every shard and process.
    package func key(of run: ParameterSet) -> String {
        let dt = timeStep.map { String($0.bitPattern, radix: 16) } ?? "scene"
        let from = start.map { FNV1a.hash($0.bytes).hexDigits } ?? "-"
        let records = tracked.map(\.name).joined(separator: ",") + ";" + recordedBodies.joined(separator: ",")
        return FNV1a.hash("\(sceneHash)|\(steps)|\(dt)|\(from)|\(records)|\(run.json)".utf8).hexDigits
    }

    /// Whether the run at `runIndex` belongs to shard `index` of `count`: runs are dealt out
    /// in turn (run i to shard i mod count), so shards never overlap, together hold every
    /// run, and differ in size by at most one run. Dealing in turn rather than in blocks
    /// also spreads a grid's slow corner (such as its stiffest springs) over every shard.
    package func belongs(runAt runIndex: Int, toShard index: Int, of count: Int) -> Bool {
        runIndex % count == index
    }

    /// The sweep this plan makes: its scene's content and its runs. Every shard of one
    /// sweep has the same identity, and a results database records it.
    package var identity: SweepIdentity {
        let parameters = Set(runs.flatMap(\.values.keys)).sorted()
        let from = start.map { FNV1a.hash($0.bytes).hexDigits }
        let plan = SweepIdentity.Plan(
            runs: runs.count, steps: steps, timeStep: timeStep, parameters: parameters,
            tracked: tracked.map(\.name), bodies: recordedBodies, from: from)
        // Each run's key already hashes the scene, the duration, the start and what is
        // recorded; the keys, sorted, hash the whole plan. Sorted: the order of --param (or of
        // a grid's axes) orders the runs, but they are the same runs, the same sweep.
        let planHash = FNV1a.hash(runs.map { key(of: $0) }.sorted().joined(separator: ",").utf8).hexDigits
        return SweepIdentity(scene: sceneSource, sceneHash: sceneHash, planHash: planHash, plan: plan)
    }
}
