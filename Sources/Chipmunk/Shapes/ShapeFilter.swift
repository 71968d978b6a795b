internal import CChipmunk

/// Which shapes collide with, and are found by queries for, which.
///
/// Two shapes collide unless they share a non-zero `group`, and only if each one's
/// `categories` meet the other's `mask`. The default puts a shape in no group and in
/// every category, colliding with every category.
///
/// ```swift
/// let player: ShapeFilter.Categories = [.init(rawValue: 1 << 0)]
/// shape.filter = ShapeFilter(group: 0, categories: player, mask: .all.subtracting(player))
/// ```
///
/// The corresponding C type is `cpShapeFilter`.
public struct ShapeFilter: Hashable, Sendable {
    /// A set of up to 32 user-defined categories.
    ///
    /// The corresponding C type is `cpBitmask`.
    public struct Categories: OptionSet, Hashable, Sendable {
        /// One bit per category.
        public var rawValue: UInt32
        /// Creates a set from its bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Every category.
        ///
        /// The corresponding C constant is `CP_ALL_CATEGORIES`.
        public static let all = Categories(rawValue: CChipmunkAllCategories())
        /// Category number `index`, 0 to 31.
        public static func category(_ index: Int) -> Categories {
            ensure((0..<32).contains(index), "A category index is 0 to 31; got \(index)")
            return Categories(rawValue: 1 << UInt32(index))
        }
    }

    /// A group of shapes that never collide with each other, such as the parts of one
    /// ragdoll. ``none`` (0) is no group.
    ///
    /// The corresponding C type is `cpGroup`.
    public struct Group: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The engine's number for the group.
        public var rawValue: UInt
        /// Creates a group from its number.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Creates a group from an integer literal.
        public init(integerLiteral value: UInt) { self.init(rawValue: value) }
        /// No group: the shape collides with every other shape its categories allow.
        ///
        /// The corresponding C constant is `CP_NO_GROUP`.
        public static let none: Group = 0
        /// The number.
        public var description: String { "\(rawValue)" }
    }

    /// Shapes sharing a group other than ``Group/none`` never collide (the parts of one ragdoll, say).
    public var group: Group
    /// The categories this shape is in.
    public var categories: Categories
    /// The categories this shape collides with.
    public var mask: Categories

    /// Creates a filter; the defaults are the engine's: no group, all categories, all mask bits.
    public init(group: Group = .none, categories: Categories = .all, mask: Categories = .all) {
        self.group = group
        self.categories = categories
        self.mask = mask
    }

    /// The default filter: no group, every category, colliding with every category.
    ///
    /// The corresponding C constant is `CP_SHAPE_FILTER_ALL`.
    public static let all = ShapeFilter()
    /// A filter that matches nothing.
    ///
    /// The corresponding C constant is `CP_SHAPE_FILTER_NONE`.
    public static let none = ShapeFilter(group: 0, categories: [], mask: [])

    /// Whether two shapes with these filters would be kept apart.
    ///
    /// The corresponding C function is `cpShapeFilterReject`.
    public func rejects(_ other: ShapeFilter) -> Bool {
        (group != .none && group == other.group)
            || categories.intersection(other.mask).isEmpty
            || other.categories.intersection(mask).isEmpty
    }
}

extension ShapeFilter {
    init(_ f: cpShapeFilter) {
        self.init(
            group: Group(rawValue: f.group), categories: .init(rawValue: f.categories), mask: .init(rawValue: f.mask))
    }
    var cp: cpShapeFilter { cpShapeFilter(group: group.rawValue, categories: categories.rawValue, mask: mask.rawValue) }
}
