import Chipmunk

/// A C `float` literal as the demos write it (`0.7f`): the nearest `Float`, widened to the
/// `Double` the engine takes, as C widens it. `0.7f` is 0.699999988079071, not 0.7.
func cFloat(_ value: Float) -> Double { Double(value) }

/// Shared pieces of the ports of Chipmunk's demos (the C sources Debian ships under
/// `/usr/share/doc/libchipmunk-dev/examples/`).
enum DemoSupport {
    /// The demos keep walls from being grabbed by the mouse with this filter: every
    /// category but bit 31. Headless it changes nothing, but keeps the ports faithful.
    static let notGrabbable: ShapeFilter = {
        let grabbable = ShapeFilter.Categories(rawValue: 1 << 31)
        return ShapeFilter(
            group: 0, categories: ShapeFilter.Categories.all.subtracting(grabbable),
            mask: ShapeFilter.Categories.all.subtracting(grabbable))
    }()

    /// A body with a box's moment, added to `space` and placed at `position`, as Chains.c
    /// and Tumble.c make their links and pieces (the shape is the caller's).
    static func boxBody(_ space: Space, mass: Double, width: Double, height: Double, at position: Vector) -> Body {
        let body = Body(mass: mass, moment: Moment.box(mass: mass, width: width, height: height))
        space.add(body)
        body.position = position
        return body
    }

    /// A capsule along the body's y axis, `height` long and `width` thick, as Chains.c
    /// and Tumble.c make them: a segment between the caps' centres, of radius `width / 2`.
    static func capsule(_ space: Space, on body: Body, width: Double, height: Double, friction: Double) {
        space.add(
            Segment(
                body: body, from: [0, (height - width) / 2], to: [0, (width - height) / 2], radius: width / 2,
                friction: friction))
    }

    /// A static wall segment as the demos make them: elasticity 1, friction 1.
    @discardableResult
    static func wall(_ space: Space, _ a: Vector, _ b: Vector, radius: Double = 0) -> Segment {
        let shape = Segment(body: space.staticBody, from: a, to: b, radius: radius, friction: 1, elasticity: 1)
        shape.filter = notGrabbable
        space.add(shape)
        return shape
    }

    /// The demos' 640 × 480 box: left, right and bottom walls (and the top one if asked).
    static func box(_ space: Space, top: Bool = false) {
        wall(space, [-320, -240], [-320, 240])
        wall(space, [320, -240], [320, 240])
        wall(space, [-320, -240], [320, -240])
        if top { wall(space, [-320, 240], [320, 240]) }
    }
}
