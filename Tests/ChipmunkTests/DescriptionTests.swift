import Chipmunk
import Testing

/// `print` shows a space and its objects as one line of values (a newcomer's pass: it
/// showed `Chipmunk.Body`, and a list of shapes as class names).
struct DescriptionTests {
    @Test func objectsPrintTheirValues() throws {
        let space = Space()
        space.gravity = [0, -100]
        let body = Body(mass: 1, moment: 10)
        body.position = [0, 50]
        let circle = Circle(body: body, radius: 5, friction: 0.5)
        let box = Polygon.box(body: body, width: 2, height: 4, radius: 0.5)
        let ground = Segment(body: space.staticBody, from: [-10, 0], to: [10, 0], radius: 1)
        ground.isSensor = true
        let pin = PinJoint(a: body, b: space.staticBody)
        space.add(body, circle, box, ground, pin)
        try space.step(1.0 / 60)

        #expect(
            "\(body)"
                == "Body(dynamic, mass: 1.0, moment: 10.0, position: \(body.position), velocity: \(body.velocity), angle: \(body.angle))"
        )
        #expect("\(space.staticBody)".hasPrefix("Body(static, position: (0.0, 0.0)"))
        #expect("\(circle)" == "Circle(radius: 5.0, offset: (0.0, 0.0), friction: 0.5, elasticity: 0.0)")
        #expect("\(box)" == "Polygon(4 vertices, radius: 0.5, friction: 0.0, elasticity: 0.0)")
        #expect(
            "\(ground)"
                == "Segment(from: (-10.0, 0.0), to: (10.0, 0.0), radius: 1.0, friction: 0.0, elasticity: 0.0, sensor)")
        #expect("\(pin)" == "PinJoint(dynamic body at \(body.position), static body at (0.0, 0.0))")
        #expect("\(space)" == "Space(1 body, 3 shapes, 1 constraint, gravity: (0.0, -100.0), 1 step taken)")
    }
}
