import Testing
@testable import Chipmunk

@Suite struct GeometryTests {
    @Test func convexHull() {
        let hull = ConvexHull(of: [[0, 0], [2, 0], [1.5, 1.5], [1, 0.2], [0, 2]])
        #expect(hull.count == 4)
        #expect(Set(hull.vertices) == Set([[0, 0], [2, 0], [1.5, 1.5], [0, 2]] as [Vector]))
        #expect(ConvexHull(of: [[0, 0], [2, 0], [1, 1], [0, 2]]).count == 3, "(1, 1) lies on an edge: dropped")
        #expect(Area.polygon(vertices: hull.vertices) > 0, "counter-clockwise")
        #expect(ConvexHull(of: []).isEmpty)
        #expect(ConvexHull(of: [[.nan, 0], [1, 1]]).vertices == [[1, 1]])
    }

    @Test func marchingSquaresTracesACircle() throws {
        let box = BoundingBox(left: -5, bottom: -5, right: 5, top: 5)
        let soft = MarchingSquares.trace(in: box, xSamples: 41, ySamples: 41, threshold: 0.5) { p in
            p.length < 3 ? 1 : 0
        }
        #expect(soft.count == 1)
        let outline = try #require(soft.first)
        #expect(outline.isClosed)
        #expect(outline.points.allSatisfy { abs($0.length - 3) < 0.3 })
        let area = abs(Area.polygon(vertices: outline.points))
        #expect(abs(area - .pi * 9) < 1.5)
        let hard = MarchingSquares.trace(in: box, xSamples: 41, ySamples: 41, threshold: 0.5, style: .hard) { p in
            p.length < 3 ? 1 : 0
        }
        #expect(hard.count == 1 && hard[0].isClosed)
        // Simplifying keeps the shape with far fewer points.
        let simple = outline.simplifiedCurves(tolerance: 0.1)
        #expect(simple.points.count < outline.points.count && simple.isClosed)
        #expect(outline.simplifiedVertices(tolerance: 0.3).points.count < outline.points.count)
    }

    /// An L shape (counter-clockwise, closed) splits into convex pieces of the same area.
    @Test func convexDecomposition() throws {
        let l = Polyline([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]])
        let pieces = try l.convexDecomposition(tolerance: 0)
        #expect(pieces.count == 2)
        #expect(pieces.allSatisfy { $0.isClosed })
        let total = pieces.reduce(0) { $0 + Area.polygon(vertices: $1.points) }
        #expect(abs(total - 3) < 1e-12)
        // "Cannot decompose an open polygon"
        #expect(throws: ChipmunkError.self) {
            try Polyline([[0, 0], [2, 0], [2, 1], [0, 1]]).convexDecomposition(tolerance: 0)
        }
        // "Winding is backwards"
        #expect(throws: ChipmunkError.self) { try Polyline(l.points.reversed()).convexDecomposition(tolerance: 0) }
        #expect(throws: ChipmunkError.self) {
            try Polyline([[0, 0], [.nan, 0], [0, 0]]).convexDecomposition(tolerance: 0)
        }
        let hull = l.convexHull()
        #expect(abs(Area.polygon(vertices: hull.points) - 3.5) < 1e-12)
    }
}

@Suite struct DebugDrawTests {
    struct Recorder: DebugDrawer {
        var circles = 0, segments = 0, fatSegments = 0, polygons = 0, dots = 0
        var fills: [DebugColor] = []
        mutating func drawCircle(center: Vector, angle: Double, radius: Double, outline: DebugColor, fill: DebugColor) {
            circles += 1
            fills.append(fill)
        }
        mutating func drawSegment(from a: Vector, to b: Vector, color: DebugColor) { segments += 1 }
        mutating func drawFatSegment(
            from a: Vector, to b: Vector, radius: Double, outline: DebugColor, fill: DebugColor
        ) {
            fatSegments += 1
            fills.append(fill)
        }
        mutating func drawPolygon(_ vertices: [Vector], radius: Double, outline: DebugColor, fill: DebugColor) {
            polygons += 1
            fills.append(fill)
        }
        mutating func drawDot(size: Double, at point: Vector, color: DebugColor) { dots += 1 }
    }

    /// A drawer that removes a shape while the engine draws: the engine walks its contact
    /// points without locking the space, so the removal must wait for the drawing to end.
    @Test func removalsWhileDrawingWait() throws {
        final class Removing: DebugDrawer {
            let space: Space
            var removed = false
            init(space: Space) { self.space = space }
            func drawCircle(center: Vector, angle: Double, radius: Double, outline: DebugColor, fill: DebugColor) {}
            func drawSegment(from a: Vector, to b: Vector, color: DebugColor) {}
            func drawFatSegment(from a: Vector, to b: Vector, radius: Double, outline: DebugColor, fill: DebugColor) {}
            func drawPolygon(_ vertices: [Vector], radius: Double, outline: DebugColor, fill: DebugColor) {}
            func drawDot(size: Double, at point: Vector, color: DebugColor) {}
            func fillColor(for shape: Shape) -> DebugColor {
                if !removed, shape.body.kind == .dynamic {
                    removed = true
                    space.remove(shape)
                    #expect(shape.space == nil && space.isDeferringChanges, "Swift sees it at once; the engine later")
                }
                return shape.debugFillColor
            }
        }
        let world = BallOnFloor(height: 0.99)
        try world.space.step(1.0 / 60)
        var drawer = Removing(space: world.space)
        world.space.debugDraw(&drawer)
        #expect(drawer.removed && !world.space.contains(world.ballShape))
        try world.space.step(1.0 / 60)
    }

    @Test func drawsShapesConstraintsAndContacts() throws {
        let world = BallOnFloor(height: 0.99)
        let box = Body(mass: 1, moment: 1)
        box.position = [5, 0.5]
        world.space.add(box)
        world.space.add(Polygon.box(body: box, width: 1, height: 1))
        world.space.add(PinJoint(a: world.ball, b: box, anchorA: .zero, anchorB: .zero))
        try world.space.step(1.0 / 60)
        var recorder = Recorder()
        world.space.debugDraw(&recorder)
        #expect(recorder.circles == 1 && recorder.polygons == 1)
        #expect(recorder.fatSegments == 1, "the floor segment")
        #expect(recorder.segments >= 1, "the pin joint")
        #expect(recorder.dots >= 1, "contact points and joint anchors")
        // The demo colours: a static shape is dark, dynamic ones bright.
        let staticFill = world.floor.debugFillColor
        let dynamicFill = world.ballShape.debugFillColor
        #expect(max(staticFill.red, staticFill.green, staticFill.blue) <= 0.15 + 1e-6)
        #expect(abs(max(dynamicFill.red, dynamicFill.green, dynamicFill.blue) - 0.75) < 1e-6)
        var shapesOnly = Recorder()
        world.space.debugDraw(&shapesOnly, options: .shapes)
        #expect(shapesOnly.dots == 0 && shapesOnly.segments == 0)
        world.ballShape.isSensor = true
        #expect(world.ballShape.debugFillColor == DebugColor(luminance: 1, alpha: 0.1))
    }
}
