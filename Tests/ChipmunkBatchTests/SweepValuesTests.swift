@testable import ChipmunkBatch
import ChipmunkTestSupport
import Foundation
import Testing

/// Sweeps' values as data: parameter sets and their JSON, run records, errors.
@Suite struct SweepValuesTests {
    @Test("A parameter set's JSON: names sorted, whole numbers up to 2^53 as integers, others as Swift writes them")
    func parameterSetJSON() throws {
        let set = ParameterSet(["speed": 1e15, "elasticity": 0.2, "k": 1e20, "b": -0.0, "a": 0x1p53 + 2])
        #expect(set.json == #"{"a":9.007199254740994e+15,"b":0,"elasticity":0.2,"k":1e+20,"speed":1000000000000000}"#)
        let decoded = try JSONDecoder().decode(ParameterSet.self, from: Data(set.json.utf8))
        #expect(decoded == set)
    }

    /// The key hashes the parameters' JSON: docs/sweeps.md's drop.json run (speed 1,
    /// elasticity 0.2, 5 s) has this key, written before runs were records.
    @Test func runKeysAreUnchanged() throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Scenes/drop.json"))
        let plan = try SweepPlan(
            sceneSource: "drop.json", sceneData: data,
            design: .grid([
                SweepAxis(name: "speed", values: [1]), SweepAxis(name: "elasticity", values: [0.2]),
            ]), steps: 600, timeStep: nil)
        let docs = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/sweeps.md"), encoding: .utf8)
        let key = plan.key(of: plan.runs[0])
        #expect(docs.contains("\(key),0,drop.json,\(plan.sceneHash),0.2,1.0e+00,"))
        #expect(plan.runs[0].json == #"{"elasticity":0.2,"speed":1}"#)
    }

    /// A body an input removes no longer counts, and one an input adds counts from the step
    /// it joins: the bodies were fixed before step 1, so a removed body's energy stayed in
    /// `kinetic_energy` and the tracked `energy` (a helper's attack).
    @Test func theEnergyCountsTheBodiesInTheSpaceNow() throws {
        let scene = #"""
            {"version": 2, "name": "rm", "gravity": [0, -100], "parameters": {"t": 0.08},
             "bodies": [{"id": "a", "mass": 1, "moment": 1, "position": [0, 0], "shapes": [{"type": "circle", "radius": 1}]},
                        {"id": "b", "mass": 1, "moment": 1, "position": [10, 0], "shapes": [{"type": "circle", "radius": 1}]}],
             "inputs": [{"time": {"$param": "t"}, "remove": "a"}]}
            """#
        var plan = try SweepPlan(
            sceneSource: "rm.json", sceneData: Data(scene.utf8), design: .grid([SweepAxis(name: "t", values: [0.08])]),
            steps: 20, timeStep: nil)
        plan.tracked = [try TrackedQuantity(parsing: "energy")]
        let result = plan.run(at: 0)
        #expect(result.outcome == .ok, "\(String(describing: result.error))")
        // b alone, falling for 20 steps of 1/120 s at 100 units/s²: ½ · 1 · (100 · 20/120)².
        let speed = 100.0 * (20.0 / 120.0)
        #expect(abs(try #require(result.kineticEnergy) - 0.5 * speed * speed) < 1e-9)
        #expect(result.quantities?["energy"]?.final == result.kineticEnergy)
    }

    @Test("Errors are data: where the input was given and what is wrong, with the message built from them")
    func errorsAreData() throws {
        #expect {
            try SweepAxis(parsing: "k=log:0:10:3")
        } throws: { error in
            guard case .badInput(.parameterOption("k=log:0:10:3"), .logRangeNotAboveZero) = error as? SweepError
            else { return false }
            return "\(error)" == "--param k=log:0:10:3: a log range needs FROM and TO above zero"
        }
        // Double(_:) reads hexadecimal, "nan" and "inf": a --param value is a decimal or nothing.
        for (option, item) in [("k=0x10", "0x10"), ("k=1,nan", "nan"), ("k=inf", "inf"), ("k=1,,2", "")] {
            #expect {
                try SweepAxis(parsing: option)
            } throws: { error in
                guard case .badInput(.parameterOption(option), .notAFiniteNumber(item)) = error as? SweepError else {
                    return false
                }
                return "\(error)"
                    == "--param \(option): '\(item)' is not a finite decimal number (a list is 1,2,5; ranges are lin:… and log:…)"
            }
        }
        #expect(throws: SweepError.self) { try SweepAxis(parsing: "k=lin:0x1:2:3") }
        #expect(try SweepAxis(parsing: "k=1e-3, -2,0.5").values == [0.001, -2, 0.5])
        #expect {
            try SweepRange(name: "g", low: 2, high: 1, logarithmic: false)
        } throws: { error in
            guard case .badInput(.axis("g"), .lowAboveHigh(low: 2, high: 1)) = error as? SweepError else {
                return false
            }
            return "\(error)" == "g: a range needs finite low <= high (got 2.0 to 1.0)"
        }
        #expect {
            try TrackedQuantity(parsing: "ball.z")
        } throws: { error in
            guard case .badInput(.trackOption("ball.z"), .notAQuantity) = error as? SweepError else { return false }
            return "\(error)".hasPrefix("--track ball.z: give energy or BODY.q with q one of x, y, vx, vy, speed")
        }
        #expect {
            try SweepDesign.table([["a": 1], ["a": .nan]]).parameterSets()
        } throws: { error in
            guard case .badInput(.table(row: 1), .tableValueNotFinite) = error as? SweepError else { return false }
            return "\(error)" == "table[1]: every value must be a finite number"
        }
    }

    @Test("A run is a record: stored and read back equal; its JSON columns decode in the older writer's form too")
    func runRecords() throws {
        let folder = try TemporaryFolder("records")
        defer { folder.remove() }
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Scenes/spring.json"))
        var plan = try SweepPlan(
            sceneSource: "spring.json", sceneData: data,
            design: .grid([SweepAxis(name: "stiffness", values: [10])]), steps: 30, timeStep: nil)
        plan.tracked = [try TrackedQuantity(parsing: "box.y"), try TrackedQuantity(parsing: "energy")]
        plan.recordedBodies = ["box"]
        let result = plan.run(at: 0)
        #expect(result.quantities?.keys.sorted() == ["box.y", "energy"])
        #expect(result.quantities?["box.y"]?.max == -50, "the box starts at rest at y = -50 and falls")
        #expect(result.bodies?["box"]?.x == 0)
        let store = try SweepStore(path: folder.path("r.sqlite"))
        try store.insert(result)
        #expect(try store.results() == [result])

        let old = #"{"box.y":{"min":-61.5,"max":-50.0,"final":null}}"#
        let range = try JSONDecoder().decode([String: RunResult.Range].self, from: Data(old.utf8))
        let y = try #require(range["box.y"])
        #expect(y.min == -61.5 && y.max == -50 && y.final == nil)
    }
}
