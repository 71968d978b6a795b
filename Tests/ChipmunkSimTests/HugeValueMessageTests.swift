import ChipmunkTestSupport
import Foundation
import Testing

/// A key or value of a megabyte in a file is quoted in the error by its start and its size,
/// not whole: a helper's attack found messages of 1 to 2 MB (an unknown key is named twice,
/// in its path and in the reason) from scene files, golden files, recordings and sweep files.
@Suite struct HugeValueMessageTests {
    static let huge = String(repeating: "Q", count: 1_000_000)
    static let shown = String(repeating: "Q", count: 60) + "… (1000000 bytes)"

    @Test func eachFileQuotesAHugeValueByItsStartAndSize() throws {
        let folder = try TemporaryFolder("huge-values")
        defer { folder.remove() }
        func write(_ name: String, _ text: String) throws -> String {
            try text.write(toFile: folder.path(name), atomically: true, encoding: .utf8)
            return folder.path(name)
        }
        func json(_ object: [String: Any]) -> String {
            String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        let drop =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Tool.packageRoot.appendingPathComponent("Scenes/drop.json"))) as! [String: Any]
        var unknownKey = drop
        unknownKey[Self.huge] = 1
        var declared = drop
        declared["parameters"] = ["speed": 100, "elasticity": 0.5, Self.huge: 1]
        let golden = try String(
            contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Golden/crate.golden"), encoding: .utf8)
        #expect(try Tool.sim("record", "crate", "--steps", "3", "-o", folder.path("r.inputs.json")).status == 0)
        var recording =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appending(path: "r.inputs.json")))
            as! [String: Any]
        recording["scene"] = Self.huge
        let cases: [[String]] = [
            ["run", try write("key.json", json(unknownKey))],
            ["run", try write("declared.json", json(declared)), "--steps", "1"],
            [
                "verify", "crate", "--golden",
                try write(
                    "scene.golden",
                    golden.split(separator: "\n", omittingEmptySubsequences: false)
                        .map { $0.hasPrefix("scene ") ? "scene \(Self.huge)" : String($0) }.joined(separator: "\n")),
            ],
            [
                "diff",
                try write("line.golden", golden.replacingOccurrences(of: "every ", with: "\(Self.huge)\nevery ")),
                "crate",
            ],
            ["replay", try write("scene.inputs.json", json(recording))],
            [
                "sweep", "--sweep", try write("key.sweep.json", json(["scene": "drop", Self.huge: 1])), "--db",
                folder.path("a.db"),
            ],
            [
                "sweep", "--sweep",
                try write(
                    "grid.sweep.json",
                    json([
                        "scene": Tool.packageRoot.appendingPathComponent("Scenes/drop.json").path, "seconds": 1,
                        "grid": [Self.huge: [1, 2]],
                    ])),
                "--db",
                folder.path("b.db"),
            ],
        ]
        for arguments in cases {
            let result = try Tool.run("chipmunk-sim", arguments)
            #expect(result.stderr.utf8.count < 1000, "\(arguments[0]): \(result.stderr.utf8.count) bytes")
            #expect(result.stderr.contains(Self.shown), "\(arguments[0]) \(arguments[1].suffix(20))")
        }
    }
}
