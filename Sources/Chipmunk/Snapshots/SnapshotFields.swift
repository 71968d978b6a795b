internal import CChipmunk

/// Reads and writes a list of a C struct's double and vector fields, by key path, in order:
/// one list serves both directions, so capture and restore cannot disagree.
private struct FieldList<Root> {
    let paths: [PartialKeyPath<Root>]

    init(_ paths: PartialKeyPath<Root>...) { self.paths = paths }

    private static func isVector(_ path: PartialKeyPath<Root>) -> Bool { type(of: path).valueType == cpVect.self }

    private func field(_ path: PartialKeyPath<Root>, in root: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Double> {
        (root + MemoryLayout<Root>.offset(of: path)!).assumingMemoryBound(to: Double.self)
    }

    /// How many doubles the fields hold.
    var valueCount: Int { paths.reduce(0) { $0 + (Self.isVector($1) ? 2 : 1) } }

    func read(_ root: UnsafeMutableRawPointer, into values: inout [Double]) {
        for path in paths {
            let field = field(path, in: root)
            values.append(field[0])
            if Self.isVector(path) { values.append(field[1]) }
        }
    }

    func write(_ root: UnsafeMutableRawPointer, from values: [Double], at index: inout Int) {
        for path in paths {
            let field = field(path, in: root)
            for component in 0..<(Self.isVector(path) ? 2 : 1) {
                field[component] = values[index]
                index += 1
            }
        }
    }
}

/// A constraint's parameters and accumulated impulse, by kind (docs/snapshots.md lists them).
enum ConstraintFields {
    static func kind(of c: UnsafeMutablePointer<cpConstraint>) -> ConstraintKind? {
        if cpConstraintIsPinJoint(c) != 0 { return .pin }
        if cpConstraintIsSlideJoint(c) != 0 { return .slide }
        if cpConstraintIsPivotJoint(c) != 0 { return .pivot }
        if cpConstraintIsGrooveJoint(c) != 0 { return .groove }
        if cpConstraintIsDampedSpring(c) != 0 { return .dampedSpring }
        if cpConstraintIsDampedRotarySpring(c) != 0 { return .dampedRotarySpring }
        if cpConstraintIsRotaryLimitJoint(c) != 0 { return .rotaryLimit }
        if cpConstraintIsRatchetJoint(c) != 0 { return .ratchet }
        if cpConstraintIsGearJoint(c) != 0 { return .gear }
        if cpConstraintIsSimpleMotor(c) != 0 { return .simpleMotor }
        return nil
    }

    static func read(_ c: UnsafeMutablePointer<cpConstraint>, _ kind: ConstraintKind) -> [Double] {
        var values: [Double] = []
        fields(of: kind).read(c, into: &values)
        return values
    }

    static func write(_ c: UnsafeMutablePointer<cpConstraint>, _ kind: ConstraintKind, _ values: [Double]) {
        var index = 0
        fields(of: kind).write(c, from: values, at: &index)
    }

    /// Each kind's fields, in the order the format lists them.
    fileprivate static func fields(of kind: ConstraintKind) -> any ConstraintFieldList {
        switch kind {
        case .pin: FieldList<cpPinJoint>(\.anchorA, \.anchorB, \.dist, \.jnAcc)
        case .slide: FieldList<cpSlideJoint>(\.anchorA, \.anchorB, \.min, \.max, \.jnAcc)
        case .pivot: FieldList<cpPivotJoint>(\.anchorA, \.anchorB, \.jAcc)
        case .groove: FieldList<cpGrooveJoint>(\.grv_a, \.grv_b, \.grv_n, \.anchorB, \.jAcc)
        case .dampedSpring:
            FieldList<cpDampedSpring>(\.anchorA, \.anchorB, \.restLength, \.stiffness, \.damping, \.jAcc)
        case .dampedRotarySpring: FieldList<cpDampedRotarySpring>(\.restAngle, \.stiffness, \.damping, \.jAcc)
        case .rotaryLimit: FieldList<cpRotaryLimitJoint>(\.min, \.max, \.jAcc)
        case .ratchet: FieldList<cpRatchetJoint>(\.angle, \.phase, \.ratchet, \.jAcc)
        case .gear: FieldList<cpGearJoint>(\.phase, \.ratio, \.ratio_inv, \.jAcc)
        case .simpleMotor: FieldList<cpSimpleMotor>(\.rate, \.jAcc)
        }
    }
}

extension ConstraintFields {
    /// The rule of each value `fields(of:)` lists, in the same order (a vector's two
    /// components each), as the constraint's setters apply them: a snapshot's values must
    /// keep the rules a constraint built in code keeps. `nil`: any finite value (the
    /// accumulated impulses, and the values the engine derives, a groove's normal and a
    /// gear's inverse ratio, which the snapshot check compares with their sources; and a
    /// pivot's anchors, which `PivotJoint(a:b:pivot:)` derives from a world point and can
    /// lie a little past maxCoordinate: the step checks that a pivot can be solved).
    static func parameters(of kind: ConstraintKind) -> [Parameter?] {
        switch kind {
        case .pin: [.anchor, .anchor, .anchor, .anchor, .pinDistance, nil]
        case .slide: [.anchor, .anchor, .anchor, .anchor, .slideMin, .slideMax, nil]
        case .pivot: [nil, nil, nil, nil, nil, nil]
        case .groove: [.grooveEnd, .grooveEnd, .grooveEnd, .grooveEnd, nil, nil, .anchor, .anchor, nil, nil]
        case .dampedSpring:
            [.anchor, .anchor, .anchor, .anchor, .springRestLength, .springStiffness, .springDamping, nil]
        case .dampedRotarySpring: [.rotarySpringRestAngle, .springStiffness, .springDamping, nil]
        case .rotaryLimit: [.rotaryLimitAngle, .rotaryLimitAngle, nil]
        case .ratchet: [.ratchetAngle, .ratchetPhase, .ratchetInterval, nil]
        case .gear: [.gearPhase, .gearRatio, nil, nil]
        case .simpleMotor: [.motorRate, nil]
        }
    }
}

extension ConstraintKind {
    /// How many values `ConstraintRecord.values` holds for this kind.
    var valueCount: Int { ConstraintFields.fields(of: self).valueCount }
}

/// A `FieldList` of any constraint struct, so one switch can name every kind.
private protocol ConstraintFieldList {
    var valueCount: Int { get }
    func read(_ root: UnsafeMutableRawPointer, into values: inout [Double])
    func write(_ root: UnsafeMutableRawPointer, from values: [Double], at index: inout Int)
}

extension FieldList: ConstraintFieldList {}

/// A shape's geometry in body coordinates, as `ShapeRecord.geometry` holds it.
enum ShapeGeometry {
    static func read(_ s: UnsafeMutablePointer<cpShape>) -> [Double] {
        var values: [Double] = []
        let raw = UnsafeMutableRawPointer(s)
        switch s.pointee.klass.pointee.type {
        case CP_CIRCLE_SHAPE:
            FieldList<cpCircleShape>(\.c, \.r).read(raw, into: &values)
        case CP_SEGMENT_SHAPE:
            segmentFields.read(raw, into: &values)
        default:
            let poly = raw.assumingMemoryBound(to: cpPolyShape.self)
            values.append(poly.pointee.r)
            let count = Int(poly.pointee.count)
            for vertex in count..<(2 * count) {
                let plane = poly.pointee.planes[vertex]
                values += [plane.v0.x, plane.v0.y, plane.n.x, plane.n.y]
            }
        }
        return values
    }

    /// How many values ``read(_:)`` gives for the shape, without reading them.
    static func count(_ s: UnsafeMutablePointer<cpShape>) -> Int {
        switch s.pointee.klass.pointee.type {
        case CP_CIRCLE_SHAPE: 3
        case CP_SEGMENT_SHAPE: segmentFields.valueCount
        default: 1 + 4 * Int(UnsafeMutableRawPointer(s).assumingMemoryBound(to: cpPolyShape.self).pointee.count)
        }
    }

    /// Writes geometry read by ``read(_:)`` back; a polygon must already have as many
    /// vertices. The shape's world-space data is recomputed by the caller (`cpShapeUpdate`).
    static func write(_ s: UnsafeMutablePointer<cpShape>, _ values: [Double]) {
        ensure(
            values.count == count(s), "ShapeGeometry.write: \(values.count) values for a shape that takes \(count(s))")
        let raw = UnsafeMutableRawPointer(s)
        var index = 0
        switch s.pointee.klass.pointee.type {
        case CP_CIRCLE_SHAPE:
            FieldList<cpCircleShape>(\.c, \.r).write(raw, from: values, at: &index)
        case CP_SEGMENT_SHAPE:
            segmentFields.write(raw, from: values, at: &index)
        default:
            let poly = raw.assumingMemoryBound(to: cpPolyShape.self)
            poly.pointee.r = values[0]
            let count = Int(poly.pointee.count)
            for vertex in 0..<count {
                let at = 1 + 4 * vertex
                poly.pointee.planes[count + vertex] = cpSplittingPlane(
                    v0: cpVect(x: values[at], y: values[at + 1]), n: cpVect(x: values[at + 2], y: values[at + 3]))
            }
        }
    }

    private static var segmentFields: FieldList<cpSegmentShape> {
        FieldList(\.a, \.b, \.n, \.r, \.a_tangent, \.b_tangent)
    }

    /// The largest magnitude each geometry value of a shape of this kind may have: a
    /// coordinate's bound, and twice that for a segment's tangents (`a_tangent` and
    /// `b_tangent` run from an end to a neighbour, each within the bound).
    static func bounds(kind: UInt8, count: Int) -> [Double] {
        let bound = Parameter.maxCoordinate
        return kind == 1 && count == 11
            ? Array(repeating: bound, count: 7) + Array(repeating: 2 * bound, count: 4)
            : Array(repeating: bound, count: count)
    }

    /// Whether `count` geometry values fit a shape of this kind.
    static func isValid(kind: UInt8, count: Int) -> Bool {
        switch kind {
        case 0: count == 3
        case 1: count == 11
        case 2: count >= 5 && (count - 1) % 4 == 0
        default: false
        }
    }
}

extension Shape {
    /// A shape of the record's kind and geometry on `body`, for `Space(restoring:)`; the
    /// restore then sets every other field.
    static func skeleton(of record: ShapeRecord, body: Body) -> Shape {
        skeleton(kind: record.kind, geometry: record.geometry, body: body)
    }

    /// A shape of this kind (0 circle, 1 segment, 2 polygon) and geometry (as
    /// `ShapeGeometry.read` gives it) on `body`.
    static func skeleton(kind: UInt8, geometry g: [Double], body: Body) -> Shape {
        switch kind {
        case 0: return Circle(body: body, radius: 1)
        case 1: return Segment(body: body, from: [g[0], g[1]], to: [g[2], g[3]], radius: 0)
        default:
            let vertices = stride(from: 1, to: g.count, by: 4).map { cpVect(x: g[$0], y: g[$0 + 1]) }
            return Polygon(rawVertices: vertices, body: body, radius: g[0])
        }
    }
}

extension Constraint {
    /// A constraint of the record's kind between `a` and `b`, for `Space(restoring:)`; the
    /// restore then sets its parameters and impulses.
    static func skeleton(of record: ConstraintRecord, a: Body, b: Body) -> Constraint {
        skeleton(kind: ConstraintKind(rawValue: record.kind)!, a: a, b: b)
    }

    /// A constraint of this kind between `a` and `b`, its parameters placeholders.
    static func skeleton(kind: ConstraintKind, a: Body, b: Body) -> Constraint {
        switch kind {
        case .pin: PinJoint(a: a, b: b, anchorA: .zero, anchorB: [1, 0])  // not 0 long: the engine warns of those
        case .slide: SlideJoint(a: a, b: b, distance: 0...1)
        case .pivot: PivotJoint(a: a, b: b, anchorA: .zero, anchorB: .zero)
        case .groove: GrooveJoint(a: a, b: b, grooveA: .zero, grooveB: [1, 0])
        case .dampedSpring:
            DampedSpring(a: a, b: b, anchorA: .zero, anchorB: .zero, restLength: 0, stiffness: 0, damping: 0)
        case .dampedRotarySpring: DampedRotarySpring(a: a, b: b, restAngle: 0, stiffness: 0, damping: 0)
        case .rotaryLimit: RotaryLimitJoint(a: a, b: b, angle: 0...0)
        case .ratchet: RatchetJoint(a: a, b: b, phase: 0, ratchet: 1)
        case .gear: GearJoint(a: a, b: b, phase: 0, ratio: 1)
        case .simpleMotor: SimpleMotor(a: a, b: b, rate: 0)
        }
    }
}
