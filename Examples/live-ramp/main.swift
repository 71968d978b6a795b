// A user's own executable serving a scene written in Swift: the ball on the ramp of the
// README's first example, live in a browser. `swift run live-ramp [PORT]` (0: a free port).
// Tests/Live/live_browser_test.py drags its ball in Chromium.
#if Live
    import Chipmunk
    import ChipmunkLive
    import ChipmunkScenes
    import Foundation

    /// The scene: a ball dropped on a ramp, in a box so that it stays in view.
    func makeRamp() -> Scene {
        let space = Space()
        space.gravity = [0, -1000]
        let walls: [(Vector, Vector)] = [([0, 100], [300, 0]), ([0, 0], [0, 300]), ([300, 0], [300, 300])]
        for (from, to) in walls {
            space.add(Segment(body: space.staticBody, from: from, to: to, radius: 2, friction: 0.7))
        }
        let ball = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 10))
        ball.position = [40, 200]
        space.add(ball, Circle(body: ball, radius: 10, friction: 0.7, elasticity: 0.5))
        return Scene(name: "ramp", space: space)
    }

    /// Says what went wrong on standard error and exits with `status`.
    func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("live-ramp: \(message)\n".utf8))
        exit(status)
    }

    // The port is data typed by a person: a word that is not one is told, not trapped on.
    let usage = "usage: live-ramp [PORT]   (0 to 65535; 0 picks a free one; default 8080)"
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.contains("--help") || arguments.contains("-h") {
        print(usage)
        exit(0)
    }
    guard arguments.count <= 1 else { fail("one argument at most\n\(usage)", status: 64) }
    let port = arguments.first.map { Int($0) } ?? 8080
    guard let port, (0...65_535).contains(port) else {
        fail("the port must be a whole number from 0 to 65535, got \(arguments.first!)\n\(usage)", status: 64)
    }
    let server = LiveServer(name: "live-ramp", configuration: .init(port: port)) { makeRamp() }
    // A port in use is the machine's state, not a bug: said in one line (a `try` at the top
    // level printed Swift's "Fatal error" and a backtrace).
    do {
        try await server.run()
    } catch {
        fail("\(error)", status: 65)
    }
#else
    print("live-ramp needs the package's Live trait (on by default)")
#endif
