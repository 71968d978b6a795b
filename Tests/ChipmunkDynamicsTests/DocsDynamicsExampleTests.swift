import Chipmunk
import ChipmunkDynamics
import ChipmunkTestSupport
import Foundation
import Testing

@MainActor private var printed: [String] = []
@MainActor private func print(_ text: String) { printed.append(text) }

/// The UIKit Dynamics example of docs/dynamics.md, compiled here; `docsMatch` fails if the copies drift.
@MainActor
private func docsExample() throws -> (ItemView, DynamicAnimator) {
    // DOCS-EXAMPLE-BEGIN
    // The chapter's heavy label: it falls, bounces on the screen's bottom edge, and comes to rest.
    let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
    let label = ItemView(name: "Heavy", center: Vector(x: 160, y: 60), size: Size(width: 100, height: 40))
    let collision = CollisionBehavior(items: [label])
    collision.translatesReferenceBoundsIntoBoundary = true
    let bounce = DynamicItemBehavior(items: [label])
    bounce.elasticity = 0.3
    animator.addBehavior(GravityBehavior(items: [label]))
    animator.addBehavior(collision)
    animator.addBehavior(bounce)
    for _ in 0..<180 { try animator.advance(by: 1.0 / 60) }  // three seconds of 60 Hz frames
    print("the label rests at y = \(label.center.y); the animator is running: \(animator.isRunning)")
    // DOCS-EXAMPLE-END
    return (label, animator)
}

/// The example of the DocC overview (ChipmunkDynamics.md), compiled here.
private func overviewExample() throws -> ItemView {
    // OVERVIEW-EXAMPLE-BEGIN
    let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
    let label = ItemView(name: "Heavy", center: Vector(x: 160, y: 100), size: Size(width: 100, height: 40))
    let collision = CollisionBehavior(items: [label])
    collision.translatesReferenceBoundsIntoBoundary = true
    animator.addBehavior(GravityBehavior(items: [label]))
    animator.addBehavior(collision)
    for _ in 0..<120 { try animator.advance(by: 1.0 / 60) }  // two seconds of 60 Hz frames
    // label.center.y is now 460: resting on the bottom edge
    // OVERVIEW-EXAMPLE-END
    return label
}

@Suite struct DocsDynamicsExampleTests {
    /// The overview's example does what its comment says, and the page shows this code.
    @Test func theOverviewExampleRuns() throws {
        let label = try overviewExample()
        #expect(abs(label.center.y - 460) < 0.5)
        let page = try String(
            contentsOf: packageRoot.appendingPathComponent(
                "Sources/ChipmunkDynamics/ChipmunkDynamics.docc/ChipmunkDynamics.md"),
            encoding: .utf8)
        let block = page.components(separatedBy: "```swift\n")[1].components(separatedBy: "```")[0]
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let region = source.components(separatedBy: "// OVERVIEW-EXAMPLE-BEGIN\n")[1]
            .components(separatedBy: "    // OVERVIEW-EXAMPLE-END")[0]
        let sourceLines = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }
        #expect(block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == sourceLines)
    }

    @Test @MainActor func theExampleRuns() throws {
        let (label, animator) = try docsExample()
        #expect(abs(label.center.y - 460) < 0.5, "on the bottom edge: 480 - 40 / 2")
        #expect(!animator.isRunning, "at rest: the animator paused")
        #expect(printed.last?.hasPrefix("the label rests at y = 4") == true)
    }

    @Test func docsMatch() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/dynamics.md"), encoding: .utf8)
        let afterMarker = try #require(page.components(separatedBy: "<!-- dynamics-example:").dropFirst().first)
        let block = afterMarker.components(separatedBy: "```swift\n")[1].components(separatedBy: "```")[0]
        let pageLines = block.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.hasPrefix("import ")
        }
        .drop { $0.isEmpty }.map(String.init)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let region = source.components(separatedBy: "// DOCS-EXAMPLE-BEGIN\n")[1]
            .components(separatedBy: "    // DOCS-EXAMPLE-END")[0]
        let sourceLines = region.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }
        #expect(pageLines == sourceLines)
    }
}
