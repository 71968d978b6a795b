internal import CChipmunk

/// The type of a shape that collision handlers pick it by: ``Shape/collisionType``.
///
/// Any whole number names a type; ``wildcard`` stands for every type in a wildcard
/// handler.
///
/// ```swift
/// let player: CollisionType = 1, platform: CollisionType = 2
/// shape.collisionType = player
/// space.onCollision(between: player, and: platform, preSolve: { $0.normal.y < 0 })
/// ```
///
/// The corresponding C type is `cpCollisionType`.
public struct CollisionType: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible
{
    /// The engine's number for the type.
    public var rawValue: UInt

    /// Creates a type from its number.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Creates a type from an integer literal.
    public init(integerLiteral value: UInt) { self.init(rawValue: value) }

    /// The type every shape has until given another: 0.
    public static let `default`: CollisionType = 0

    /// The type that wildcard and default handlers stand for.
    ///
    /// The corresponding C constant is `CP_WILDCARD_COLLISION_TYPE`.
    public static let wildcard = CollisionType(rawValue: CChipmunkWildcardCollisionType())

    /// The number, or `wildcard`.
    public var description: String { self == .wildcard ? "wildcard" : "\(rawValue)" }
}
