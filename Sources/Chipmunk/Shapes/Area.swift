internal import CChipmunk

/// Areas of common shapes, for computing mass from density.
public enum Area {
    /// A circle or ring.
    ///
    /// The corresponding C function is `cpAreaForCircle`.
    ///
    /// Both radii keep ``Parameter/circleRadius``; anything else is a programming error (a
    /// negative radius gave a positive area). Their order does not matter.
    public static func circle(innerRadius: Double = 0, outerRadius: Double) -> Double {
        requireRadii(inner: innerRadius, outer: outerRadius)
        return cpAreaForCircle(innerRadius, outerRadius)
    }

    /// A segment with rounded ends.
    ///
    /// The corresponding C function is `cpAreaForSegment`.
    public static func segment(from a: Vector, to b: Vector, radius: Double) -> Double {
        Parameter.segmentEnd.require(a)
        Parameter.segmentEnd.require(b)
        Parameter.segmentRadius.require(radius)
        return cpAreaForSegment(a.cp, b.cp, radius)
    }

    /// A box. Equivalent to `width * height`.
    public static func box(width: Double, height: Double) -> Double {
        Parameter.boxSize.require(width)
        Parameter.boxSize.require(height)
        return width * height
    }

    /// A polygon with rounded corners; negative for clockwise winding.
    ///
    /// The corresponding C function is `cpAreaForPoly`.
    public static func polygon(vertices: [Vector], radius: Double = 0) -> Double {
        for vertex in vertices { Parameter.polygonVertex.require(vertex) }
        Parameter.polygonRadius.require(radius)
        return vertices.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: cpVect.self) {
                cpAreaForPoly(Int32($0.count), $0.baseAddress, radius)
            }
        }
    }
}

/// Stops unless both radii keep ``Parameter/circleRadius``. Their order does not matter to
/// the engine (the Theo Jansen demo passes them swapped).
func requireRadii(inner: Double, outer: Double) {
    Parameter.circleRadius.require(inner)
    Parameter.circleRadius.require(outer)
}

/// Stops unless `vertices` enclose an area, which the centroid and moment of a polygon divide by.
func requireArea(_ vertices: [Vector], _ function: String) {
    for vertex in vertices { Parameter.polygonVertex.require(vertex) }
    let area = vertices.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: cpVect.self) { cpAreaForPoly(Int32($0.count), $0.baseAddress, 0) }
    }
    ensure(
        area != 0 && area.isFinite,
        "\(function): the vertices must enclose an area (got \(vertices.count) vertices with area \(area))")
}
