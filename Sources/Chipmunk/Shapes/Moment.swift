internal import CChipmunk

/// Moments of inertia for common shapes, to give a dynamic body.
///
/// ```swift
/// let moment = Moment.box(mass: 100, width: 100, height: 100)
/// ```
public enum Moment {
    /// A circle or ring, optionally offset.
    ///
    /// The corresponding C function is `cpMomentForCircle`.
    public static func circle(mass: Double, innerRadius: Double = 0, outerRadius: Double, offset: Vector = .zero)
        -> Double
    {
        requireMass(mass)
        requireRadii(inner: innerRadius, outer: outerRadius)
        Parameter.circleOffset.require(offset)
        return cpMomentForCircle(mass, innerRadius, outerRadius, offset.cp)
    }

    /// A segment between `a` and `b` with rounded ends.
    ///
    /// The corresponding C function is `cpMomentForSegment`.
    public static func segment(mass: Double, from a: Vector, to b: Vector, radius: Double = 0) -> Double {
        requireMass(mass)
        Parameter.segmentEnd.require(a)
        Parameter.segmentEnd.require(b)
        Parameter.segmentRadius.require(radius)
        return cpMomentForSegment(mass, a.cp, b.cp, radius)
    }

    /// A solid box centred on the body.
    ///
    /// The corresponding C function is `cpMomentForBox`.
    public static func box(mass: Double, width: Double, height: Double) -> Double {
        requireMass(mass)
        Parameter.boxSize.require(width)
        Parameter.boxSize.require(height)
        return cpMomentForBox(mass, width, height)
    }

    /// A solid polygon, offset and rounded.
    ///
    /// Two vertices are a segment; more must enclose an area. Anything else (no vertices,
    /// one point, points on a line) is a programming error: the engine's answer is NaN.
    ///
    /// The corresponding C function is `cpMomentForPoly`.
    public static func polygon(mass: Double, vertices: [Vector], offset: Vector = .zero, radius: Double = 0) -> Double {
        requireMass(mass)
        Parameter.polygonTransform.require(offset)
        Parameter.polygonRadius.require(radius)
        if vertices.count == 2 {
            for vertex in vertices { Parameter.polygonVertex.require(vertex) }
        } else {
            requireArea(vertices, "Moment.polygon")
        }
        return vertices.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: cpVect.self) {
                cpMomentForPoly(mass, Int32($0.count), $0.baseAddress, offset.cp, radius)
            }
        }
    }
}

/// Stops unless `mass` is zero or more and finite: a body's mass, any that ``Parameter/bodyMass`` accepts.
private func requireMass(_ mass: Double) {
    ensure(mass >= 0 && mass.isFinite, "Moment: mass must be zero or more, and finite (got \(mass))")
}
