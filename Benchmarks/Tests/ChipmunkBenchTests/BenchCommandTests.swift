import Chipmunk
import ChipmunkBench
import ChipmunkBenchWorlds
import ChipmunkScenes
import Foundation
import Testing

/// The benchmark worlds against their raw-C twins: the same world and steps must give
/// the same FNV-1a state hash, in every mode.
@Suite struct BenchWorldTests {
    @Test(arguments: [
        (BenchScene.pyramid20, BenchMode.plain, 60), (.pyramid40, .plain, 30), (.pyramid100, .plain, 5),
        (.circles1000, .plain, 40), (.jointgrid50, .plain, 20), (.pyramid20, .reads, 40),
        (.pyramid20, .callbacks, 40), (.pyramid40, .churn, 40), (.circles1000, .churn, 40),
        (.growth(rows: 30), .plain, 30),
    ])
    func hashesMatchTheRawCEngine(scene: BenchScene, mode: BenchMode, steps: Int) throws {
        let swift = try BenchRunner.run(scene, mode: mode, steps: steps)
        let c = try #require(bench_world_new(scene.rawValue, mode.rawValue))
        defer { bench_world_free(c) }
        _ = bench_world_run(c, Int32(steps))
        #expect(swift.hash == bench_world_hash(c))
        #expect(swift.bodies == Int(bench_world_bodies(c)) || mode == .churn)
        if mode == .callbacks {
            #expect(swift.callbacks == bench_world_callbacks(c), "the same contacts, the same calls")
        }
        if mode == .reads { #expect(swift.readSum == bench_world_read_sum(c), "the same values read") }
    }

    /// A regression guard: this hash is also what the raw C engine and pymunk 7.3.1 give.
    @Test func pyramid20AfterAHundredStepsHasAKnownHash() throws {
        let result = try BenchRunner.run(.pyramid20, mode: .plain, steps: 100)
        #expect(result.hash == 0xfd1c_1228_e186_db94)
        #expect(result.bodies == 210 && result.steps == 100)
    }

    /// Issue 27: every benchmark world re-simulates exactly at depth 1 and 8, from a state
    /// its first steps reached (few frames here: the suite is a debug build).
    @Test(arguments: [
        (BenchScene.pyramid20, 60, 40), (.pyramid40, 20, 12), (.pyramid100, 2, 4), (.circles1000, 60, 24),
        (.jointgrid50, 2, 3),
    ])
    func everyWorldPassesTheSyncTest(world: BenchScene, warmUp: Int, frames: Int) throws {
        for depth in [1, 8] {
            let costs = try BenchRunner.synctestCosts(depth: depth, frames: frames, repeats: 1) {
                let space = Space()
                _ = try world.build(in: space)
                for _ in 0..<warmUp { try space.step(world.timeStep) }
                return Scene(name: world.rawValue, space: space, timeStep: world.timeStep)
            }
            #expect(costs.failure == nil, "\(world.rawValue) at depth \(depth): \(costs.failure ?? "")")
            // Frame f rolls back min(f, depth) frames: all of them simulated again.
            #expect(costs.resimulatedFrames == (1...frames).reduce(0) { $0 + min($1, depth) })
        }
    }

    @Test func theThreadedSolverRuns() throws {
        let result = try BenchRunner.run(.pyramid20, mode: .plain, steps: 20, threads: 2)
        #expect(result.steps == 20)
    }
}

/// `chipmunk-bench`, the command line, run as a user runs it.
@Suite struct BenchCommandTests {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a command built beside the test bundle; its outputs here are a few lines.
    func run(_ name: String, _ arguments: String...) throws -> Output { try run(name, arguments) }

    func run(_ name: String, _ arguments: [String]) throws -> Output {
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let process = Process()
        process.executableURL = folder.appendingPathComponent(name)
        process.arguments = arguments
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Level 3 for the benchmark worlds: a snapshot taken by one process in the middle of a
    /// default run, restored by another, continues with the bits of the uninterrupted run;
    /// and both equal the raw C engine's run, step by step (`--trace`). The largest worlds
    /// run fewer steps: pyramid100 (5,050 bodies) 400, jointgrid50 (2,500 bodies, 4,900
    /// joints; about 50 ms a step in a debug build) 300, and it diverges at step 921.
    @Test(arguments: [
        ("pyramid20", 1800, [1, 600, 1200]), ("pyramid40", 1800, [300, 1100]), ("circles1000", 1800, [450, 1300]),
        ("jointgrid50", 300, [120]), ("pyramid100", 400, [150]),
    ])
    func snapshotsContinueAsTheRawCEngine(world: String, steps: Int, saves: [Int]) throws {
        func hashes(_ output: Output) throws -> (first: Int, hashes: [String]) {
            let line = try json(output)
            return (try #require(line["first_step"] as? Int), try #require(line["step_hashes"] as? [String]))
        }
        let c = try hashes(run("chipmunk-bench-c", world, "--steps", "\(steps)", "--trace"))
        #expect(c.first == 1 && c.hashes.count == steps)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-snap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for at in saves {
            let file = folder.appendingPathComponent("\(world)-\(at).snapshot").path
            let swift = try hashes(
                run("chipmunk-bench", world, "--steps", "\(steps)", "--trace", "--save-at", "\(at)", "--save-to", file))
            #expect(swift.hashes == c.hashes, "\(world): the uninterrupted run equals the raw C engine's")
            let continued = try hashes(
                run("chipmunk-bench", world, "--steps", "\(steps)", "--trace", "--restore", file))
            #expect(continued.first == at + 1)
            if let k = zip(continued.hashes, c.hashes.dropFirst(at)).enumerated().first(where: {
                $0.element.0 != $0.element.1
            }) {
                Issue.record("\(world) restored after step \(at) first differs from raw C at step \(at + 1 + k.offset)")
            }
            #expect(continued.hashes.count == steps - at)
        }
    }

    func json(_ output: Output) throws -> [String: Any] {
        #expect(output.status == 0, "\(output.stderr)")
        let line = try #require(output.stdout.split(separator: "\n").last)
        return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func theLineHasTheDocumentedFields() throws {
        let line = try json(run("chipmunk-bench", "pyramid20", "--steps", "20", "--repeat", "3"))
        for key in ["scene", "mode", "bodies", "steps", "ms_per_step", "hash", "threads", "parallel", "repeat"] {
            #expect(line[key] != nil, "\(key)")
        }
        #expect((line["hash"] as? String)?.count == 16)
        let all = try run("chipmunk-bench", "all", "--mode", "all", "--steps", "2", "--repeat", "1")
        #expect(all.stdout.split(separator: "\n").count == 5 * 4, "one line per world and mode")
    }

    @Test func theSyncTestLinesHaveTheDocumentedFields() throws {
        let output = try run("chipmunk-bench", "pyramid20", "--synctest", "--depth", "1", "8", "--frames", "12")
        #expect(output.status == 0, "\(output.stderr)")
        let lines = try output.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(lines.map { $0["depth"] as? Int } == [1, 8], "one line per depth, in order")
        for line in lines {
            for key in ["scene", "kind", "frames", "resimulated_frames", "plain_ms", "synctest_ms", "ratio", "failure"]
            {
                #expect(line[key] != nil, "\(key)")
            }
            #expect(line["passed"] as? Bool == true && line["frames"] as? Int == 12)
        }
        #expect(lines.last?["resimulated_frames"] as? Int == (1...12).reduce(0) { $0 + min($1, 8) })
    }

    @Test func theCTwinPrintsTheSameHash() throws {
        let swift = try json(run("chipmunk-bench", "circles1000", "--steps", "30", "--repeat", "1"))
        let c = try json(run("chipmunk-bench-c", "circles1000", "--steps", "30", "--repeat", "1"))
        #expect(swift["hash"] as? String == c["hash"] as? String)
    }

    @Test func parallelWorldsAreIdentical() throws {
        let line = try json(run("chipmunk-bench", "pyramid20", "--steps", "50", "--parallel", "2", "--repeat", "1"))
        #expect(line["parallel"] as? Int == 2)
        #expect(line["hashes_differ"] == nil, "every world ends in the same state")
    }

    /// --against-c steps the C twin by turns in the same process: same hash, both timed.
    @Test(arguments: ["plain", "reads", "callbacks", "churn"])
    func againstCStepsBothByTurns(mode: String) throws {
        let output = try run(
            "chipmunk-bench", "pyramid20", "--mode", mode, "--steps", "45", "--against-c", "--repeat", "1")
        // The C world is built first; the engine's banner must still stay off stdout.
        #expect(output.stdout.split(separator: "\n").count == 1 && !output.stdout.contains("Initializing"))
        let line = try json(output)
        #expect(line["hash"] as? String == line["c_hash"] as? String)
        #expect((line["swift_c_ratio"] as? Double ?? 0) > 0 && (line["c_ms_per_step"] as? Double ?? 0) > 0)
        #expect(line["hashes_differ"] == nil)
    }

    @Test(arguments: [
        (["pyramid30"], "The value 'pyramid30' is invalid for '<scene>'"),
        (["pyramid20", "--mode", "fast"], "The value 'fast' is invalid for '--mode <mode>'"),
        (
            ["pyramid20", "--threads", "3"],
            "--threads must be 1 or 2 (got 3); the engine's threaded solver has at most 2"
        ),
        (["pyramid20", "--parallel", "0"], "--parallel must be 1 to 64 (got 0)"),
        (["pyramid20", "--steps", "0"], "--steps must be at least 1 (got 0)"),
        (["pyramid20", "--repeat", "0"], "--repeat must be 1 to 1000 (got 0)"),
        (["pyramid20", "--against-c", "--parallel", "2"], "--against-c compares one world on the plain solver"),
        (["pyramid20", "--synctest", "--depth", "0"], "--depth must be 1 to 600 (got 0)"),
        (["pyramid20", "--synctest", "--frames", "0"], "--frames must be 1 to 1000000 (got 0)"),
        (["pyramid20", "--depth", "8"], "--depth and --frames go with --synctest"),
        (["pyramid20", "--synctest", "--state"], "--synctest runs one world at a time on the plain solver"),
        (["pyramid20", "--built-in-scenes"], "--built-in-scenes goes with --state or --synctest"),
    ])
    func badArgumentsAreNamed(arguments: [String], expected: String) throws {
        let output = try run("chipmunk-bench", arguments)
        #expect(output.status != 0 && output.stdout.isEmpty)
        #expect(output.stderr.contains(expected), "\(output.stderr)")
    }
}
