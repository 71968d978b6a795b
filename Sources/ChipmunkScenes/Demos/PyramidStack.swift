import Chipmunk

extension Demos {
    /// PyramidStack.c: 105 boxes in a 14-row pyramid fall onto the floor and settle; with
    /// sleeping on (0.5 s), the still stack goes to sleep. A heavy ball rests on the floor.
    public static func pyramidStack() -> Scene {
        let space = Space()
        space.iterations = 30
        space.gravity = [0, -100]
        space.sleepTimeThreshold = 0.5
        space.collisionSlop = 0.5
        DemoSupport.box(space)
        for i in 0..<14 {
            for j in 0...i {
                let body = Body(mass: 1, moment: Moment.box(mass: 1, width: 30, height: 30))
                space.add(body)
                body.position = [Double(j * 32 - i * 16), Double(300 - i * 32)]
                space.add(
                    Polygon.box(body: body, width: 30, height: 30, radius: 0.5, friction: cFloat(0.8), elasticity: 0))
            }
        }
        let radius = 15.0
        let ball = Body(mass: 10, moment: Moment.circle(mass: 10, outerRadius: radius))
        space.add(ball)
        ball.position = [0, -240 + radius + 5]
        space.add(Circle(body: ball, radius: radius, friction: cFloat(0.9), elasticity: 0))
        return Scene(name: "pyramid-stack", space: space, timeStep: 1.0 / 180)
    }
}
