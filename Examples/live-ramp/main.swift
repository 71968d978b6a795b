// A user's own executable serving a scene written in Swift: the ball on the ramp of the
// README's first example, live in a browser. `swift run live-ramp [PORT]` (0: a free port).
// Tests/Live/live_browser_test.py drags its ball in Chromium.
#if Live
    import Chipmunk
    import ChipmunkLive
    import ChipmunkScenes

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

    let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
    let server = LiveServer(name: "live-ramp", configuration: .init(port: port)) { makeRamp() }
    try await server.run()
#else
    print("live-ramp needs the package's Live trait (on by default)")
#endif
