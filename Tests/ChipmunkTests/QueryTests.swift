import Testing
@testable import Chipmunk

@Suite struct QueryTests {
    /// pymunk test_shapes: a circle of radius 5 at the origin.
    @Test func queriesOnOneShape() throws {
        let body = Body(mass: 1, moment: 1)
        let circle = Circle(body: body, radius: 5)
        circle.cacheBoundingBox()
        let point = circle.pointQuery([0, 0])
        #expect(point.point == [0, 0] && point.distance == -5 && point.gradient == [0, 1])
        // The engine lands within a few ulps: (0, -5.0000000000000036), normal y -0.9999999999999999;
        // pymunk's test asserts these to 7 places.
        let hit = try #require(circle.segmentQuery(from: [0, -50], to: [0, 50]))
        #expect(hit.point.x == 0 && abs(hit.point.y - -5) < 1e-12)
        #expect(hit.normal.x == 0 && abs(hit.normal.y - -1) < 1e-12)
        #expect(hit.alpha == 0.45)
        #expect(hit.shape === circle)
        #expect(circle.segmentQuery(from: [10, -50], to: [10, 50]) == nil)
    }

    @Test func shapesCollide() throws {
        let a = Circle(body: Body(mass: 1, moment: 1), radius: 1)
        let bBody = Body(mass: 1, moment: 1)
        bBody.position = [1.5, 0]
        let b = Circle(body: bBody, radius: 1)
        a.cacheBoundingBox()
        b.cacheBoundingBox()
        let contact = a.collide(with: b)
        #expect(contact.count == 1 && contact.normal == [1, 0])
        #expect(contact[0].distance == -0.5)
        bBody.position = [3, 0]
        b.cacheBoundingBox()
        #expect(a.collide(with: b).isEmpty)
    }

    /// Issue 28: shapes in no space were queried at the world geometry cached when they were
    /// made (none: the origin) until cacheBoundingBox() was called, so circles 141 units
    /// apart reported two contacts with a zero normal.
    @Test func shapesInNoSpaceAreQueriedWhereTheirBodiesAre() throws {
        let aBody = Body(mass: 1, moment: 1)
        aBody.position = [100, 100]
        let polygonBody = Body(mass: 1, moment: 1)
        polygonBody.position = [-100, 0]
        let a = Circle(body: aBody, radius: 1)
        let b = Circle(body: Body(mass: 1, moment: 1), radius: 1)
        let box = Polygon.box(body: polygonBody, width: 2, height: 2)
        #expect(a.collide(with: b).isEmpty, "141 units apart")
        #expect(box.collide(with: b).isEmpty && b.collide(with: box).isEmpty, "100 units apart")
        #expect(a.pointQuery([100, 100]).distance == -1)
        #expect(box.pointQuery([-100, 0]).distance == -1)
        #expect(a.segmentQuery(from: [0, 0], to: [0, 1]) == nil)
        // Moved next to each other: one contact, along x.
        aBody.position = [1.5, 0]
        let contact = b.collide(with: a)
        #expect(contact.count == 1 && contact.normal == [1, 0])
        #expect(contact[0].distance == -0.5)
        // A shape in a space is queried as the space last placed it (here: when added).
        let space = Space()
        space.add(aBody)
        space.add(a)
        aBody.position = [50, 0]
        #expect(a.collide(with: b).count == 1, "the space has not stepped since the body moved")
    }

    private func row() throws -> (Space, [Circle]) {
        let space = Space()
        var circles: [Circle] = []
        for i in 0..<5 {
            let body = Body(kind: .static)
            body.position = [Double(i) * 10, 0]
            space.add(body)
            let circle = Circle(body: body, radius: 1)
            space.add(circle)
            circles.append(circle)
        }
        return (space, circles)
    }

    @Test func spaceQueries() throws {
        let (space, c) = try row()
        let near = space.pointQuery([10.5, 0], maxDistance: 0)
        #expect(near.count == 1 && near[0].shape === c[1] && near[0].distance == -0.5)
        #expect(space.pointQuery([15, 0], maxDistance: 4.5).map(\.shape).count == 2)
        let nearest = try #require(space.pointQueryNearest([23, 0], maxDistance: .infinity))
        #expect(nearest.shape === c[2] && nearest.distance == 2)
        #expect(space.pointQueryNearest([23, 0], maxDistance: 1) == nil)

        let hits = space.segmentQuery(from: [-5, 0], to: [45, 0]).sorted { $0.alpha < $1.alpha }
        #expect(hits.map { ObjectIdentifier($0.shape) } == c.map(ObjectIdentifier.init))
        let first = try #require(space.segmentQueryFirst(from: [-5, 0], to: [45, 0]))
        #expect(first.shape === c[0] && abs(first.point.x - -1) < 1e-12 && first.alpha == 4.0 / 50)
        #expect(space.segmentQuery(from: [-5, 5], to: [45, 5]).isEmpty)
        // A swept radius hits earlier: the surface at x = -1 is met when the fat end is at -1.5.
        let fat = try #require(space.segmentQueryFirst(from: [-5, 0], to: [45, 0], radius: 0.5))
        #expect(abs(fat.alpha - 3.5 / 50) < 1e-12)
        // The engine finds candidates along the thin segment's path through bounding boxes:
        // the radius does not widen that search, so a fat segment passing beside them misses.
        #expect(space.segmentQuery(from: [-5, 5], to: [45, 5], radius: 4.5).isEmpty)

        let boxed = space.boundingBoxQuery(BoundingBox(left: 8, bottom: -1, right: 21, top: 1))
        #expect(Set(boxed.map(ObjectIdentifier.init)) == Set([c[1], c[2]].map(ObjectIdentifier.init)))

        let probeBody = Body(kind: .kinematic)
        probeBody.position = [25, 0]
        let probe = Circle(body: probeBody, radius: 5)
        let overlaps = space.shapeQuery(probe)
        #expect(Set(overlaps.map { ObjectIdentifier($0.shape) }) == Set([c[2], c[3]].map(ObjectIdentifier.init)))
        #expect(overlaps.allSatisfy { $0.contacts.count == 1 })

    }

    @Test func filtersAndSensors() throws {
        let (space, c) = try row()
        for shape in c { shape.filter = ShapeFilter(categories: .category(0)) }
        c[1].filter = ShapeFilter(group: 0, categories: .category(1), mask: .all)
        c[2].isSensor = true
        let onlyCategoryOne = ShapeFilter(categories: .all, mask: .category(1))
        let hits = space.segmentQuery(from: [-5, 0], to: [45, 0], filter: onlyCategoryOne)
        #expect(hits.count == 1 && hits[0].shape === c[1])
        // The stock engine's rule: queries find sensors like any shape.
        #expect(space.pointQuery([20, 0], maxDistance: 0).first?.shape === c[2])
        // A shared non-zero group hides shapes from the query.
        c[3].filter = ShapeFilter(group: 9)
        #expect(space.pointQuery([30, 0], maxDistance: 0).count == 1)
        #expect(space.pointQuery([30, 0], maxDistance: 0, filter: ShapeFilter(group: 9)).isEmpty)
        #expect(ShapeFilter.all.rejects(ShapeFilter.none))
        #expect(!ShapeFilter.all.rejects(.all))
    }

    /// The defaults: filter group 0 with all categories and mask bits set.
    @Test func defaultFilter() throws {
        let shape = Circle(body: Body(mass: 1, moment: 1), radius: 1)
        #expect(shape.filter == ShapeFilter(group: 0, categories: .all, mask: .all))
        #expect(shape.filter.categories.rawValue == UInt32.max && shape.filter.mask.rawValue == UInt32.max)
    }
}

/// The engine's spatial hash as the broad phase: the same world still collides, settles and
/// answers queries.
@Suite struct SpatialHashTests {
    @Test func aRowOfBoxesSettlesOnAFloorWithTheHash() throws {
        let space = Space()
        space.useSpatialHash(cellSize: 2, count: 1_000)
        #expect(space.usesSpatialHash)
        space.gravity = [0, -100]
        space.add(Segment(body: space.staticBody, from: [-10, 0], to: [110, 0], radius: 0.5, friction: 1))
        var boxes: [Body] = []
        for i in 0..<50 {
            let box = Body(mass: 1, moment: Moment.box(mass: 1, width: 1, height: 1))
            box.position = [Double(i) * 2, 3]
            space.add(box, Polygon.box(body: box, width: 1, height: 1, friction: 1))
            boxes.append(box)
        }
        for _ in 0..<240 { try space.step(1.0 / 60) }
        // Resting on the floor's top surface (y = 0.5), half a box high, sunk by the
        // collision slop (0.1): centres at y = 0.9.
        #expect(boxes.allSatisfy { abs($0.position.y - 0.9) < 0.01 && abs($0.velocity.y) < 0.01 })
        #expect(space.pointQueryNearest([20, 5])?.shape.body === boxes[10])
    }
}
