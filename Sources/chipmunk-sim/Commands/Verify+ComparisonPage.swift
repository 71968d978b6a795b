import ArgumentParser
import ChipmunkCatalog
import ChipmunkPictures
import ChipmunkScenes
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Verify {
    /// `verify --diff-page`: the golden file against a fresh run of the scene, as `diff`
    /// draws it.
    func writeComparisonPage(golden: GoldenFile, goldenPath: String, to page: String) throws {
        let run: RunTrace
        do {
            run = try RunTrace(
                running: SceneCatalog.scene(named: scene), steps: golden.steps, timeStep: golden.timeStep,
                statesAt: Set(golden.checkpoints.map(\.step)), source: scene)
        } catch {
            Output.note("chipmunk-sim: no comparison page: \(ChipmunkSim.oneLine("\(error)"))\n")
            return
        }
        let comparison = RunComparison(RunTrace(golden: golden, source: goldenPath), run)
        let html = ComparisonPage(comparison, scene: try? SceneCatalog.scene(named: scene)).html()
        try Output.file(Array(html.utf8), to: page, option: "--diff-page")
        Output.summary("wrote \(page): the comparison page")
    }
}
