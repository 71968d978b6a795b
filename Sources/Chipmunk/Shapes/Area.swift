internal import CChipmunk

/// Areas of common shapes, for computing mass from density.
public enum Area {
    /// A circle or ring.
    ///
    /// The corresponding C function is `cpAreaForCircle`.
    public static func circle(innerRadius: Double = 0, outerRadius: Double) -> Double {
        cpAreaForCircle(innerRadius, outerRadius)
    }

    /// A segment with rounded ends.
    ///
    /// The corresponding C function is `cpAreaForSegment`.
    public static func segment(from a: Vector, to b: Vector, radius: Double) -> Double {
        cpAreaForSegment(a.cp, b.cp, radius)
    }

    /// A box. Equivalent to `width * height`.
    public static func box(width: Double, height: Double) -> Double { width * height }

    /// A polygon with rounded corners; negative for clockwise winding.
    ///
    /// The corresponding C function is `cpAreaForPoly`.
    public static func polygon(vertices: [Vector], radius: Double = 0) -> Double {
        vertices.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: cpVect.self) {
                cpAreaForPoly(Int32($0.count), $0.baseAddress, radius)
            }
        }
    }
}
