import Chipmunk

extension Demos {
    /// Tumble.c: a kinematic box 400 wide turns at 0.4 rad/s and tumbles 21 pieces
    /// (boxes, capsules or pairs of balls, picked by a seeded generator) inside it.
    public static func tumble(seed: UInt64 = 1) -> Scene {
        let space = Space()
        space.gravity = [0, -600]
        let box = Body(kind: .kinematic)
        space.add(box)
        box.angularVelocity = cFloat(0.4)
        let corners: [Vector] = [[-200, -200], [-200, 200], [200, 200], [200, -200]]
        for index in corners.indices {
            let wall = Segment(
                body: box, from: corners[index], to: corners[(index + 1) % 4], radius: 0, friction: 1, elasticity: 1)
            wall.filter = DemoSupport.notGrabbable
            space.add(wall)
        }
        var random = SplitMix64(seed: seed)
        let mass = 1.0
        let width = 30.0
        let height = 60.0
        for i in 0..<7 {
            for j in 0..<3 {
                let pos = Vector(x: Double(i) * width - 150, y: Double(j) * height - 150)
                switch Int(random.nextUnit() * 3) {
                case 0:
                    let body = DemoSupport.boxBody(space, mass: mass, width: width, height: height, at: pos)
                    space.add(
                        Polygon.box(body: body, width: width, height: height, friction: cFloat(0.7), elasticity: 0))
                case 1:
                    let body = DemoSupport.boxBody(space, mass: mass, width: width, height: height, at: pos)
                    DemoSupport.capsule(space, on: body, width: width, height: height, friction: cFloat(0.7))
                default:
                    for dy in [(height - width) / 2, (width - height) / 2] {
                        let body = Body(mass: mass, moment: Moment.circle(mass: mass, outerRadius: width / 2))
                        space.add(body)
                        body.position = pos + [0, dy]
                        space.add(Circle(body: body, radius: width / 2, friction: cFloat(0.7), elasticity: 0))
                    }
                }
            }
        }
        return Scene(name: "tumble", space: space, timeStep: 1.0 / 180)
    }
}
