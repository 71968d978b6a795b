import Foundation

/// The line `run` writes on standard error when the engine guard answered any narrow-phase
/// test of the run (docs/engine-assertions.md, "The engine guard").
enum EngineGuardNote {
    static func report(_ count: Int) {
        guard count > 0 else { return }
        let tests =
            count == 1
            ? "1 narrow-phase test the engine could not finish was"
            : "\(count) narrow-phase tests the engine could not finish were"
        Output.note(
            "chipmunk-sim: note: \(tests) answered by the engine guard (nearly degenerate polygon pairs); the run is "
                + "deterministic, but those contacts are the guard's answer, not the engine's (docs/engine-assertions.md)\n"
        )
    }
}
