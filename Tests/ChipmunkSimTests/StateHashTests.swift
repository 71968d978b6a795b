import Foundation
import Testing

/// `Space.stateHash()` as a user meets it through `chipmunk-sim run --hash`: reproducible
/// from the raw C engine's own numbers with the documented definition, equal across
/// processes, and changed by a single bit of state.
@Suite struct StateHashTests {
    /// FNV-1a 64 over the little-endian bytes of x, y, angle, vx, vy, w of every body, in
    /// order: the definition in `Space.stateHash()`'s documentation, written again here.
    private func fnv1a(_ values: [Double]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in values {
            var bits = value.bitPattern
            for _ in 0..<8 {
                hash = (hash ^ (bits & 0xff)) &* 0x100_0000_01b3
                bits >>= 8
            }
        }
        return hash
    }

    @Test(arguments: ["crates", "crates-tilt"])
    func theRawCEnginesNumbersGiveTheSameHash(scene: String) throws {
        let swift = try Tool.sim("run", scene, "--steps", "1200", "--every", "400", "--hash")
        let c = try Tool.reference(scene, "1200")
        #expect(swift.status == 0 && c.status == 0)
        let swiftRows = swift.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(swiftRows.first == ["step", "body", "x", "y", "angle", "vx", "vy", "w", "hash"])
        let cRows = c.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        for step in ["400", "800", "1200"] {
            // The C reference's rows for this step: every body of the scene, in order.
            let values = cRows.filter { $0[0] == step }.flatMap { $0[2...7].map { Double($0)! } }
            let expected = String(fnv1a(values), radix: 16)
            let written = swiftRows.filter { $0[0] == step }.map { $0[8] }
            #expect(written.count == 5 && Set(written).count == 1, "one hash per step, on each of its rows")
            #expect(UInt64(written[0], radix: 16) == UInt64(expected, radix: 16), "step \(step)")
        }
    }

    @Test func equalAcrossProcessesAndChangedByOneBit() throws {
        let first = try Tool.sim("run", "crates", "--steps", "600", "--every", "600", "--hash", "--format", "jsonl")
        let second = try Tool.sim("run", "crates", "--steps", "600", "--every", "600", "--hash", "--format", "jsonl")
        #expect(first.status == 0 && first.stdout == second.stdout && first.stdout.contains("\"hash\":\""))
        // One ulp of one crate's starting height changes the hash.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ulp-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scene = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent("Scenes/crates.json"), encoding: .utf8)
        let nudged = scene.replacingOccurrences(
            of: "\"position\": [16, 284]", with: "\"position\": [16, 284.00000000000006]")
        #expect(nudged != scene, "the scene file has the first crate at [16, 284]")
        try nudged.write(toFile: path, atomically: true, encoding: .utf8)
        let third = try Tool.sim("run", path, "--steps", "600", "--every", "600", "--hash", "--format", "jsonl")
        #expect(third.status == 0 && third.stdout != first.stdout)
    }
}
