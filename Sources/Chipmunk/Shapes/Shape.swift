internal import CChipmunk
internal import CChipmunkRuntime

/// The collision geometry attached to a body: ``Circle``, ``Segment`` or ``Polygon``.
///
/// Every tunable is a property, checked against its ``Parameter`` rule:
///
/// ```swift
/// let ball = Circle(body: body, radius: 10)
/// ball.friction = 0.7
/// ball.elasticity = 0.5
/// ```
///
/// A shape holds its body strongly; the C shape is freed in `deinit`.
///
/// The corresponding C type is `cpShape`.
public class Shape: SpaceObject, CObjectOwner {
    /// `shape`: a shape is one of the three kinds of ``SpaceObject``.
    public var spaceObjectKind: SpaceObjectKind { SpaceObjectKind(.shape) }

    let handle: UnsafeMutablePointer<cpShape>

    /// The body the shape is attached to.
    public let body: Body

    /// The space the shape is in, if any. Weak: the space holds the shape.
    public internal(set) weak var space: Space?

    var cSpace: OwnedCSpace?

    /// The number the space gave this object when it was added (0, 1, 2, … in add order,
    /// shared by bodies, shapes and constraints); snapshots match objects by it. -1 outside a space.
    var serial = -1

    init(
        handle: UnsafeMutablePointer<cpShape>, body: Body, friction: Double, elasticity: Double,
        collisionType: CollisionType
    ) {
        self.handle = handle
        self.body = body
        cpShapeSetUserData(handle, unretainedPointer)
        self.friction = friction
        self.elasticity = elasticity
        self.collisionType = collisionType
    }

    /// Wraps a blank C shape that ``Space/copy()`` fills from its original.
    init(blank handle: UnsafeMutablePointer<cpShape>, body: Body) {
        self.handle = handle
        self.body = body
        cpShapeSetUserData(handle, unretainedPointer)
    }

    /// A blank shape of `original`'s class (a polygon with as many vertices) on `body`,
    /// for ``Space/copy()``, whose engine clone then sets every field.
    static func blank(like original: Shape, body: Body) -> Shape {
        switch original {
        case is Circle:
            Circle(
                blank: SlabArena.current.circles.build { (s: UnsafeMutablePointer<cpCircleShape>) in blank(s, original)
                }, body: body)
        case is Segment:
            Segment(
                blank: SlabArena.current.segments.build { (s: UnsafeMutablePointer<cpSegmentShape>) in
                    blank(s, original)
                }, body: body)
        default:
            Polygon(
                blank: SlabArena.current.polygons.build { (s: UnsafeMutablePointer<cpPolyShape>) in blank(s, original)
                }, body: body)
        }
    }

    private static func blank<T>(_ memory: UnsafeMutablePointer<T>, _ original: Shape) -> UnsafeMutablePointer<T>? {
        CChipmunkShapeSkeleton(memory, original.handle).map { $0.assumingMemoryBound(to: T.self) }
    }

    deinit { releaseCObject() }

    static func freeCObject(_ object: UnsafeMutablePointer<cpShape>) {
        cpShapeDestroy(object)
        StructSlab.release(object)
    }

    /// Tells the space that a setting a ``SpaceState`` does not save changed: a restore
    /// puts it back.
    func settingsChanged() { space?.noteShapeSettingsChanged() }

    /// The friction coefficient (Coulomb); the contact uses the product of both shapes'.
    /// Rule: ``Parameter/shapeFriction``, from 0 to ``Parameter/maxCoefficient`` (1e100),
    /// so that the product stays finite.
    ///
    /// The corresponding C functions are `cpShapeGetFriction` and `cpShapeSetFriction`.
    public var friction: Double {
        get { cpShapeGetFriction(handle) }
        set {
            Parameter.shapeFriction.require(newValue)
            cpShapeSetFriction(handle, newValue)
            settingsChanged()
        }
    }

    /// The elasticity: 0 gives no bounce, 1 a perfect bounce; the contact uses the product
    /// of both shapes'. Rule: ``Parameter/shapeElasticity``, from 0 to
    /// ``Parameter/maxCoefficient`` (1e100), so that the product stays finite.
    ///
    /// The corresponding C functions are `cpShapeGetElasticity` and `cpShapeSetElasticity`.
    public var elasticity: Double {
        get { cpShapeGetElasticity(handle) }
        set {
            Parameter.shapeElasticity.require(newValue)
            cpShapeSetElasticity(handle, newValue)
            settingsChanged()
        }
    }

    /// The type that collision handlers use to pick the shapes they handle.
    ///
    /// The corresponding C functions are `cpShapeGetCollisionType` and `cpShapeSetCollisionType`.
    public var collisionType: CollisionType {
        get { CollisionType(rawValue: cpShapeGetCollisionType(handle)) }
        set {
            cpShapeSetCollisionType(handle, newValue.rawValue)
            settingsChanged()
        }
    }

    /// The bounding box, as of the last step or reindex.
    ///
    /// The corresponding C function is `cpShapeGetBB`.
    public var boundingBox: BoundingBox {
        BoundingBox(cpShapeGetBB(handle))
    }

    /// Recomputes and returns the bounding box from the body's current position.
    ///
    /// The corresponding C function is `cpShapeCacheBB`.
    @discardableResult
    public func cacheBoundingBox() -> BoundingBox {
        BoundingBox(cpShapeCacheBB(handle))
    }

    @inline(__always)
    static func from(_ handle: UnsafeMutablePointer<cpShape>) -> Shape {
        owner(of: cpShapeGetUserData(handle))
    }
}

@available(*, unavailable, message: "A Shape wraps a C object; use it from one task at a time, one space per task")
extension Shape: Sendable {}
