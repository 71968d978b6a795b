// Creates and removes many bodies and shapes through every ownership path the binding
// has, so that `scripts/leaks.sh` can run it under valgrind and find any C object not
// freed exactly once. Usage: chipmunk-stress [OBJECTS]   (default 100000)
import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes

#if canImport(Glibc)
    import Glibc
#endif

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
var droppedAsleep = 0
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
    balls[25].0.forEachArbiter { arbiter in _ = arbiter.contactPointSet }
    if round % 3 == 0 { space.remove(spring) }  // some removed, some dropped with the space
    _ = contacts

    // A step refused for divergence must leave nothing behind either.
    if round % 7 == 0 {
        let runaway = Body(mass: 1, moment: 1)
        runaway.position = [0, Parameter.maxCoordinate]
        runaway.velocity = [0, 1e308]
        space.add(runaway)
        do { try space.step(1) } catch {}
        created += 1
    }

    // Sleeping: a stack falls asleep; one sleeping body is frozen (kind changed while
    // asleep), and the space is dropped with the rest still asleep, so the contacts the
    // engine copied for them must be freed (upstream issue #227).
    if round % 5 == 0 {
        let nap = round % 10 == 0 ? Space(threads: round % 20 == 0 ? 2 : 1) : Space()
        nap.gravity = [0, -100]
        nap.sleepTimeThreshold = 0.2
        nap.add(Segment(body: nap.staticBody, from: [-20, 0], to: [20, 0], radius: 0.5, friction: 1))
        var stack: [Body] = []
        for i in 0..<6 {
            let box = Body(mass: 1, moment: Moment.box(mass: 1, width: 2, height: 2))
            box.position = [0, 1.5 + Double(i) * 2]
            nap.add(box, Polygon.box(body: box, width: 2, height: 2, friction: 1))
            stack.append(box)
        }
        created += 13
        for _ in 0..<120 { try nap.step(1.0 / 60) }
        if stack[0].isSleeping {
            // Freezing a sleeping body wakes its group; the other half stay asleep.
            if round % 10 == 0 { stack[5].kind = .static } else { droppedAsleep += 1 }
        }
        // Debug drawing that removes a shape as it goes: the removal waits for the drawing
        // (and wakes the group, so only on the rounds that froze a body already).
        if round % 10 == 0 {
            var drawer = RemovingDrawer(space: nap)
            nap.debugDraw(&drawer)
        }
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

/// A debug drawer that removes the first shape it is asked to colour.
struct RemovingDrawer: DebugDrawer {
    final class Once { var done = false }
    let space: Space
    let once = Once()
    mutating func drawCircle(center: Vector, angle: Double, radius: Double, outline: DebugColor, fill: DebugColor) {}
    mutating func drawSegment(from a: Vector, to b: Vector, color: DebugColor) {}
    mutating func drawFatSegment(from a: Vector, to b: Vector, radius: Double, outline: DebugColor, fill: DebugColor) {}
    mutating func drawPolygon(_ vertices: [Vector], radius: Double, outline: DebugColor, fill: DebugColor) {}
    mutating func drawDot(size: Double, at point: Vector, color: DebugColor) {}
    func fillColor(for shape: Shape) -> DebugColor {
        if !once.done, shape.space === space, shape.body.kind == .dynamic, shape.body.shapes.count == 1 {
            once.done = true
            space.remove(shape, shape.body)
            ensure(shape.space == nil, "Swift sees the removal at once; the engine after the drawing")
        }
        return shape.debugFillColor
    }
}

// Two demos that fall asleep, dropped while asleep: the contacts the engine copied when
// their bodies fell asleep must be freed (upstream issue #227: 1,344 bytes leaked here
// before the binding woke sleeping bodies ahead of cpSpaceFree).
for scene in [Demos.pyramidStack(), Demos.joints()] {
    for _ in 0..<Int((7 / scene.timeStep).rounded()) { try scene.step(scene.timeStep) }
    if scene.space.bodies.contains(where: \.isSleeping) { droppedAsleep += 1 }
    created += scene.space.bodies.count + scene.space.shapes.count
}

// Snapshots: of every built-in scene mid-run, and of the pyramid asleep (its restored
// sleeping contacts are allocated one by one, as the engine's own are); each restored into
// a new space, into a scene built again, and into a space that ran on (whose arbiters go
// back to its pool); stepped, woken, dropped. Damaged bytes are refused.
var restored = 0
for entry in SceneCatalog.builtIn {
    let scene = entry.make()
    let steps = entry.name == "pyramid-stack" ? 1500 : 90
    for _ in 0..<steps { try scene.step(scene.timeStep) }
    let snapshot = scene.snapshot()
    let bare = try Space(restoring: Snapshot(bytes: snapshot.bytes))
    try bare.step(scene.timeStep)
    let again = entry.make()
    try again.restore(snapshot)
    for body in again.space.bodies where body.isSleeping { body.applyImpulse([0, 1], at: body.position) }
    try again.step(again.timeStep)
    for _ in 0..<10 { try scene.step(scene.timeStep) }
    try scene.restore(snapshot)
    try scene.step(scene.timeStep)
    var damaged = snapshot.bytes
    damaged[damaged.count / 3] ^= 1
    ensure((try? Snapshot(bytes: damaged)) == nil, "chipmunk-stress: a damaged snapshot was read")
    restored += 3
}
print("restored \(restored) snapshots")

// A space's static body kept after its space is gone: its shapes died with the space.
if let ground = heldGround {
    ensure(ground.shapes.isEmpty && ground.space == nil, "chipmunk-stress: the held ground kept its shapes or space")
}

// Survivors join one last space, then everything goes.
do {
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
}
print("created \(created) bodies and shapes in \(round) spaces; \(droppedAsleep) dropped with sleeping bodies")

// Valgrind cannot see a C struct leaked inside a slab (the slab's chunk is still in use),
// so the slabs count their own: every C body, shape and constraint must be freed by now.
let live = Engine.liveCObjects
print("C objects still in the slabs: \(live)")
if live != 0 { exit(1) }
