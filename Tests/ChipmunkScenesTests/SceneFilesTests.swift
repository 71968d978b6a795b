import Chipmunk
import ChipmunkCatalog
@testable import ChipmunkScenes
import Foundation
import Testing

/// The built-in scenes' files, carried in the binary for `chipmunk-sim sweep crates`, and
/// the parameters they declare.
@Suite struct SceneFilesTests {
    @Test(
        "Each built-in scene's embedded file (the EmbedFiles plugin's, at build time) is Scenes/NAME.json byte for byte",
        arguments: SceneCatalog.builtIn.map(\.name))
    func embeddedIsTheFile(name: String) throws {
        let url = sceneFile("\(name).json")
        let embedded = SceneCatalog.sceneFile(named: name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            #expect(embedded == nil)
            return
        }
        #expect(embedded == (try Data(contentsOf: url)))
    }

    @Test("Only built-in names have an embedded scene file: drop.json is a file, not a built-in scene")
    func onlyBuiltInNames() {
        #expect(FileManager.default.fileExists(atPath: sceneFile("drop.json").path))
        #expect(SceneCatalog.sceneFile(named: "drop") == nil && SceneCatalog.sceneFile(named: "crates") != nil)
    }

    @Test(
        "The built-in scene files declare the parameters people sweep",
        arguments: [
            ("crate", ["elasticity", "friction", "gravity"]), ("crates", ["elasticity", "friction", "gravity"]),
            ("crates-tilt", ["elasticity", "friction", "gravity", "tilt"]), ("pyramid-stack", ["friction", "gravity"]),
            ("pyramid-topple", ["friction", "gravity"]), ("tumble", ["friction", "gravity"]), ("one-way", ["gravity"]),
            ("joints", ["gravity"]), ("theo-jansen", ["gravity"]), ("chains", ["gravity"]),
        ])
    func declaredParameters(name: String, parameters: [String]) throws {
        let data = try #require(SceneCatalog.sceneFile(named: name))
        let declared = try SceneParameters.declared(in: data, source: name)
        #expect(declared.keys.sorted() == parameters)
        // Each one reaches the scene: a changed value changes the content hash.
        let plain = try SceneDescription.decode(data, source: name).makeScene().contentHash()
        for (parameter, value) in declared {
            let changed = try SceneDescription.decode(data, source: name, parameters: [parameter: value + 0.25])
                .makeScene().contentHash()
            #expect(changed != plain, "\(name): \(parameter) changes nothing")
        }
    }

    @Test("crates-tilt's tilt sets both components of the tilted gravity ({\"$param\": \"tilt\", \"scale\": -1})")
    func tilt() throws {
        let data = try #require(SceneCatalog.sceneFile(named: "crates-tilt"))
        let scene = try SceneDescription.decode(data, source: "t", parameters: ["tilt": 200]).makeScene()
        #expect(scene.gravitySchedule.map(\.gravity) == [[200, -200], [-200, -200], [0, 1000], [0, -1000]])
        let defaults = try SceneDescription.decode(data, source: "t").makeScene()
        #expect(defaults.gravitySchedule.map(\.gravity) == [[500, -500], [-500, -500], [0, 1000], [0, -1000]])
    }

    @Test("A $param's scale must be a finite number, and is the only key beside it")
    func scaleErrors() throws {
        func error(_ reference: String) -> String {
            let json = #"{"name": "t", "parameters": {"g": 1}, "gravity": [0, \#(reference)]}"#
            do {
                _ = try SceneDescription.decode(Data(json.utf8), source: "t.json")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(error(#"{"$param": "g", "scale": "x"}"#) == "t.json: gravity[1].scale: must be a finite number")
        #expect(error(#"{"$param": "g", "times": 2}"#).contains("gravity[1].times: a {\"$param\": …} takes only"))
        #expect(error(#"{"$param": "g", "scale": -3}"#) == "no error")
    }
    /// Issue 28: a number written where a parameter's reference was (trying a value) is a
    /// warning, not an invalid file; setting that parameter, which would change nothing, is
    /// still refused.
    @Test func aLiteralWhereAParameterWasIsAWarning() throws {
        let json =
            #"{"name": "t", "parameters": {"g": -10, "h": 2}, "gravity": [0, -5], "iterations": {"$param": "h"}}"#
        let description = try SceneDescription.decode(Data(json.utf8), source: "t.json")
        #expect(
            description.warnings == [
                #"t.json: parameters.g: is declared, but no number in the scene refers to it ({"$param": "g"}); "#
                    + "its value is not used"
            ])
        #expect(try description.makeScene().space.gravity == [0, -5])
        #expect {
            try SceneDescription.decode(Data(json.utf8), source: "t.json", parameters: ["g": 3])
        } throws: { error in
            "\(error)".hasSuffix(
                "parameters.g: is declared, but no number in the scene refers to it "
                    + #"({"$param": "g"}), so setting it changes nothing"#)
        }
        #expect(try SceneDescription.decode(Data(json.utf8), source: "t.json", parameters: ["h": 3]).iterations == 3)
    }
}
