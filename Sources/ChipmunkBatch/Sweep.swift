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
        let state = SharedState(todo: todo)
        let total = todo.count
        // Each worker takes the next run until none is left; concurrentPerform returns when
        // all have, and runs at most as many at once as there are cores.
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(todo.count, 1))) { _ in
            while let index = state.next() {
                let result = RunResult.run(plan, index: index)
                do throws(SweepError) {
                    try store.insert(result)
                } catch {
                    state.fail(error)
                    return
                }
                let (done, diverged, failed) = state.finished(result)
                progress?(done, total, diverged, failed)
            }
        }
        if let error = state.error { throw error }
        summary.ran = state.done
        summary.ok = state.counts[.ok, default: 0]
        summary.diverged = state.counts[.diverged, default: 0]
        summary.failed = state.counts[.failed, default: 0]
        let elapsed = ContinuousClock.now - start
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return summary
    }
}

/// The queue of runs and the tallies, shared by the workers under one lock.
private final class SharedState: @unchecked Sendable {
    private let lock = NSLock()
    private var todo: [Int]
    private var position = 0
    private(set) var done = 0
    private(set) var counts: [RunResult.Outcome: Int] = [:]
    private(set) var error: SweepError?

    init(todo: [Int]) { self.todo = todo }

    /// The next run to do, or nil when none is left (or a worker failed).
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard error == nil, position < todo.count else { return nil }
        position += 1
        return todo[position - 1]
    }

    func finished(_ result: RunResult) -> (done: Int, diverged: Int, failed: Int) {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        counts[result.outcome, default: 0] += 1
        return (done, counts[.diverged, default: 0], counts[.failed, default: 0])
    }

    func fail(_ error: SweepError) {
        lock.lock()
        if self.error == nil { self.error = error }
        lock.unlock()
    }
}
