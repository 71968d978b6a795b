import Chipmunk

extension Demos {
    /// The strength of the planet's gravity in ``planet(seed:)``: acceleration is
    /// `strength / r²` towards the centre.
    public static let planetGravity = 5.0e6

    /// Planet.c: 30 boxes orbit a spinning planet of radius 70 under inverse-square
    /// gravity, given by a custom velocity function on each box. They start on circular
    /// orbits, at positions from a seeded generator.
    public static func planet(seed: UInt64 = 1) -> Scene {
        let space = Space()
        space.iterations = 20
        let planet = Body(kind: .kinematic)
        space.add(planet)
        planet.angularVelocity = cFloat(0.2)
        var random = SplitMix64(seed: seed)
        let size = 10.0
        let mass = 1.0
        let vertices: [Vector] = [[-size, -size], [-size, size], [size, size], [size, -size]]
        for _ in 0..<30 {
            let reach = Vector(x: size, y: size).length
            var pos: Vector
            repeat {
                pos = Vector(
                    x: random.nextUnit() * (640 - 2 * reach) - (320 - reach),
                    y: random.nextUnit() * (480 - 2 * reach) - (240 - reach))
            } while pos.length < 85
            let body = Body(mass: mass, moment: Moment.polygon(mass: mass, vertices: vertices))
            body.velocityUpdate = { body, _, damping, dt in
                let p = body.position
                let squared = p.lengthSquared
                let g = p * (-planetGravity / (squared * squared.squareRoot()))
                // At the planet's centre (only a crafted snapshot puts a box there) the pull is
                // infinite: the step ends with a divergence, as the guard ends any other.
                guard g.isFinite else {
                    let space = body.space
                    throw ChipmunkError.diverged(
                        step: (space?.stepsTaken ?? 0) + 1, body: max(body.indexInSpace, 0),
                        quantity: .velocity, value: .infinity)
                }
                try body.updateVelocity(gravity: g, damping: damping, dt: dt)
            }
            space.add(body)
            body.position = pos
            let r = pos.length
            let v = (planetGravity / r).squareRoot() / r
            body.velocity = pos.perpendicular * v
            body.angularVelocity = v
            body.angle = pos.angle
            space.add(Polygon(body: body, vertices: vertices, friction: cFloat(0.7), elasticity: 0))
        }
        let surface = Circle(body: planet, radius: 70, friction: 1, elasticity: 1)
        surface.filter = DemoSupport.notGrabbable
        space.add(surface)
        return Scene(name: "planet", space: space, timeStep: 1.0 / 60)
    }
}
