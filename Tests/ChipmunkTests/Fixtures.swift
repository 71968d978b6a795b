import Foundation
@testable import Chipmunk

/// A ball of radius 1 dropped from `height` onto a floor segment along y = 0.
struct BallOnFloor {
    let space = Space()
    let ball: Body
    let ballShape: Circle
    let floor: Segment
    static let ballType: CollisionType = 1
    static let floorType: CollisionType = 2

    init(height: Double = 3, elasticity: Double = 0) {
        space.gravity = [0, -100]
        floor = Segment(
            body: space.staticBody, from: [-10, 0], to: [10, 0], radius: 0, friction: 1, elasticity: elasticity,
            collisionType: Self.floorType)
        space.add(floor)
        ball = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 1))
        ball.position = [0, height]
        space.add(ball)
        ballShape = Circle(body: ball, radius: 1, friction: 1, elasticity: elasticity, collisionType: Self.ballType)
        space.add(ballShape)
    }

    func run(seconds: Double, dt: Double = 1.0 / 120) throws {
        for _ in 0..<Int((seconds / dt).rounded()) { try space.step(dt) }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Which sanitizer this test binary was built with, if any: its runtime's entry point is
/// linked in. Timing under a sanitizer measures the sanitizer (TSan's free and shadow
/// memory grow the cost of dropping 7,260 bodies five times, not two), so the tests of how
/// a cost grows run in the plain build only.
enum Sanitizer {
    static let active: String? = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(handle) }
        if dlsym(handle, "__tsan_init") != nil { return "thread" }
        if dlsym(handle, "__asan_init") != nil { return "address" }
        return nil
    }()
}

/// The CPU time this thread spends in `body`, in seconds: unlike the wall clock, it does not
/// count the time other threads (parallel tests, other processes) hold the cores.
func threadCPUTime(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
    let start = now()
    try body()
    return now() - start
}

/// A file an exit test's child appends its progress to, so that the parent can say where a
/// child stopped: `#expect(processExitsWith:)` returns no result (and so no standard error)
/// when the expectation fails.
struct ChildLog: Sendable, Codable {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log").path
        FileManager.default.createFile(atPath: path, contents: nil)
    }

    /// Appends a line and flushes it to the file before returning.
    func write(_ line: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        try? handle.close()
    }

    /// The last `count` lines, joined by " | ", and the file removed.
    func tail(_ count: Int) -> String {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(count).joined(separator: " | ")
    }
}
