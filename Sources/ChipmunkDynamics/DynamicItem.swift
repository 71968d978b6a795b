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
    /// The bounds rectangle, UIKit's default.
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
    /// The name output and pictures give the item's body.
    public var name: String
    /// The centre, in points, y down; the animator writes it after every step.
    public var center: Vector
    /// The item's size, at origin (0, 0).
    public let bounds: Rect
    /// The rotation in radians, clockwise on screen; the animator writes it after every step.
    public var rotation: Double = 0
    /// How opaque pictures draw the item, from 0 to 1; the engine does not read it.
    public var alpha: Double = 1
    /// The shape collisions use.
    public let collisionBounds: CollisionBounds

    /// An item called `name`, `size` points large, centred at `center`, not turned.
    ///
    /// A width or height outside 1e-6...1e15 is a programming error: the program stops
    /// (with densities from 1e-12 to 1e12, an item's mass and moment then stay within the
    /// engine's range).
    public init(name: String, center: Vector, size: Size, collisionBounds: CollisionBounds = .rectangle) {
        DynamicsParameter.itemViewSize.require(size)
        self.name = name
        self.center = center
        self.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        self.collisionBounds = collisionBounds
    }
}
