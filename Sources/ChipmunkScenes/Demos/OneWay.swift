import Chipmunk

extension Demos {
    /// The collision type of the platform in ``oneWay()``.
    public static let oneWayPlatformType: UInt = 1

    /// OneWay.c: a ball thrown up at 170 passes up through a platform (its preSolve
    /// ignores contacts whose normal points against the platform's pass direction, up),
    /// then falls back and lands on it.
    public static func oneWay() throws -> Scene {
        let space = Space()
        try space.setIterations(10)
        space.gravity = [0, -100]
        try DemoSupport.box(space)
        let platform = try DemoSupport.wall(space, [-160, -100], [160, -100], radius: 10)
        platform.collisionType = oneWayPlatformType
        let passDirection = Vector(x: 0, y: 1)  // objects may pass upwards
        let radius = 15.0
        let ball = try Body(mass: 10, moment: Moment.circle(mass: 10, outerRadius: radius))
        try space.add(ball)
        try ball.setPosition([0, -200])
        try ball.setVelocity([0, 170])
        let shape = try Circle(body: ball, radius: radius, friction: 0.9, elasticity: 0, collisionType: 2)
        try space.add(shape)
        space.wildcardCollisionHandler(for: oneWayPlatformType).preSolve = { arbiter in
            // The platform is the first shape; the normal points from it to the other shape.
            if arbiter.normal.dot(passDirection) < 0 {
                arbiter.ignore()
                return false
            }
            return true
        }
        return try Scene(name: "one-way", space: space, timeStep: 1.0 / 60)
    }
}
