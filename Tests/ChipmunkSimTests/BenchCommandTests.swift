import Foundation
import Testing

/// `chipmunk-sim bench` against its raw-C twin `chipmunk-bench-c`: the same world and
/// steps must give the same FNV-1a state hash.
@Suite struct BenchCommandTests {
    private func json(_ result: Tool.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last)
        return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test(arguments: [
        ("pyramid20", "plain", 60), ("pyramid40", "plain", 30), ("pyramid100", "plain", 5),
        ("circles1000", "plain", 40),
        ("jointgrid50", "plain", 20), ("pyramid20", "reads", 40), ("pyramid20", "callbacks", 40),
        ("pyramid40", "churn", 40),
        ("circles1000", "churn", 40),
    ])
    func hashesMatchTheRawCEngine(scene: String, mode: String, steps: Int) throws {
        let swift = try json(Tool.sim("bench", scene, "--mode", mode, "--steps", "\(steps)", "--repeat", "1"))
        let c = try json(Tool.run("chipmunk-bench-c", [scene, "--mode", mode, "--steps", "\(steps)", "--repeat", "1"]))
        #expect(swift["hash"] as? String == c["hash"] as? String)
        #expect(swift["bodies"] as? Int == c["bodies"] as? Int)
        #expect((swift["hash"] as? String)?.count == 16)
        // C prints %.17g and Swift the shortest form; JSONSerialization on Linux parses
        // about half of all doubles one ulp off, so these compare within a few ulps.
        func close(_ key: String) -> Bool {
            guard let a = swift[key] as? Double, let b = c[key] as? Double else { return false }
            return abs(a - b) <= 4 * max(abs(a), abs(b)).ulp
        }
        if mode == "callbacks" { #expect(close("callbacks_per_step"), "the same contacts, the same calls") }
        if mode == "reads" { #expect(close("read_sum"), "the same values read") }
    }

    /// A regression guard: this hash is also what the raw C engine and pymunk 7.3.1 give.
    @Test func pyramid20AfterAHundredStepsHasAKnownHash() throws {
        let line = try json(Tool.sim("bench", "pyramid20", "--steps", "100", "--repeat", "1"))
        #expect(line["hash"] as? String == "fd1c1228e186db94")
        #expect(line["bodies"] as? Int == 210 && line["steps"] as? Int == 100)
    }

    @Test func theLineHasTheDocumentedFields() throws {
        let line = try json(Tool.sim("bench", "pyramid20", "--steps", "20", "--repeat", "3"))
        for key in ["scene", "mode", "bodies", "steps", "ms_per_step", "hash", "threads", "parallel", "repeat"] {
            #expect(line[key] != nil, "\(key)")
        }
        #expect(
            line["scene"] as? String == "pyramid20" && line["mode"] as? String == "plain" && line["repeat"] as? Int == 3
        )
        #expect((line["ms_per_step"] as? Double ?? 0) > 0)
        let all = try Tool.sim("bench", "all", "--mode", "all", "--steps", "2", "--repeat", "1")
        #expect(all.stdout.split(separator: "\n").count == 5 * 4, "one line per world and mode")
    }

    @Test func parallelWorldsAreIdentical() throws {
        let line = try json(Tool.sim("bench", "pyramid20", "--steps", "50", "--parallel", "2", "--repeat", "1"))
        #expect(line["parallel"] as? Int == 2)
        #expect(line["hashes_differ"] == nil, "every world ends in the same state")
        let single = try json(Tool.sim("bench", "pyramid20", "--steps", "50", "--repeat", "1"))
        #expect(line["hash"] as? String == single["hash"] as? String)
    }

    /// --against-c steps the C twin by turns in the same process: same hash, both timed.
    @Test(arguments: ["plain", "reads", "callbacks", "churn"])
    func againstCStepsBothByTurns(mode: String) throws {
        let output = try Tool.sim("bench", "pyramid20", "--mode", mode, "--steps", "45", "--against-c", "--repeat", "1")
        // The C world is built first; the engine's banner must still stay off stdout.
        #expect(output.stdout.split(separator: "\n").count == 1 && !output.stdout.contains("Initializing"))
        let line = try json(output)
        #expect(line["hash"] as? String == line["c_hash"] as? String)
        #expect((line["swift_c_ratio"] as? Double ?? 0) > 0 && (line["c_ms_per_step"] as? Double ?? 0) > 0)
        #expect(line["hashes_differ"] == nil)
        let alone = try json(Tool.sim("bench", "pyramid20", "--mode", mode, "--steps", "45", "--repeat", "1"))
        #expect(alone["hash"] as? String == line["hash"] as? String, "stepping in chunks changes nothing")
        let bad = try Tool.sim("bench", "pyramid20", "--against-c", "--parallel", "2")
        #expect(bad.status != 0 && bad.stderrLines.count == 1)
    }

    @Test func theThreadedSolverRuns() throws {
        let line = try json(Tool.sim("bench", "pyramid20", "--steps", "20", "--threads", "2", "--repeat", "1"))
        #expect(line["threads"] as? Int == 2)
    }

    @Test(arguments: [
        (
            ["bench", "pyramid30"],
            "chipmunk-sim: The value 'pyramid30' is invalid for '<scene>'. Please provide one of the following: pyramid20, pyramid40, pyramid100, circles1000, jointgrid50, all"
        ),
        (
            ["bench", "pyramid20", "--mode", "fast"],
            "chipmunk-sim: The value 'fast' is invalid for '--mode <mode>'. Please provide one of 'plain', 'reads', 'callbacks', 'churn' or 'all'."
        ),
        (
            ["bench", "pyramid20", "--threads", "3"],
            "chipmunk-sim: --threads must be 1 or 2 (got 3); the engine's threaded solver has at most 2"
        ),
        (["bench", "pyramid20", "--parallel", "0"], "chipmunk-sim: --parallel must be 1 to 64 (got 0)"),
        (["bench", "pyramid20", "--steps", "0"], "chipmunk-sim: --steps must be at least 1 (got 0)"),
        (["bench", "pyramid20", "--repeat", "0"], "chipmunk-sim: --repeat must be 1 to 1000 (got 0)"),
    ])
    func badArgumentsGiveOneLine(arguments: [String], expected: String) throws {
        let result = try Tool.run("chipmunk-sim", arguments)
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr == expected + "\n")
    }
}
