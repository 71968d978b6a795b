/// What can go wrong with values that arrive as data, or while simulating.
///
/// The binding has one validation rule. A bad value written in code (a NaN position, a
/// negative mass, adding an object twice) is a programming error and stops the program
/// with a message, in release builds too. Numbers that arrive as data are checked first with
/// ``Parameter/check(_:)-(Double)`` or ``Polygon/check(vertices:transform:radius:)``,
/// which throw these errors. What goes wrong while simulating throws from
/// ``Space/step(_:)``, and leaves the space readable.
///
/// Every case carries data, not prose: match on it, and let ``description`` build the
/// sentence.
public enum ChipmunkError: Error, Hashable, Sendable {
    /// `value` breaks the rule of `parameter` (``Parameter/rule``).
    case invalidValue(Parameter, Double)
    /// The points cannot make the shape or polyline asked for.
    case invalidGeometry(GeometryProblem)
    /// A shape would cover `cells` cells of a spatial hash of cell size `cellSize`, more
    /// than ``Space/maxSpatialHashCells`` (see ``Space/checkSpatialHashFit(of:)``).
    case tooManyHashCells(cells: Double, cellSize: Double)
    /// A shape cannot carry the mass or density given (see ``Shape/check(mass:)``).
    case invalidMass(MassProblem)
    /// Step `step` (counting from 1) was refused because the dynamic body at index `body`
    /// of ``Space/bodies`` has no positive, finite mass and moment (it has no mass of its
    /// own, and its shapes give it none).
    case massless(step: Int, body: Int)
    /// Step `step` (counting from 1) was refused because it would make `quantity` of the
    /// body at index `body` of ``Space/bodies`` non-finite: the simulation diverged.
    /// `value` is what the body has now, or would have after the step: a position also
    /// counts when it is, or would be, past the reach of the space's spatial hash (see
    /// ``Space/useSpatialHash(cellSize:count:)``), and the description says so. `body` is -1 for
    /// the space's own ``Space/staticBody``, which the solver can leave with a NaN velocity
    /// (an infinite impulse times its inverse mass of 0).
    case diverged(step: Int, body: Int, quantity: Body.Quantity, value: Double)
    /// Step `step` (counting from 1) was refused because the pivot or groove joint at index
    /// `constraint` of ``Space/constraints`` has an anchor too far from its body's centre of
    /// gravity for the body's mass and moment: the engine's solver would divide by a zero
    /// determinant ("Unsolvable constraint.") and abort. Nothing was simulated.
    case unsolvable(step: Int, constraint: Int)
    /// Step `step` (counting from 1) was refused because the rotary constraint (a
    /// ``DampedRotarySpring``, ``RotaryLimitJoint``, ``RatchetJoint``, ``GearJoint`` or
    /// ``SimpleMotor``) at index `constraint` of ``Space/constraints`` joins two bodies of
    /// which neither can turn: static, kinematic, or of infinite ``Body/moment``. The engine
    /// would abort ("Unsolvable spring.") or make both spins NaN. Nothing was simulated.
    case cannotTurn(step: Int, constraint: Int)
    /// Step `step` (counting from 1) made more than `limit` contact pairs
    /// (``Space/maxContactPairs``): shapes piled so close that every two of them pair. The
    /// step was stopped inside its broad phase, and so is the space
    /// (``Space/isStoppedByContactPairs``).
    case tooManyContactPairs(step: Int, limit: Int)
}

extension ChipmunkError: CustomStringConvertible {
    /// One line naming what was wrong, with the values.
    public var description: String {
        switch self {
        case let .invalidValue(parameter, _):
            return "\(parameter) \(reason)"
        case .invalidGeometry(let problem):
            return problem.description
        case .invalidMass(let problem):
            return problem.description
        case let .tooManyHashCells(cells, cellSize):
            // Infinitely many: past the reach of the engine's int cell indices (a shape of
            // 4 cells at 1e15 was said to cover "inf cells": a helper's attack).
            guard cells.isFinite else {
                return "lies past the spatial hash's reach: with cells of size \(cellSize), the engine's cell "
                    + "indices reach ±\(Space.hashPositionBound(cellSize: cellSize)) from the origin; use a larger "
                    + "cellSize, or keep the shape nearer the origin"
            }
            return "would cover \(cells) cells of the spatial hash (cell size \(cellSize)), more than "
                + "\(Space.maxSpatialHashCells); use a larger cellSize"
        case let .massless(step, body):
            return "step \(step): dynamic body \(body) has no positive, finite mass and moment; "
                + "give it a mass, or shapes with mass or density (a body made static or kinematic and then "
                + "dynamic again has only its shapes' mass, as in pymunk)"
        case let .diverged(step, body, quantity, value):
            let name = body == -1 ? "the space's static body" : "body \(body)"
            // A finite position within maxCoordinate is refused only past a spatial hash's
            // reach, which can be where the body was put, not where it went (a body placed
            // at 1e15 in a space with cells of 1e-6 was told it "would become" 1e15).
            if quantity == .position, value.isFinite, abs(value) <= Parameter.maxCoordinate {
                return "step \(step): \(name)'s position is or would become \(value), past the reach of the "
                    + "space's spatial hash (2^30 of its cells from the origin); use a larger cellSize, or keep "
                    + "the body nearer the origin"
            }
            return "step \(step): the simulation diverged: \(name)'s \(quantity) would become \(value)"
        case let .tooManyContactPairs(step, limit):
            return "step \(step): more than \(limit) contact pairs: shapes are piled so close that every two of "
                + "them pair; spread them out, or raise Space.maxContactPairs"
        case let .cannotTurn(step, constraint):
            return "step \(step): constraint \(constraint) cannot be solved: it turns its bodies, and neither can turn "
                + "(static, kinematic, or a moment of infinity); give one of them a finite moment"
        case let .unsolvable(step, constraint):
            return "step \(step): constraint \(constraint) cannot be solved: an anchor is too far from its body's "
                + "centre of gravity for the body's mass and moment; move it closer, or give the body more moment"
        }
    }
}

extension ChipmunkError {
    /// The description without the parameter's name, for messages that name the place
    /// another way (a path in a scene file): `must be positive and finite (got -1.0)`.
    public var reason: String {
        guard case let .invalidValue(parameter, value) = self else { return description }
        if case .wholeNumber = parameter.rule, value.rounded() == value, abs(value) < 1e18 {
            return "must be \(parameter.rule) (got \(Int(value)))"
        }
        return "must be \(parameter.rule) (got \(value))"
    }
}

extension ChipmunkError {
    /// What a failed step says, with its step counted from 1: the step's own errors name
    /// their step already ("step 2: the simulation diverged ..."), so only another error's
    /// `description` gets "step 2 failed: " before it (never "step 2 failed: step 2: ...").
    package static func stepFailure(_ step: Int, _ description: String) -> String {
        description.hasPrefix("step \(step):") ? description : "step \(step) failed: \(description)"
    }
}
