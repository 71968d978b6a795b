import Chipmunk

extension Demos {
    /// PyramidStack.c: 105 boxes in a 14-row pyramid fall onto the floor and settle; with
    /// sleeping on (0.5 s), the still stack goes to sleep. A heavy ball rests on the floor.
    public static func pyramidStack() throws -> Scene {
        let space = Space()
        try space.setIterations(30)
        space.gravity = [0, -100]
        space.sleepTimeThreshold = 0.5
        space.collisionSlop = 0.5
        try DemoSupport.box(space)
        for i in 0..<14 {
            for j in 0...i {
                let body = try Body(mass: 1, moment: Moment.box(mass: 1, width: 30, height: 30))
                try space.add(body)
                try body.setPosition([Double(j * 32 - i * 16), Double(300 - i * 32)])
                try space.add(Polygon.box(body: body, width: 30, height: 30, radius: 0.5, friction: 0.8, elasticity: 0))
            }
        }
        let radius = 15.0
        let ball = try Body(mass: 10, moment: Moment.circle(mass: 10, outerRadius: radius))
        try space.add(ball)
        try ball.setPosition([0, -240 + radius + 5])
        try space.add(Circle(body: ball, radius: radius, friction: 0.9, elasticity: 0))
        return try Scene(name: "pyramid-stack", space: space, timeStep: 1.0 / 180)
    }
}
