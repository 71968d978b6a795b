internal import CChipmunk

/// Centroids, for placing forces where the mass is.
public enum Centroid {
    /// The centroid of a polygon's area.
    ///
    /// The vertices must enclose an area (one point or a line has no centroid of area):
    /// anything else is a programming error.
    ///
    /// The corresponding C function is `cpCentroidForPoly`.
    public static func polygon(vertices: [Vector]) -> Vector {
        requireArea(vertices, "Centroid.polygon")
        return vertices.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: cpVect.self) { Vector(cpCentroidForPoly(Int32($0.count), $0.baseAddress)) }
        }
    }
}
