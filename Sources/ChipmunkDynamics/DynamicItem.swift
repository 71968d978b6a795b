import Chipmunk

/// What an animator moves: the user's own object, as `UIDynamicItem` is. The animator
/// reads `center`, `bounds` and `rotation` when the item joins it (and on
/// ``DynamicAnimator/updateItem(usingCurrentState:)``), and writes `center` and
/// `rotation` after every step.
public protocol DynamicItem: AnyObject {
    /// The centre, in the reference bounds' coordinates (points, y down).
    var center: Vector { get set }
    /// The item's size (its origin is ignored), as `UIView.bounds`.
    var bounds: Rect { get }
    /// The rotation in radians, clockwise on screen (y down), as a rotation transform's angle.
    var rotation: Double { get set }
    /// The shape collisions use (`collisionBoundsType`, `collisionBoundingPath`).
    var collisionBounds: CollisionBounds { get }
}

extension DynamicItem {
    public var collisionBounds: CollisionBounds { .rectangle }
}

/// An item's collision shape, as `UIDynamicItemCollisionBoundsType`.
public enum CollisionBounds: Hashable, Sendable {
    /// The bounds rectangle.
    case rectangle
    /// The ellipse inside the bounds (a circle when they are square; otherwise a
    /// 24-sided polygon, since the engine has no ellipse).
    case ellipse
    /// A convex path around the centre, counter-clockwise or clockwise
    /// (`collisionBoundingPath`); the engine takes its convex hull.
    case path([Vector])
}

/// A plain dynamic item: a stand-in for a `UIView`, with a name and an `alpha` a
/// collision delegate can dim.
public final class ItemView: DynamicItem {
    public var name: String
    public var center: Vector
    public let bounds: Rect
    public var rotation: Double = 0
    public var alpha: Double = 1
    public let collisionBounds: CollisionBounds

    public init(name: String, center: Vector, size: Size, collisionBounds: CollisionBounds = .rectangle) {
        DynamicsParameter.itemViewSize.require(size)
        self.name = name
        self.center = center
        self.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        self.collisionBounds = collisionBounds
    }
}
