import Chipmunk
import ChipmunkScenes
import Foundation

/// The measurements behind the snapshot table in docs/snapshots.md: for a scene, which
/// levels of exactness hold, how large its snapshot is, and how fast it is made and read.
public struct SnapshotReport: Sendable {
    /// The built-in scene measured, by name.
    public var scene: String
    /// Level 1 held at every step from 0 to `steps`: restoring then snapshotting gives the same bytes.
    public var roundTripHolds: Bool
    /// Level 2: two restores of one snapshot continue with the same bits.
    public var repeatableHolds: Bool
    /// Level 3: nil if the restored scene continued with the uninterrupted run's bits to
    /// the last step, or the number of steps after the restore at which the hash first
    /// differed.
    public var firstDifference: Int?
    /// The size of the binary snapshot, in bytes.
    public var bytes: Int
    /// The size of the same snapshot as JSON (`Snapshot.jsonData()`), in bytes.
    public var jsonBytes: Int
    /// How many bodies the snapshot holds.
    public var bodies: Int
    /// How many arbiters (cached contacts) the snapshot holds.
    public var arbiters: Int
    /// Microseconds to snapshot and encode; to decode and restore into a new scene.
    public var snapshotMicroseconds: Double
    /// Microseconds to decode the snapshot and restore it into a new scene.
    public var restoreMicroseconds: Double
    /// Microseconds to encode the snapshot as JSON.
    public var jsonEncodeMicroseconds: Double

    /// Measures a built-in scene: snapshot after step `at`, continue to step `steps`.
    public static func measure(scene name: String, at: Int, steps: Int) throws -> SnapshotReport {
        // Level 1, at every step.
        let walker = try SceneCatalog.scene(named: name)
        var roundTrip = true
        for step in 0...steps {
            let snapshot = walker.space.snapshot()
            if try Space(restoring: snapshot).snapshot().bytes != snapshot.bytes { roundTrip = false }
            if step < steps { try walker.step(walker.timeStep) }
        }

        func continuation() throws -> (first: Int?, repeatable: Bool, snapshot: Snapshot) {
            let original = try SceneCatalog.scene(named: name)
            for _ in 0..<at { try original.step(original.timeStep) }
            let snapshot = original.snapshot()
            let expected = try hashes(original, steps - at)
            let first = try restored(name, snapshot)
            let second = try restored(name, snapshot)
            let continued = try hashes(first, steps - at)
            let again = try hashes(second, steps - at)
            let difference = zip(expected, continued).enumerated().first { $0.element.0 != $0.element.1 }.map {
                $0.offset + 1
            }
            return (difference, continued == again, snapshot)
        }
        let plain = try continuation()

        let snapshot = plain.snapshot
        let scene = try SceneCatalog.scene(named: name)
        for _ in 0..<at { try scene.step(scene.timeStep) }
        let repeats = 20
        let snapshotTime = time(repeats) { _ = scene.snapshot() }
        let restoreTime = try time(repeats) { _ = try restored(name, Snapshot(bytes: snapshot.bytes)) }
        // JSON has no infinity (the default sleep threshold, a static body's mass): it
        // needs strings for those, one more way it is worse suited than the binary format.
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var json: Data = Data()
        let jsonTime = try time(repeats) { json = try encoder.encode(snapshot.encodableContent) }
        return SnapshotReport(
            scene: name, roundTripHolds: roundTrip, repeatableHolds: plain.repeatable, firstDifference: plain.first,
            bytes: snapshot.bytes.count, jsonBytes: json.count, bodies: snapshot.bodyCount,
            arbiters: snapshot.arbiterCount,
            snapshotMicroseconds: snapshotTime, restoreMicroseconds: restoreTime, jsonEncodeMicroseconds: jsonTime)
    }

    private static func restored(_ name: String, _ snapshot: Snapshot) throws -> Scene {
        let scene = try SceneCatalog.scene(named: name)
        try scene.restore(snapshot)
        return scene
    }

    private static func hashes(_ scene: Scene, _ steps: Int) throws -> [UInt64] {
        var result: [UInt64] = []
        for _ in 0..<steps {
            try scene.step(scene.timeStep)
            result.append(scene.space.stateHash())
        }
        return result
    }

    /// Median microseconds of `repeats` runs.
    private static func time(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<repeats {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        return samples.sorted()[repeats / 2]
    }
}
