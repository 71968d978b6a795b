import Chipmunk

/// What saving, restoring and copying a world costs against a step (issue 27's table):
/// the median of many rounds, each of which saves the world, steps it, and restores it, so
/// that every round starts from the same state.
public struct StateCosts: Sendable {
    /// Dynamic and kinematic bodies in the world.
    public var bodies: Int
    /// Cached contact pairs when measured.
    public var arbiters: Int
    /// Medians, in microseconds.
    public var stepMicroseconds: Double
    public var saveMicroseconds: Double
    public var restoreMicroseconds: Double
    public var snapshotMicroseconds: Double
    /// `Snapshot(bytes:)`: decoding and checking what a file holds.
    public var snapshotReadMicroseconds: Double
    /// `restore(_:)` of a snapshot already checked (one read from bytes, or restored before).
    public var snapshotRestoreMicroseconds: Double
    public var copyMicroseconds: Double
    /// Freeing the copy: what a search that branches and drops worlds pays besides.
    public var copyFreeMicroseconds: Double
    /// Bytes a `SpaceState` holds for the world, and a `Snapshot`'s size.
    public var stateBytes: Int
    public var snapshotBytes: Int
    /// Whether every round's step, after its restore, gave the first round's state hash.
    public var exact: Bool
}

extension BenchRunner {
    /// Measures `space` as it is now: `rounds` rounds of save, step and restore (fast path),
    /// and a tenth as many (at least 5) of `snapshot()`, reading its bytes back
    /// (`Snapshot(bytes:)`), `restore(_:)` of what was read into the same space, and
    /// `copy()`; each kind stops after about 10 s (at least 5 and 3 rounds). The
    /// space ends in the state it started in.
    public static func stateCosts(of space: Space, timeStep: Double, rounds: Int) throws -> StateCosts {
        var state = SpaceState()
        var save: [Double] = []
        var step: [Double] = []
        var restore: [Double] = []
        save.reserveCapacity(rounds)
        step.reserveCapacity(rounds)
        restore.reserveCapacity(rounds)
        var firstHash: UInt64?
        var exact = true
        // Two rounds first, unmeasured, to size the state's buffers; at most about 10 s of
        // rounds for the slowest worlds, and at least 5.
        let start = monotonicSeconds()
        for round in -2..<rounds {
            if round >= 5, monotonicSeconds() - start > 10 { break }
            let t0 = monotonicSeconds()
            space.save(into: &state)
            let t1 = monotonicSeconds()
            try space.step(timeStep)
            let t2 = monotonicSeconds()
            let hash = space.stateHash()
            try space.restore(state)
            let t3 = monotonicSeconds()
            if firstHash == nil { firstHash = hash } else if hash != firstHash { exact = false }
            guard round >= 0 else { continue }
            save.append(t1 - t0)
            step.append(t2 - t1)
            restore.append(t3 - t2 - 0)
        }
        let slowRounds = max(5, rounds / 10)
        var snapshot: [Double] = []
        var snapshotRead: [Double] = []
        var snapshotRestore: [Double] = []
        var copy: [Double] = []
        var copyFree: [Double] = []
        var snapshotBytes = 0
        let arbiters = space.snapshot().arbiterCount
        let slowStart = monotonicSeconds()
        for round in 0..<slowRounds {
            if round >= 3, monotonicSeconds() - slowStart > 10 { break }
            let t0 = monotonicSeconds()
            let saved = space.snapshot()
            let t1 = monotonicSeconds()
            let read = try Snapshot(bytes: saved.bytes)
            let t2 = monotonicSeconds()
            try space.restore(read)
            let t3 = monotonicSeconds()
            snapshotBytes = saved.bytes.count
            snapshot.append(t1 - t0)
            snapshotRead.append(t2 - t1)
            snapshotRestore.append(t3 - t2)
        }
        // Copies in a loop of their own, as a search branches and drops worlds: what a copy
        // costs once the allocator has memory to reuse, not after a snapshot's buffers.
        let copyStart = monotonicSeconds()
        for round in 0..<slowRounds {
            if round >= 3, monotonicSeconds() - copyStart > 10 { break }
            let t0 = monotonicSeconds()
            let copied = space.copy()
            let t1 = monotonicSeconds()
            free(consume copied)
            let t2 = monotonicSeconds()
            copy.append(t1 - t0)
            copyFree.append(t2 - t1)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] * 1e6 }
        return StateCosts(
            bodies: space.bodies.count, arbiters: arbiters, stepMicroseconds: median(step),
            saveMicroseconds: median(save), restoreMicroseconds: median(restore),
            snapshotMicroseconds: median(snapshot), snapshotReadMicroseconds: median(snapshotRead),
            snapshotRestoreMicroseconds: median(snapshotRestore),
            copyMicroseconds: median(copy), copyFreeMicroseconds: median(copyFree), stateBytes: state.byteCount,
            snapshotBytes: snapshotBytes, exact: exact)
    }

    /// Takes the last reference to `space`, so that it is freed before this returns.
    @inline(never)
    private static func free(_ space: consuming Space) { _ = consume space }
}
