import Chipmunk
import ChipmunkScenes
import Foundation
import GRDB

/// Which sweep a results database belongs to: the scene file's content hash and the plan's.
///
/// Two databases belong to the same sweep when both hashes agree (the scene file's name
/// may differ from machine to machine). `plan` says in words what the plan hash covers.
package struct SweepIdentity: Sendable, Hashable, CustomStringConvertible, Codable, FetchableRecord,
    PersistableRecord
{
    /// What a plan is, in numbers and names.
    package struct Plan: Sendable, Hashable, Codable {
        /// How many runs the whole sweep has (every shard's).
        package var runs: Int
        /// The steps each run takes.
        package var steps: Int
        /// nil: the scene's own time step.
        package var timeStep: Double?
        /// The names of the parameters the runs set, sorted.
        package var parameters: [String]
        /// The quantities each run follows (`--track`).
        package var tracked: [String]
        /// The bodies whose final state each run stores (`--body`).
        package var bodies: [String]
        /// The hash of the snapshot every run starts from, if any.
        package var from: String?
    }

    /// The scene file's name, as the sweep was given it.
    package var scene: String
    /// FNV-1a 64 of the scene file's bytes, in hex.
    package var sceneHash: String
    /// FNV-1a 64 of every run's key, sorted, in hex: the same for any order of the runs.
    package var planHash: String
    package var plan: Plan

    /// The columns of the database's table `sweeps`.
    package enum CodingKeys: String, CodingKey, ColumnExpression {
        case scene
        case sceneHash = "scene_hash"
        case planHash = "plan_hash"
        case plan
    }

    package static let databaseTableName = "sweeps"

    package static func databaseJSONEncoder(for column: String) -> JSONEncoder { SweepJSON.encoder() }

    package static func == (a: Self, b: Self) -> Bool { a.sceneHash == b.sceneHash && a.planHash == b.planHash }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(sceneHash)
        hasher.combine(planHash)
    }

    /// The first value no sweep records, as `(column, value, rule)`: the hashes are 16
    /// lowercase hex digits, the scene a path, and the plan has runs, steps and names.
    var problem: (String, String, String)? {
        let isHash = InputRecording.isHash
        if !isHash(sceneHash) { return ("scene_hash", sceneHash, "16 lowercase hex digits") }
        if !isHash(planHash) { return ("plan_hash", planHash, "16 lowercase hex digits") }
        if scene.isEmpty || scene.utf8.count > InputFile.longestPath { return ("scene", scene, "a scene file's path") }
        if plan.runs < 1 || plan.runs > SweepDesign.maximumRuns {
            return ("plan's runs", "\(plan.runs)", "from 1 to \(SweepDesign.maximumRuns)")
        }
        if plan.steps < 1 { return ("plan's steps", "\(plan.steps)", "a whole number from 1") }
        if let name = (plan.parameters + plan.tracked + plan.bodies).first(where: {
            $0.isEmpty || $0.utf8.count > InputFile.longestPath
        }
        ) {
            return ("a plan's name", "'\(name)'", "a parameter, quantity or body name")
        }
        if let dt = plan.timeStep, !Parameter.spaceTimeStep.accepts(dt) {
            return ("plan's timeStep", "\(dt)", "a time step")
        }
        return nil
    }

    /// `drop.json (scene fbbec0f9939b824f; plan 19b9a3417c6b7e5e: 63 runs of 600 steps over elasticity, speed)`.
    package var description: String {
        let over = plan.parameters.isEmpty ? "" : " over \(plan.parameters.joined(separator: ", "))"
        return
            "\(scene) (scene \(sceneHash); plan \(planHash): \(counted(plan.runs, "run")) of \(counted(plan.steps, "step"))\(over))"
    }
}
