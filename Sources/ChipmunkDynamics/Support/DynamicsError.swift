import Chipmunk

/// What goes wrong while an animator steps that is the behaviours' doing, thrown from
/// ``DynamicAnimator/step()`` (and `advance(by:)`), as `ChipmunkError` is for
/// the engine's.
public enum DynamicsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// At `step`, `behavior` (a field's kind named, such as "FieldBehavior (custom)") gave
    /// item `item` of the animator (in the order items joined; `itemName` names it: an
    /// `ItemView` by its name, another item by its type) an
    /// acceleration that is not finite, `value`: a custom field's NaN, or a falloff that
    /// overflows near the field's centre.
    case nonFiniteAcceleration(step: Int, behavior: String, item: Int, itemName: String, value: Double)

    /// The error as one line, naming the step, the behaviour and the item.
    public var description: String {
        switch self {
        case let .nonFiniteAcceleration(step, behavior, item, itemName, value):
            return "step \(step): \(behavior) gave item \(item) (\(itemName)) an acceleration of \(value); "
                + "a behaviour's force must be finite"
        }
    }
}
