import Foundation
import Chipmunk
import Testing
import ChipmunkCatalog
@testable import ChipmunkScenes

/// A bad scene file gives one line that names the file, where in it, and what was wrong.
@Suite struct SceneErrorTests {
    private func error(_ json: String) -> String? {
        do {
            _ = try SceneDescription.decode(Data(json.utf8), source: "bad.json").makeScene(source: "bad.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        (
            #"{"name": "x", "bodies": [{"mass": -1, "moment": 1}]}"#,
            "bad.json: bodies[0].mass: must be from 1e-150 to 1e+150 (got -1.0)"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 0}]}"#,
            "bad.json: bodies[0].moment: must be from 1e-150 to 1e+150, or infinity (got 0.0)"
        ),
        (#"{"name": "x", "bodies": [{"moment": 1}]}"#, "bad.json: bodies[0].mass: is required for a dynamic body"),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": "inf"}]}"#,
            #"bad.json: bodies[0].moment: a moment given as text must be "infinity" (got "inf")"#
        ),
        (
            #"{"name": "x", "bodies": [{"kind": "static", "mass": 1}]}"#,
            "bad.json: bodies[0].mass: only a dynamic body has one"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": "heavy", "moment": 1}]}"#,
            "bad.json: bodies[0].mass: expected a number, found a string"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "shapes": [{"type": "circle", "radius": 1, "fricton": 0.5}]}]}"#,
            "bad.json: bodies[0].shapes[0].fricton: unknown key 'fricton'; expected one of 'radius', 'offset', 'type', 'friction', 'elasticity', 'collisionType', 'mass', 'density', 'sensor', 'filter', 'surfaceVelocity', 'id'"
        ),
        (
            // Named as written: `offset`, not the `transform` it becomes.
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "offset": [1e300, 0]}]}]}"#,
            "bad.json: bodies[0].shapes[0].offset: must be finite, from -1e15 to 1e15 (got 1e+300)"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "shapes": [{"type": "hexagon"}]}]}"#,
            "bad.json: bodies[0].shapes[0].type: unknown shape type 'hexagon'; expected 'circle', 'segment', 'polygon' or 'box'"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": {"box": {"width": 1}}}]}"#,
            "bad.json: bodies[0].moment.box.height: is required"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": {"cube": {}}}]}"#,
            "bad.json: bodies[0].moment.cube: unknown key 'cube'; expected one of 'box', 'circle', 'segment', 'polygon'"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "position": [1, 2, 3]}]}"#,
            "bad.json: bodies[0].position[2]: A vector has exactly two numbers, [x, y]"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "velocity": [0, 1e308], "shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0]]}]}]}"#,
            "bad.json: bodies[0].shapes[0].vertices: a polygon needs at least 3 vertices (got 2)"
        ),
        (
            #"{"name": "x", "staticShapes": [{"type": "segment", "from": [0, 0], "to": [1, 0], "friction": -2}]}"#,
            "bad.json: staticShapes[0].friction: must be from 0 to 1e+100 (got -2.0)"
        ),
        (#"{"name": "x", "iterations": 0}"#, "bad.json: iterations: must be a whole number from 1 to 1000 (got 0)"),
        (
            #"{"name": "x", "iterations": 2147483648}"#,
            "bad.json: iterations: must be a whole number from 1 to 1000 (got 2147483648)"
        ),
        (#"{"name": "x", "iterations": 1.5}"#, "bad.json: iterations: must be a whole number (got 1.5)"),
        // Foundation says only "not valid JSON" for a version that is not a whole number.
        (#"{"name": "x", "version": 2.5}"#, "bad.json: version: expected a whole number, found 2.5"),
        (
            #"{"name": "x", "iterations": -1}"#,
            "bad.json: iterations: must be a whole number from 1 to 1000 (got -1)"
        ),
        (
            #"{"name": "x", "collisionPersistence": 4294967296}"#,
            "bad.json: collisionPersistence: must be a whole number from 1 to 4294967295 (got 4294967296)"
        ),
        (
            #"{"name": "x", "collisionPersistence": 0}"#,
            "bad.json: collisionPersistence: must be a whole number from 1 to 4294967295 (got 0)"
        ),
        (
            #"{"name": "k", "sleepTimeThreshold": 0, "bodies": [{"kind": "kinematic"}]}"#,
            "bad.json: sleepTimeThreshold: must be greater than zero (infinity allowed) (got 0.0)"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1e-320, "moment": 1}]}"#,
            "bad.json: bodies[0].mass: must be from 1e-150 to 1e+150 (got 1e-320)"
        ),
        (
            #"{"name": "x", "gravitySchedule": [{"time": 1, "gravty": [0, 0]}]}"#,
            "bad.json: gravitySchedule[0].gravty: unknown key 'gravty'; expected one of 'time', 'gravity'"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "transform": {"a": 1, "b": 0, "c": 0, "d": 1, "tx": 0, "tz": 0}}]}]}"#,
            "bad.json: bodies[0].shapes[0].transform.tz: unknown key 'tz'; expected one of 'a', 'b', 'c', 'd', 'tx', 'ty'"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "shapes": [{"type": "polygon", "vertices": [[0, 0], [1, 1], [2, 2]]}]}]}"#,
            "bad.json: bodies[0].shapes[0].vertices: the polygon's vertices enclose no area (all on one line, or too large to measure)"
        ),
        (#"{"name": "x", "damping": -0.5}"#, "bad.json: damping: must be zero or more, and finite (got -0.5)"),
        (
            #"{"name": "x", "collisionSlop": -1}"#,
            "bad.json: collisionSlop: must be zero or more, and finite (got -1.0)"
        ),
        (
            #"{"name": "x", "gravitySchedule": [{"time": -1, "gravity": [0, 0]}]}"#,
            "bad.json: gravitySchedule[0].time: must be zero or more, and finite (got -1.0)"
        ),
        // Issue 28: a groove whose ends are one point stepped once into a NaN velocity.
        (
            #"{"version": 2, "name": "x", "bodies": [{"id": "b", "mass": 1, "moment": 1}], "constraints": [{"type": "groove", "a": "static", "b": "b", "grooveA": [1, 2], "grooveB": [1, 2]}]}"#,
            "bad.json: constraints[0].grooveB: must differ from grooveA (1.0, 2.0): a groove of no length has no direction"
        ),
        // Issue 28: gravity of 1e300 loaded, and diverged only at step 2.
        (
            #"{"name": "x", "gravity": [0, 1e300]}"#,
            "bad.json: gravity: must be finite, from -1e15 to 1e15 (got 1e+300)"
        ),
        (
            #"{"name": "x", "gravitySchedule": [{"time": 1, "gravity": [-1e16, 0]}]}"#,
            "bad.json: gravitySchedule[0].gravity: must be finite, from -1e15 to 1e15 (got -1e+16)"
        ),
        (
            #"{"name": "x", "version": 2, "inputs": [{"time": 1, "gravity": [0, -2e16]}]}"#,
            "bad.json: inputs[0].gravity: must be finite, from -1e15 to 1e15 (got -2e+16)"
        ),
        (
            #"{"name": "x", "version": 3}"#,
            "bad.json: version: format version 3 is not supported; this build reads versions 1 and 2"
        ),
        (#"{"bodies": []}"#, "bad.json: name: is required"),
        (#"[]"#, "bad.json: expected a JSON object, found an array"),
        (#"{"name": "x", "bodies": ["#, "bad.json: not valid JSON: Unexpected end of file during JSON parse"),
        ("{\"name\": \"x\",\n \"bodies\": [1,,]}", "bad.json: not valid JSON: Invalid value at line 2, column 15"),
        // Foundation's reader takes a comma before a closing bracket; JSON does not.
        (
            "{\"name\": \"x,]\", \"bodies\": [],\n \"gravity\": [0, -10, ]}",
            "bad.json: not valid JSON: a comma before the closing bracket at line 2, column 20 (JSON allows none there)"
        ),
        (
            "{\"name\": \"x\", \"bodies\": [\"a\",]}",
            "bad.json: not valid JSON: a comma before the closing bracket at line 1, column 29 (JSON allows none there)"
        ),
        (
            #"{"name": "x", "gravity": [0, 1e309]}"#,
            "bad.json: the number 1e309 at line 1, column 30 is beyond what a Double holds (magnitudes up to about 1.8e308)"
        ),
        (
            // The same text inside a string comes first, and is not the number.
            "{\"name\": \"x -1e400\", \"gravity\": [0,\n -1e400]}",
            "bad.json: the number -1e400 at line 2, column 2 is beyond what a Double holds (magnitudes up to about 1.8e308)"
        ),
        (
            #"{"name": "x", "gravity": [0, -10], "gravity": [0, 10]}"#,
            "bad.json: gravity: appears twice in one object; give each key once"
        ),
        (
            // Spelled with an escape, it is the same key to the decoder, which would keep one.
            #"{"name": "x", "gravity": [0, -10], "gr\u0061vity": [0, 10]}"#,
            "bad.json: gravity: appears twice in one object; give each key once"
        ),
        (
            #"{"name": "x", "bodies": [{"m\u0061ss": 1, "moment": 1, "mass": 100}]}"#,
            "bad.json: bodies[0].mass: appears twice in one object; give each key once"
        ),
    ])
    func oneLineNamingThePlace(json: String, expected: String) {
        #expect(error(json) == expected)
    }

    @Test func unreadableFilesAndUnknownNames() throws {
        let missing = #expect(throws: SceneError.self) { try SceneCatalog.scene(named: "/nonexistent/scene.json") }
        #expect(missing?.description == "/nonexistent/scene.json: no such file")
        let unknown = #expect(throws: SceneError.self) { try SceneCatalog.scene(named: "cratez") }
        #expect(
            unknown?.description.hasPrefix(
                "cratez: no built-in scene has this name, and no such file exists (built-in: crate, crates, crates-tilt, pyramid-stack"
            ) == true)
    }

    /// Issue 19: tiny files whose values each rule accepted, and that stopped the process
    /// (SIGILL, no message) or aborted the engine. Each now ends in one line naming the place.
    @Test(arguments: [
        (
            #"{"version": 2, "name": "x", "bodies": [{"kind": "static", "shapes": [{"type": "segment", "from": [0, 0], "to": [10, 0], "density": 1}]}]}"#,
            "bad.json: bodies[0].shapes[0].density: needs a shape with an area (this one has area 0.0)"
        ),
        (
            #"{"version": 2, "name": "x", "bodies": [{"shapes": [{"type": "circle", "radius": 0, "mass": 1}]}]}"#,
            "bad.json: bodies[0].shapes[0].mass: needs a shape with an area (this one has area 0.0)"
        ),
        (
            #"{"version": 2, "name": "x", "bodies": [{"shapes": [{"type": "circle", "radius": 1, "mass": 1e-300}]}]}"#,
            "bad.json: bodies[0].shapes[0].mass: must be 0, or from 1e-100 to 1e+100 (got 1e-300)"
        ),
        (
            #"{"version": 2, "name": "x", "bodies": [{"shapes": [{"type": "circle", "radius": 1e-30, "mass": 1e-100}]}]}"#,
            "bad.json: bodies[0].shapes[0].mass: the body's mass properties, summed from its shapes, would not be finite and within 1e-150...1e+150 (mass 1e-100, moment 5.000000000000001e-161)"
        ),
        (
            #"{"version": 2, "name": "x", "broadPhase": {"spatialHash": {"cellSize": 0.001, "count": 1000}}, "staticShapes": [{"type": "segment", "from": [-1000, 0], "to": [1000, 0], "radius": 1}]}"#,
            "bad.json: staticShapes[0]: would cover 4006004001.0 cells of the spatial hash (cell size 0.001), more than 1000000; use a larger cellSize"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": {"box": {"width": -32, "height": 1}}}]}"#,
            "bad.json: bodies[0].moment.box.width: must be greater than 0, and at most 1e15 (got -32.0)"
        ),
        // A box with a side of 0 has no area: it took no mass and fell through the ground.
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": 1, "shapes": [{"type": "box", "width": 0, "height": 20, "radius": 2}]}]}"#,
            "bad.json: bodies[0].shapes[0].width: must be greater than 0, and at most 1e15 (got 0.0)"
        ),
        (
            #"{"name": "x", "bodies": [{"mass": 1, "moment": {"polygon": {"vertices": [[0, 0], [1, 1], [2, 2]], "offset": [0, 0], "radius": 0}}}]}"#,
            "bad.json: bodies[0].moment.polygon.vertices: must be 2 points or enclose an area (got 3 points with area 0.0)"
        ),
        (
            #"{"name": "x", "iterations": 1e15}"#,
            "bad.json: iterations: must be a whole number from 1 to 1000 (got 1000000000000000)"
        ),
        (
            #"{"version": 2, "name": "x", "bodies": [{"shapes": [{"type": "circle", "radius": 1, "mass": 1e308}, {"type": "circle", "radius": 1, "mass": 1e308}]}]}"#,
            "bad.json: bodies[0].shapes[0].mass: must be 0, or from 1e-100 to 1e+100 (got 1e+308)"
        ),
    ])
    func massesAShapeCannotCarry(json: String, message: String) {
        #expect(error(json) == message)
    }

    /// A pivot far from its body was accepted and aborted the engine on the first step
    /// ("Unsolvable constraint."); the scene loads, and its step throws the one-line error.
    @Test func aFarPivotThrowsFromStep() throws {
        let json =
            #"{"version": 2, "name": "x", "bodies": [{"id": "b", "mass": 1, "moment": 1}], "constraints": [{"type": "pivot", "a": "static", "b": "b", "pivot": [1e8, 1e8]}]}"#
        let scene = try SceneDescription.decode(Data(json.utf8), source: "bad.json").makeScene(source: "bad.json")
        #expect(throws: (any Error).self) { try scene.step(scene.timeStep) }
    }
}

/// `"moment": "infinity"`, pymunk's `float("inf")`: a body that never turns.
@Suite struct InfiniteMomentSceneTests {
    @Test func aSceneFileTakesAMomentOfInfinityAndWritesItBack() throws {
        let json = #"""
            {"version": 2, "name": "paddle", "gravity": [0, -100],
             "bodies": [{"kind": "static", "shapes": [{"type": "segment", "from": [-100, 0], "to": [100, -40], "radius": 1}]},
                        {"id": "paddle", "mass": 1, "moment": "infinity", "position": [0, 30], "angle": 0.2,
                         "shapes": [{"type": "box", "width": 20, "height": 6, "friction": 0.2}]}]}
            """#
        let description = try SceneDescription.decode(Data(json.utf8), source: "paddle.json")
        let scene = try description.makeScene(source: "paddle.json")
        let paddle = try #require(scene.space.bodies.first { $0.kind == .dynamic })
        #expect(paddle.moment == .infinity)
        for _ in 0..<240 { try scene.step(1.0 / 120) }
        #expect(paddle.angle == 0.2 && paddle.position.y < 30)
        let written = String(decoding: try JSONEncoder().encode(MomentDescription.value(.infinity)), as: UTF8.self)
        #expect(written == #""infinity""#)
        #expect(try JSONDecoder().decode(MomentDescription.self, from: Data(written.utf8)) == .value(.infinity))
    }

    /// A gear between a paddle that cannot turn and the static body loads, and its first
    /// step says why it cannot be solved.
    @Test func aGearToTheStaticBodyStopsTheFirstStep() throws {
        let json = #"""
            {"version": 2, "name": "stuck", "bodies": [{"id": "paddle", "mass": 1, "moment": "infinity"}],
             "constraints": [{"type": "gear", "a": "static", "b": "paddle", "phase": 0, "ratio": 1}]}
            """#
        let scene = try SceneDescription.decode(Data(json.utf8), source: "stuck.json").makeScene(source: "stuck.json")
        #expect(throws: ChipmunkError.cannotTurn(step: 1, constraint: 0)) { try scene.step(1.0 / 120) }
    }
}
