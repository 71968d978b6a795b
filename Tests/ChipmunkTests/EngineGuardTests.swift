import Foundation
import Testing

@testable import Chipmunk

/// The binding's replacements for the engine's `cpCollide` and `cpMessage`
/// (`Sources/CChipmunkRuntime`): bound in place of the library's, quiet about warnings.
struct EngineGuardTests {
    @Test func theEngineCallsTheReplacements() {
        #expect(EngineGuard.isActive)
    }

    /// The engine warns about a pin joint of length 0 ("A pivot joint will be much more
    /// stable"); the warning is counted and kept, and nothing reaches standard error.
    @Test func warningsAreKeptOffStandardError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let space = Space()
            let body = Body(mass: 1, moment: 1)
            space.add(body)
            let before = EngineGuard.warningCount
            space.add(PinJoint(a: space.staticBody, b: body))
            guard EngineGuard.warningCount == before + 1, EngineGuard.lastWarning.contains("0 length pin joint")
            else { exit(3) }
        }
        #expect(result?.standardErrorContent.isEmpty == true)
    }

    /// With CHIPMUNK_WARNINGS=1 the engine's warning is printed as the engine prints it.
    @Test func warningsPrintWhenAskedFor() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("CHIPMUNK_WARNINGS", "1", 1)
            let space = Space()
            let body = Body(mass: 1, moment: 1)
            space.add(body)
            space.add(PinJoint(a: space.staticBody, b: body))
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.hasPrefix("Chipmunk warning: You created a 0 length pin joint"), "\(text)")
    }

    /// Two shapes the engine collides normally are answered by the engine alone: the guard
    /// counts nothing.
    @Test func ordinaryPairsAreTheEnginesOwn() {
        let space = Space()
        let before = EngineGuard.degenerateCollisions
        let a = Body(mass: 1, moment: 1)
        let b = Body(mass: 1, moment: 1)
        b.position = [0.5, 0.9]
        space.add(a, Polygon.box(body: a, width: 1, height: 1), b, Polygon.box(body: b, width: 1, height: 1))
        for _ in 0..<10 { try! space.step(1.0 / 60) }
        #expect(EngineGuard.degenerateCollisions == before)
    }
}
