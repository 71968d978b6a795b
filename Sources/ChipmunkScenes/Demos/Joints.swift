import Chipmunk

extension Demos {
    /// Joints.c: a gallery of every constraint kind, each in its own cell of a 4 × 4 grid
    /// (pin, slide, pivot, groove, damped spring, damped rotary spring, rotary limit,
    /// ratchet, gear, simple motor, and a car: grooves and springs for its suspension).
    public static func joints() -> Scene {
        let space = Space()
        space.iterations = 10
        space.gravity = [0, -100]
        space.sleepTimeThreshold = 0.5
        let statics = space.staticBody
        for y in [240.0, 120, 0, -120, -240] { DemoSupport.wall(space, [-320, y], [320, y]) }
        for x in [-320.0, -160, 0, 160, 320] { DemoSupport.wall(space, [x, -240], [x, 240]) }

        func ball(_ pos: Vector) -> Body {
            let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 15))
            space.add(body)
            body.position = pos
            space.add(Circle(body: body, radius: 15, friction: cFloat(0.7), elasticity: 0))
            return body
        }
        func lever(_ pos: Vector) -> Body {
            let a: Vector = [0, 15]
            let b: Vector = [0, -15]
            let body = Body(mass: 1, moment: Moment.segment(mass: 1, from: a, to: b))
            space.add(body)
            body.position = pos + [0, -15]
            space.add(Segment(body: body, from: a, to: b, radius: 5, friction: cFloat(0.7), elasticity: 0))
            return body
        }
        func bar(_ pos: Vector) -> Body {
            let a: Vector = [0, 30]
            let b: Vector = [0, -30]
            let body = Body(mass: 2, moment: Moment.segment(mass: 2, from: a, to: b))
            space.add(body)
            body.position = pos
            let shape = Segment(body: body, from: a, to: b, radius: 5, friction: cFloat(0.7), elasticity: 0)
            shape.filter = ShapeFilter(group: 1)
            space.add(shape)
            return body
        }
        func wheel(_ pos: Vector) -> Body {
            let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 15))
            space.add(body)
            body.position = pos
            let shape = Circle(body: body, radius: 15, friction: cFloat(0.7), elasticity: 0)
            shape.filter = ShapeFilter(group: 1)
            space.add(shape)
            return body
        }
        func chassis(_ pos: Vector) -> Body {
            let body = Body(mass: 5, moment: Moment.box(mass: 5, width: 80, height: 30))
            space.add(body)
            body.position = pos
            let shape = Polygon.box(body: body, width: 80, height: 30, friction: cFloat(0.7), elasticity: 0)
            shape.filter = ShapeFilter(group: 1)
            space.add(shape)
            return body
        }
        let posA: Vector = [50, 60]
        let posB: Vector = [110, 60]
        func cell(_ x: Double, _ y: Double) -> Vector { [x, y] }

        var o = cell(-320, -240)
        var a = ball(o + posA)
        var b = ball(o + posB)
        space.add(PinJoint(a: a, b: b, anchorA: [15, 0], anchorB: [-15, 0]))

        o = cell(-160, -240)
        a = ball(o + posA)
        b = ball(o + posB)
        space.add(SlideJoint(a: a, b: b, anchorA: [15, 0], anchorB: [-15, 0], distance: 20...40))

        o = cell(0, -240)
        a = ball(o + posA)
        b = ball(o + posB)
        space.add(PivotJoint(a: a, b: b, pivot: o + [80, 60]))

        o = cell(160, -240)
        a = ball(o + posA)
        b = ball(o + posB)
        space.add(GrooveJoint(a: a, b: b, grooveA: [30, 30], grooveB: [30, -30], anchorB: [-30, 0]))

        o = cell(-320, -120)
        a = ball(o + posA)
        b = ball(o + posB)
        space.add(
            DampedSpring(
                a: a, b: b, anchorA: [15, 0], anchorB: [-15, 0], restLength: 20, stiffness: 5, damping: cFloat(0.3)))

        o = cell(-160, -120)
        a = bar(o + posA)
        b = bar(o + posB)
        space.add(PivotJoint(a: a, b: statics, pivot: o + posA))
        space.add(PivotJoint(a: b, b: statics, pivot: o + posB))
        space.add(DampedRotarySpring(a: a, b: b, restAngle: 0, stiffness: 3000, damping: 60))

        o = cell(0, -120)
        a = lever(o + posA)
        b = lever(o + posB)
        space.add(PivotJoint(a: a, b: statics, pivot: o + posA))
        space.add(PivotJoint(a: b, b: statics, pivot: o + posB))
        space.add(RotaryLimitJoint(a: a, b: b, angle: -.pi / 2 ... .pi / 2))

        o = cell(160, -120)
        a = lever(o + posA)
        b = lever(o + posB)
        space.add(PivotJoint(a: a, b: statics, pivot: o + posA))
        space.add(PivotJoint(a: b, b: statics, pivot: o + posB))
        space.add(RatchetJoint(a: a, b: b, phase: 0, ratchet: .pi / 2))

        o = cell(-320, 0)
        a = bar(o + posA)
        b = bar(o + posB)
        space.add(PivotJoint(a: a, b: statics, pivot: o + posA))
        space.add(PivotJoint(a: b, b: statics, pivot: o + posB))
        space.add(GearJoint(a: a, b: b, phase: 0, ratio: 2))

        o = cell(-160, 0)
        a = bar(o + posA)
        b = bar(o + posB)
        space.add(PivotJoint(a: a, b: statics, pivot: o + posA))
        space.add(PivotJoint(a: b, b: statics, pivot: o + posB))
        space.add(SimpleMotor(a: a, b: b, rate: .pi))

        o = cell(0, 0)
        let wheel1 = wheel(o + posA)
        let wheel2 = wheel(o + posB)
        let car = chassis(o + [80, 100])
        space.add(GrooveJoint(a: car, b: wheel1, grooveA: [-30, -10], grooveB: [-30, -40], anchorB: .zero))
        space.add(GrooveJoint(a: car, b: wheel2, grooveA: [30, -10], grooveB: [30, -40], anchorB: .zero))
        space.add(
            DampedSpring(
                a: car, b: wheel1, anchorA: [-30, 0], anchorB: .zero, restLength: 50, stiffness: 20, damping: 10))
        space.add(
            DampedSpring(
                a: car, b: wheel2, anchorA: [30, 0], anchorB: .zero, restLength: 50, stiffness: 20, damping: 10))
        return Scene(name: "joints", space: space, timeStep: 1.0 / 60)
    }
}
