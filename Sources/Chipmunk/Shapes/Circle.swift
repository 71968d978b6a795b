internal import CChipmunk

/// A circle, optionally offset from its body's origin.
///
/// ```swift
/// let ball = Circle(body: body, radius: 5, friction: 0.9)
/// ```
///
/// The corresponding C type is `cpCircleShape`.
public final class Circle: Shape {
    /// Creates a circle on `body`.
    ///
    /// Rules: ``Parameter/circleRadius``, ``Parameter/circleOffset``, and the friction and
    /// elasticity rules of ``Shape``.
    ///
    /// The corresponding C function is `cpCircleShapeNew`.
    public init(
        body: Body, radius: Double, offset: Vector = .zero,
        friction: Double = 0, elasticity: Double = 0, collisionType: CollisionType = .default
    ) {
        Parameter.circleRadius.require(radius)
        Parameter.circleOffset.require(offset)
        super.init(
            handle: SlabArena.current.circles.build { cpCircleShapeInit($0, body.handle, radius, offset.cp) },
            body: body,
            friction: friction, elasticity: elasticity, collisionType: collisionType)
    }

    /// A blank circle for ``Space/copy()`` (see ``Shape/blank(like:body:)``).
    override init(blank handle: UnsafeMutablePointer<cpShape>, body: Body) { super.init(blank: handle, body: body) }

    /// The radius.
    ///
    /// The corresponding C function is `cpCircleShapeGetRadius`.
    public var radius: Double {
        cpCircleShapeGetRadius(handle)
    }

    /// The centre, in body coordinates.
    ///
    /// The corresponding C function is `cpCircleShapeGetOffset`.
    public var offset: Vector {
        Vector(cpCircleShapeGetOffset(handle))
    }
}
