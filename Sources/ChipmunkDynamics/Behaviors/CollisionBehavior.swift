import Chipmunk
import Foundation

/// Told when items start and stop touching, as `UICollisionBehaviorDelegate`. A nil
/// boundary identifier means the reference bounds.
public protocol CollisionBehaviorDelegate: AnyObject {
    /// Two items of the behaviour began touching at `point`.
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem,
        at point: Vector)
    /// Two items of the behaviour stopped touching.
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem)
    /// An item began touching a boundary (nil: the reference bounds) at `point`.
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
        withBoundaryIdentifier identifier: String?,
        at point: Vector)
    /// An item stopped touching a boundary (nil: the reference bounds).
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?
    )
}

extension CollisionBehaviorDelegate {
    /// Does nothing.
    public func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem,
        at point: Vector
    ) {}
    /// Does nothing.
    public func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem
    ) {}
    /// Does nothing.
    public func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
        withBoundaryIdentifier identifier: String?,
        at point: Vector
    ) {}
    /// Does nothing.
    public func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?
    ) {}
}

/// Items that collide with each other and with boundaries, as `UICollisionBehavior`.
///
/// Items collide only with items of the same collision behaviour (`.items`) and with its
/// boundaries (`.boundaries`); `.everything` is both. Boundaries are static segments:
/// the reference bounds (identifier nil), two-point lines, or closed paths.
public final class CollisionBehavior: ItemListBehavior {
    /// What the items collide with (`UICollisionBehaviorMode`).
    public struct Mode: OptionSet, Hashable, Sendable {
        /// The bits: 1 items, 2 boundaries.
        public let rawValue: Int
        /// The mode with these bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Each other.
        public static let items = Mode(rawValue: 1)
        /// The behaviour's boundaries.
        public static let boundaries = Mode(rawValue: 2)
        /// Both.
        public static let everything: Mode = [.items, .boundaries]
    }

    /// What the items collide with, `.everything` by default.
    public var collisionMode: Mode = .everything { didSet { changed() } }
    /// Told when contacts begin and end; held weakly.
    public weak var collisionDelegate: (any CollisionBehaviorDelegate)?

    /// Whether the reference bounds are a boundary (identifier nil).
    public var translatesReferenceBoundsIntoBoundary = false { didSet { boundariesChanged() } }
    /// How far inside the reference bounds that boundary is.
    public private(set) var referenceBoundsInsets = EdgeInsets.zero

    /// Makes the reference bounds, shrunk by `insets`, a boundary.
    ///
    /// An inset that is not finite, or past ±5e14 (half of `Parameter.maxCoordinate`, as the
    /// reference bounds' corners are), is a programming error: the program stops; so are
    /// insets that leave the bounds no width or height, when the behaviour's animator builds
    /// the boundary.
    public func setTranslatesReferenceBoundsIntoBoundary(with insets: EdgeInsets) {
        DynamicsParameter.boundaryInsets.require(insets)
        referenceBoundsInsets = insets
        translatesReferenceBoundsIntoBoundary = true
    }

    /// Boundaries by identifier: each a polyline (two points for a line; a closed path
    /// repeats its first point at the end).
    public private(set) var boundaries: [(identifier: String, points: [Vector])] = []
    /// The boundaries' identifiers, in the order added.
    public var boundaryIdentifiers: [String] { boundaries.map(\.identifier) }

    /// A line boundary from `p1` to `p2`, replacing one with the same identifier.
    public func addBoundary(withIdentifier identifier: String, from p1: Vector, to p2: Vector) {
        addBoundary(identifier, [p1, p2])
    }

    /// A closed path boundary through `points` (`addBoundaryWithIdentifier:forPath:`).
    ///
    /// Fewer than 2 points, or a coordinate past ±1e15, is a programming error: the program stops.
    public func addBoundary(withIdentifier identifier: String, forPath points: [Vector]) {
        ensure(points.count >= 2, "CollisionBehavior.addBoundary(forPath:) needs at least 2 points")
        addBoundary(identifier, points + [points[0]])
    }

    private func addBoundary(_ identifier: String, _ points: [Vector]) {
        DynamicsParameter.boundaryPoint.require(points)
        removeBoundary(withIdentifier: identifier)
        boundaries.append((identifier, points))
        boundariesChanged()
    }

    /// The points of the boundary called `identifier`, or nil.
    public func boundary(withIdentifier identifier: String) -> [Vector]? {
        boundaries.first { $0.identifier == identifier }?.points
    }

    /// Removes the boundary called `identifier`, if there is one.
    public func removeBoundary(withIdentifier identifier: String) {
        boundaries.removeAll { $0.identifier == identifier }
        boundariesChanged()
    }

    /// Removes every boundary, the reference bounds too.
    public func removeAllBoundaries() {
        boundaries.removeAll()
        translatesReferenceBoundsIntoBoundary = false
    }

    /// Set by the animator: this behaviour's pair of collision bits.
    var index = 0
    private var segments: [Segment] = []
    private var installedBoundaries = false

    private func boundariesChanged() {
        installedBoundaries = false
        changed()
    }

    var itemBits: UInt32 { 1 << UInt32(2 * index) }
    var boundaryBits: UInt32 { 1 << UInt32(2 * index + 1) }

    override func configure(in animator: DynamicAnimator) {
        for item in items {
            guard let record = animator.record(for: item) else { continue }
            record.categories |= itemBits
            if collisionMode.contains(.items) { record.mask |= itemBits }
            if collisionMode.contains(.boundaries) { record.mask |= boundaryBits }
        }
        // The bits may have moved with the behaviour's index.
        for segment in segments { segment.filter = boundaryFilter }
    }

    private var boundaryFilter: ShapeFilter {
        ShapeFilter(
            categories: ShapeFilter.Categories(rawValue: boundaryBits),
            mask: ShapeFilter.Categories(rawValue: collisionMode.contains(.boundaries) ? itemBits : 0))
    }

    override func install(in animator: DynamicAnimator) {
        guard !installedBoundaries else { return }
        uninstall(from: animator)
        installedBoundaries = true
        var walls: [(identifier: String?, from: Vector, to: Vector, radius: Double)] = []
        if translatesReferenceBoundsIntoBoundary {
            let inside = animator.referenceBounds.inset(by: referenceBoundsInsets)
            // Insets that cross leave no inside to keep items in (a thickness below 0 stopped
            // the program naming `Segment.radius`).
            ensure(
                inside.width > 0 && inside.height > 0,
                "\(DynamicsParameter.boundaryInsets) leave no room inside the reference bounds "
                    + "(\(animator.referenceBounds.size.width) × \(animator.referenceBounds.size.height) inset by "
                    + "\(referenceBoundsInsets) is \(inside.width) × \(inside.height))")
            walls += Self.walls(around: inside)
        }
        for (identifier, points) in boundaries {
            for (a, b) in zip(points, points.dropFirst()) where a != b { walls.append((identifier, a, b, 0)) }
        }
        for wall in walls {
            // Elasticity and friction 1: the engine multiplies the two sides', so the item's count.
            let segment = Segment(
                body: animator.space.staticBody, from: wall.from, to: wall.to, radius: wall.radius, friction: 1,
                elasticity: 1, collisionType: DynamicAnimator.boundaryType)
            segment.filter = boundaryFilter
            segments.append(segment)
            animator.boundaryOwners[ObjectIdentifier(segment)] = (self, wall.identifier)
            animator.space.add(segment)
        }
        // Items resting against the old boundaries must notice the new ones.
        for item in items { animator.wake(item) }
    }

    /// The reference bounds' boundary: four walls outside the bounds, whose inner faces are
    /// the bounds' edges, each a segment with a radius of 1/20 of the bounds' larger side (at
    /// most 1e14, and less where an edge nears the core's ±1e15): 24 points for a 320 × 480
    /// screen. A wall holds back an item that moves less than about its own thickness plus
    /// the item's half size in one step; faster ones can pass, as through any shape (the
    /// engine has no continuous collision detection).
    /// An item driven into a wall by the others is pushed back until its centre passes the
    /// wall's middle line. A wall with no thickness let an item through once its centre
    /// crossed the edge: one of 20 items bouncing with elasticity 1 at up to 2,400 points/s
    /// left the bounds after 8,842 steps; with these walls the deepest was 8 points past an
    /// edge, and came back.
    static func walls(around r: Rect) -> [(identifier: String?, from: Vector, to: Vector, radius: Double)] {
        // Each wall's middle line lies `t` outside an edge, within the core's coordinates:
        // bounds at ±5e14 inset by -5e14 put an edge at ±1e15 itself (a wall past it stopped
        // the program naming `Segment.start`), and there the walls have no thickness.
        let room = Parameter.maxCoordinate - max(abs(r.minX), abs(r.maxX), abs(r.minY), abs(r.maxY))
        let t = max(0, min(max(r.width, r.height) / 20, 1e14, room))
        return [
            (nil, Vector(x: r.minX, y: r.minY - t), Vector(x: r.maxX, y: r.minY - t), t),
            (nil, Vector(x: r.maxX + t, y: r.minY), Vector(x: r.maxX + t, y: r.maxY), t),
            (nil, Vector(x: r.maxX, y: r.maxY + t), Vector(x: r.minX, y: r.maxY + t), t),
            (nil, Vector(x: r.minX - t, y: r.maxY), Vector(x: r.minX - t, y: r.minY), t),
        ]
    }

    override func uninstall(from animator: DynamicAnimator) {
        for segment in segments {
            animator.boundaryOwners[ObjectIdentifier(segment)] = nil
            animator.space.remove(segment)
        }
        segments.removeAll()
        installedBoundaries = false
    }
}
