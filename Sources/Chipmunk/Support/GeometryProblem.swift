/// Why points cannot make a polygon, or a polyline cannot be decomposed.
public enum GeometryProblem: Hashable, Sendable {
    /// A polygon needs at least 3 vertices.
    case tooFewVertices(Int)
    /// More vertices than the engine can take: it builds the hull on the stack.
    case tooManyVertices(Int)
    /// The convex hull has no area: every point lies on one line, or the coordinates are
    /// so large that the area overflows.
    case noArea
    /// Convex decomposition needs a closed polyline (first point equal to the last) with
    /// at least 3 corners.
    case notClosed(points: Int)
    /// Convex decomposition needs counter-clockwise winding; a clockwise outline is a hole.
    case clockwise
}

extension GeometryProblem: CustomStringConvertible {
    /// The problem in words.
    public var description: String {
        switch self {
        case .tooFewVertices(let count): return "a polygon needs at least 3 vertices (got \(count))"
        case .tooManyVertices(let count):
            return "a polygon may have at most \(Polygon.maxVertexCount) vertices (got \(count))"
        case .noArea: return "the polygon's vertices enclose no area (all on one line, or too large to measure)"
        case .notClosed(let points):
            return "the polyline must be closed (first point = last) with at least 3 corners (got \(points) points)"
        case .clockwise:
            return "the polyline winds clockwise; decomposition needs counter-clockwise (a clockwise outline is a hole)"
        }
    }
}

/// Why a shape cannot carry a mass or density.
public enum MassProblem: Hashable, Sendable, CustomStringConvertible {
    /// The shape has no area (a segment or circle of radius 0) to spread a mass over, or
    /// one too small for its centre of gravity to be finite.
    case noArea(area: Double)
    /// The body's mass or moment, summed from its shapes, would not be finite and within
    /// ``Parameter/massRange``.
    case bodyOutOfRange(mass: Double, moment: Double)

    /// The problem in words.
    public var description: String {
        switch self {
        case .noArea(let area) where area > 0:
            // An area too small to measure (1e-323) leaves the centroid not finite.
            return "needs a shape with an area whose centre of gravity is finite (this one has area \(area))"
        case .noArea(let area):
            return "needs a shape with an area (this one has area \(area))"
        case let .bodyOutOfRange(mass, moment):
            return "the body's mass properties, summed from its shapes, would not be finite and within "
                + "\(Parameter.massRange.lowerBound)...\(Parameter.massRange.upperBound) "
                + "(mass \(mass), moment \(moment))"
        }
    }
}
