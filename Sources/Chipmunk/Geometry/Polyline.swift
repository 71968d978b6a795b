internal import CChipmunk

/// A chain of points, closed when its first and last points are equal: the output of
/// ``MarchingSquares`` and the input of convex decomposition.
///
/// The corresponding C type is `cpPolyline`.
public struct Polyline: Hashable, Sendable {
    /// The points in order.
    public var points: [Vector]

    /// Creates a polyline; repeat the first point at the end to close it.
    public init(_ points: [Vector]) { self.points = points }

    /// Whether the first and last points are the same.
    ///
    /// The corresponding C function is `cpPolylineIsClosed`.
    public var isClosed: Bool { points.count > 1 && points.first == points.last }

    /// Drops points where the line curves by less than `tolerance`. Every point must keep
    /// ``Parameter/polygonVertex``, as for the operations below: a non-finite point is a
    /// programming error (the hull of one came out with infinite points).
    ///
    /// The corresponding C function is `cpPolylineSimplifyCurves`.
    public func simplifiedCurves(tolerance: Double) -> Polyline {
        withCPolyline { cpPolylineSimplifyCurves($0, Self.clean(tolerance)) }
    }

    /// Drops points closer than `tolerance` to the line through their neighbours.
    ///
    /// The corresponding C function is `cpPolylineSimplifyVertexes`.
    public func simplifiedVertices(tolerance: Double) -> Polyline {
        withCPolyline { cpPolylineSimplifyVertexes($0, Self.clean(tolerance)) }
    }

    /// The convex hull, as a closed polyline.
    ///
    /// The corresponding C function is `cpPolylineToConvexHull`.
    public func convexHull(tolerance: Double = 0) -> Polyline {
        for point in points { Parameter.polygonVertex.require(point) }
        guard !points.isEmpty else { return self }
        return withCPolyline { cpPolylineToConvexHull($0, Self.clean(tolerance)) }
    }

    /// Splits a closed, counter-clockwise polygon into convex pieces, allowing concavities
    /// up to `tolerance` deep.
    ///
    /// - Throws: ``ChipmunkError/invalidGeometry(_:)`` for an open polyline or one with
    ///   fewer than 4 points ("Cannot decompose an open polygon"), or a clockwise one
    ///   ("Winding is backwards"); ``ChipmunkError/invalidValue(_:_:)`` for a non-finite point.
    ///
    /// The corresponding C function is `cpPolylineConvexDecomposition`.
    public func convexDecomposition(tolerance: Double) throws(ChipmunkError) -> [Polyline] {
        for point in points { try Parameter.polygonVertex.check(point) }
        guard isClosed, points.count >= 4 else { throw .invalidGeometry(.notClosed(points: points.count)) }
        guard Area.polygon(vertices: points) >= 0 else { throw .invalidGeometry(.clockwise) }
        let line = makeCPolyline()
        defer { cpPolylineFree(line) }
        guard let set = cpPolylineConvexDecomposition(line, Self.clean(tolerance)) else { return [] }
        defer { cpPolylineSetFree(set, 1) }
        return Self.lines(of: set)
    }

    private static func clean(_ tolerance: Double) -> Double { tolerance.isFinite ? Swift.max(tolerance, 0) : 0 }

    private func makeCPolyline() -> UnsafeMutablePointer<cpPolyline> {
        points.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: cpVect.self) { CChipmunkPolylineNew(Int32($0.count), $0.baseAddress)! }
        }
    }

    private func withCPolyline(_ transform: (UnsafeMutablePointer<cpPolyline>) -> UnsafeMutablePointer<cpPolyline>?)
        -> Polyline
    {
        for point in points { Parameter.polygonVertex.require(point) }
        guard points.count > 1 else { return self }
        let line = makeCPolyline()
        defer { cpPolylineFree(line) }
        guard let result = transform(line) else { return Polyline([]) }
        defer { cpPolylineFree(result) }
        return Polyline(result)
    }

    init(_ line: UnsafeMutablePointer<cpPolyline>) {
        let verts = CChipmunkPolylineVerts(line)!
        points = (0..<Int(line.pointee.count)).map { Vector(verts[$0]) }
    }

    static func lines(of set: UnsafeMutablePointer<cpPolylineSet>) -> [Polyline] {
        (0..<Int(set.pointee.count)).map { Polyline(set.pointee.lines[$0]!) }
    }
}
