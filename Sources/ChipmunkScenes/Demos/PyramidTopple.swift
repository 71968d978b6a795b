import Chipmunk

extension Demos {
    /// The height and width of a domino in ``pyramidTopple()``.
    static let dominoHeight = 30.0, dominoWidth = 4.0

    /// PyramidTopple.c: a pyramid of 12 rows of dominoes, standing ones bridged by flat
    /// ones. In the C demo you click to knock it over; headless, the first standing
    /// domino of the bottom row gets a push (an impulse of 60 to the right, at its top)
    /// at the start, and the rest fall in order.
    public static func pyramidTopple() -> Scene {
        let space = Space()
        space.iterations = 30
        space.gravity = [0, -300]
        space.sleepTimeThreshold = 0.5
        space.collisionSlop = 0.5
        DemoSupport.wall(space, [-600, -240], [600, -240])
        let h = dominoHeight
        let w = dominoWidth
        func domino(_ pos: Vector, flipped: Bool) -> Body {
            let radius = 0.5
            let body = Body(mass: 1, moment: Moment.box(mass: 1, width: w, height: h))
            space.add(body)
            body.position = pos
            let shape =
                flipped
                ? Polygon.box(body: body, width: h, height: w, radius: 0, friction: cFloat(0.6), elasticity: 0)
                : Polygon.box(
                    body: body, width: w - radius * 2, height: h, radius: radius, friction: cFloat(0.6), elasticity: 0)
            space.add(shape)
            return body
        }
        let n = 12
        var first: Body?
        for i in 0..<n {
            for j in 0..<(n - i) {
                let offset = Vector(
                    x: (Double(j) - Double(n - 1 - i) * 0.5) * 1.5 * h,
                    y: (Double(i) + 0.5) * (h + 2 * w) - w - 240)
                let upright = domino(offset, flipped: false)
                if i == 0, j == 0 { first = upright }
                _ = domino(offset + [0, (h + w) / 2], flipped: true)
                if j == 0 { _ = domino(offset + [0.5 * (w - h), h + w], flipped: false) }
                if j != n - i - 1 {
                    _ = domino(offset + [h * 0.75, (h + 3 * w) / 2], flipped: true)
                } else {
                    _ = domino(offset + [0.5 * (h - w), h + w], flipped: false)
                }
            }
        }
        // The push that the demo's mouse would give, at the top of the first domino.
        if let first { first.applyImpulse([60, 0], at: first.position + [0, h / 2]) }
        return Scene(name: "pyramid-topple", space: space, timeStep: 1.0 / 180)
    }
}
