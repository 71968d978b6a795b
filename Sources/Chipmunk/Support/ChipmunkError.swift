/// What kind of object an error is about.
public enum ObjectKind: String, Sendable {
    case body, shape, constraint
}

/// A misuse that the Swift layer stopped before it reached the engine.
///
/// Debian's Chipmunk is a debug build: every failed check in the C library prints
/// "Aborting due to Chipmunk error" and calls `abort()`, which Swift cannot catch. The
/// binding checks each rule first and throws one of these instead.
public enum ChipmunkError: Error, Equatable, Sendable {
    /// The object is already in this space.
    case alreadyInThisSpace(ObjectKind)
    /// The object is in another space; remove it there first.
    case inAnotherSpace(ObjectKind)
    /// The object is not in this space, so it cannot be removed from it.
    case notInThisSpace(ObjectKind)
    /// The space's own static body is part of the space; it cannot be added or removed.
    case spaceStaticBody
    /// A shape's body must be in the space (or be its static body) before the shape.
    case bodyNotInSpace
    /// A value the engine would reject: `property` must satisfy `rule`.
    case invalidValue(property: String, value: String, rule: String)
    /// Only dynamic bodies have a mass and moment that can be set.
    case notDynamic(property: String)
    /// A dynamic body needs a positive mass and moment before it can be simulated.
    case massless
    /// The engine forbids this while a step, a query or a callback is running.
    case spaceLocked(operation: String)
    /// A constraint needs at least one dynamic body; the solver cannot solve one between
    /// two bodies of infinite mass.
    case unsolvableConstraint
    /// The body cannot be put to sleep, for the reason given.
    case cannotSleep(reason: String)
    /// The object must be in a space for this.
    case notInASpace(ObjectKind)
    /// The engine keeps an arbiter's contact count; a new set must have as many points.
    case contactCountMismatch(expected: Int, got: Int)
}

extension ChipmunkError: CustomStringConvertible {
    /// A one-line reason, naming the rule that was broken.
    public var description: String {
        switch self {
        case .alreadyInThisSpace(let kind):
            return "this \(kind) is already in this space; add it once"
        case .inAnotherSpace(let kind):
            return "this \(kind) is in another space; remove it there before adding it here"
        case .notInThisSpace(let kind):
            return "this \(kind) is not in this space, so it cannot be removed from it"
        case .spaceStaticBody:
            return "the space's static body belongs to the space; it cannot be added or removed"
        case .bodyNotInSpace:
            return "a shape's body must be added to the space before the shape"
        case let .invalidValue(property, value, rule):
            return "\(property) must be \(rule) (got \(value))"
        case .notDynamic(let property):
            return "only a dynamic body has a \(property) to set"
        case .massless:
            return "a dynamic body in the space has no positive, finite mass and moment: give it mass, or shapes with mass or density, before stepping"
        case .spaceLocked(let operation):
            return "cannot \(operation) during a step, a query or a callback; do it in a post-step callback"
        case .unsolvableConstraint:
            return "a constraint needs at least one dynamic body; the engine cannot solve one between two static or kinematic bodies"
        case .cannotSleep(let reason):
            return "cannot put the body to sleep: \(reason)"
        case .notInASpace(let kind):
            return "the \(kind) must be in a space for this"
        case let .contactCountMismatch(expected, got):
            return "the contact point set must keep its \(expected) points (got \(got))"
        }
    }
}

// MARK: - Checks shared by every setter

@inline(__always)
func requireFinite(_ value: Double, _ property: String) throws(ChipmunkError) {
    guard value.isFinite else {
        throw .invalidValue(property: property, value: "\(value)", rule: "finite")
    }
}

@inline(__always)
func requireFinite(_ value: Vector, _ property: String) throws(ChipmunkError) {
    guard value.isFinite else {
        throw .invalidValue(property: property, value: "\(value)", rule: "finite")
    }
}

@inline(__always)
func requirePositiveFinite(_ value: Double, _ property: String) throws(ChipmunkError) {
    guard value > 0, value.isFinite else {
        throw .invalidValue(property: property, value: "\(value)", rule: "positive and finite")
    }
}

@inline(__always)
func requireNonNegativeFinite(_ value: Double, _ property: String) throws(ChipmunkError) {
    guard value >= 0, value.isFinite else {
        throw .invalidValue(property: property, value: "\(value)", rule: "zero or more, and finite")
    }
}
