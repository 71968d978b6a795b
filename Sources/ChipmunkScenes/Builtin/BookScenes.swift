import Chipmunk

/// The scenes of chapter 11 of *iOS Core Animation: Advanced Techniques* (listings 11.3
/// and 11.4), in Chipmunk 7 terms, written against the Swift API.
///
/// The book's views are 300 points high with y growing downwards; Chipmunk's y grows
/// upwards, so a crate's frame `(x, y, w, h)` puts its centre at `(x + w/2, 300 - y - h/2)`.
public enum BookScenes {
    /// The height of the book's view, in points.
    public static let viewHeight = 300.0

    /// The crate frames of listing 11.4, in the order they are added.
    public static let crateFrames: [(x: Double, y: Double, width: Double, height: Double)] = [
        (0, 0, 32, 32), (32, 0, 32, 32), (64, 0, 64, 64), (128, 0, 32, 32), (0, 32, 64, 64),
    ]

    /// Listing 11.3: one crate falling under gravity (0, -1000), with no walls.
    public static func crate() -> Scene {
        let space = Space()
        space.gravity = [0, -1000]
        addCrate(to: space, x: 100, y: 0, width: 100, height: 100)
        return Scene(name: "crate", space: space)
    }

    /// Listing 11.4: five crates inside four walls, under gravity (0, -1000).
    public static func crates() -> Scene {
        Scene(name: "crates", space: cratesSpace())
    }

    /// The crates scene with the phone tilted: the book's accelerometer handler sets
    /// gravity to `(ay * 1000, -ax * 1000)`. Upright, then tipped right at 2 s, left at 4 s,
    /// upside down at 6 s and upright again at 8 s.
    public static func cratesTilt() -> Scene {
        Scene(name: "crates-tilt", space: cratesSpace(), gravitySchedule: tiltSchedule)
    }

    /// The gravity changes of ``cratesTilt()``.
    public static let tiltSchedule: [GravityChange] = [
        .tilt(at: 2, accelerometerX: 0.5, accelerometerY: 0.5),
        .tilt(at: 4, accelerometerX: 0.5, accelerometerY: -0.5),
        .tilt(at: 6, accelerometerX: -1, accelerometerY: 0),
        .tilt(at: 8, accelerometerX: 1, accelerometerY: 0),
    ]

    private static func cratesSpace() -> Space {
        let space = Space()
        space.gravity = [0, -1000]
        // The walls: static segments on the space's static body (Chipmunk 6's
        // cpSpaceAddStaticShape is cpSpaceAddShape in Chipmunk 7).
        let corners: [Vector] = [[0, 0], [300, 0], [300, 300], [0, 300]]
        for index in corners.indices {
            let wall = Segment(
                body: space.staticBody, from: corners[index], to: corners[(index + 1) % 4],
                radius: 1, friction: 0.5, elasticity: 0.8, collisionType: 2)
            space.add(wall)
        }
        for frame in crateFrames {
            addCrate(to: space, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        }
        return space
    }

    /// The book's crate recipe: mass 100 and the moment of a `width` × `height` box; a
    /// polygon with corners (0,0), (0,h), (w,h), (w,0) shifted by (-w/2, -h/2); friction
    /// 0.5, elasticity 0.8; positioned from the frame. Adds the body, then its shape.
    @discardableResult
    public static func addCrate(to space: Space, x: Double, y: Double, width: Double, height: Double) -> Body {
        let mass = 100.0
        let body = Body(mass: mass, moment: Moment.box(mass: mass, width: width, height: height))
        body.position = [x + width / 2, viewHeight - y - height / 2]
        space.add(body)
        let shape = Polygon(
            body: body, vertices: [[0, 0], [0, height], [width, height], [width, 0]],
            transform: .translation([-width / 2, -height / 2]), friction: 0.5, elasticity: 0.8)
        space.add(shape)
        return body
    }
}
