import Chipmunk
import Foundation

extension Demos {
    /// The density of the water in ``buoyancy()``.
    public static let fluidDensity = 0.00014
    /// The drag of the water in ``buoyancy()``.
    public static let fluidDrag = 2.0

    /// Buoyancy.c: boxes dropped into a tank whose water is a sensor; the water's
    /// preSolve clips each box at the surface and applies buoyancy and drag to the part
    /// under it. The demo's boxes are both light (0.3 × the water's density); here the
    /// small one is heavy (3 ×), so that one floats and the other sinks.
    public static func buoyancy() -> Scene {
        let space = Space()
        space.iterations = 30
        space.gravity = [0, -500]
        space.sleepTimeThreshold = 0.5
        space.collisionSlop = 0.5
        DemoSupport.box(space, top: true)
        // The tank: three walls, and the water, a sensor box of collision type 1.
        let tank = BoundingBox(left: -300, bottom: -200, right: 100, top: 0)
        DemoSupport.wall(space, [tank.left, tank.bottom], [tank.left, tank.top], radius: 5)
        DemoSupport.wall(space, [tank.right, tank.bottom], [tank.right, tank.top], radius: 5)
        DemoSupport.wall(space, [tank.left, tank.bottom], [tank.right, tank.bottom], radius: 5)
        let water = Polygon.box(body: space.staticBody, boundingBox: tank, collisionType: 1)
        water.isSensor = true
        space.add(water)

        func box(width: Double, height: Double, density: Double, at position: Vector) {
            let mass = density * fluidDensity * width * height
            let body = Body(mass: mass, moment: Moment.box(mass: mass, width: width, height: height))
            space.add(body)
            body.position = position
            body.velocity = [0, -100]
            body.angularVelocity = 1
            space.add(Polygon.box(body: body, width: width, height: height, friction: cFloat(0.8)))
        }
        box(width: 200, height: 50, density: 0.3, at: [-50, -100])  // floats
        box(width: 40, height: 80, density: 3, at: [-200, -50])  // sinks

        space.collisionHandler(between: 1, and: 0).preSolve = { arbiter in
            let (water, shape) = arbiter.shapes
            guard let poly = shape as? Polygon else { return true }
            let body = poly.body
            let level = water.boundingBox.top
            // Clip the polygon at the water's surface.
            let corners = poly.vertices.map(body.localToWorld)
            var clipped: [Vector] = []
            for i in corners.indices {
                let a = corners[(i + corners.count - 1) % corners.count]
                let b = corners[i]
                if a.y < level { clipped.append(a) }
                let aLevel = a.y - level
                let bLevel = b.y - level
                if aLevel * bLevel < 0 {
                    let t = abs(aLevel) / (abs(aLevel) + abs(bLevel))
                    clipped.append(a.interpolated(to: b, by: t))
                }
            }
            guard clipped.count >= 3, clipped.allSatisfy({ Parameter.polygonVertex.accepts($0) }) else { return true }
            let area = Area.polygon(vertices: clipped)
            guard area > 0, area.isFinite else { return true }  // nothing displaced (or a crafted inside-out shape)
            let displacedMass = area * fluidDensity
            let centroid = Centroid.polygon(vertices: clipped)
            let space = arbiter.space
            let dt = space.currentTimeStep
            let g = space.gravity
            // A state the demo's arithmetic cannot take (a crafted snapshot's speeds or mass)
            // ends the step with a divergence, as the guard ends any other.
            func diverged(_ quantity: Body.Quantity) -> ChipmunkError {
                .diverged(
                    step: space.stepsTaken + 1, body: max(body.indexInSpace, 0),
                    quantity: quantity, value: .infinity)
            }
            // Buoyancy.
            let lift = g * (-displacedMass * dt)
            guard body.velocityStaysFinite(afterImpulse: lift, at: centroid) else { throw diverged(.velocity) }
            body.applyImpulse(lift, at: centroid)
            // Linear drag.
            let vCentroid = body.velocity(at: centroid)
            let n = vCentroid.normalized
            let rcn = (centroid - body.position).cross(n)
            let k = 1 / body.mass + rcn * rcn / body.moment
            let damping = area * fluidDrag * fluidDensity
            let vCoef = exp(-damping * dt * k)
            let drag = (vCentroid * vCoef - vCentroid) * (1 / k)
            guard body.velocityStaysFinite(afterImpulse: drag, at: centroid) else { throw diverged(.velocity) }
            body.applyImpulse(drag, at: centroid)
            // Angular drag.
            let cog = body.localToWorld(body.centerOfGravity)
            guard Parameter.polygonTransform.accepts(-cog) else { throw diverged(.angularVelocity) }
            let wDamping = Moment.polygon(mass: fluidDrag * fluidDensity * area, vertices: clipped, offset: -cog)
            let spin = body.angularVelocity * exp(-wDamping * dt / body.moment)
            guard spin.isFinite else { throw diverged(.angularVelocity) }
            body.angularVelocity = spin
            return true
        }
        return Scene(name: "buoyancy", space: space, timeStep: 1.0 / 180)
    }
}
