import Chipmunk
import Testing

/// A state restored after the objects it holds were taken out and changed out of the
/// space (a helper's attack): each restore stopped the program in `Space.add`, a call the
/// user never made, while the state was valid and every change legal.
struct RestoreAdoptionTests {
    /// A pinned body: a ball on a pivot to the static body.
    static func pinned(spatialHash: Bool) -> (Space, Body, PivotJoint) {
        let space = Space()
        if spatialHash { space.useSpatialHash(cellSize: 1, count: 100) }
        space.gravity = [0, -10]
        let body = Body(mass: 1, moment: 1)
        body.position = [2, 0]
        let pin = PivotJoint(a: space.staticBody, b: body, pivot: .zero)
        space.add(body, Circle(body: body, radius: 1), pin)
        return (space, body, pin)
    }

    /// The joint breaks, then its body turns kinematic (or leaves, and turns static): the
    /// restore brings back both, and the body dynamic, with the run's bits.
    @Test(arguments: [false, true])
    func aJointBackBetweenBodiesThatAreNoLongerDynamic(spatialHash: Bool) throws {
        for leaves in [false, true] {
            let (space, body, pin) = Self.pinned(spatialHash: spatialHash)
            for _ in 0..<10 { try space.step(1.0 / 60) }
            var state = SpaceState()
            space.save(into: &state)
            var hashes: [UInt64] = []
            for _ in 0..<20 {
                try space.step(1.0 / 60)
                hashes.append(space.stateHash())
            }
            try space.restore(state)
            space.remove(pin)
            if leaves {
                space.remove(contentsOf: body.attachments + [body])
                body.kind = .static
            } else {
                body.kind = .kinematic
            }
            try space.restore(state)
            #expect(body.kind == .dynamic && space.constraints.count == 1)
            var again: [UInt64] = []
            for _ in 0..<20 {
                try space.step(1.0 / 60)
                again.append(space.stateHash())
            }
            #expect(again == hashes, "spatial hash \(spatialHash), body left \(leaves)")
        }
    }

    /// A body taken out of a space on the spatial hash and moved far away comes back where
    /// it was saved: its shape is hashed there, not at 1e12 (which would cover too many cells).
    @Test func aBodyMovedFarOutOfTheSpaceComesBackWhereItWas() throws {
        let (space, body, pin) = Self.pinned(spatialHash: true)
        for _ in 0..<10 { try space.step(1.0 / 60) }
        var state = SpaceState()
        space.save(into: &state)
        let saved = body.position
        try space.step(1.0 / 60)
        let next = space.stateHash()
        space.remove(contentsOf: body.attachments + [body])
        _ = pin
        body.position = [1e12, 0]
        try space.restore(state)
        #expect(body.position == saved)
        try space.step(1.0 / 60)
        #expect(space.stateHash() == next)
    }

    /// A shape that cannot fit the hash as it is now (resized to tiny cells since) is
    /// refused with an error, and the space is unchanged: a body taken out and moved since
    /// stays where it was moved, its shape's box as it was, with nothing back in the space.
    @Test func aShapeThatNoLongerFitsTheResizedHashIsRefused() throws {
        let space = Space()
        space.useSpatialHash(cellSize: 1, count: 100)
        let floor = Segment(body: space.staticBody, from: [-1000, 0], to: [1000, 0], radius: 1)
        let ball = Body(mass: 1, moment: 1)
        ball.position = [5, 5]
        let circle = Circle(body: ball, radius: 0.1)
        space.add(floor, ball, circle)
        var state = SpaceState()
        space.save(into: &state)
        space.remove(floor, circle, ball)
        ball.position = [100, 50]
        ball.angle = 2
        let box = circle.boundingBox
        space.useSpatialHash(cellSize: 0.002, count: 100)
        #expect(throws: SnapshotError.self) { try space.restore(state) }
        #expect(space.shapes.isEmpty && space.bodies.isEmpty)
        #expect(ball.position == [100, 50] && ball.angle == 2)
        #expect(circle.boundingBox == box)
        let error = #expect(throws: SnapshotError.self) { try space.restore(state) }
        #expect("\(error!)".contains("use the cell size it was saved with"))
    }
}
