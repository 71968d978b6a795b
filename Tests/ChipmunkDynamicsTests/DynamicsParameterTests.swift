import Chipmunk
import Testing

@testable import ChipmunkDynamics

/// A value written in code that breaks a Dynamics rule stops the program, in a child
/// process here, with a message that names the user's property, the rule and the value.
@Suite struct DynamicsParameterTests {
    private func stderr(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func aDensityOfZeroStopsNamingTheProperty() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let item = ItemView(name: "box", center: .zero, size: Size(width: 10, height: 10))
            DynamicItemBehavior(items: [item]).density = 0
        }
        let output = stderr(result)
        #expect(
            output.contains("DynamicItemBehavior.density must be from 1e-12 to 1e12 (got 0.0)"), "\(output)")
    }

    @Test func aNegativeMagnitudeStopsNamingTheProperty() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let item = ItemView(name: "box", center: .zero, size: Size(width: 10, height: 10))
            GravityBehavior(items: [item]).magnitude = -1
        }
        let output = stderr(result)
        #expect(output.contains("GravityBehavior.magnitude must be from 0 to 1e15 (got -1.0)"), "\(output)")
    }

    /// Every parameter is named as a user writes it (a type first) and refuses what the
    /// engine cannot take (NaN, infinity: all but a field region's size, where infinity
    /// means everywhere).
    @Test(arguments: DynamicsParameter.allCases)
    func everyParameterNamesATypeAndRefusesNonFiniteValues(parameter: DynamicsParameter) {
        #expect(parameter.description.first?.isUppercase == true, "\(parameter)")
        #expect(!parameter.rule.accepts(.nan), "\(parameter) accepts NaN")
        #expect(!parameter.rule.accepts(.infinity) || parameter == .fieldRegion, "\(parameter) accepts infinity")
    }
}
