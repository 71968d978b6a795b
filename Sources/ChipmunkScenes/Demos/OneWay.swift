import Chipmunk

extension Demos {
    /// The collision type of the platform in ``oneWay()``.
    public static let oneWayPlatformType: CollisionType = 1

    /// OneWay.c: a ball thrown up at 170 passes up through a platform (its preSolve
    /// ignores contacts whose normal points against the platform's pass direction, up),
    /// then falls back and lands on it.
    public static func oneWay() -> Scene {
        let space = Space()
        space.iterations = 10
        space.gravity = [0, -100]
        DemoSupport.box(space)
        let platform = DemoSupport.wall(space, [-160, -100], [160, -100], radius: 10)
        platform.collisionType = oneWayPlatformType
        let passDirection = Vector(x: 0, y: 1)  // objects may pass upwards
        let radius = 15.0
        let ball = Body(mass: 10, moment: Moment.circle(mass: 10, outerRadius: radius))
        space.add(ball)
        ball.position = [0, -200]
        ball.velocity = [0, 170]
        let shape = Circle(body: ball, radius: radius, friction: cFloat(0.9), elasticity: 0, collisionType: 2)
        space.add(shape)
        space.onCollision(
            between: oneWayPlatformType,
            preSolve: { arbiter in
                // The platform is the first shape; the normal points from it to the other shape.
                if arbiter.normal.dot(passDirection) < 0 {
                    arbiter.ignore()
                    return false
                }
                return true
            })
        return Scene(name: "one-way", space: space, timeStep: 1.0 / 60)
    }
}
