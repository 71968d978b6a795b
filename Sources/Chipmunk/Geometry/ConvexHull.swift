internal import CChipmunk

/// The convex hull of a set of points, counter-clockwise, as the engine computes it for
/// polygons (QuickHull).
///
/// ```swift
/// let hull = ConvexHull(of: [[0, 0], [2, 0], [1.5, 1.5], [1, 0.2], [0, 2]])
/// hull.vertices  // [[0, 0], [2, 0], [1.5, 1.5], [0, 2]] (the inner point is dropped)
/// ```
///
/// The corresponding C function is `cpConvexHull`.
public struct ConvexHull: RandomAccessCollection, Hashable, Sendable {
    /// The hull's vertices, counter-clockwise.
    public let vertices: [Vector]
    /// The index in the input of the hull's first vertex (non-finite input points are
    /// dropped before counting).
    public let startingInputIndex: Int

    /// Computes the hull; points within `tolerance` of an edge are dropped.
    /// Non-finite points are ignored.
    public init(of points: [Vector], tolerance: Double = 0) {
        let finite = points.filter(\.isFinite)
        guard !finite.isEmpty else {
            vertices = []
            startingInputIndex = 0
            return
        }
        var result = [Vector](repeating: .zero, count: finite.count)
        var first: Int32 = 0
        let count = finite.withUnsafeBufferPointer { input in
            result.withUnsafeMutableBufferPointer { output in
                input.withMemoryRebound(to: cpVect.self) { input in
                    output.withMemoryRebound(to: cpVect.self) { output in
                        cpConvexHull(
                            Int32(input.count), input.baseAddress, output.baseAddress, &first,
                            tolerance.isFinite ? Swift.max(tolerance, 0) : 0)
                    }
                }
            }
        }
        vertices = Array(result.prefix(Int(count)))
        startingInputIndex = Int(first)
    }

    /// The first index, 0.
    public var startIndex: Int { vertices.startIndex }
    /// One past the last vertex.
    public var endIndex: Int { vertices.endIndex }
    /// The vertex at `index`.
    public subscript(index: Int) -> Vector { vertices[index] }
}
