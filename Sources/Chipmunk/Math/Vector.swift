internal import CChipmunk

/// A 2D vector or point, in the engine's units.
///
/// Arithmetic matches Chipmunk's `cpv*` functions operation for operation, so values
/// computed here are bit-identical to the same computation in C.
///
/// ```swift
/// let p: Vector = [150, 250]
/// let q = p + Vector(x: 0, y: -10) * 2
/// ```
///
/// Encodes as a two-element array, `[x, y]`.
public struct Vector: Hashable, Sendable {
    /// The horizontal component.
    public var x: Double
    /// The vertical component (y grows upwards in Chipmunk).
    public var y: Double

    /// Creates a vector from its components.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector.
    public static let zero = Vector(x: 0, y: 0)

    /// The unit vector at `angle` radians from the x axis.
    ///
    /// The corresponding C function is `cpvforangle`.
    @inlinable
    public init(angle: Double) {
        self.init(x: _cos(angle), y: _sin(angle))
    }

    /// Whether both components are finite (neither NaN nor infinite).
    @inlinable
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The dot product.
    ///
    /// The corresponding C function is `cpvdot`.
    @inlinable
    public func dot(_ other: Vector) -> Double { x * other.x + y * other.y }

    /// The z component of the 3D cross product.
    ///
    /// The corresponding C function is `cpvcross`.
    @inlinable
    public func cross(_ other: Vector) -> Double { x * other.y - y * other.x }

    /// The squared length.
    ///
    /// The corresponding C function is `cpvlengthsq`.
    @inlinable
    public var lengthSquared: Double { dot(self) }

    /// The length.
    ///
    /// The corresponding C function is `cpvlength`.
    @inlinable
    public var length: Double { lengthSquared.squareRoot() }

    /// This vector scaled to length 1, or zero for the zero vector.
    ///
    /// The corresponding C function is `cpvnormalize`.
    @inlinable
    public var normalized: Vector {
        // Chipmunk adds DBL_MIN (CPFLOAT_MIN) so that the zero vector stays zero.
        self * (1.0 / (length + Double.leastNormalMagnitude))
    }

    /// This vector turned 90° counter-clockwise.
    ///
    /// The corresponding C function is `cpvperp`.
    @inlinable
    public var perpendicular: Vector { Vector(x: -y, y: x) }

    /// The angle from the x axis, in radians.
    ///
    /// The corresponding C function is `cpvtoangle`.
    @inlinable
    public var angle: Double { _atan2(y, x) }

    /// This vector rotated by the complex multiplication with `rotation`.
    ///
    /// The corresponding C function is `cpvrotate`.
    @inlinable
    public func rotated(by rotation: Vector) -> Vector {
        Vector(x: x * rotation.x - y * rotation.y, y: x * rotation.y + y * rotation.x)
    }

    /// This vector rotated by `angle` radians counter-clockwise.
    @inlinable
    public func rotated(byAngle angle: Double) -> Vector { rotated(by: Vector(angle: angle)) }

    /// The distance to another point.
    ///
    /// The corresponding C function is `cpvdist`.
    @inlinable
    public func distance(to other: Vector) -> Double { (self - other).length }

    /// The squared distance to another point.
    ///
    /// The corresponding C function is `cpvdistsq`.
    @inlinable
    public func distanceSquared(to other: Vector) -> Double { (self - other).lengthSquared }

    /// Linear interpolation: `self` at `t == 0`, `other` at `t == 1`.
    ///
    /// The corresponding C function is `cpvlerp`.
    @inlinable
    public func interpolated(to other: Vector, by t: Double) -> Vector {
        self * (1.0 - t) + other * t
    }

    /// Component-wise sum.
    ///
    /// The corresponding C function is `cpvadd`.
    @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(x: a.x + b.x, y: a.y + b.y) }
    /// Component-wise difference.
    ///
    /// The corresponding C function is `cpvsub`.
    @inlinable public static func - (a: Vector, b: Vector) -> Vector { Vector(x: a.x - b.x, y: a.y - b.y) }
    /// The opposite vector.
    ///
    /// The corresponding C function is `cpvneg`.
    @inlinable public static prefix func - (a: Vector) -> Vector { Vector(x: -a.x, y: -a.y) }
    /// Scales the vector.
    ///
    /// The corresponding C function is `cpvmult`.
    @inlinable public static func * (a: Vector, s: Double) -> Vector { Vector(x: a.x * s, y: a.y * s) }
    /// Scales the vector.
    ///
    /// The corresponding C function is `cpvmult`.
    @inlinable public static func * (s: Double, a: Vector) -> Vector { a * s }
    /// Divides each component by `s`.
    @inlinable public static func / (a: Vector, s: Double) -> Vector { Vector(x: a.x / s, y: a.y / s) }
    /// Adds `b` to `a`.
    @inlinable public static func += (a: inout Vector, b: Vector) { a = a + b }
    /// Subtracts `b` from `a`.
    @inlinable public static func -= (a: inout Vector, b: Vector) { a = a - b }
    /// Scales `a` by `s`.
    @inlinable public static func *= (a: inout Vector, s: Double) { a = a * s }
}

// The math functions, without importing Glibc into every client.
@usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline func _sin(_ x: Double) -> Double { sin(x) }
@usableFromInline func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

extension Vector: ExpressibleByArrayLiteral {
    /// Creates a vector from `[x, y]`. A literal with any other count is a programming error.
    public init(arrayLiteral elements: Double...) {
        ensure(elements.count == 2, "A Vector literal has exactly two elements, [x, y]; got \(elements.count)")
        self.init(x: elements[0], y: elements[1])
    }
}

extension Vector: Codable {
    /// Decodes `[x, y]`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let x = try container.decode(Double.self)
        let y = try container.decode(Double.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A vector has exactly two numbers, [x, y]")
        }
        self.init(x: x, y: y)
    }

    /// Encodes `[x, y]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}

extension Vector: CustomStringConvertible {
    /// `(x, y)` in shortest round-trip form.
    public var description: String { "(\(x), \(y))" }
}

extension Vector {
    @inline(__always) init(_ v: cpVect) { self.init(x: v.x, y: v.y) }
    @inline(__always) var cp: cpVect { cpVect(x: x, y: y) }
}
