internal import CChipmunk

/// Traces the outlines of a sampled field, for turning images or density maps into
/// collision geometry.
///
/// ```swift
/// // A circle of radius 3 in a 10 × 10 box.
/// let outlines = MarchingSquares.trace(in: BoundingBox(left: -5, bottom: -5, right: 5, top: 5),
///                                          xSamples: 21, ySamples: 21, threshold: 0.5) { p in
///     p.length < 3 ? 1 : 0
/// }
/// ```
///
/// The corresponding C functions are `cpMarchSoft` and `cpMarchHard`.
public enum MarchingSquares {
    /// How edges between samples are placed.
    public enum Style: Sendable {
        /// Interpolated between samples: smooth outlines.
        ///
        /// The corresponding C function is `cpMarchSoft`.
        case soft
        /// On the sample grid: blocky outlines, as for pixel art.
        ///
        /// The corresponding C function is `cpMarchHard`.
        case hard
    }

    /// Samples `sample` on an `xSamples` × `ySamples` grid over `bounds`, and returns the
    /// outlines where it crosses `threshold`, joined into polylines.
    ///
    /// `bounds` must be valid and not empty, each side must have 2 to 10,000 samples, and
    /// the threshold must be finite; anything else is a programming error. A sample that is
    /// not finite counts as 0.
    public static func trace(
        in bounds: BoundingBox, xSamples: Int, ySamples: Int, threshold: Double, style: Style = .soft,
        sample: (Vector) -> Double
    ) -> [Polyline] {
        ensure(
            bounds.isValid && bounds.width > 0 && bounds.height > 0,
            "MarchingSquares.trace: bounds must be finite and not empty (got \(bounds))")
        ensure(
            (2...10_000).contains(xSamples) && (2...10_000).contains(ySamples),
            "MarchingSquares.trace: 2 to 10,000 samples a side (got \(xSamples) × \(ySamples))")
        ensure(threshold.isFinite, "MarchingSquares.trace: the threshold must be finite (got \(threshold))")
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
                case .soft:
                    cpMarchSoft(bounds.cp, UInt(xSamples), UInt(ySamples), threshold, collect, set, sampler, context)
                case .hard:
                    cpMarchHard(bounds.cp, UInt(xSamples), UInt(ySamples), threshold, collect, set, sampler, context)
                }
            }
        }
        return Polyline.lines(of: set)
    }
}
