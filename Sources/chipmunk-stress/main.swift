// Creates and removes many bodies and shapes through every ownership path the binding
// has, so that `scripts/leaks.sh` can run it under valgrind and find any C object not
// freed exactly once. Usage: chipmunk-stress [OBJECTS]   (default 100000)
import Chipmunk

let target = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
var created = 0

@MainActor func makeBall(at position: Vector) throws -> (Body, Shape) {
    let body = try Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 1))
    try body.setPosition(position)
    created += 2
    return (body, try Circle(body: body, radius: 1, friction: 0.5))
}

var survivors: [Body] = []
var heldGround: Body?
var round = 0
while created < target {
    round += 1
    let space = Space()
    space.gravity = [0, -100]
    let floor = try Segment(body: space.staticBody, from: [-100, 0], to: [100, 0], radius: 1)
    try space.add(floor)
    created += 1

    // Bodies and shapes added, stepped, then half removed while unlocked.
    var balls: [(Body, Shape)] = []
    for i in 0..<40 {
        let ball = try makeBall(at: [Double(i % 20) * 3 - 30, Double(i / 20) * 3 + 2])
        try space.add(ball.0)
        try space.add(ball.1)
        balls.append(ball)
    }
    for _ in 0..<5 { try space.step(1.0 / 60) }
    for (body, shape) in balls.prefix(20) {
        try space.remove(shape)
        try space.remove(body)
    }

    // Adds and removes deferred from inside a step.
    let driver = balls[39].0
    var pendingAdds: [(Body, Shape)] = []
    for i in 0..<4 { pendingAdds.append(try makeBall(at: [Double(i) * 3, 20])) }
    let victim = balls[30]
    driver.velocityUpdate = { body, gravity, damping, dt in
        if let (b, s) = pendingAdds.popLast() {
            try space.add(b)
            try space.add(s)
        }
        if victim.1.space != nil {
            try space.remove(victim.1)
            try space.remove(victim.0)
        }
        try body.updateVelocity(gravity: gravity, damping: damping, dt: dt)
    }
    for _ in 0..<5 { try space.step(1.0 / 60) }
    driver.velocityUpdate = nil

    // Objects misused: every refusal must leave nothing behind.
    _ = try? Body(mass: -1, moment: 1)
    _ = try? Circle(body: driver, radius: .nan)
    if let (b, s) = try? makeBall(at: [0, 0]) {
        _ = try? space.add(s)          // body not in the space
        _ = try? space.remove(b)       // not in the space
    }

    // Some objects outlive their space; some of them join the next one. A static body
    // whose shapes die with the space must come out unlinked from them.
    if round % 10 == 0 { survivors.append(balls[25].0) }
    if round % 10 == 5 {
        let ledge = Body(kind: .static)
        try space.add(ledge)
        try space.add(Segment(body: ledge, from: [0, 0], to: [1, 0]))
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
    try last.add(body)
    if body.kind == .static {
        try last.add(Segment(body: body, from: [0, 0], to: [2, 0]))
        try body.setPosition([0, -5])  // walks the body's shape list in C
    }
}
try last.step(1.0 / 60)
survivors.removeAll()
heldGround = nil
print("created \(created) bodies and shapes in \(round) spaces")
