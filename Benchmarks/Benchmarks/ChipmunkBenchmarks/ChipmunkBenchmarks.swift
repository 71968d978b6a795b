import Benchmark
import Chipmunk
import ChipmunkBench
import ChipmunkBenchWorlds
import ChipmunkDynamics
import ChipmunkCatalog
import ChipmunkScenes

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
nonisolated(unsafe) private var savedState = SpaceState()

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

/// A built-in scene the samples step (the UIKit Dynamics ones step their animator).
nonisolated(unsafe) private var scene: Scene?
nonisolated(unsafe) private var animator: DynamicAnimator?

/// `count` items (20 × 20 points, in rows) in a 640 × 640 point box, y down: gravity,
/// collisions with each other and the bounds, a radial gravity field at the centre and a
/// noise field over all of them. Every behaviour's per-item work runs every step.
private func fieldsAnimator(items count: Int) -> DynamicAnimator {
    let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 640, height: 640))
    let items = (0..<count).map { index in
        ItemView(
            name: "\(index)", center: Vector(x: 20 + Double(index % 30) * 20, y: 20 + Double(index / 30) * 20),
            size: Size(width: 20, height: 20))
    }
    let collision = CollisionBehavior(items: items)
    collision.translatesReferenceBoundsIntoBoundary = true
    let radial = FieldBehavior.radialGravityField(position: Vector(x: 320, y: 320))
    radial.strength = 0.5
    let noise = FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1)
    noise.strength = 0.2
    for behavior in [GravityBehavior(items: items), collision, radial, noise] { animator.addBehavior(behavior) }
    for item in items {
        radial.addItem(item)
        noise.addItem(item)
    }
    return animator
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal, .wallClock],
        warmupIterations: 100,
        maxDuration: .seconds(2),
        maxIterations: 1000
    )

    // Issue 27: a SpaceState saved into again and restored, once warm: no allocation.
    // The world has stepped 300 times, so it holds contacts, pairs and sleeping bodies.
    for scene in [BenchScene.pyramid20, .circles1000] {
        Benchmark(
            "save \(scene.rawValue)",
            closure: { _ in
                guard let (space, _, _) = world else { return }
                space.save(into: &savedState)
            },
            setup: {
                try build(scene)
                for _ in 0..<300 { try world!.space.step(scene.timeStep) }
            },
            teardown: { world = nil })
        Benchmark(
            "restore \(scene.rawValue)",
            closure: { _ in
                guard let (space, _, _) = world else { return }
                try space.restore(savedState)
            },
            setup: {
                try build(scene)
                for _ in 0..<300 { try world!.space.step(scene.timeStep) }
                world!.space.save(into: &savedState)
            },
            teardown: { world = nil })
    }

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

    // The UIKit Dynamics layer: what a step of its behaviours allocates.
    for name in ["ui-heavy", "ui-drag", "ui-snake", "ui-snap", "ui-push"] {
        Benchmark(
            "step scene \(name)",
            closure: { _ in try scene?.step(scene!.timeStep) },
            setup: { scene = try SceneCatalog.scene(named: name) },
            teardown: { scene = nil })
    }
    for count in [100, 400] {
        Benchmark(
            "step animator fields\(count)",
            closure: { _ in
                try animator?.step(by: animator!.timeStep)
            },
            setup: { animator = fieldsAnimator(items: count) },
            teardown: { animator = nil })
    }
}
