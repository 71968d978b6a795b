import Testing
@testable import Chipmunk

/// Who holds what: a space holds what was added, a shape holds its body, nothing holds the
/// space. Each C object is freed in its wrapper's deinit; weak references prove when.
@Suite struct OwnershipTests {
    @Test func aSpaceHoldsWhatWasAddedAndFreesItWhenDropped() throws {
        weak var weakSpace: Space?
        weak var weakBody: Body?
        weak var weakShape: Shape?
        do {
            let space = Space()
            weakSpace = space
            do {
                let body = Body(mass: 1, moment: 1)
                let shape = Circle(body: body, radius: 1)
                space.add(body)
                space.add(shape)
                weakBody = body
                weakShape = shape
            }
            #expect(weakBody != nil && weakShape != nil, "the space holds them")
            try space.step(1.0 / 60)
        }
        #expect(weakSpace == nil)
        #expect(weakShape == nil)
        #expect(weakBody == nil)
    }

    @Test func removingThenDroppingFrees() throws {
        let space = Space()
        weak var weakBody: Body?
        weak var weakShape: Shape?
        do {
            let body = Body(mass: 1, moment: 1)
            let shape = Polygon.box(body: body, width: 1, height: 1)
            space.add(body)
            space.add(shape)
            weakBody = body
            weakShape = shape
            try space.step(1.0 / 60)
            space.remove(shape)
            space.remove(body)
        }
        #expect(weakShape == nil)
        #expect(weakBody == nil)
        #expect(space.bodies.isEmpty && space.shapes.isEmpty)
    }

    @Test func aShapeHoldsItsBody() throws {
        weak var weakBody: Body?
        let shape: Shape
        do {
            let body = Body(mass: 1, moment: 1)
            weakBody = body
            shape = Circle(body: body, radius: 1)
        }
        #expect(weakBody != nil)
        #expect(shape.body === weakBody)
    }

    @Test func objectsDoNotHoldTheirSpace() throws {
        let body = Body(mass: 1, moment: 1)
        weak var weakSpace: Space?
        do {
            let space = Space()
            weakSpace = space
            space.add(body)
            #expect(body.space === space)
        }
        #expect(weakSpace == nil)
        #expect(body.space == nil)
    }

    /// The space's own static body lives inside the C space; its wrapper never frees it,
    /// and keeps the C space's memory alive if it outlives the Space.
    @Test func theStaticBodyOutlivesItsSpaceSafely() throws {
        weak var weakSpace: Space?
        let ground: Body
        let wall: Segment
        do {
            let space = Space()
            weakSpace = space
            ground = space.staticBody
            #expect(ground.isSpaceStaticBody && ground.kind == .static)
            #expect(space.contains(ground) && !space.bodies.contains { $0 === ground })
            wall = Segment(body: ground, from: [0, 0], to: [10, 0])
            space.add(wall)
            try space.step(1.0 / 60)
        }
        #expect(weakSpace == nil)
        #expect(ground.space == nil && wall.space == nil)
        #expect(ground.position == .zero)
        #expect(wall.body === ground && wall.end == [10, 0])
        // Its shapes are read from its (gone) space, never from freed engine memory.
        #expect(ground.shapes.isEmpty && ground.constraints.isEmpty)
    }

    /// Objects still referenced when their space goes are taken out of it first, so they
    /// can join another space without the engine seeing them as "already added".
    @Test func survivorsOfADroppedSpaceJoinAnother() throws {
        let body = Body(mass: 1, moment: 1)
        let shape = Circle(body: body, radius: 1)
        do {
            let space = Space()
            space.add(body)
            space.add(shape)
            try space.step(1.0 / 60)
        }
        #expect(body.space == nil && shape.space == nil)
        let next = Space()
        next.gravity = [0, -10]
        next.add(body)
        next.add(shape)
        try next.step(1.0 / 60)
        #expect(body.velocity.y < 0)
    }

    /// A pile that outlives its space (held by a state saved from it), half asleep and half
    /// touching, leaves it with no arbiter linked to a body, and steps in another space as a
    /// new pile does.
    @Test func aPileThatOutlivesItsSpaceKeepsNoArbiters() throws {
        func pile(in space: Space, x: Double) -> [(Body, Shape)] {
            (0..<6).map { i in
                let box = Body(mass: 1, moment: 1)
                box.position = [x, 0.5 + Double(i)]
                let shape = Polygon.box(body: box, width: 1, height: 1, friction: 0.8)
                space.add(box, shape)
                return (box, shape)
            }
        }
        var state = SpaceState()
        let (sleeping, awake): ([(Body, Shape)], [(Body, Shape)])
        do {
            let space = Space()
            space.gravity = [0, -10]
            space.sleepTimeThreshold = 0.5
            space.add(Segment(body: space.staticBody, from: [-20, 0], to: [20, 0]))
            sleeping = pile(in: space, x: -5)
            for _ in 0..<240 { try space.step(1.0 / 60) }
            awake = pile(in: space, x: 5)
            for _ in 0..<20 { try space.step(1.0 / 60) }
            #expect(sleeping.allSatisfy(\.0.isSleeping) && !awake.contains(where: \.0.isSleeping))
            space.save(into: &state)
        }
        for (body, _) in sleeping + awake {
            #expect(body.space == nil && !body.isSleeping)
            #expect(body.handle.pointee.arbiterList == nil)
        }
        let next = Space()
        next.gravity = [0, -10]
        next.add(Segment(body: next.staticBody, from: [-20, -3], to: [20, -3]))
        for (body, shape) in sleeping + awake { next.add(body, shape) }
        for _ in 0..<120 { try next.step(1.0 / 60) }
        #expect(sleeping[0].0.position.y < 0 && awake[0].0.position.y < 0)
    }

    /// A body that outlives its space while its shape dies with it must not stay linked to
    /// the freed shape (the engine walks a body's shapes when it reindexes or sleeps it).
    @Test func aSurvivorIsUnlinkedFromShapesThatDied() throws {
        let ledge = Body(kind: .static)
        do {
            let space = Space()
            space.add(ledge)
            space.add(Segment(body: ledge, from: [0, 0], to: [10, 0]))
            space.add(Segment(body: ledge, from: [10, 0], to: [20, 0]))
            #expect(ledge.engineShapes().count == 2)
        }
        #expect(ledge.engineShapes().isEmpty)
        let next = Space()
        next.add(ledge)
        let shape = Segment(body: ledge, from: [0, 0], to: [5, 0])
        next.add(shape)
        ledge.position = [1, 1]  // reindexes every shape the engine links to the body
        #expect(ledge.engineShapes() == [shape.handle])
        #expect(shape.boundingBox.left == 1)
    }

    @Test func theSpaceListsObjectsInInsertionOrder() throws {
        let space = Space()
        let bodies = (0..<5).map { _ in Body(mass: 1, moment: 1) }
        for body in bodies { space.add(body) }
        space.remove(bodies[1])
        #expect(space.bodies.map(ObjectIdentifier.init) == [0, 2, 3, 4].map { ObjectIdentifier(bodies[$0]) })
        let shapes = bodies.filter { $0 !== bodies[1] }.map { Circle(body: $0, radius: 1) }
        for shape in shapes { space.add(shape) }
        #expect(space.shapes.map(ObjectIdentifier.init) == shapes.map(ObjectIdentifier.init))
    }
}
