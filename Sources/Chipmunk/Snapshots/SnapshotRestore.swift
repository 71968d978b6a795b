internal import CChipmunk
internal import CChipmunkRuntime

/// Checks a snapshot before anything touches the engine: bytes that passed the checksum
/// can still describe a world no space has (a crafted file), and the engine would abort on
/// it. Every index, count, list and value the restore relies on is checked here.
enum SnapshotCheck {
    /// The most steps and object serials a snapshot may claim: 2^53, where a double still
    /// counts whole steps, and far from the overflow of the counters `step` and `add` raise.
    static let counterLimit: UInt64 = 1 << 53

    static func validate(_ s: SnapshotState) throws(SnapshotError) {
        func fail(_ message: String) -> SnapshotError { .invalid(message) }
        let bodyCount = s.bodies.count
        let shapeCount = s.shapes.count
        let constraintCount = s.constraints.count
        let arbiterCount = s.arbiters.count
        guard bodyCount >= 1, s.bodies[0].kind == 2 else { throw fail("body 0 must be the space's static body") }

        // The space.
        let p = s.space
        for (value, rule) in [
            (p.damping, Parameter.spaceDamping), (p.collisionSlop, .spaceCollisionSlop),
            (p.collisionBias, .spaceCollisionBias), (p.idleSpeedThreshold, .spaceIdleSpeedThreshold),
            (p.sleepTimeThreshold, .spaceSleepTimeThreshold), (Double(p.iterations), .spaceIterations),
            (p.gravity.x, .spaceGravity), (p.gravity.y, .spaceGravity),
        ] where !rule.accepts(value) {
            throw fail("space parameter \(rule) is \(value)")
        }
        guard p.collisionPersistence >= 1, p.collisionPersistence <= UInt64(UInt32.max) else {
            throw fail("space parameter Space.collisionPersistence is \(p.collisionPersistence)")
        }
        guard p.stamp <= UInt64(UInt32.max) else { throw fail("the space's stamp is \(p.stamp)") }
        guard p.currentTimeStep.isFinite, p.currentTimeStep >= 0 else {
            throw fail("the space's current time step is \(p.currentTimeStep)")
        }
        guard p.broadPhase <= 1 else { throw fail("the space's broad phase is \(p.broadPhase)") }
        // The engine sets usesWildcards when a wildcard or default handler is added, and then
        // calls wildcard handlers through each arbiter's handlerA and handlerB, which it fills
        // in only while the flag is set: a flag that disagrees with the handlers left those
        // empty, and the next contact crashed in cpArbiterCallWildcardBeginA.
        let wildcard = UInt64(CChipmunkWildcardCollisionType())
        // A pair handler with the wildcard as its first type only is one the engine finds
        // as a shape's wildcard handler; its default preSolve then calls the arbiter's
        // wildcard handler, itself, until the stack runs out.
        for (i, handler) in s.handlers.enumerated() where handler.typeA == wildcard && handler.typeB != wildcard {
            throw fail("collision handler \(i) has the wildcard type first and type \(handler.typeB) second")
        }
        guard p.usesWildcards == s.handlers.contains(where: { $0.typeB == wildcard }) else {
            throw fail("the space's usesWildcards flag (\(p.usesWildcards)) disagrees with its collision handlers")
        }
        if p.broadPhase == 1 {
            guard Parameter.spatialHashCellSize.accepts(p.hashCellSize) else {
                throw fail("space parameter \(Parameter.spatialHashCellSize) is \(p.hashCellSize)")
            }
            guard Parameter.spatialHashCount.accepts(Double(p.hashCount)) else {
                throw fail("space parameter \(Parameter.spatialHashCount) is \(p.hashCount)")
            }
        }
        // With the spatial hash, coordinates must stay where its int cell indices do.
        if p.broadPhase == 1 {
            let bound = Space.hashPositionBound(cellSize: p.hashCellSize)
            for (i, b) in s.bodies.enumerated() where !(abs(b.position.x) <= bound && abs(b.position.y) <= bound) {
                throw fail("body \(i) is at \(b.position.x), \(b.position.y), past the spatial hash's reach (\(bound))")
            }
            for (i, shape) in s.shapes.enumerated() where !shape.bb.allSatisfy({ abs($0) <= bound }) {
                throw fail("shape \(i)'s bounding box is past the spatial hash's reach (\(bound))")
            }
        }
        // Counters the space increments: a value near the top would overflow on the next step or add.
        guard s.stepsTaken <= Self.counterLimit else { throw fail("stepsTaken is \(s.stepsTaken)") }
        guard p.nextSerial <= Self.counterLimit else { throw fail("the space's next serial is \(p.nextSerial)") }

        // Bodies.
        for (i, b) in s.bodies.enumerated() {
            guard b.kind <= 2 else { throw fail("body \(i) has kind \(b.kind)") }
            let values =
                [
                    b.centerOfGravity.x, b.centerOfGravity.y, b.position.x, b.position.y, b.velocity.x, b.velocity.y,
                    b.force.x, b.force.y, b.angle, b.angularVelocity, b.torque, b.velocityBias.x, b.velocityBias.y,
                    b.angularVelocityBias,
                ] + b.transform
            guard values.allSatisfy(\.isFinite) else { throw fail("body \(i) has a non-finite value") }
            for (value, parameter) in [
                (b.position.x, Parameter.bodyPosition), (b.position.y, .bodyPosition),
                (b.centerOfGravity.x, .bodyCenterOfGravity), (b.centerOfGravity.y, .bodyCenterOfGravity),
                (b.angle, .bodyAngle),
            ] where !parameter.accepts(value) {
                throw fail("body \(i)'s \(parameter) is \(value)")
            }
            // The engine keeps a static body's idle time infinite (it is how the engine tells a
            // static body: one with a finite idle time is kinematic to it, and its shapes
            // would not be in the static index the snapshot puts them in), a kinematic body's
            // at 0 (an idle kinematic body would be put to sleep: "Attempting to deactivate a
            // non-dynamic body"), and a dynamic body's finite.
            let idleTimeIsValid =
                switch b.kind {
                case 0: b.idleTime.isFinite && b.idleTime >= 0
                case 1: b.idleTime == 0
                default: b.idleTime == .infinity
                }
            guard idleTimeIsValid else { throw fail("body \(i) (kind \(b.kind)) has idle time \(b.idleTime)") }
            if b.kind == 0 {
                // Or none, as a body whose shapes carry no mass has (the engine's inverses are
                // then infinite): the space holds it, and its next step throws `massless`, as
                // a restored space's does, since a restore checks every body's mass first.
                guard Parameter.bodyMass.accepts(b.mass) || b.mass == 0,
                    Parameter.bodyMoment.accepts(b.moment) || b.moment == 0
                else {
                    throw fail("dynamic body \(i) has mass \(b.mass) and moment \(b.moment)")
                }
                // The engine trusts the inverses it computed: 0 on a dynamic body aborts the solver.
                guard b.inverseMass == 1 / b.mass, b.inverseMoment == 1 / b.moment else {
                    throw fail(
                        "dynamic body \(i) has inverse mass \(b.inverseMass) and inverse moment \(b.inverseMoment), "
                            + "not 1/mass and 1/moment")
                }
            } else if b.mass != .infinity || b.moment != .infinity || b.inverseMass != 0 || b.inverseMoment != 0 {
                throw fail("body \(i) is not dynamic but has a finite mass or moment")
            }
            for index in [b.sleepingRoot, b.sleepingNext] where index < -1 || Int(index) >= bodyCount {
                throw fail("body \(i) names body \(index) in its sleeping group")
            }
        }

        // Shapes.
        var hashIDs = Set<UInt64>()
        for (i, shape) in s.shapes.enumerated() {
            guard shape.body >= 0, Int(shape.body) < bodyCount else {
                throw fail("shape \(i) names body \(shape.body)")
            }
            guard ShapeGeometry.isValid(kind: shape.kind, count: shape.geometry.count) else {
                throw fail("shape \(i) has kind \(shape.kind) with \(shape.geometry.count) geometry values")
            }
            // A bounding box far past any coordinate (-1e308) hung the broad phase and the renderers.
            // (Finite geometry and boxes follow from their bounds, which NaN fails.) A shape of
            // no area, or one of 1e-323, has no centroid or moment per unit mass (NaN): the
            // engine reads them only for a shape with mass, which `Shape.mass` refuses such a
            // shape (it checks them). A segment's tangents run from an end to a neighbour:
            // twice a coordinate's bound.
            let massless = shape.mass == 0
            let geometryBounds = ShapeGeometry.bounds(kind: shape.kind, count: shape.geometry.count)
            guard
                allFinite(
                    shape.elasticity, shape.friction, shape.surfaceVelocity.x, shape.surfaceVelocity.y, shape.mass,
                    shape.area),
                massless || allFinite(shape.moment, shape.massCenter.x, shape.massCenter.y),
                zip(shape.geometry, geometryBounds).allSatisfy({ abs($0) <= $1 }),
                shape.bb.allSatisfy({ abs($0) <= 100 * Parameter.maxCoordinate }),
                shape.friction >= 0, shape.elasticity >= 0, shape.mass >= 0,
                // Their rules' cap: the engine multiplies two shapes' per contact.
                shape.friction <= Parameter.maxCoefficient, shape.elasticity <= Parameter.maxCoefficient,
                Parameter.shapeSurfaceVelocity.accepts(Vector(x: shape.surfaceVelocity.x, y: shape.surfaceVelocity.y))
            else { throw fail("shape \(i) has a non-finite or out-of-range value") }
            guard shape.hashID < p.shapeIDCounter, hashIDs.insert(shape.hashID).inserted else {
                throw fail("shape \(i) has id \(shape.hashID), repeated or not below the space's counter")
            }
        }

        // Constraints.
        for (i, c) in s.constraints.enumerated() {
            guard let kind = ConstraintKind(rawValue: c.kind), c.values.count == kind.valueCount else {
                throw fail("constraint \(i) has kind \(c.kind) with \(c.values.count) values")
            }
            guard c.bodyA >= 0, c.bodyB >= 0, Int(c.bodyA) < bodyCount, Int(c.bodyB) < bodyCount, c.bodyA != c.bodyB,
                s.bodies[Int(c.bodyA)].kind == 0 || s.bodies[Int(c.bodyB)].kind == 0
            else { throw fail("constraint \(i) joins bodies \(c.bodyA) and \(c.bodyB)") }
            // Each value keeps the rule its setter applies (a pin's distance of 1.7e308, or a
            // negative error bias, which the engine raises to a fractional power, stepped
            // into NaN), and what no setter takes is finite.
            for (index, (value, parameter)) in zip(c.values, ConstraintFields.parameters(of: kind)).enumerated() {
                if let parameter, !parameter.accepts(value) {
                    throw fail("constraint \(i)'s \(parameter) must be \(parameter.rule) (got \(value))")
                }
                if parameter == nil, !value.isFinite {
                    throw fail("constraint \(i)'s value \(index) (\(kind)) must be finite (got \(value))")
                }
            }
            for (value, parameter) in [
                (c.errorBias, Parameter.constraintErrorBias), (c.maxForce, .constraintMaxForce),
                (c.maxBias, .constraintMaxBias),
            ] where !parameter.accepts(value) {
                throw fail("constraint \(i)'s \(parameter) must be \(parameter.rule) (got \(value))")
            }
            // grv_a, grv_b, grv_n: a groove of no length, or a zero normal, steps into NaN.
            if kind == .groove {
                let v = c.values
                guard GrooveJoint.hasLength(from: Vector(x: v[0], y: v[1]), to: Vector(x: v[2], y: v[3])),
                    v[4] * v[4] + v[5] * v[5] > 0
                else { throw fail("constraint \(i) is a groove of no length, or with a zero normal") }
            }
            // phase, ratio, ratio_inv: the ratio as its rule takes it, and its inverse the engine's.
            if kind == .gear {
                guard Parameter.gearRatio.accepts(c.values[1]), c.values[2] == 1 / c.values[1] else {
                    throw fail("constraint \(i) is a gear of ratio \(c.values[1]) and inverse \(c.values[2])")
                }
            }
        }

        // Arbiters.
        for (i, a) in s.arbiters.enumerated() {
            guard a.shapeA >= 0, a.shapeB >= 0, Int(a.shapeA) < shapeCount, Int(a.shapeB) < shapeCount,
                s.shapes[Int(a.shapeA)].body != s.shapes[Int(a.shapeB)].body
            else { throw fail("arbiter \(i) names shapes \(a.shapeA) and \(a.shapeB)") }
            guard a.state <= 4, a.contacts.count <= 2, a.stamp <= p.stamp else {
                throw fail("arbiter \(i) has state \(a.state), \(a.contacts.count) contacts, stamp \(a.stamp)")
            }
            guard
                allFinite(a.normal.x, a.normal.y),
                // An arbiter's elasticity, friction and surface velocity are the products of
                // its shapes' (1e300 each gave infinity), set again whenever the pair collides,
                // and a contact's masses, bounce, bias and bias impulse are written by the
                // step's prestep before anything reads them; so they are not checked (a
                // restitution of 1e300 left an infinite bounce in a snapshot that was then
                // refused). What is not finite among them leads at most to a velocity that
                // is not, which the step refuses. The impulses warm the next step.
                a.contacts.allSatisfy({
                    allFinite($0.r1.x, $0.r1.y, $0.r2.x, $0.r2.y, $0.normalImpulse, $0.tangentImpulse)
                })
            else { throw fail("arbiter \(i) has a non-finite value") }
        }
        var pairs = Set<UInt64>(minimumCapacity: arbiterCount)
        for a in s.arbiters {
            let (low, high) = (UInt32(min(a.shapeA, a.shapeB)), UInt32(max(a.shapeA, a.shapeB)))
            guard pairs.insert(UInt64(low) << 32 | UInt64(high)).inserted else {
                throw fail("two arbiters for shapes \(a.shapeA) and \(a.shapeB)")
            }
        }

        // Serials: unique, and below the space's next one.
        let serials = s.bodies.dropFirst().map(\.serial) + s.shapes.map(\.serial) + s.constraints.map(\.serial)
        guard Set(serials).count == serials.count, serials.allSatisfy({ $0 < p.nextSerial }) else {
            throw fail("object serials repeat or are not below the space's next serial")
        }

        // Sleeping groups: every root listed once, each chain made of its own members.
        let isSleeping = s.bodies.map { $0.sleepingRoot >= 0 }
        var reached = Array(repeating: false, count: bodyCount)
        for root in s.sleepingComponents {
            guard root >= 0, Int(root) < bodyCount, s.bodies[Int(root)].sleepingRoot == root else {
                throw fail("sleeping group \(root) is not a root")
            }
            var body = Int(root)
            while body >= 0 {
                guard !reached[body], s.bodies[body].sleepingRoot == root, s.bodies[body].kind == 0 else {
                    throw fail("sleeping group \(root) is inconsistent at body \(body)")
                }
                reached[body] = true
                body = Int(s.bodies[body].sleepingNext)
            }
        }
        guard reached == isSleeping else { throw fail("a sleeping body is in no sleeping group") }
        // Sleeping off with bodies asleep: the engine's next steps abort (Space.sleepTimeThreshold).
        guard s.sleepingComponents.isEmpty || p.sleepTimeThreshold < .infinity else {
            throw fail("bodies sleep while sleepTimeThreshold is infinite (sleeping off), which the engine cannot step")
        }
        guard !s.bodies.contains(where: { $0.sleepingRoot < 0 && $0.sleepingNext >= 0 }) else {
            throw fail("an awake body has a next body in a sleeping group")
        }

        // The engine's arrays.
        try requirePermutation(
            s.dynamicBodies, of: (1..<bodyCount).filter { s.bodies[$0].kind != 2 && !isSleeping[$0] },
            "the active bodies")
        try requirePermutation(
            s.staticBodies, of: (1..<bodyCount).filter { s.bodies[$0].kind == 2 }, "the static bodies")
        let activeConstraints = (0..<constraintCount).filter {
            !isSleeping[Int(s.constraints[$0].bodyA)] && !isSleeping[Int(s.constraints[$0].bodyB)]
        }
        try requirePermutation(s.activeConstraints, of: activeConstraints, "the active constraints")
        // An active arbiter may hold no contact: a body turned static forgets its contacts
        // with static bodies (KindChange.c) while the arbiter stays active until the next
        // step, which drops it from the list (a snapshot of that space could not be read).
        var active = Array(repeating: false, count: arbiterCount)
        for a in s.activeArbiters {
            guard a >= 0, Int(a) < arbiterCount, !active[Int(a)], s.arbiters[Int(a)].isCached
            else { throw fail("the active arbiters") }
            active[Int(a)] = true
        }

        // Each body's lists.
        // Each body's shapes and constraints, gathered once (a filter of every shape for
        // each body made restoring quadratic: 20,000 bodies took 27 s).
        var shapesOf = Array(repeating: [Int](), count: bodyCount)
        for (k, shape) in s.shapes.enumerated() { shapesOf[Int(shape.body)].append(k) }
        var constraintsOf = Array(repeating: [Int](), count: bodyCount)
        for (k, constraint) in s.constraints.enumerated() {
            constraintsOf[Int(constraint.bodyA)].append(k)
            if constraint.bodyB != constraint.bodyA { constraintsOf[Int(constraint.bodyB)].append(k) }
        }
        var threadedCount = Array(repeating: 0, count: arbiterCount)
        for (i, b) in s.bodies.enumerated() {
            try requirePermutation(b.shapeList, of: shapesOf[i], "body \(i)'s shapes")
            try requirePermutation(b.constraintList, of: constraintsOf[i], "body \(i)'s constraints")
            guard !hasRepeats(b.arbiterList) else { throw fail("body \(i) lists an arbiter twice") }
            for a in b.arbiterList {
                guard a >= 0, Int(a) < arbiterCount else { throw fail("body \(i) names arbiter \(a)") }
                let arbiter = s.arbiters[Int(a)]
                guard s.shapes[Int(arbiter.shapeA)].body == i || s.shapes[Int(arbiter.shapeB)].body == i else {
                    throw fail("body \(i) lists arbiter \(a), which is not its own")
                }
                threadedCount[Int(a)] += 1
            }
        }
        for (i, a) in s.arbiters.enumerated() {
            let touchesSleeper =
                isSleeping[Int(s.shapes[Int(a.shapeA)].body)] || isSleeping[Int(s.shapes[Int(a.shapeB)].body)]
            guard threadedCount[i] == 0 || threadedCount[i] == 2 else {
                throw fail("arbiter \(i) is in one of its bodies' lists only")
            }
            if active[i] {
                guard threadedCount[i] == 2, !touchesSleeper else {
                    throw fail("active arbiter \(i) is not in its bodies' lists")
                }
            } else if !a.isCached {
                guard threadedCount[i] == 2, touchesSleeper, a.contacts.count > 0 else {
                    throw fail("arbiter \(i) is neither cached nor a sleeping body's")
                }
            } else if threadedCount[i] != 0 {
                throw fail("cached arbiter \(i) is in its bodies' lists but not active")
            }
        }

        // With the spatial hash, every shape must fit it as `Space.add` requires it to
        // (``Space/maxSpatialHashCells``, a moving shape counted in any rotation): a cell size
        // patched to 1e-4, or a ball's radius to 1e6, with the checksum rewritten, made the
        // restore's rebuild walk 2e11 cells (a helper's attack).
        if s.space.broadPhase == 1 {
            for (i, shape) in s.shapes.enumerated() {
                let (l, b, r, t) = insertionBox(of: shape, transform: s.bodies[Int(shape.body)].transform)
                let cells = Space.hashCells(
                    of: cpBB(l: l, b: b, r: r, t: t), onStaticBody: s.bodies[Int(shape.body)].kind == 2,
                    cellSize: s.space.hashCellSize)
                guard cells <= Double(Space.maxSpatialHashCells) else {
                    throw fail(
                        "shape \(i) \(ChipmunkError.tooManyHashCells(cells: cells, cellSize: s.space.hashCellSize))")
                }
            }
        }

        // The default broad phase's history, when the snapshot holds it.
        try SnapshotBroadPhase.validate(s)
        try SnapshotSpatialHash.validate(s)
    }

    /// What a valid snapshot needs of the space it is restored into and of the loaded
    /// engine, checked at every restore: the layout of the broad phase whose history it
    /// holds, and room for the pairs its shapes overlap in (``checkOverlaps(_:limit:)``)
    /// within the space's ``Space/maxContactPairs`` (or its default for the snapshot's
    /// shapes). `overlapsPassed` is the lowest limit the snapshot passed before, if any.
    static func checkFit(_ s: SnapshotState, into space: Space, overlapsPassed: Int) throws(SnapshotError) -> Int {
        guard s.broadPhase.isEmpty || SnapshotBroadPhase.layoutIsKnown,
            s.spatialHash.isEmpty || SnapshotSpatialHash.layoutIsKnown
        else { throw .broadPhaseLayoutUnknown(engineVersion: Engine.version) }
        let limit = space.maxContactPairs ?? Space.defaultContactPairLimit(shapes: s.shapes.count)
        guard limit < overlapsPassed else { return overlapsPassed }
        try checkOverlaps(s, limit: limit)
        return limit
    }

    /// A pile: shapes whose boxes overlap in more pairs than `limit` (the space's
    /// ``Space/maxContactPairs``). Restoring adds each shape to the broad phase,
    /// which pairs it with every box it overlaps at once, widened by a tenth as the tree
    /// widens them: 15,000 circles on one point took over 4 GB. The boxes are those the
    /// engine will compute, from each shape's geometry and its body's transform (not the
    /// recorded boxes, which a crafted file could set apart), counted by a sweep along the
    /// axis the shapes spread most on, stopping at the limit.
    static func checkOverlaps(_ s: SnapshotState, limit: Int) throws(SnapshotError) {
        let isStatic = SnapshotBroadPhase.staticMembership(s)
        let boxes = s.shapes.map { shape in
            let box = insertionBox(of: shape, transform: s.bodies[Int(shape.body)].transform)
            let (x, y) = ((box.2 - box.0) * 0.1, (box.3 - box.1) * 0.1)
            return (box.0 - x, box.1 - y, box.2 + x, box.3 + y)
        }
        guard boxes.count > 1 else { return }
        let spreadX = (boxes.map(\.0).max()! - boxes.map(\.0).min()!)
        let spreadY = (boxes.map(\.1).max()! - boxes.map(\.1).min()!)
        // Along x: (low, high) on the sweep's axis and on the other.
        let alongX = spreadX >= spreadY
        let spans = boxes.map { b in alongX ? (b.0, b.2, b.1, b.3) : (b.1, b.3, b.0, b.2) }
        let order = spans.indices.sorted { spans[$0].0 < spans[$1].0 }
        var count = 0
        for (position, i) in order.enumerated() {
            let a = spans[i]
            for j in order[(position + 1)...] {
                let b = spans[j]
                if b.0 > a.1 { break }
                guard b.2 <= a.3, a.2 <= b.3, !(isStatic[i] && isStatic[j]) else { continue }
                count += 1
                if count > limit {
                    throw .invalid(
                        "more than \(limit) pairs of shapes overlap (shape \(i) with shape \(j) among them): "
                            + "the engine would pair each as the shapes are added; to restore it, raise "
                            + "Space.maxContactPairs of the space restored into")
                }
            }
        }
    }

    /// The box `cpShapeUpdate` gives a validated shape record on a body with `transform`:
    /// its points (a circle's centre, a segment's ends, a polygon's vertices) placed by the
    /// transform, widened by its radius.
    static func insertionBox(of shape: ShapeRecord, transform t: [Double]) -> (Double, Double, Double, Double) {
        insertionBox(kind: shape.kind, geometry: shape.geometry, transform: t)
    }

    /// The box `cpShapeUpdate` gives a shape of `kind` (0 circle, 1 segment, 2 polygon)
    /// with geometry `g` as ``ShapeGeometry/read(_:)`` gives it, on a body with `transform`.
    static func insertionBox(kind: UInt8, geometry g: [Double], transform t: [Double]) -> (
        Double, Double, Double, Double
    ) {
        let (points, radius): ([(Double, Double)], Double) =
            switch kind {
            case 0: ([(g[0], g[1])], g[2])
            case 1: ([(g[0], g[1]), (g[2], g[3])], g[6])
            default: (stride(from: 1, to: g.count, by: 4).map { (g[$0], g[$0 + 1]) }, g[0])
            }
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for (x, y) in points {
            let (wx, wy) = (t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5])
            box = (min(box.0, wx), min(box.1, wy), max(box.2, wx), max(box.3, wy))
        }
        return (box.0 - radius, box.1 - radius, box.2 + radius, box.3 + radius)
    }

    /// `list` holds what `expected` does (which has no repeats), each once, in any order.
    private static func requirePermutation(_ list: [Int32], of expected: [Int], _ what: String) throws(SnapshotError) {
        guard list.count == expected.count, list.isEmpty || list.map(Int.init).sorted() == expected.sorted() else {
            throw .invalid("\(what) are listed wrongly")
        }
    }

    /// Whether a value repeats in `list` (a body's arbiters: a few).
    private static func hasRepeats(_ list: [Int32]) -> Bool {
        guard list.count > 1 else { return false }
        let sorted = list.sorted()
        return zip(sorted, sorted.dropFirst()).contains { $0 == $1 }
    }

    /// Whether every value is finite.
    @inline(__always)
    private static func allFinite(_ values: Double...) -> Bool { values.allSatisfy(\.isFinite) }
}

/// Writes a validated snapshot into a space of the same structure.
struct SnapshotRestore {
    let space: Space
    let state: SnapshotState

    func run() {
        let h = space.handle
        let s = state

        // 1. Every body awake and every arbiter back in the pool: a known starting point.
        CChipmunkWakeAllBeforeFree(h)
        CChipmunkDropArbiters(h)

        // 2. Collision handler wiring, before arbiters look their handlers up.
        for handler in s.handlers {
            space.ensureCollisionHandler(cpCollisionType(handler.typeA), cpCollisionType(handler.typeB))
        }

        // 3. The space's parameters and counters.
        let p = s.space
        h.pointee.iterations = p.iterations
        h.pointee.gravity = p.gravity.cp
        h.pointee.damping = p.damping
        h.pointee.idleSpeedThreshold = p.idleSpeedThreshold
        h.pointee.sleepTimeThreshold = p.sleepTimeThreshold
        h.pointee.collisionSlop = p.collisionSlop
        h.pointee.collisionBias = p.collisionBias
        h.pointee.collisionPersistence = cpTimestamp(p.collisionPersistence)
        h.pointee.stamp = cpTimestamp(p.stamp)
        // A contact buffer stamped now: waking a restored sleeping group copies its contacts
        // into the newest buffer, which the engine recycles only once it is older than the
        // collision persistence. (A buffer stamped before the restore would be recycled at
        // the next step, under the contacts it holds.) The ring's buffers are all free now
        // (step 1 pooled every arbiter): recycled, not grown by one at each restore.
        CChipmunkSpaceRecycleContactRing(UnsafeMutableRawPointer(h))
        h.pointee.curr_dt = p.currentTimeStep
        h.pointee.shapeIDCounter = cpHashValue(p.shapeIDCounter)
        // The flag stays set if the space has wildcard or default handlers of its own (added
        // by the code that built it, or just now for the snapshot's): the engine calls them
        // through each arbiter's wildcard handlers, which it fills in only while the flag is
        // set. (A crafted snapshot of a scene with such handlers, saying it had none, left
        // the flag clear and crashed the engine at the next contact.)
        h.pointee.usesWildcards = p.usesWildcards || h.pointee.usesWildcards != 0 ? 1 : 0
        space.spatialHash = p.broadPhase == 1 ? (p.hashCellSize, Int(p.hashCount)) : nil

        // 4. Bodies, shapes and constraints.
        let bodies = ([space.staticBody] + space.bodies).map(\.handle)
        let shapes = space.shapes.map(\.handle)
        let constraints = space.constraints.map(\.handle)
        for (handle, r) in zip(bodies, s.bodies) {
            handle.pointee.m = r.mass
            handle.pointee.m_inv = r.inverseMass
            handle.pointee.i = r.moment
            handle.pointee.i_inv = r.inverseMoment
            handle.pointee.cog = r.centerOfGravity.cp
            handle.pointee.p = r.position.cp
            handle.pointee.v = r.velocity.cp
            handle.pointee.f = r.force.cp
            handle.pointee.a = r.angle
            handle.pointee.w = r.angularVelocity
            handle.pointee.t = r.torque
            handle.pointee.transform = r.engineTransform
            handle.pointee.v_bias = r.velocityBias.cp
            handle.pointee.w_bias = r.angularVelocityBias
            handle.pointee.sleeping.idleTime = r.idleTime
            handle.pointee.sleeping.root = r.sleepingRoot >= 0 ? bodies[Int(r.sleepingRoot)] : nil
            handle.pointee.sleeping.next = r.sleepingNext >= 0 ? bodies[Int(r.sleepingNext)] : nil
        }
        for (handle, r) in zip(shapes, s.shapes) {
            ShapeGeometry.write(handle, r.geometry)
            handle.pointee.hashid = cpHashValue(r.hashID)
            handle.pointee.sensor = r.isSensor ? 1 : 0
            handle.pointee.e = r.elasticity
            handle.pointee.u = r.friction
            handle.pointee.surfaceV = r.surfaceVelocity.cp
            handle.pointee.type = cpCollisionType(r.collisionType)
            handle.pointee.filter = cpShapeFilter(group: cpGroup(r.group), categories: r.categories, mask: r.mask)
            handle.pointee.massInfo = cpShapeMassInfo(m: r.mass, i: r.moment, cog: r.massCenter.cp, area: r.area)
            cpShapeUpdate(handle, handle.pointee.body.pointee.transform)
            handle.pointee.bb = cpBB(l: r.bb[0], b: r.bb[1], r: r.bb[2], t: r.bb[3])
        }
        for (handle, r) in zip(constraints, s.constraints) {
            handle.pointee.maxForce = r.maxForce
            handle.pointee.errorBias = r.errorBias
            handle.pointee.maxBias = r.maxBias
            handle.pointee.collideBodies = r.collideBodies ? 1 : 0
            ConstraintFields.write(handle, ConstraintKind(rawValue: r.kind)!, r.values)
        }

        // 5. Arbiters: from the space's pool, or from a block the space frees after the engine.
        let arbiters = makeArbiters(h, shapes: shapes)

        // 6. The engine's arrays and each body's lists, in the snapshot's order.
        fill(h.pointee.dynamicBodies, s.dynamicBodies.map { UnsafeMutableRawPointer(bodies[Int($0)]) })
        fill(h.pointee.staticBodies, s.staticBodies.map { UnsafeMutableRawPointer(bodies[Int($0)]) })
        fill(h.pointee.sleepingComponents, s.sleepingComponents.map { UnsafeMutableRawPointer(bodies[Int($0)]) })
        fill(h.pointee.constraints, s.activeConstraints.map { UnsafeMutableRawPointer(constraints[Int($0)]) })
        fill(h.pointee.arbiters, s.activeArbiters.map { UnsafeMutableRawPointer(arbiters[Int($0)]) })
        for (body, r) in zip(bodies, s.bodies) {
            let shapeList = r.shapeList.map { shapes[Int($0)] }
            body.pointee.shapeList = shapeList.first
            for (k, shape) in shapeList.enumerated() {
                shape.pointee.prev = k > 0 ? shapeList[k - 1] : nil
                shape.pointee.next = k + 1 < shapeList.count ? shapeList[k + 1] : nil
            }
            let constraintList = r.constraintList.map { constraints[Int($0)] }
            body.pointee.constraintList = constraintList.first
            for (k, constraint) in constraintList.enumerated() {
                let next = k + 1 < constraintList.count ? constraintList[k + 1] : nil
                if constraint.pointee.a == body {
                    constraint.pointee.next_a = next
                } else {
                    constraint.pointee.next_b = next
                }
            }
            let arbiterList = r.arbiterList.map { arbiters[Int($0)] }
            body.pointee.arbiterList = arbiterList.first
            for (k, arbiter) in arbiterList.enumerated() {
                let thread = cpArbiterThread(
                    next: k + 1 < arbiterList.count ? arbiterList[k + 1] : nil, prev: k > 0 ? arbiterList[k - 1] : nil)
                if arbiter.pointee.body_a == body {
                    arbiter.pointee.thread_a = thread
                } else {
                    arbiter.pointee.thread_b = thread
                }
            }
        }

        // 7. A new broad-phase index, in id order, with sleeping shapes in the static one;
        // then, when the snapshot holds the default broad phase's history, that history.
        space.rebuildBroadPhase()
        if let broadPhase = s.broadPhase.first { SnapshotBroadPhase.restore(broadPhase, into: space) }
        if let spatialHash = s.spatialHash.first { SnapshotSpatialHash.restore(spatialHash, into: space) }
    }

    private func fill(_ array: UnsafeMutablePointer<cpArray>, _ objects: [UnsafeMutableRawPointer]) {
        array.pointee.num = 0
        for object in objects { CChipmunkArrayPush(array, object) }
    }

    private func makeArbiters(_ h: UnsafeMutablePointer<cpSpace>, shapes: [UnsafeMutablePointer<cpShape>])
        -> [UnsafeMutablePointer<cpArbiter>]
    {
        let records = state.arbiters
        var fresh: UnsafeMutablePointer<cpArbiter>? = nil
        var freshLeft = 0
        var made: [UnsafeMutablePointer<cpArbiter>] = []
        for r in records {
            let arbiter: UnsafeMutablePointer<cpArbiter>
            if let pooled = CChipmunkPopPooledArbiter(h) {
                arbiter = pooled
            } else {
                if freshLeft == 0 {
                    freshLeft = records.count - made.count
                    fresh = .allocate(capacity: freshLeft)
                    space.cSpace.adopt(UnsafeMutableRawPointer(fresh!)) {
                        $0.assumingMemoryBound(to: cpArbiter.self).deallocate()
                    }
                }
                arbiter = fresh!
                fresh = fresh! + 1
                freshLeft -= 1
            }
            cpArbiterInit(arbiter, shapes[Int(r.shapeA)], shapes[Int(r.shapeB)])
            arbiter.pointee.e = r.elasticity
            arbiter.pointee.u = r.friction
            arbiter.pointee.surface_vr = r.surfaceVelocity.cp
            arbiter.pointee.n = r.normal.cp
            arbiter.pointee.stamp = cpTimestamp(r.stamp)
            arbiter.pointee.state = cpArbiterState(rawValue: UInt32(r.state))
            arbiter.pointee.count = Int32(r.contacts.count)
            let contacts: UnsafeMutablePointer<cpContact>?
            if r.contacts.isEmpty {
                contacts = nil
            } else if r.isCached {
                // Where the engine keeps cached contacts: its buffer, stamped now, which it
                // recycles only after these arbiters have expired or found new contacts.
                contacts = cpContactBufferGetArray(h)
                cpSpacePushContacts(h, Int32(r.contacts.count))
            } else {
                // Sleeping arbiters' contacts are allocated one by one, as the engine does:
                // it frees them when the bodies wake.
                contacts = calloc(r.contacts.count, MemoryLayout<cpContact>.stride)!.assumingMemoryBound(
                    to: cpContact.self)
            }
            for (k, c) in r.contacts.enumerated() {
                contacts![k] = cpContact(
                    r1: c.r1.cp, r2: c.r2.cp, nMass: c.normalMass, tMass: c.tangentMass, bounce: c.bounce,
                    jnAcc: c.normalImpulse, jtAcc: c.tangentImpulse, jBias: c.biasImpulse, bias: c.bias,
                    hash: cpHashValue(c.hash))
            }
            arbiter.pointee.contacts = contacts
            CChipmunkArbiterSetHandlers(h, arbiter)
            if r.isCached { CChipmunkCacheArbiter(h, arbiter) }
            made.append(arbiter)
        }
        return made
    }
}
