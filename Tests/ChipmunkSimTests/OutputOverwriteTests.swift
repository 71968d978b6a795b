import ChipmunkTestSupport
import Foundation
import Testing

/// Outputs that would replace what a command reads, or each other, are refused before
/// anything runs (a helper's attack: `record a.json -o a.json` made the scene a recording,
/// `run -o X --events X` left X empty, both with exit status 0); a summary never follows
/// data on standard output; a printf width that cannot make a file name is refused at once.
@Suite struct OutputOverwriteTests {
    @Test func anOutputThatIsAnInputIsRefused() throws {
        let folder = try TemporaryFolder("overwrite")
        defer { folder.remove() }
        let scene = folder.path("drop.json")
        try FileManager.default.copyItem(atPath: "Scenes/drop.json", toPath: scene)
        let original = try Data(contentsOf: URL(fileURLWithPath: scene))
        let sameFile = folder.url.path + "/./drop.json"
        let cases: [([String], String)] = [
            (["run", scene, "--steps", "3", "-o", sameFile], "--output \(sameFile) is the scene file being read"),
            (["record", scene, "--steps", "3", "-o", sameFile], "-o \(sameFile) is the scene file being read"),
            (["snapshot", scene, "--at", "2", "-o", sameFile], "-o \(sameFile) is the scene file being read"),
            (
                ["verify", scene, "--update", "--steps", "3", "--golden", sameFile],
                "--golden \(sameFile) is the scene file being read"
            ),
            (["render", scene, "--step", "3", "-o", sameFile], "-o \(sameFile) is the scene file being read"),
            (["diff", "crates", scene, "-o", sameFile], "--output \(sameFile) is run B's file"),
            (
                ["run", scene, "--steps", "3", "-o", folder.path("same.csv"), "--events", folder.path("same.csv")],
                "--events \(folder.path("same.csv")) is the --output file too"
            ),
        ]
        for (arguments, message) in cases {
            let result = try Tool.run("chipmunk-sim", arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "chipmunk-sim: \(message); choose another file\n", "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scene)) == original)
        #expect(!FileManager.default.fileExists(atPath: folder.path("same.csv")))
    }

    /// `results DB -o DB` replaced the database with its CSV, with exit status 0 (a
    /// newcomer's pass); `merge` and `sweep --db` onto a file they read are refused alike.
    @Test func aDatabaseIsNeverWrittenOverByWhatReadsIt() throws {
        let folder = try TemporaryFolder("overwrite-db")
        defer { folder.remove() }
        let db = folder.path("crates.sqlite")
        let sweep = try Tool.sim("sweep", "crates", "--param", "friction=0,1", "--steps", "5", "--db", db)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: db))
        let sameFile = folder.url.path + "/./crates.sqlite"
        let scene = folder.path("drop.json")
        try FileManager.default.copyItem(atPath: "Scenes/drop.json", toPath: scene)
        let cases: [([String], String)] = [
            (["results", db, "-o", sameFile], "-o \(sameFile) is the database being read"),
            (["results", db, "-o", db + "-wal"], "-o \(db)-wal is the database's write-ahead log"),
            (["merge", sameFile, db], "the output database \(sameFile) is a shard being merged"),
            (
                ["sweep", scene, "--param", "speed=1,2", "--db", scene],
                "--db \(scene) is the scene file being read"
            ),
        ]
        for (arguments, message) in cases {
            let result = try Tool.run("chipmunk-sim", arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "chipmunk-sim: \(message); choose another file\n", "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == original)
        #expect(try Tool.sim("results", db).stdout.split(separator: "\n").count == 3)
    }

    @Test func theSummaryOfDataWrittenToStandardOutputGoesToStandardError() throws {
        let result = try Tool.sim("record", "crates", "--steps", "2", "-o", "-")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((json?["hashes"] as? [String])?.count == 2)
        #expect(result.stderr == "wrote -: 2 steps, 0 inputs\n")
    }

    @Test func aFrameNumberTooWideForAFileNameIsRefused() throws {
        let result = try Tool.sim("render", "crates", "--step", "3", "--every", "1", "-o", "f%99999999d.svg")
        #expect(result.status == 64)
        #expect(result.stderr.contains("-o's number may be at most 20 digits wide, such as %04d (got %99999999d)"))
        let folder = try TemporaryFolder("wide-frames")
        defer { folder.remove() }
        let pattern = folder.path("f%020d.svg")
        let fine = try Tool.sim("render", "crates", "--step", "2", "--every", "1", "-o", pattern)
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("f00000000000000000002.svg")))
    }

    @Test func aGoldenFileInAFolderThatDoesNotExistIsRefused() throws {
        let folder = try TemporaryFolder("golden-folder")
        defer { folder.remove() }
        let path = folder.path("no/such/folder/g.golden")
        let result = try Tool.sim("verify", "crates", "--update", "--steps", "3", "--golden", path)
        #expect(result.status == 65)
        #expect(
            result.stderr.contains("cannot write the golden file \(path): no folder \(folder.path("no/such/folder"))"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("no")))
    }
}
