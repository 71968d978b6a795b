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
}

extension KeyedEncodingContainer {
    /// Encodes each value, nil as null rather than as an absent key (what synthesized
    /// encoding writes): a body's quantity that was never sampled is there, as null.
    fileprivate mutating func encodeWithNulls(_ values: [(Key, Double?)]) throws {
        for (key, value) in values { try encode(value, forKey: key) }
    }
}
