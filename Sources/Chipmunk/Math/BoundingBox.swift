internal import CChipmunk

/// An axis-aligned bounding box.
///
/// The corresponding C type is `cpBB`.
public struct BoundingBox: Hashable, Sendable, Codable {
    /// The box's edges: the smallest and largest x, the smallest and largest y.
    public var left: Double, bottom: Double, right: Double, top: Double

    /// Creates a box from its four edges.
    public init(left: Double, bottom: Double, right: Double, top: Double) {
        self.left = left
        self.bottom = bottom
        self.right = right
        self.top = top
    }

    /// A box centred on `center` reaching `halfWidth` and `halfHeight` each way.
    ///
    /// The corresponding C function is `cpBBNewForExtents`.
    public init(center: Vector, halfWidth: Double, halfHeight: Double) {
        self.init(
            left: center.x - halfWidth, bottom: center.y - halfHeight,
            right: center.x + halfWidth, top: center.y + halfHeight)
    }

    /// The box that holds a circle.
    ///
    /// The corresponding C function is `cpBBNewForCircle`.
    public init(circleAt center: Vector, radius: Double) {
        self.init(center: center, halfWidth: radius, halfHeight: radius)
    }

    /// Whether all four edges are finite, with `left ≤ right` and `bottom ≤ top`.
    public var isValid: Bool {
        left.isFinite && right.isFinite && bottom.isFinite && top.isFinite && left <= right && bottom <= top
    }

    /// Stops the program unless the box ``isValid``: the one check behind every box argument.
    func requireValid(_ parameter: Parameter) {
        ensure(isValid, "\(parameter) must be finite, with left ≤ right and bottom ≤ top (got \(self))")
    }

    /// The width, `right - left`.
    public var width: Double { right - left }
    /// The height, `top - bottom`.
    public var height: Double { top - bottom }
    /// The centre point.
    ///
    /// The corresponding C function is `cpBBCenter`.
    public var center: Vector { Vector(x: left, y: bottom).interpolated(to: Vector(x: right, y: top), by: 0.5) }
    /// The area.
    ///
    /// The corresponding C function is `cpBBArea`.
    public var area: Double { (right - left) * (top - bottom) }

    /// Whether the boxes overlap (touching counts).
    ///
    /// The corresponding C function is `cpBBIntersects`.
    public func intersects(_ other: BoundingBox) -> Bool {
        left <= other.right && other.left <= right && bottom <= other.top && other.bottom <= top
    }

    /// Whether `other` lies wholly inside.
    ///
    /// The corresponding C function is `cpBBContainsBB`.
    public func contains(_ other: BoundingBox) -> Bool {
        left <= other.left && right >= other.right && bottom <= other.bottom && top >= other.top
    }

    /// Whether the point lies inside or on the edge.
    ///
    /// The corresponding C function is `cpBBContainsVect`.
    public func contains(_ point: Vector) -> Bool {
        left <= point.x && right >= point.x && bottom <= point.y && top >= point.y
    }

    /// The smallest box holding both.
    ///
    /// The corresponding C function is `cpBBMerge`.
    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(
            left: min(left, other.left), bottom: min(bottom, other.bottom),
            right: max(right, other.right), top: max(top, other.top))
    }
}

extension BoundingBox {
    init(_ bb: cpBB) { self.init(left: bb.l, bottom: bb.b, right: bb.r, top: bb.t) }
    var cp: cpBB { cpBB(l: left, b: bottom, r: right, t: top) }
}
