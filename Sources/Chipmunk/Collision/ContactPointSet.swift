internal import CChipmunk

/// One contact point: where each shape's surface is, and how deep they overlap.
public struct ContactPoint: Hashable, Sendable {
    /// The point on the first shape's surface, in world coordinates.
    public var pointA: Vector
    /// The point on the second shape's surface, in world coordinates.
    public var pointB: Vector
    /// The signed distance between them: negative when the shapes overlap.
    public var distance: Double

    /// Creates a contact point.
    public init(pointA: Vector, pointB: Vector, distance: Double) {
        self.pointA = pointA
        self.pointB = pointB
        self.distance = distance
    }
}

/// The contact points of a collision, up to two, and their shared normal.
///
/// Stored inline, so reading one in a callback allocates nothing.
///
/// The corresponding C type is `cpContactPointSet`.
public struct ContactPointSet: RandomAccessCollection, Hashable, Sendable {
    /// The normal of the collision, pointing from the first shape to the second.
    public var normal: Vector
    private var first: ContactPoint
    private var second: ContactPoint
    /// How many points the set holds: 0, 1 or 2.
    public let count: Int

    /// The most points a contact has.
    ///
    /// The corresponding C constant is `CP_MAX_CONTACTS_PER_ARBITER`.
    public static let maxCount = 2

    /// Creates a set of up to two points.
    public init(normal: Vector, points: [ContactPoint]) {
        ensure(points.count <= Self.maxCount, "A contact point set holds at most 2 points")
        self.normal = normal
        let empty = ContactPoint(pointA: .zero, pointB: .zero, distance: 0)
        first = points.first ?? empty
        second = points.count > 1 ? points[1] : empty
        count = points.count
    }

    /// The first index, 0.
    public var startIndex: Int { 0 }
    /// One past the last index: ``count``.
    public var endIndex: Int { count }

    /// The point at `index`; setting one changes the contact when written back with
    /// ``Arbiter/contactPointSet``.
    public subscript(index: Int) -> ContactPoint {
        get {
            ensure(index >= 0 && index < count, "Contact point index \(index) is out of range 0..<\(count)")
            return index == 0 ? first : second
        }
        set {
            ensure(index >= 0 && index < count, "Contact point index \(index) is out of range 0..<\(count)")
            if index == 0 { first = newValue } else { second = newValue }
        }
    }

    init(_ set: cpContactPointSet) {
        var set = set
        normal = Vector(set.normal)
        count = Int(set.count)
        func point(_ i: Int32) -> ContactPoint {
            ContactPoint(
                pointA: Vector(CChipmunkContactPointA(&set, i)), pointB: Vector(CChipmunkContactPointB(&set, i)),
                distance: CChipmunkContactDistance(&set, i))
        }
        first = point(0)
        second = point(1)
    }

    var cp: cpContactPointSet {
        var set = cpContactPointSet()
        set.count = Int32(count)
        set.normal = normal.cp
        CChipmunkSetContactPoint(&set, 0, first.pointA.cp, first.pointB.cp, first.distance)
        CChipmunkSetContactPoint(&set, 1, second.pointA.cp, second.pointB.cp, second.distance)
        return set
    }

    /// Equal when the normals, counts and points in use are equal; the slot a set of
    /// fewer than two points does not use plays no part.
    public static func == (lhs: ContactPointSet, rhs: ContactPointSet) -> Bool {
        lhs.normal == rhs.normal && lhs.elementsEqual(rhs)
    }

    /// Hashes the normal and the points in use.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(normal)
        hasher.combine(count)
        for point in self { hasher.combine(point) }
    }
}
