import Foundation
@testable import Chipmunk

/// A ball of radius 1 dropped from `height` onto a floor segment along y = 0.
struct BallOnFloor {
    let space = Space()
    let ball: Body
    let ballShape: Circle
    let floor: Segment
    static let ballType: CollisionType = 1
    static let floorType: CollisionType = 2

    init(height: Double = 3, elasticity: Double = 0) {
        space.gravity = [0, -100]
        floor = Segment(
            body: space.staticBody, from: [-10, 0], to: [10, 0], radius: 0, friction: 1, elasticity: elasticity,
            collisionType: Self.floorType)
        space.add(floor)
        ball = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 1))
        ball.position = [0, height]
        space.add(ball)
        ballShape = Circle(body: ball, radius: 1, friction: 1, elasticity: elasticity, collisionType: Self.ballType)
        space.add(ballShape)
    }

    func run(seconds: Double, dt: Double = 1.0 / 120) throws {
        for _ in 0..<Int((seconds / dt).rounded()) { try space.step(dt) }
    }
}
