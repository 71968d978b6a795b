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

    /// `drop.json (scene fbbec0f9939b824f; plan 19b9a3417c6b7e5e: 63 runs of 600 steps over elasticity, speed)`.
    package var description: String {
        let over = plan.parameters.isEmpty ? "" : " over \(plan.parameters.joined(separator: ", "))"
        return
            "\(scene) (scene \(sceneHash); plan \(planHash): \(counted(plan.runs, "run")) of \(counted(plan.steps, "step"))\(over))"
    }
}
