internal import CChipmunk

/// A chain of points, closed when its first and last points are equal: the output of
/// ``MarchingSquares`` and the input of convex decomposition.
/// The corresponding C type is `cpPolyline`.
public struct Polyline: Hashable, Sendable {
    /// The points in order.
    public var points: [Vector]

    /// Creates a polyline; repeat the first point at the end to close it.
    public init(_ points: [Vector]) { self.points = points }

    /// Whether the first and last points are the same. The corresponding C function is `cpPolylineIsClosed`.
    public var isClosed: Bool { points.count > 1 && points.first == points.last }

    /// Drops points where the line curves by less than `tolerance`.
    /// The corresponding C function is `cpPolylineSimplifyCurves`.
    public func simplifiedCurves(tolerance: Double) -> Polyline {
        withCPolyline { cpPolylineSimplifyCurves($0, Self.clean(tolerance)) }
    }

    /// Drops points closer than `tolerance` to the line through their neighbours.
    /// The corresponding C function is `cpPolylineSimplifyVertexes`.
    public func simplifiedVertexes(tolerance: Double) -> Polyline {
        withCPolyline { cpPolylineSimplifyVertexes($0, Self.clean(tolerance)) }
    }

    /// The convex hull, as a closed polyline. The corresponding C function is `cpPolylineToConvexHull`.
    public func convexHull(tolerance: Double = 0) -> Polyline {
        guard !points.isEmpty else { return self }
        return withCPolyline { cpPolylineToConvexHull($0, Self.clean(tolerance)) }
    }

    /// Splits a closed, counter-clockwise polygon into convex pieces, allowing concavities
    /// up to `tolerance` deep.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for an open polyline
    ///   ("Cannot decompose an open polygon"), a clockwise one ("Winding is backwards"),
    ///   fewer than 4 points, or non-finite points.
    /// The corresponding C function is `cpPolylineConvexDecomposition`.
    public func convexDecomposition(tolerance: Double) throws(ChipmunkError) -> [Polyline] {
        guard points.allSatisfy(\.isFinite) else {
            throw .invalidValue(property: "polyline", value: "non-finite points", rule: "finite")
        }
        guard isClosed, points.count >= 4 else {
            throw .invalidValue(property: "polyline", value: "\(points.count) points, \(isClosed ? "closed" : "open")", rule: "closed (first point = last), with 3 or more corners")
        }
        guard Area.polygon(vertices: points) >= 0 else {
            throw .invalidValue(property: "polyline", value: "clockwise", rule: "counter-clockwise (a hole cannot be decomposed)")
        }
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

    private func withCPolyline(_ transform: (UnsafeMutablePointer<cpPolyline>) -> UnsafeMutablePointer<cpPolyline>?) -> Polyline {
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

/// Traces the outlines of a sampled field, for turning images or density maps into
/// collision geometry. The corresponding C functions are `cpMarchSoft` and `cpMarchHard`.
///
/// ```swift
/// // A circle of radius 3 in a 10 × 10 box.
/// let outlines = try MarchingSquares.trace(in: BoundingBox(left: -5, bottom: -5, right: 5, top: 5),
///                                          xSamples: 21, ySamples: 21, threshold: 0.5) { p in
///     p.length < 3 ? 1 : 0
/// }
/// ```
public enum MarchingSquares {
    /// How edges between samples are placed.
    public enum Style: Sendable {
        /// Interpolated between samples: smooth outlines. The corresponding C function is `cpMarchSoft`.
        case soft
        /// On the sample grid: blocky outlines, as for pixel art. The corresponding C function is `cpMarchHard`.
        case hard
    }

    /// Samples `sample` on an `xSamples` × `ySamples` grid over `bounds`, and returns the
    /// outlines where it crosses `threshold`, joined into polylines.
    ///
    /// - Throws: ``ChipmunkError/invalidValue(property:value:rule:)`` for a non-finite or
    ///   empty box, fewer than 2 or more than 10,000 samples a side, or a non-finite threshold.
    public static func trace(
        in bounds: BoundingBox, xSamples: Int, ySamples: Int, threshold: Double, style: Style = .soft,
        sample: (Vector) -> Double
    ) throws(ChipmunkError) -> [Polyline] {
        guard bounds.left.isFinite, bounds.right.isFinite, bounds.bottom.isFinite, bounds.top.isFinite,
              bounds.left < bounds.right, bounds.bottom < bounds.top else {
            throw .invalidValue(property: "bounds", value: "\(bounds)", rule: "finite and not empty")
        }
        for (name, count) in [("x samples", xSamples), ("y samples", ySamples)] where !(2...10_000).contains(count) {
            throw .invalidValue(property: name, value: "\(count)", rule: "2 to 10,000")
        }
        try requireFinite(threshold, "threshold")
        let set = cpPolylineSetNew()!
        defer { cpPolylineSetFree(set, 1) }
        withoutActuallyEscaping(sample) { sample in
            var context = sample
            withUnsafeMutablePointer(to: &context) { context in
                let sampler: cpMarchSampleFunc = { point, data in
                    let value = data!.assumingMemoryBound(to: ((Vector) -> Double).self).pointee(Vector(point))
                    return value.isFinite ? value : 0
                }
                let collect: cpMarchSegmentFunc = { a, b, set in
                    cpPolylineSetCollectSegment(a, b, set!.assumingMemoryBound(to: cpPolylineSet.self))
                }
                switch style {
                case .soft: cpMarchSoft(bounds.cp, UInt(xSamples), UInt(ySamples), threshold, collect, set, sampler, context)
                case .hard: cpMarchHard(bounds.cp, UInt(xSamples), UInt(ySamples), threshold, collect, set, sampler, context)
                }
            }
        }
        return Polyline.lines(of: set)
    }
}
