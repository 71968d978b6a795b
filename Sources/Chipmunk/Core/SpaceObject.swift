/// What a space holds: a ``Body``, a ``Shape`` or a ``Constraint``.
///
/// `Space.add(_:)` and `Space.remove(_:)` take
/// any mix of them, as pymunk's `space.add(body, shape)` does. Only the binding's three
/// kinds conform: a conformance needs a ``SpaceObjectKind``, which has no public initialiser.
public protocol SpaceObject: AnyObject {
    /// The space the object is in, if any.
    var space: Space? { get }

    /// Which of the binding's three kinds the object is.
    var spaceObjectKind: SpaceObjectKind { get }
}

/// Which of the binding's three kinds a ``SpaceObject`` is: a body, a shape or a constraint.
///
/// It has no public initialiser, so that no type outside the binding can be a space object.
public struct SpaceObjectKind: Hashable, Sendable, CustomStringConvertible {
    package enum Value: String, Sendable { case body, shape, constraint }

    package let value: Value

    package init(_ value: Value) { self.value = value }

    /// `body`, `shape` or `constraint`.
    public var description: String { value.rawValue }
}

/// The key of a post-step callback (``Space/addPostStepCallback(forKey:_:)``): a name, a
/// number or an object. A second callback with the same key before the step ends is ignored.
///
/// ```swift
/// space.addPostStepCallback(forKey: "tidy") { space in … }
/// space.addPostStepCallback(forKey: .object(joint)) { space in space.remove(joint) }
/// ```
public struct PostStepKey: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    private enum Value: Hashable, Sendable {
        case name(String)
        case number(Int)
        case object(ObjectIdentifier)
    }

    private let value: Value

    /// A key named `name`.
    public init(_ name: String) { value = .name(name) }

    /// A key named by a string literal: `forKey: "tidy"`.
    public init(stringLiteral name: String) { value = .name(name) }

    /// A key numbered by an integer literal: `forKey: 7`.
    public init(integerLiteral number: Int) { value = .number(number) }

    /// The key of `object` (by identity): one callback per object, such as per joint to break.
    public static func object(_ object: AnyObject) -> PostStepKey {
        PostStepKey(value: .object(ObjectIdentifier(object)))
    }

    private init(value: Value) { self.value = value }
}
