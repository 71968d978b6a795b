import Chipmunk
import ChipmunkScenes
import Foundation
import Testing
import ChipmunkTestSupport

/// schemas/scene.schema.json picks a constraint's and a shape's keys by `type`, and
/// docs/scene-format.md's defaults, frames and units are the loader's.
@Suite struct SchemaAndDefaultsTests {
    static let schema = packageRoot.appendingPathComponent("schemas/scene.schema.json")

    func definition(_ name: String) throws -> [String: Any] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schema)) as? [String: Any])
        let defs = try #require(root["$defs"] as? [String: Any])
        return try #require(defs[name] as? [String: Any])
    }

    @Test(
        "A constraint's and a shape's keys are chosen by their type (if/then), not a oneOf that reports another type",
        arguments: [
            (
                "constraint",
                [
                    "pin", "slide", "pivot", "groove", "dampedSpring", "dampedRotarySpring", "rotaryLimit",
                    "ratchet", "gear", "simpleMotor",
                ]
            ),
            ("shape", ["circle", "segment", "polygon", "box"]),
        ])
    func discriminatorPerType(name: String, types: [String]) throws {
        let definition = try definition(name)
        #expect(definition["oneOf"] == nil, "a oneOf makes a validator report the closest other branch")
        let branches = try #require(definition["allOf"] as? [[String: Any]])
        var covered: [String] = []
        for branch in branches {
            let condition = try #require(branch["if"] as? [String: Any])
            let type = try #require(
                ((condition["properties"] as? [String: Any])?["type"] as? [String: Any])?["const"] as? String)
            let then = try #require(branch["then"] as? [String: Any])
            #expect(then["additionalProperties"] as? Bool == false, "\(type): unknown keys are errors")
            covered.append(type)
        }
        #expect(covered == types)
    }

    @Test("check-jsonschema names the misspelt key of a rotaryLimit, not \"'pin' was expected\" (when installed)")
    func validatorReportsTheRealError() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let file = packageRoot.appendingPathComponent("Tests/Schemas/bad-scenes/rotary-limit-typo.json")
        process.arguments = ["check-jsonschema", "--schemafile", Self.schema.path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus != 127 else { return }  // not installed: scripts/schema-check.sh installs it
        #expect(process.terminationStatus == 1)
        #expect(output.contains("'mx' was unexpected"), "\(output)")
        #expect(!output.contains("was expected"), "\(output)")
    }

    @Test("The defaults docs/scene-format.md gives: constraints, anchors, filters")
    func documentedDefaults() throws {
        let scene = try SceneDescription.decode(
            Data(
                #"""
                {"version": 2, "name": "t",
                 "bodies": [{"id": "a", "mass": 1, "moment": 1, "position": [10, 0], "angle": 1,
                             "shapes": [{"type": "circle", "radius": 1}]}],
                 "constraints": [{"type": "pin", "a": "static", "b": "a"}]}
                """#.utf8), source: "t.json"
        ).makeScene()
        let pin = try #require(scene.space.constraints.first as? PinJoint)
        #expect(pin.anchorA == .zero && pin.anchorB == .zero)
        #expect(pin.distance == 10, "the anchors' distance when built: the body's origin, 10 from the world's")
        #expect(pin.maxForce == .infinity && pin.maxBias == .infinity && pin.collideBodies)
        // cpConstraintInit: cpfpow(1.0f - 0.1f, 60.0f), the difference taken in float.
        #expect(pin.errorBias == pow(Double(Float(1) - Float(0.1)), 60), "about 0.0018 (got \(pin.errorBias))")
        let shape = try #require(scene.space.shapes.first)
        #expect(shape.filter == ShapeFilter(group: .none, categories: .all, mask: .all))
        #expect(shape.filter.categories.rawValue == 4_294_967_295)
        #expect(shape.friction == 0 && shape.elasticity == 0 && !shape.isSensor && shape.surfaceVelocity == .zero)

        let docs = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/scene-format.md"), encoding: .utf8)
        #expect(docs.contains("check-jsonschema --schemafile schemas/scene.schema.json my-scene.json"))
        #expect(docs.contains("in radians (`[-0.785, 0.785]` is ±45°)"))
    }

    @Test("A groove's ends are required, as the docs and the schema say")
    func grooveEndsAreRequired() throws {
        do {
            _ = try SceneDescription.decode(
                Data(
                    #"{"version": 2, "name": "t", "bodies": [{"id": "a", "mass": 1, "moment": 1}], "constraints": [{"type": "groove", "a": "static", "b": "a", "grooveA": [0, 0]}]}"#
                        .utf8), source: "t.json"
            ).makeScene()
            Issue.record("a groove without grooveB loaded")
        } catch {
            #expect("\(error)" == "t: constraints[0].grooveB: is required for a groove joint")
        }
    }
}
