import Chipmunk
#if canImport(Glibc)
    import Glibc
#endif

/// What a benchmark run does besides stepping.
public enum BenchMode: String, CaseIterable, Sendable {
    /// Step only.
    case plain
    /// After every step, read the position and angle of every dynamic body.
    case reads
    /// A default collision handler whose `begin` and `preSolve` count calls and accept.
    case callbacks
    /// Every 8 steps, 100 extra bodies are added, or the ones added 8 steps before removed.
    case churn
}

/// One timed run of a benchmark world.
public struct BenchResult: Sendable {
    /// Wall time of the timed steps, in seconds.
    public var seconds: Double
    /// Steps taken.
    public var steps: Int
    /// Dynamic bodies in the world at the start.
    public var bodies: Int
    /// FNV-1a 64 of the final state (see ``BenchRunner/stateHash(of:)``).
    public var hash: UInt64
    /// Calls to the collision closures (`callbacks` mode).
    public var callbacks: Int
    /// The sum of everything read (`reads` mode), so the reads cannot be optimised away.
    public var readSum: Double
    /// Wall time spent in the reads alone (`reads` mode), in seconds: timed around each
    /// step's read loop, so that the cost per read is not a difference of two noisy totals.
    public var readSeconds: Double

    /// Milliseconds per step.
    public var millisecondsPerStep: Double { seconds * 1000 / Double(steps) }
}

/// Builds benchmark worlds and times them; `chipmunk-bench` is its command line, and the
/// package-benchmark suites in `Benchmarks/ChipmunkBenchmarks` build their worlds here too.
public enum BenchRunner {
    /// Builds `scene` and times `steps` steps in `mode`. `threads` 2 uses the engine's
    /// threaded solver (not deterministic); 1 the plain one.
    public static func run(_ scene: BenchScene, mode: BenchMode, steps: Int, threads: Int = 1) throws -> BenchResult {
        try PreparedWorld(scene, mode: mode, threads: threads).run(steps: steps)
    }

    /// A world built and ready to time, so that parallel runs can build first and then
    /// start stepping together.
    public final class PreparedWorld {
        let scene: BenchScene
        let mode: BenchMode
        let space: Space
        let bodies: Int
        // The count lives in a class, not a captured `var`: Swift checks exclusive access
        // to a captured var that an escaping closure mutates on every call, which would
        // add Swift's own cost, not the binding's, to the per-callback figure (the C twin
        // increments a static).
        let calls = CallCounter()
        /// What the loop carries from one call of ``run(steps:)`` to the next.
        var state = LoopState()

        /// Builds the world (not timed).
        public init(_ scene: BenchScene, mode: BenchMode, threads: Int = 1) throws {
            self.scene = scene
            self.mode = mode
            space = threads > 1 ? Space(threads: threads) : Space()
            bodies = try scene.build(in: space).count
            if mode == .callbacks {
                let handler = space.defaultCollisionHandler
                let calls = self.calls
                handler.begin = { _ in
                    calls.value += 1
                    return true
                }
                handler.preSolve = { _ in
                    calls.value += 1
                    return true
                }
            }
        }

        /// Times `steps` more steps; the result covers every step taken so far.
        public func run(steps: Int) throws -> BenchResult {
            let start = monotonicSeconds()
            try benchmarkLoop(space: space, scene: scene, mode: mode, steps: steps, state: &state)
            let seconds = monotonicSeconds() - start
            return BenchResult(
                seconds: seconds, steps: steps, bodies: bodies, hash: stateHash(of: space),
                callbacks: calls.value, readSum: state.sum, readSeconds: state.readSeconds)
        }

        /// Takes `steps` more steps and returns only the seconds they took: for stepping
        /// by turns with the C twin, where the hash is wanted once, at the end.
        public func runChunk(steps: Int) throws -> Double {
            let start = monotonicSeconds()
            try benchmarkLoop(space: space, scene: scene, mode: mode, steps: steps, state: &state)
            return monotonicSeconds() - start
        }

        /// The state hash now (see ``BenchRunner/stateHash(of:)``).
        public var hash: UInt64 { stateHash(of: space) }
        /// A snapshot of the world now (plain mode: the loop carries nothing else).
        public func snapshot() -> Snapshot { space.snapshot() }
        /// Sets the world, built by the same code, to `snapshot`'s state.
        ///
        /// - Throws: `SnapshotError` when the snapshot is not of this world.
        public func restore(_ snapshot: Snapshot) throws(SnapshotError) {
            try space.restore(snapshot)
            state.step = snapshot.stepsTaken
        }
        /// Steps the world has taken.
        public var stepsTaken: Int { space.stepsTaken }
        /// Dynamic bodies at the start.
        public var bodyCount: Int { bodies }
    }

    /// What the timed loop carries between calls: the step count (churn adds and removes
    /// on multiples of 8), churn's extra bodies, and the reads' sum and time.
    struct LoopState {
        var step = 0
        var extras: [(Body, Shape)] = []
        var sum = 0.0
        var readSeconds = 0.0
    }

    /// The timed loop, kept out of line so that callgrind can count it alone
    /// (`--toggle-collect=*benchmarkLoop*`); `benchmark_loop` is its C twin.
    @inline(never)
    static func benchmarkLoop(space: Space, scene: BenchScene, mode: BenchMode, steps: Int, state: inout LoopState)
        throws
    {
        let dt = scene.timeStep
        switch mode {
        case .plain, .callbacks:
            for _ in 0..<steps { try space.step(dt) }
        case .reads:
            let bodies = space.bodies
            var sum = 0.0
            for _ in 0..<steps {
                try space.step(dt)
                let readStart = monotonicSeconds()
                for body in bodies {
                    let p = body.position
                    sum += p.x + p.y + body.angle
                }
                state.readSeconds += monotonicSeconds() - readStart
            }
            state.sum += sum
        case .churn:
            for _ in 0..<steps {
                state.step += 1
                if state.step % 8 == 0 {
                    if state.extras.isEmpty {
                        for j in 0..<100 {
                            let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 0.15))
                            body.position = [-20 + 0.4 * Double(j), scene.churnHeight]
                            space.add(body)
                            let shape = Circle(body: body, radius: 0.15, friction: 0.6)
                            space.add(shape)
                            state.extras.append((body, shape))
                        }
                    } else {
                        for (body, shape) in state.extras {
                            space.remove(shape)
                            space.remove(body)
                        }
                        state.extras.removeAll(keepingCapacity: true)
                    }
                }
                try space.step(dt)
            }
            return
        }
        state.step += steps
    }

    /// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over the
    /// little-endian bytes of x, y and angle of every dynamic body, in creation order.
    public static func stateHash(of space: Space) -> UInt64 {
        var hasher = FNV1a()
        for body in space.bodies where body.kind == .dynamic {
            hasher.mix(body.position)
            hasher.mix(body.angle)
        }
        return hasher.value
    }

    /// A monotonic clock, in seconds.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A call count that closures can bump without exclusivity checks (one thread only).
final class CallCounter {
    @exclusivity(unchecked) var value = 0
}
