import Chipmunk
import Foundation
import Testing
import ChipmunkScenes
import ChipmunkTestSupport

/// What the example prints, kept here instead of on the test run's standard output.
@MainActor private var printed: [String] = []

/// The example's `print`, captured.
@MainActor private func print(_ text: String) { printed.append(text) }

/// The README's Swift example, compiled here. `readmeMatchesThisFile` fails if the two
/// copies drift apart.
@MainActor
private func readmeExample() throws -> (Body, FixedStepper) {
    // README-EXAMPLE-BEGIN
    // A ball dropped on a ramp, driven by 60 Hz frames in fixed 1/120 s steps.
    let space = Space()
    space.gravity = [0, -1000]
    space.add(Segment(body: space.staticBody, from: [0, 100], to: [300, 0], radius: 2, friction: 0.7))

    let ball = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 10))
    ball.position = [40, 200]
    space.add(ball, Circle(body: ball, radius: 10, friction: 0.7, elasticity: 0.5))

    let scene = Scene(name: "ramp", space: space)
    var stepper = FixedStepper()  // 1/120 s steps, at most 120 per frame
    for _ in 0..<120 {  // two seconds of 60 Hz frames
        let frame = try stepper.advance(by: 1.0 / 60) { try scene.step($0) }
        if frame.isOverBudget { print("physics used \(frame.cpuShare * 100) % of real time") }
    }
    print("after \(stepper.stepCount) steps the ball is at \(ball.position)")
    // README-EXAMPLE-END
    return (ball, stepper)
}

@Suite struct ReadmeExampleTests {
    @Test @MainActor func theExampleRuns() throws {
        let (ball, stepper) = try readmeExample()
        #expect(stepper.stepCount == 240)
        #expect(printed.last == "after 240 steps the ball is at \(ball.position)")
        // The ramp runs from (0, 100) down to (300, 0); in two seconds the ball rolls off its low end.
        #expect(ball.position.x > 300, "the ball rolled down the ramp and past its end")
        #expect(ball.position.y < 0, "then fell below it")
        #expect(ball.angularVelocity < 0, "rolling clockwise, to the right")
    }

    @Test func readmeMatchesThisFile() throws {
        let root = packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        // The README block, without its imports; this file's marked region, unindented.
        let afterMarker = try #require(readme.components(separatedBy: "<!-- swift-example").dropFirst().first)
        let block = afterMarker.components(separatedBy: "```swift\n")[1].components(separatedBy: "```")[0]
        let readmeLines = block.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("import ") }
            .drop { $0.isEmpty }
        let region = source.components(separatedBy: "// README-EXAMPLE-BEGIN\n")[1].components(
            separatedBy: "    // README-EXAMPLE-END")[0]
        let sourceLines = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? $0.dropFirst(4) : $0 }
        #expect(Array(readmeLines).map(String.init) == sourceLines.map(String.init))
    }
}
