/// What a space holds: a ``Body``, a ``Shape`` or a ``Constraint``.
///
/// ``Space/add(_:)`` and ``Space/remove(_:)`` take any mix of them, as pymunk's
/// `space.add(body, shape)` does. Only the binding's three kinds conform.
public protocol SpaceObject: AnyObject {
    /// The space the object is in, if any.
    var space: Space? { get }
}
