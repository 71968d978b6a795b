// Creates and removes many bodies and shapes through every ownership path the binding
// has, so that `scripts/leaks.sh` can run it under valgrind and find any C object not
// freed exactly once. Usage: chipmunk-stress [OBJECTS]   (default 100000)
import Chipmunk

let target = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
var created = 0

@MainActor func makeBall(at position: Vector) throws -> (Body, Shape) {
    let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 1))
    body.position = position
    created += 2
    return (body, Circle(body: body, radius: 1, friction: 0.5))
}

var survivors: [Body] = []
var heldGround: Body?
var round = 0
while created < target {
    round += 1
    let space = Space()
    space.gravity = [0, -100]
    let floor = Segment(body: space.staticBody, from: [-100, 0], to: [100, 0], radius: 1)
    space.add(floor)
    created += 1

    // Bodies and shapes added, stepped, then half removed while unlocked.
    var balls: [(Body, Shape)] = []
    for i in 0..<40 {
        let ball = try makeBall(at: [Double(i % 20) * 3 - 30, Double(i / 20) * 3 + 2])
        space.add(ball.0)
        space.add(ball.1)
        balls.append(ball)
    }
    for _ in 0..<5 { try space.step(1.0 / 60) }
    for (body, shape) in balls.prefix(20) {
        space.remove(shape)
        space.remove(body)
    }

    // Adds and removes deferred from inside a step.
    let driver = balls[39].0
    var pendingAdds: [(Body, Shape)] = []
    for i in 0..<4 { pendingAdds.append(try makeBall(at: [Double(i) * 3, 20])) }
    let victim = balls[30]
    driver.velocityUpdate = { body, gravity, damping, dt in
        if let (b, s) = pendingAdds.popLast() {
            space.add(b)
            space.add(s)
        }
        if victim.1.space != nil {
            space.remove(victim.1)
            space.remove(victim.0)
        }
        try body.updateVelocity(gravity: gravity, damping: damping, dt: dt)
    }
    for _ in 0..<5 { try space.step(1.0 / 60) }
    driver.velocityUpdate = nil

    // Handlers, constraints, queries and post-step callbacks, all of which hold
    // closures and C callbacks that must neither leak nor outlive their space.
    let handler = space.collisionHandler(between: 1, and: 2)
    var contacts = 0
    handler.begin = { _ in
        contacts += 1
        return true
    }
    handler.postSolve = { arbiter in _ = arbiter.totalImpulse }
    handler.separate = { arbiter in
        if arbiter.isRemoval, let extra = pendingAdds.last { _ = extra }
    }
    for (_, shape) in balls.suffix(10) { shape.collisionType = 1 }
    floor.collisionType = 2
    let anchor = balls[21].0
    let swinger = balls[22].0
    let pin = PinJoint(a: anchor, b: swinger, anchorA: .zero, anchorB: .zero)
    let spring = DampedSpring(
        a: anchor, b: swinger, anchorA: .zero, anchorB: .zero, restLength: 3, stiffness: 10, damping: 1)
    spring.forceFunction = { spring, distance in (spring.restLength - distance) * spring.stiffness }
    let motor = SimpleMotor(a: space.staticBody, b: balls[23].0, rate: 1)
    motor.postSolve = { joint in
        if joint.impulse > 1e9 { joint.space?.remove(joint) }
    }
    space.add(pin)
    space.add(spring)
    space.add(motor)
    created += 3
    space.addPostStepCallback(forKey: "tidy") { space in
        if space.contains(pin) { space.remove(pin) }
    }
    for _ in 0..<3 { try space.step(1.0 / 60) }
    _ = space.pointQuery([0, 2], maxDistance: 5)
    _ = space.segmentQuery(from: [-40, 3], to: [40, 3])
    _ = space.boundingBoxQuery(BoundingBox(left: -40, bottom: 0, right: 40, top: 10))
    _ = space.shapeQuery(balls[24].1)
    try balls[25].0.forEachArbiter { arbiter in _ = arbiter.contactPointSet }
    if round % 3 == 0 { space.remove(spring) }  // some removed, some dropped with the space
    _ = contacts

    // A step refused for divergence must leave nothing behind either.
    if round % 7 == 0 {
        let runaway = Body(mass: 1, moment: 1)
        runaway.position = [0, 1e307]
        runaway.velocity = [0, 1e308]
        space.add(runaway)
        do { try space.step(1) } catch {}
        created += 1
    }

    // Some objects outlive their space; some of them join the next one. A static body
    // whose shapes die with the space must come out unlinked from them.
    if round % 10 == 0 { survivors.append(balls[25].0) }
    if round % 10 == 5 {
        let ledge = Body(kind: .static)
        space.add(ledge)
        space.add(Segment(body: ledge, from: [0, 0], to: [1, 0]))
        created += 2
        survivors.append(ledge)
    }
    if round % 50 == 0 { heldGround = space.staticBody }
    balls.removeAll()
    _ = floor
}

// Survivors join one last space, then everything goes.
let last = Space()
for body in survivors {
    last.add(body)
    if body.kind == .static {
        last.add(Segment(body: body, from: [0, 0], to: [2, 0]))
        body.position = [0, -5]  // walks the body's shape list in C
    }
}
try last.step(1.0 / 60)
survivors.removeAll()
heldGround = nil
print("created \(created) bodies and shapes in \(round) spaces")
