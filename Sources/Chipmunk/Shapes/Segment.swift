internal import CChipmunk

/// A line segment with rounded ends of `radius`; the usual shape for walls and ground.
///
/// ```swift
/// let floor = Segment(body: space.staticBody, from: [0, 0], to: [300, 0], radius: 1)
/// ```
///
/// The corresponding C type is `cpSegmentShape`.
public final class Segment: Shape {
    /// Creates a segment on `body` between two points in body coordinates.
    ///
    /// Rules: ``Parameter/segmentEnd``, ``Parameter/segmentRadius``, and the friction and
    /// elasticity rules of ``Shape``.
    ///
    /// The corresponding C function is `cpSegmentShapeNew`.
    public init(
        body: Body, from start: Vector, to end: Vector, radius: Double = 0,
        friction: Double = 0, elasticity: Double = 0, collisionType: CollisionType = .default
    ) {
        Parameter.segmentEnd.require(start)
        Parameter.segmentEnd.require(end)
        Parameter.segmentRadius.require(radius)
        super.init(
            handle: SlabArena.current.segments.build { cpSegmentShapeInit($0, body.handle, start.cp, end.cp, radius) },
            body: body,
            friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// A blank segment for ``Space/copy()`` (see ``Shape/blank(like:body:)``).
    override init(blank handle: UnsafeMutablePointer<cpShape>, body: Body) { super.init(blank: handle, body: body) }

    /// The first end, in body coordinates.
    ///
    /// The corresponding C function is `cpSegmentShapeGetA`.
    public var start: Vector {
        Vector(cpSegmentShapeGetA(handle))
    }

    /// The second end, in body coordinates.
    ///
    /// The corresponding C function is `cpSegmentShapeGetB`.
    public var end: Vector {
        Vector(cpSegmentShapeGetB(handle))
    }

    /// The unit normal, in body coordinates.
    ///
    /// The corresponding C function is `cpSegmentShapeGetNormal`.
    public var normal: Vector {
        Vector(cpSegmentShapeGetNormal(handle))
    }

    /// The rounding radius.
    ///
    /// The corresponding C function is `cpSegmentShapeGetRadius`.
    public var radius: Double {
        cpSegmentShapeGetRadius(handle)
    }

    /// Tells the segment where its neighbours' far ends are, so that bodies sliding along a
    /// chain of segments do not catch on the joins (rule: ``Parameter/segmentNeighbor``).
    ///
    /// The corresponding C function is `cpSegmentShapeSetNeighbors`.
    public func setNeighbors(previous: Vector, next: Vector) {
        Parameter.segmentNeighbor.require(previous)
        Parameter.segmentNeighbor.require(next)
        cpSegmentShapeSetNeighbors(handle, previous.cp, next.cp)
        settingsChanged()
    }
}
