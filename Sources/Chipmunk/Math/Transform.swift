internal import CChipmunk

/// An affine 2D transform, the matrix `[a c tx; b d ty]`.
///
/// Used to place polygon vertices: `Transform.translation([-50, -50])` shifts a shape
/// the way Chipmunk 6's polygon offset did.
///
/// The corresponding C type is `cpTransform`.
public struct Transform: Hashable, Sendable, Codable {
    /// The matrix `[a c tx; b d ty]`: a point (x, y) maps to (a·x + c·y + tx, b·x + d·y + ty).
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// Creates a transform from its six matrix entries.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity transform.
    ///
    /// The corresponding C constant is `cpTransformIdentity`.
    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A pure translation.
    ///
    /// The corresponding C function is `cpTransformTranslate`.
    public static func translation(_ offset: Vector) -> Transform {
        Transform(a: 1, b: 0, c: 0, d: 1, tx: offset.x, ty: offset.y)
    }

    /// A scale about the origin.
    ///
    /// The corresponding C function is `cpTransformScale`.
    public static func scale(x: Double, y: Double) -> Transform {
        Transform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A rotation about the origin by `angle` radians.
    ///
    /// The corresponding C function is `cpTransformRotate`.
    public static func rotation(_ angle: Double) -> Transform {
        let rot = Vector(angle: angle)
        return Transform(a: rot.x, b: rot.y, c: -rot.y, d: rot.x, tx: 0, ty: 0)
    }

    /// A rotation by `angle`, then a translation.
    ///
    /// The corresponding C function is `cpTransformRigid`.
    public static func rigid(translation: Vector, angle: Double) -> Transform {
        let rot = Vector(angle: angle)
        return Transform(a: rot.x, b: rot.y, c: -rot.y, d: rot.x, tx: translation.x, ty: translation.y)
    }

    /// Whether every entry is finite.
    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// `self` applied after `other`.
    ///
    /// The corresponding C function is `cpTransformMult`.
    public func concatenating(_ other: Transform) -> Transform {
        Transform(
            a: a * other.a + c * other.b, b: b * other.a + d * other.b,
            c: a * other.c + c * other.d, d: b * other.c + d * other.d,
            tx: a * other.tx + c * other.ty + tx, ty: b * other.tx + d * other.ty + ty)
    }

    /// Transforms a point (translation applies).
    ///
    /// The corresponding C function is `cpTransformPoint`.
    public func apply(toPoint p: Vector) -> Vector {
        Vector(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// Transforms a direction (translation does not apply).
    ///
    /// The corresponding C function is `cpTransformVect`.
    public func apply(toVector v: Vector) -> Vector {
        Vector(x: a * v.x + c * v.y, y: b * v.x + d * v.y)
    }
}

extension Transform {
    init(_ t: cpTransform) { self.init(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty) }
    var cp: cpTransform { cpTransform(a: a, b: b, c: c, d: d, tx: tx, ty: ty) }
}
