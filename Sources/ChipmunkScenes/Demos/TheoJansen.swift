import Chipmunk

extension Demos {
    /// TheoJansen.c: Theo Jansen's walking machine, a chassis and crank with four legs of
    /// pins, pivots and gears. In the C demo the arrow keys drive the crank's motor;
    /// headless the right arrow is held: rate `1 * 10 * ((2 + 0) / 3)`, computed in C's
    /// order (6.666666666666666, 1 ulp below 20/3), with a max force of 100,000.
    public static func theoJansen() -> Scene {
        let space = Space()
        space.iterations = 20
        space.gravity = [0, -500]
        DemoSupport.box(space)
        let segmentRadius = 3.0
        let noSelfCollision = ShapeFilter(group: 1)
        let offset = 30.0

        let chassisMass = 2.0
        let chassis = Body(
            mass: chassisMass, moment: Moment.segment(mass: chassisMass, from: [-offset, 0], to: [offset, 0]))
        space.add(chassis)
        let chassisShape = Segment(body: chassis, from: [-offset, 0], to: [offset, 0], radius: segmentRadius)
        chassisShape.filter = noSelfCollision
        space.add(chassisShape)

        let crankRadius = 13.0
        // The demo passes the radius as the inner one: cpMomentForCircle(m, 13, 0, 0).
        let crank = Body(mass: 1, moment: Moment.circle(mass: 1, innerRadius: crankRadius, outerRadius: 0))
        space.add(crank)
        let crankShape = Circle(body: crank, radius: crankRadius)
        crankShape.filter = noSelfCollision
        space.add(crankShape)
        space.add(PivotJoint(a: chassis, b: crank, anchorA: .zero, anchorB: .zero))

        let side = 30.0
        func leg(_ offset: Double, anchor: Vector) {
            let legMass = 1.0
            let upper = Body(mass: legMass, moment: Moment.segment(mass: legMass, from: .zero, to: [0, side]))
            space.add(upper)
            upper.position = [offset, 0]
            let upperShape = Segment(body: upper, from: .zero, to: [0, side], radius: segmentRadius)
            upperShape.filter = noSelfCollision
            space.add(upperShape)
            space.add(PivotJoint(a: chassis, b: upper, anchorA: [offset, 0], anchorB: .zero))

            let lower = Body(mass: legMass, moment: Moment.segment(mass: legMass, from: .zero, to: [0, -side]))
            space.add(lower)
            lower.position = [offset, -side]
            let lowerShape = Segment(body: lower, from: .zero, to: [0, -side], radius: segmentRadius)
            lowerShape.filter = noSelfCollision
            space.add(lowerShape)
            let foot = Circle(body: lower, radius: segmentRadius * 2, offset: [0, -side], friction: 1, elasticity: 0)
            foot.filter = noSelfCollision
            space.add(foot)
            space.add(PinJoint(a: chassis, b: lower, anchorA: [offset, 0], anchorB: .zero))
            space.add(GearJoint(a: upper, b: lower, phase: 0, ratio: 1))

            let diagonal = (side * side + offset * offset).squareRoot()
            let toUpper = PinJoint(a: crank, b: upper, anchorA: anchor, anchorB: [0, side])
            toUpper.distance = diagonal
            space.add(toUpper)
            let toLower = PinJoint(a: crank, b: lower, anchorA: anchor, anchorB: .zero)
            toLower.distance = diagonal
            space.add(toLower)
        }
        let legs = 2
        for i in 0..<legs {
            leg(offset, anchor: Vector(angle: Double(2 * i) / Double(legs) * .pi) * crankRadius)
            leg(-offset, anchor: Vector(angle: Double(2 * i + 1) / Double(legs) * .pi) * crankRadius)
        }
        // update() in TheoJansen.c, with the right arrow held (keyboard x = 1, y = 0):
        // coef = (2.0f + y)/3.0f; rate = x*10.0f*coef, in double as C evaluates it.
        let keyboard: Vector = [1, 0]
        let coef = (2.0 + keyboard.y) / 3.0
        let motor = SimpleMotor(a: chassis, b: crank, rate: keyboard.x * 10.0 * coef)
        motor.maxForce = 100_000
        space.add(motor)
        return Scene(name: "theo-jansen", space: space, timeStep: 1.0 / 180)
    }
}
