import Benchmark
import Chipmunk
import ChipmunkBench
import ChipmunkBenchWorlds

// Allocation counts and wall time, per step, per round of body reads and per step with
// collision callbacks, measured by package-benchmark (its malloc interposer counts every
// `malloc` in the process, the engine's included). One sample is one step, or one read of
// every body, on a world that persists across samples; the warm-up steps let the engine's
// pools of arbiters and contacts grow first, as they do in any long run.
//
//     cd Benchmarks && swift package benchmark
//
// scripts/bench.sh runs these and copies the table into BENCHMARKS.md.

/// The world the samples step; built in a benchmark's setup, dropped in its teardown.
/// Samples run one at a time on one thread.
nonisolated(unsafe) private var world: (space: Space, bodies: [Body], scene: BenchScene)?
nonisolated(unsafe) private var calls = 0
nonisolated(unsafe) private var cWorld: OpaquePointer?

private func build(_ scene: BenchScene, callbacks: Bool = false) throws {
    let space = Space()
    let bodies = try scene.build(in: space)
    if callbacks {
        space.onCollision(
            begin: { _ in
                calls += 1
                return true
            },
            preSolve: { _ in
                calls += 1
                return true
            })
    }
    world = (space, bodies, scene)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal, .wallClock],
        warmupIterations: 100,
        maxDuration: .seconds(2),
        maxIterations: 1000
    )

    for scene in [BenchScene.pyramid20, .circles1000, .jointgrid50] {
        Benchmark(
            "step \(scene.rawValue)",
            closure: { _ in
                guard let (space, _, scene) = world else { return }
                try space.step(scene.timeStep)
            },
            setup: { try build(scene) },
            teardown: { world = nil })
        // The same world in raw C, for what the engine itself allocates.
        Benchmark(
            "step \(scene.rawValue) (raw C)",
            closure: { _ in _ = bench_world_run(cWorld, 1) },
            setup: {
                _ = Space()  // silences Debian's banner before the C world's first space
                cWorld = bench_world_new(scene.rawValue, "plain")
            },
            teardown: {
                bench_world_free(cWorld)
                cWorld = nil
            })
    }

    Benchmark(
        "read every body pyramid20",
        closure: { _ in
            guard let (_, bodies, _) = world else { return }
            var sum = 0.0
            for body in bodies {
                let p = body.position
                sum += p.x + p.y + body.angle
            }
            blackHole(sum)
        },
        setup: {
            try build(.pyramid20)
            for _ in 0..<100 { try world!.space.step(BenchScene.pyramid20.timeStep) }
        },
        teardown: { world = nil })

    Benchmark(
        "step with callbacks pyramid20",
        closure: { _ in
            guard let (space, _, scene) = world else { return }
            try space.step(scene.timeStep)
        },
        setup: { try build(.pyramid20, callbacks: true) },
        teardown: {
            world = nil
            blackHole(calls)
        })
}
