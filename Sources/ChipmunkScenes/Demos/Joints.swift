import Chipmunk

extension Demos {
    /// Joints.c: a gallery of every constraint kind, each in its own cell of a 4 × 4 grid
    /// (pin, slide, pivot, groove, damped spring, damped rotary spring, rotary limit,
    /// ratchet, gear, simple motor, and a car: grooves and springs for its suspension).
    public static func joints() throws -> Scene {
        let space = Space()
        try space.setIterations(10)
        space.gravity = [0, -100]
        space.sleepTimeThreshold = 0.5
        let statics = space.staticBody
        for y in [240.0, 120, 0, -120, -240] { try DemoSupport.wall(space, [-320, y], [320, y]) }
        for x in [-320.0, -160, 0, 160, 320] { try DemoSupport.wall(space, [x, -240], [x, 240]) }

        func ball(_ pos: Vector) throws -> Body {
            let body = try Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 15))
            try space.add(body)
            try body.setPosition(pos)
            try space.add(Circle(body: body, radius: 15, friction: 0.7, elasticity: 0))
            return body
        }
        func lever(_ pos: Vector) throws -> Body {
            let a: Vector = [0, 15], b: Vector = [0, -15]
            let body = try Body(mass: 1, moment: Moment.segment(mass: 1, from: a, to: b))
            try space.add(body)
            try body.setPosition(pos + [0, -15])
            try space.add(Segment(body: body, from: a, to: b, radius: 5, friction: 0.7, elasticity: 0))
            return body
        }
        func bar(_ pos: Vector) throws -> Body {
            let a: Vector = [0, 30], b: Vector = [0, -30]
            let body = try Body(mass: 2, moment: Moment.segment(mass: 2, from: a, to: b))
            try space.add(body)
            try body.setPosition(pos)
            let shape = try Segment(body: body, from: a, to: b, radius: 5, friction: 0.7, elasticity: 0)
            shape.filter = ShapeFilter(group: 1)
            try space.add(shape)
            return body
        }
        func wheel(_ pos: Vector) throws -> Body {
            let body = try Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 15))
            try space.add(body)
            try body.setPosition(pos)
            let shape = try Circle(body: body, radius: 15, friction: 0.7, elasticity: 0)
            shape.filter = ShapeFilter(group: 1)
            try space.add(shape)
            return body
        }
        func chassis(_ pos: Vector) throws -> Body {
            let body = try Body(mass: 5, moment: Moment.box(mass: 5, width: 80, height: 30))
            try space.add(body)
            try body.setPosition(pos)
            let shape = try Polygon.box(body: body, width: 80, height: 30, friction: 0.7, elasticity: 0)
            shape.filter = ShapeFilter(group: 1)
            try space.add(shape)
            return body
        }
        let posA: Vector = [50, 60], posB: Vector = [110, 60]
        func cell(_ x: Double, _ y: Double) -> Vector { [x, y] }

        var o = cell(-320, -240)
        var a = try ball(o + posA), b = try ball(o + posB)
        try space.add(PinJoint(a, b, anchorA: [15, 0], anchorB: [-15, 0]))

        o = cell(-160, -240)
        a = try ball(o + posA); b = try ball(o + posB)
        try space.add(SlideJoint(a, b, anchorA: [15, 0], anchorB: [-15, 0], min: 20, max: 40))

        o = cell(0, -240)
        a = try ball(o + posA); b = try ball(o + posB)
        try space.add(PivotJoint(a, b, pivot: o + [80, 60]))

        o = cell(160, -240)
        a = try ball(o + posA); b = try ball(o + posB)
        try space.add(GrooveJoint(a, b, grooveA: [30, 30], grooveB: [30, -30], anchorB: [-30, 0]))

        o = cell(-320, -120)
        a = try ball(o + posA); b = try ball(o + posB)
        try space.add(DampedSpring(a, b, anchorA: [15, 0], anchorB: [-15, 0], restLength: 20, stiffness: 5, damping: 0.3))

        o = cell(-160, -120)
        a = try bar(o + posA); b = try bar(o + posB)
        try space.add(PivotJoint(a, statics, pivot: o + posA))
        try space.add(PivotJoint(b, statics, pivot: o + posB))
        try space.add(DampedRotarySpring(a, b, restAngle: 0, stiffness: 3000, damping: 60))

        o = cell(0, -120)
        a = try lever(o + posA); b = try lever(o + posB)
        try space.add(PivotJoint(a, statics, pivot: o + posA))
        try space.add(PivotJoint(b, statics, pivot: o + posB))
        try space.add(RotaryLimitJoint(a, b, min: -.pi / 2, max: .pi / 2))

        o = cell(160, -120)
        a = try lever(o + posA); b = try lever(o + posB)
        try space.add(PivotJoint(a, statics, pivot: o + posA))
        try space.add(PivotJoint(b, statics, pivot: o + posB))
        try space.add(RatchetJoint(a, b, phase: 0, ratchet: .pi / 2))

        o = cell(-320, 0)
        a = try bar(o + posA); b = try bar(o + posB)
        try space.add(PivotJoint(a, statics, pivot: o + posA))
        try space.add(PivotJoint(b, statics, pivot: o + posB))
        try space.add(GearJoint(a, b, phase: 0, ratio: 2))

        o = cell(-160, 0)
        a = try bar(o + posA); b = try bar(o + posB)
        try space.add(PivotJoint(a, statics, pivot: o + posA))
        try space.add(PivotJoint(b, statics, pivot: o + posB))
        try space.add(SimpleMotor(a, b, rate: .pi))

        o = cell(0, 0)
        let wheel1 = try wheel(o + posA), wheel2 = try wheel(o + posB)
        let car = try chassis(o + [80, 100])
        try space.add(GrooveJoint(car, wheel1, grooveA: [-30, -10], grooveB: [-30, -40], anchorB: .zero))
        try space.add(GrooveJoint(car, wheel2, grooveA: [30, -10], grooveB: [30, -40], anchorB: .zero))
        try space.add(DampedSpring(car, wheel1, anchorA: [-30, 0], anchorB: .zero, restLength: 50, stiffness: 20, damping: 10))
        try space.add(DampedSpring(car, wheel2, anchorA: [30, 0], anchorB: .zero, restLength: 50, stiffness: 20, damping: 10))
        return try Scene(name: "joints", space: space, timeStep: 1.0 / 60)
    }
}
