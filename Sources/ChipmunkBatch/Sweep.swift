import Chipmunk
import Foundation

/// Runs a plan's missing runs on worker threads and stores each result as it finishes.
package enum Sweep {
    /// What a sweep did, for its summary.
    package struct Summary: Sendable {
        package var planned = 0
        package var inShard = 0
        package var alreadyStored = 0
        package var ran = 0
        package var ok = 0
        package var diverged = 0
        package var failed = 0
        package var seconds = 0.0
    }

    /// Progress as the runs finish: done, to do, and the diverged and failed runs so far,
    /// counted apart as ``Summary`` counts them.
    package typealias Progress = @Sendable (_ done: Int, _ total: Int, _ diverged: Int, _ failed: Int) -> Void

    /// Runs every run of `plan` that belongs to shard `shard` (index, count) and is not yet
    /// in `store`, on `jobs` threads. A store that holds another sweep is refused
    /// (``SweepError/otherSweep(database:holds:wanted:)``); a new one records this sweep. Each thread builds its own spaces. Results do not
    /// depend on `jobs` or the sharding: each run is its own simulation.
    package static func run(
        _ plan: SweepPlan, store: SweepStore, jobs: Int, shard: (index: Int, count: Int) = (0, 1),
        progress: Progress? = nil
    ) throws(SweepError) -> Summary {
        ensure(jobs >= 1, "Sweep.run: jobs must be at least 1")
        let start = ContinuousClock.now
        var summary = Summary()
        summary.planned = plan.runs.count
        try store.claim(for: plan)
        let stored = try store.storedKeys()
        var todo: [Int] = []
        for (index, run) in plan.runs.enumerated()
        where plan.belongs(runAt: index, toShard: shard.index, of: shard.count) {
            summary.inShard += 1
            if stored.contains(plan.key(of: run)) { summary.alreadyStored += 1 } else { todo.append(index) }
        }
        let queue = Locked(RunQueue(todo: todo))
        let total = todo.count
        // Each worker takes the next run until none is left; concurrentPerform returns when
        // all have, and runs at most as many at once as there are cores.
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(todo.count, 1))) { _ in
            while let index = queue.withLock({ $0.next() }) {
                let result = plan.run(at: index)
                do throws(SweepError) {
                    try store.insert(result)
                } catch {
                    queue.withLock { $0.fail(error) }
                    return
                }
                let (done, diverged, failed) = queue.withLock { $0.finished(result.outcome) }
                progress?(done, total, diverged, failed)
            }
        }
        let finished = queue.withLock { $0 }
        if let error = finished.error { throw error }
        summary.ran = finished.done
        summary.ok = finished.counts[.ok, default: 0]
        summary.diverged = finished.counts[.diverged, default: 0]
        summary.failed = finished.counts[.failed, default: 0]
        let elapsed = ContinuousClock.now - start
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return summary
    }
}

/// The queue of runs and the tallies, which the workers share (in a ``Locked``).
private struct RunQueue {
    let todo: [Int]
    var position = 0
    var done = 0
    var counts: [RunResult.Outcome: Int] = [:]
    var error: SweepError?

    /// The next run to do, or nil when none is left (or a worker failed).
    mutating func next() -> Int? {
        guard error == nil, position < todo.count else { return nil }
        position += 1
        return todo[position - 1]
    }

    /// Counts a finished run; the runs done, and the diverged and failed among them.
    mutating func finished(_ outcome: RunResult.Outcome) -> (done: Int, diverged: Int, failed: Int) {
        done += 1
        counts[outcome, default: 0] += 1
        return (done, counts[.diverged, default: 0], counts[.failed, default: 0])
    }

    /// Keeps the first worker's error: the others stop at their next run.
    mutating func fail(_ error: SweepError) {
        if self.error == nil { self.error = error }
    }
}
