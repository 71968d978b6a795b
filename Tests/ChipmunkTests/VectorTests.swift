import Foundation
import Testing
@testable import Chipmunk

@Suite struct VectorTests {
    @Test func arithmeticMatchesTheCFormulas() {
        let a: Vector = [3, 4]
        let b = Vector(x: -1, y: 2)
        #expect(a + b == [2, 6])
        #expect(a - b == [4, 2])
        #expect(-a == [-3, -4])
        #expect(a * 2 == [6, 8])
        #expect(2 * a == [6, 8])
        #expect(a / 2 == [1.5, 2])
        #expect(a.dot(b) == 5)
        #expect(a.cross(b) == 10)
        #expect(a.length == 5)
        #expect(a.lengthSquared == 25)
        #expect(a.normalized == [0.6000000000000001, 0.8])  // 3 * (1 / (5 + DBL_MIN)), as cpvnormalize
        #expect(Vector.zero.normalized == .zero)
        #expect(a.perpendicular == [-4, 3])
        #expect(Vector(x: 1, y: 0).rotated(by: [0, 1]) == [0, 1])
        #expect(a.distance(to: [0, 0]) == 5)
        #expect(a.interpolated(to: [5, 6], by: 0.5) == [4, 5])
    }

    @Test func codableAsATwoElementArray() throws {
        let data = try JSONEncoder().encode(Vector(x: 1.5, y: -2))
        #expect(String(decoding: data, as: UTF8.self) == "[1.5,-2]")
        #expect(try JSONDecoder().decode(Vector.self, from: Data("[0.1, 3]".utf8)) == [0.1, 3])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Vector.self, from: Data("[1, 2, 3]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Vector.self, from: Data("[1]".utf8)) }
    }

    @Test func transformsMatchTheirCDefinitions() {
        let t = Transform.translation([-50, -50])
        #expect(t.apply(toPoint: [100, 100]) == [50, 50])
        #expect(t.apply(toVector: [100, 100]) == [100, 100])
        let r = Transform.rotation(.pi / 2)
        let p = r.apply(toPoint: [1, 0])
        #expect(abs(p.x) < 1e-15 && p.y == 1)
        #expect(Transform.identity.concatenating(t) == t)
        #expect(t.cp.tx == -50)
        #expect(Transform(t.cp) == t)
    }

    @Test func boundingBoxes() {
        let box = BoundingBox(center: [0, 0], halfWidth: 2, halfHeight: 1)
        #expect(box == BoundingBox(left: -2, bottom: -1, right: 2, top: 1))
        #expect(box.area == 8)
        #expect(box.contains(Vector(x: 2, y: 1)))
        #expect(!box.contains(Vector(x: 2.1, y: 0)))
        #expect(box.intersects(BoundingBox(left: 2, bottom: 1, right: 3, top: 3)))
        #expect(
            box.union(BoundingBox(circleAt: [5, 0], radius: 1)) == BoundingBox(left: -2, bottom: -1, right: 6, top: 1))
        #expect(box.center == .zero)
    }
}
