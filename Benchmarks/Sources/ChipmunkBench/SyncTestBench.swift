import Chipmunk
import ChipmunkScenes

/// What a synctest costs against the plain run of the same frames (issue 27: a depth-8
/// synctest of pyramid-topple at most 10 times its plain run), and whether it passed.
public struct SyncTestCosts: Sendable {
    public var depth: Int
    public var frames: Int
    /// Frames the synctest simulated again, in all.
    public var resimulatedFrames: Int
    /// Medians, in milliseconds: the scene stepped `frames` frames, and the synctest of as many.
    public var plainMilliseconds: Double
    public var synctestMilliseconds: Double
    /// The synctest's failure, in its own words; nil when every hash matched.
    public var failure: String?

    /// The synctest's time over the plain run's.
    public var ratio: Double { synctestMilliseconds / plainMilliseconds }
}

extension BenchRunner {
    /// Times a synctest of `depth` and `frames` on scenes `make` builds, and the plain run of
    /// the same frames (each frame a step, no hash), `repeats` times each, by turns so that
    /// noise on the machine falls on both alike; every run gets a fresh scene, whose building
    /// is not timed. Stops at the first failing synctest and reports it.
    public static func synctestCosts(
        depth: Int, frames: Int, repeats: Int, make: () throws -> Scene
    ) throws -> SyncTestCosts {
        var plain: [Double] = []
        var synctest: [Double] = []
        var costs = SyncTestCosts(
            depth: depth, frames: frames, resimulatedFrames: 0, plainMilliseconds: 0, synctestMilliseconds: 0)
        let test = SyncTest(depth: depth, frames: frames)
        for _ in 0..<repeats {
            let scene = try make()
            let t0 = monotonicSeconds()
            for _ in 0..<frames { try scene.step(scene.timeStep) }
            plain.append(monotonicSeconds() - t0)

            let checked = try make()
            let t1 = monotonicSeconds()
            do {
                costs.resimulatedFrames = try test.run(checked).resimulatedFrames
            } catch {
                costs.failure = error.description
            }
            synctest.append(monotonicSeconds() - t1)
            if costs.failure != nil { break }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] * 1e3 }
        costs.plainMilliseconds = median(plain)
        costs.synctestMilliseconds = median(synctest)
        return costs
    }
}
