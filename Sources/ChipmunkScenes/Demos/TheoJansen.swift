import Chipmunk

extension Demos {
    /// TheoJansen.c: Theo Jansen's walking machine, a chassis and crank with four legs of
    /// pins, pivots and gears. In the C demo the arrow keys drive the crank's motor;
    /// headless the right arrow is held: rate 10 × 2/3 with a max force of 100,000.
    public static func theoJansen() throws -> Scene {
        let space = Space()
        try space.setIterations(20)
        space.gravity = [0, -500]
        try DemoSupport.box(space)
        let segmentRadius = 3.0
        let noSelfCollision = ShapeFilter(group: 1)
        let offset = 30.0

        let chassisMass = 2.0
        let chassis = try Body(mass: chassisMass, moment: Moment.segment(mass: chassisMass, from: [-offset, 0], to: [offset, 0]))
        try space.add(chassis)
        let chassisShape = try Segment(body: chassis, from: [-offset, 0], to: [offset, 0], radius: segmentRadius)
        chassisShape.filter = noSelfCollision
        try space.add(chassisShape)

        let crankRadius = 13.0
        // The demo passes the radius as the inner one: cpMomentForCircle(m, 13, 0, 0).
        let crank = try Body(mass: 1, moment: Moment.circle(mass: 1, innerRadius: crankRadius, outerRadius: 0))
        try space.add(crank)
        let crankShape = try Circle(body: crank, radius: crankRadius)
        crankShape.filter = noSelfCollision
        try space.add(crankShape)
        try space.add(PivotJoint(chassis, crank, anchorA: .zero, anchorB: .zero))

        let side = 30.0
        func leg(_ offset: Double, anchor: Vector) throws {
            let legMass = 1.0
            let upper = try Body(mass: legMass, moment: Moment.segment(mass: legMass, from: .zero, to: [0, side]))
            try space.add(upper)
            try upper.setPosition([offset, 0])
            let upperShape = try Segment(body: upper, from: .zero, to: [0, side], radius: segmentRadius)
            upperShape.filter = noSelfCollision
            try space.add(upperShape)
            try space.add(PivotJoint(chassis, upper, anchorA: [offset, 0], anchorB: .zero))

            let lower = try Body(mass: legMass, moment: Moment.segment(mass: legMass, from: .zero, to: [0, -side]))
            try space.add(lower)
            try lower.setPosition([offset, -side])
            let lowerShape = try Segment(body: lower, from: .zero, to: [0, -side], radius: segmentRadius)
            lowerShape.filter = noSelfCollision
            try space.add(lowerShape)
            let foot = try Circle(body: lower, radius: segmentRadius * 2, offset: [0, -side], friction: 1, elasticity: 0)
            foot.filter = noSelfCollision
            try space.add(foot)
            try space.add(PinJoint(chassis, lower, anchorA: [offset, 0], anchorB: .zero))
            try space.add(GearJoint(upper, lower, phase: 0, ratio: 1))

            let diagonal = (side * side + offset * offset).squareRoot()
            let toUpper = try PinJoint(crank, upper, anchorA: anchor, anchorB: [0, side])
            try toUpper.setDistance(diagonal)
            try space.add(toUpper)
            let toLower = try PinJoint(crank, lower, anchorA: anchor, anchorB: .zero)
            try toLower.setDistance(diagonal)
            try space.add(toLower)
        }
        let legs = 2
        for i in 0..<legs {
            try leg(offset, anchor: Vector(angle: Double(2 * i) / Double(legs) * .pi) * crankRadius)
            try leg(-offset, anchor: Vector(angle: Double(2 * i + 1) / Double(legs) * .pi) * crankRadius)
        }
        let motor = try SimpleMotor(chassis, crank, rate: 10 * 2 / 3)
        try motor.setMaxForce(100_000)
        try space.add(motor)
        return try Scene(name: "theo-jansen", space: space, timeStep: 1.0 / 180)
    }
}
