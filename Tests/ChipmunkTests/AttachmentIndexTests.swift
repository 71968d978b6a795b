import Testing
@testable import Chipmunk

/// `Body.shapes`, `Body.constraints` and `Body.indexInSpace` are read from an index of the
/// space's arrays, dropped at each change: after any sequence of adds, removes, restores
/// and copies they are what filtering the arrays gives.
@Suite struct AttachmentIndexTests {
    /// Checks every body of `space`, and the static body, against the arrays.
    static func expectIndexed(_ space: Space, _ note: String) {
        for (index, body) in ([space.staticBody] + space.bodies).enumerated() {
            let shapes = space.shapes.filter { $0.body === body }
            let constraints = space.constraints.filter { $0.bodyA === body || $0.bodyB === body }
            #expect(body.shapes.elementsEqual(shapes, by: ===), "\(note): body \(index - 1)'s shapes")
            #expect(body.constraints.elementsEqual(constraints, by: ===), "\(note): body \(index - 1)'s constraints")
            #expect(body.indexInSpace == (space.bodies.firstIndex { $0 === body } ?? -1), "\(note): body \(index - 1)")
        }
    }

    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func followsEveryChange(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let space = Space()
        space.gravity = Vector(x: 0, y: -100)
        space.add(Circle(body: space.staticBody, radius: 50, offset: Vector(x: 0, y: -60)))
        var states: [SpaceState] = []
        var outside: [Body] = []
        for operation in 0..<300 {
            let note = "seed \(seed), operation \(operation)"
            switch random.next() % 9 {
            case 0, 1:
                let body = Body(mass: 1, moment: 10)
                body.position = Vector(x: Double(random.next() % 40) - 20, y: Double(random.next() % 40))
                space.add(body, Circle(body: body, radius: 1))
            case 2:
                if let body = space.bodies.randomElement(using: &random) {
                    space.add(Circle(body: body, radius: 0.5, offset: Vector(x: 1, y: 0)))
                }
            case 3:
                if let shape = space.shapes.filter({ $0.body.shapes.count > 1 }).randomElement(using: &random) {
                    space.remove(shape)
                }
            case 4:
                if space.bodies.count >= 2 {
                    let a = space.bodies.randomElement(using: &random)!
                    if let b = space.bodies.filter({ $0 !== a }).randomElement(using: &random) {
                        space.add(PinJoint(a: a, b: b))
                    }
                }
            case 5:
                if let constraint = space.constraints.randomElement(using: &random) { space.remove(constraint) }
            case 6:
                if let body = space.bodies.randomElement(using: &random) {
                    space.remove(contentsOf: body.attachments + [body])
                    outside.append(body)
                }
            case 7:
                var state = SpaceState()
                space.save(into: &state)
                states.append(state)
                if states.count > 4, random.next() % 2 == 0 {
                    try space.restore(states.removeFirst())
                }
            default:
                try space.step(1.0 / 60)
            }
            Self.expectIndexed(space, note)
            for body in outside where body.space == nil {
                #expect(body.shapes.isEmpty && body.constraints.isEmpty && body.indexInSpace == -1, "\(note): outside")
            }
        }
        let copy = space.copy()
        Self.expectIndexed(copy, "the copy")
    }

    /// The index holds positions, not objects: a body removed after it was built is freed.
    @Test func holdsNoObjectAlive() throws {
        let space = Space()
        weak var gone: Body?
        do {
            let body = Body(mass: 1, moment: 1)
            space.add(body, Circle(body: body, radius: 1))
            #expect(body.shapes.count == 1 && body.indexInSpace == 0)
            space.remove(contentsOf: body.attachments + [body])
            gone = body
        }
        try space.step(1.0 / 60)  // the step's list of bodies to check for mass lets go of it
        #expect(gone == nil)
    }
}
