import Chipmunk

/// A contact event a `log` rule records.
public struct CollisionEvent: Hashable, Sendable {
    /// Whether the shapes began or stopped touching.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The shapes began touching (a sensor was entered).
        case begin
        /// The shapes stopped touching (a sensor was left).
        case separate
    }

    /// Whether the shapes began or stopped touching; its raw value is how output spells it.
    public var kind: Kind
    /// The step during which it happened (1 for the first step).
    public var step: Int
    /// The shapes, as output names them: their `id`, or else their body's name.
    public var shapeA: String
    /// The other shape, named as `shapeA` is.
    public var shapeB: String
    /// The shapes' bodies, as output names them (their `id`, or their index in the file;
    /// "static" for the space's static body).
    public var bodyA: String
    /// The other shape's body, named as `bodyA` is.
    public var bodyB: String
}
