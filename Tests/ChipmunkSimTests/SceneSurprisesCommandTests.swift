import Foundation
import Testing
import ChipmunkTestSupport

/// The command line without surprises (issue 20), run as a user runs it.
@Suite struct SceneSurprisesCommandTests {
    @Test("render -o x.png writes PNG, -o x.txt text; --format that disagrees with -o is an error naming both")
    func renderTakesTheFormatFromTheExtension() throws {
        let folder = try TemporaryFolder("chipmunk-render-format")
        defer { folder.remove() }
        let png = try Tool.sim("render", "crates", "--step", "10", "-o", folder.path("x.png"))
        #expect(png.status == 0, "\(png.stderr)")
        let bytes = try Data(contentsOf: folder.url.appendingPathComponent("x.png"))
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "a PNG signature")
        #expect(try Tool.sim("render", "crates", "-o", folder.path("x.txt")).status == 0)
        let text = try String(contentsOf: folder.url.appendingPathComponent("x.txt"), encoding: .utf8)
        #expect(text.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "braille")
        #expect(try Tool.sim("render", "crates", "--format", "svg", "-o", folder.path("y.svg")).status == 0)
        let mismatch = try Tool.sim("render", "crates", "--format", "svg", "-o", folder.path("x2.png"))
        #expect(mismatch.status != 0)
        #expect(
            mismatch.stderr.contains("--format svg does not match -o \(folder.path("x2.png"))"), "\(mismatch.stderr)")
        #expect(mismatch.stderr.contains("extension says png"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("x2.png")))
        // An extension that names no format leaves the choice to --format (SVG by default).
        #expect(try Tool.sim("render", "crates", "--format", "png", "-o", folder.path("x.picture")).status == 0)
    }

    @Test("run --events names a sensor by its id, not 'static', and says which bodies")
    func eventsNameTheSensor() throws {
        let folder = try TemporaryFolder("chipmunk-events")
        defer { folder.remove() }
        let result = try Tool.sim(
            "run", "Scenes/sensor.json", "--seconds", "2", "-o", "/dev/null", "--events", folder.path("e"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: folder.url.appendingPathComponent("e"), encoding: .utf8).split(
            separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.first?.hasSuffix(#""event":"begin","a":"sensor","b":"ball","bodyA":"static","bodyB":"ball"}"#)
                == true, "\(lines)")
    }

    @Test("sweep --track follows a body a timed input adds, from the step it joins")
    func trackABodyAddedByAnInput() throws {
        let folder = try TemporaryFolder("chipmunk-track-added")
        defer { folder.remove() }
        try #"""
        {"version": 2, "name": "late", "parameters": {"drop": 100}, "gravity": [0, -100],
         "bodies": [{"id": "ball", "mass": 1, "moment": 1}],
         "inputs": [{"time": 0.5, "add": {"id": "boxA", "mass": 1, "moment": 1, "position": [0, {"$param": "drop"}]}}]}
        """#.write(to: folder.url.appendingPathComponent("late.json"), atomically: true, encoding: .utf8)
        let db = folder.path("late.sqlite")
        let sweep = try Tool.sim(
            "sweep", folder.path("late.json"), "--param", "drop=100,200", "--seconds", "1", "--track", "boxA.y",
            "--body", "boxA", "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let rows = try Tool.sim("results", db, "--format", "jsonl").stdout.split(separator: "\n")
        #expect(rows.count == 2)
        for row in rows {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])
            let track = try #require(object["quantities"] as? [String: [String: Double]])
            let y = try #require(track["boxA.y"])
            // Dropped from 100 or 200 at 0.5 s, it falls for the remaining 0.5 s under 100.
            #expect(y["max"]! < 200.01 && y["min"]! < y["max"]! && y["final"] == y["min"])
            let bodies = try #require(object["bodies"] as? [String: [String: Double]])
            #expect(bodies["boxA"]?["x"] == 0)
        }
        let unknown = try Tool.sim(
            "sweep", folder.path("late.json"), "--param", "drop=1", "--track", "boxB.y", "--db", folder.path("u.sqlite")
        )
        #expect(unknown.stderr.contains("has no body named 'boxB' (names: ball, boxA)"), "\(unknown.stderr)")
    }

    @Test("a constraint the engine cannot solve names the scene file it came from")
    func anUnsolvableConstraintNamesTheFile() throws {
        let folder = try TemporaryFolder("unsolvable")
        defer { folder.remove() }
        var scene = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "Scenes/joints.json")))
                as? [String: Any])
        var constraints = try #require(scene["constraints"] as? [[String: Any]])
        let index = try #require(constraints.firstIndex { $0["pivot"] != nil })
        constraints[index]["pivot"] = [1e15, 0]
        scene["constraints"] = constraints
        let file = folder.path("far.json")
        try JSONSerialization.data(withJSONObject: scene).write(to: URL(fileURLWithPath: file))
        let result = try Tool.sim("run", file, "--steps", "3")
        #expect(result.status == 65)
        #expect(
            result.stderr.hasPrefix("chipmunk-sim: step 1: constraint \(index) cannot be solved: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" (a constraint of far.json)\n"), "\(result.stderr)")
    }
}

@Suite struct DropSceneTests {
    @Test("Scenes/drop.json says what its ball does: thrown up, it rises before it falls and bounces")
    func dropSaysUp() throws {
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent("Scenes/drop.json"), encoding: .utf8)
        #expect(text.contains("thrown up") && !text.contains("thrown down"))
        let run = try Tool.sim("run", "Scenes/drop.json", "--steps", "1")
        let row = try #require(rows(run.stdout).dropFirst().first)
        #expect(Double(row[6])! > 0, "vy after the first step: \(row)")  // step,body,x,y,angle,vx,vy,w
    }

    @Test("docs/sweeps.md shows drop.json's real hashes: its results line is what the command prints")
    func sweepDocsShowRealHashes() throws {
        let folder = try TemporaryFolder("chipmunk-drop-docs")
        defer { folder.remove() }
        let db = folder.path("drop.sqlite")
        let sweep = try Tool.sim(
            "sweep", "Scenes/drop.json", "--param", "speed=log:1:1e20:21", "--param", "elasticity=0.2,0.5,0.8",
            "--seconds", "5", "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let line = try #require(
            try Tool.sim("results", db, "--format", "csv").stdout.split(separator: "\n").dropFirst().first)
        let docs = try String(contentsOf: Tool.packageRoot.appendingPathComponent("docs/sweeps.md"), encoding: .utf8)
        // Everything but the last column, the wall time.
        let stable = line[..<line.lastIndex(of: ",")!]
        #expect(docs.contains(stable), "docs/sweeps.md lacks \(stable)")
    }
}

@Suite struct SweepBuiltInSceneTests {
    @Test("sweep takes a built-in name as run does; with the defaults, a run's final hash is run's")
    func sweepABuiltInName() throws {
        let folder = try TemporaryFolder("chipmunk-sweep-builtin")
        defer { folder.remove() }
        let db = folder.path("crates.sqlite")
        let sweep = try Tool.sim(
            "sweep", "crates", "--param", "friction=0.5,0", "--param", "gravity=-1000", "--steps", "120", "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let rows = try Tool.sim("results", db, "--format", "jsonl").stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 2 && rows.allSatisfy { $0["scene"] as? String == "crates.json" })
        let run = try Tool.sim("run", "crates", "--steps", "120", "--hash")
        let last = try #require(run.stdout.split(separator: "\n").last?.split(separator: ",").last.map(String.init))
        let hashes = Dictionary(
            uniqueKeysWithValues: rows.map {
                (($0["parameters"] as? [String: Double])?["friction"] ?? -1, $0["final_hash"] as? String)
            })
        #expect(hashes[0.5] == last, "the defaults give the built-in scene's bits")
        #expect(hashes[0] != last)

        let planet = try Tool.sim("sweep", "planet", "--param", "gravity=1", "--db", folder.path("p.sqlite"))
        #expect(planet.stderr.contains("planet is a built-in scene that needs code"), "\(planet.stderr)")
        #expect(planet.status == 64, "the command line named it")
        // Named in a sweep file, the file is at fault: bad data (65), and the message says where.
        let file = folder.path("planet-sweep.json")
        try Data(#"{"scene": "planet", "steps": 10, "grid": {"gravity": [1]}}"#.utf8).write(
            to: URL(fileURLWithPath: file))
        let fromFile = try Tool.sim("sweep", "--sweep", file, "--db", folder.path("q.sqlite"))
        #expect(fromFile.status == 65, "\(fromFile.stderr)")
        #expect(
            fromFile.stderr.contains("planet-sweep.json: scene: planet is a built-in scene that needs code"),
            "\(fromFile.stderr)")
    }
}
