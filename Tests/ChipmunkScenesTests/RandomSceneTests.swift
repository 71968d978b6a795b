@testable import Chipmunk
import Foundation
import PropertyBased
import Testing
@testable import ChipmunkScenes

/// Random small scenes, from random finite doubles of every magnitude up to the largest,
/// go through the scene loader and are stepped: each ends normally, or throws a
/// `SceneError` (a value the loader refuses) or a `ChipmunkError` (a step that would
/// diverge). A trap, a signal or the engine's abort would end the test process.
@Suite struct RandomSceneTests {
    /// A finite double of any magnitude, from 1e-320 to the largest, either sign, or 0.
    static let anyMagnitude = Gen<Double>.value(in: -1...1).map { t -> Double in
        guard abs(t) > 0.02 else { return 0 }
        let magnitude = abs(t) < 0.999 ? pow(10, (abs(t) - 0.02) / 0.979 * 628 - 320) : .greatestFiniteMagnitude
        return t < 0 ? -magnitude : magnitude
    }

    /// A double that is usually ordinary (0.01 to 1000), and one time in 31 anything.
    static let mostlyOrdinary = Gen<Double>.frequency(
        (30, Gen<Double>.value(in: 0.01...1000).eraseToAnySequence()),
        (1, anyMagnitude.eraseToAnySequence())
    )

    static func vector(_ values: [Double], _ index: inout Int) -> Vector {
        defer { index += 2 }
        return [values[index % values.count], values[(index + 1) % values.count]]
    }

    /// Builds a scene description from a list of numbers: gravity, damping, a static
    /// segment, and three bodies with circles, boxes and polygons.
    static func scene(from values: [Double]) -> SceneDescription {
        var i = 0
        func next() -> Double {
            defer { i += 1 }
            return values[i % values.count]
        }
        var scene = SceneDescription(name: "random")
        scene.gravity = vector(values, &i)
        // Ordinary values are 0.01 to 1000; these three are scaled to their usual ranges.
        scene.damping = abs(next()) / 1000
        scene.timeStep = abs(next()) / 1000
        scene.staticShapes = [
            ShapeDescription(
                .segment(from: vector(values, &i), to: vector(values, &i), radius: abs(next())),
                friction: abs(next()), elasticity: abs(next()))
        ]
        scene.bodies = (0..<3).map { k in
            var body = BodyDescription(mass: abs(next()), moment: .value(abs(next())), position: vector(values, &i))
            body.velocity = vector(values, &i)
            body.angularVelocity = next()
            let geometry: ShapeDescription.Geometry
            switch k {
            case 0: geometry = .circle(radius: abs(next()), offset: vector(values, &i))
            case 1: geometry = .box(width: abs(next()), height: abs(next()), radius: 0)
            default:
                geometry = .polygon(
                    vertices: [vector(values, &i), vector(values, &i), vector(values, &i)],
                    transform: .identity, radius: 0)
            }
            body.shapes = [ShapeDescription(geometry, friction: abs(next()), elasticity: abs(next()) / 1000)]
            return body
        }
        return scene
    }

    @Test func randomScenesEndNormallyOrThrowTypedErrors() async {
        let outcomes = Locked<[String: Int]>([:])
        await propertyCheck(count: 1_000, input: Self.mostlyOrdinary.array(of: 40...40)) { values in
            let description = Self.scene(from: values)
            let scene: Scene
            do {
                scene = try description.makeScene()
            } catch {
                outcomes.withLock { $0["refused by the loader", default: 0] += 1 }  // a SceneError, by the signature
                return
            }
            var outcome = "ran 30 steps"
            for _ in 0..<30 {
                do {
                    try scene.step(scene.timeStep)
                } catch {
                    #expect(error is ChipmunkError, "\(error)")
                    outcome = "diverged"
                    break
                }
            }
            outcomes.withLock { $0[outcome, default: 0] += 1 }
        }
        // The generator reaches every outcome, so the property is not met vacuously.
        let counts = outcomes.withLock { $0 }
        #expect(counts.values.reduce(0, +) >= 1_000)
        #expect(counts["ran 30 steps", default: 0] > 100, "\(counts)")
        #expect(counts["diverged", default: 0] > 5, "\(counts)")
        #expect(counts["refused by the loader", default: 0] > 100, "\(counts)")
    }
}
