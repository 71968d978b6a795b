internal import CChipmunk

/// Reads and writes a list of a C struct's double and vector fields, by key path, in order:
/// one list serves both directions, so capture and restore cannot disagree.
private struct FieldList<Root> {
    let paths: [PartialKeyPath<Root>]

    init(_ paths: PartialKeyPath<Root>...) { self.paths = paths }

    var valueCount: Int { paths.reduce(0) { $0 + (Self.isVector($1) ? 2 : 1) } }

    private static func isVector(_ path: PartialKeyPath<Root>) -> Bool { type(of: path).valueType == cpVect.self }

    func read(_ root: UnsafeMutablePointer<Root>, into values: inout [Double]) {
        for path in paths {
            let field = (UnsafeMutableRawPointer(root) + MemoryLayout<Root>.offset(of: path)!).assumingMemoryBound(to: Double.self)
            values.append(field[0])
            if Self.isVector(path) { values.append(field[1]) }
        }
    }

    func write(_ root: UnsafeMutablePointer<Root>, from values: [Double], at index: inout Int) {
        for path in paths {
            let field = (UnsafeMutableRawPointer(root) + MemoryLayout<Root>.offset(of: path)!).assumingMemoryBound(to: Double.self)
            field[0] = values[index]
            index += 1
            if Self.isVector(path) {
                field[1] = values[index]
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
        visit(c, kind, read: { $0.read($1, into: &values) }, write: nil)
        return values
    }

    static func write(_ c: UnsafeMutablePointer<cpConstraint>, _ kind: ConstraintKind, _ values: [Double]) {
        var index = 0
        visit(c, kind, read: nil, write: { $0.write($1, from: values, at: &index) })
    }

    /// Each kind's field list; the counts must match `ConstraintKind.valueCount`.
    private static func visit(
        _ c: UnsafeMutablePointer<cpConstraint>, _ kind: ConstraintKind,
        read: ((any FieldAccess, UnsafeMutableRawPointer) -> Void)?, write: ((any FieldAccess, UnsafeMutableRawPointer) -> Void)?
    ) {
        let raw = UnsafeMutableRawPointer(c)
        let fields: any FieldAccess
        switch kind {
        case .pin: fields = Fields<cpPinJoint>(\.anchorA, \.anchorB, \.dist, \.jnAcc)
        case .slide: fields = Fields<cpSlideJoint>(\.anchorA, \.anchorB, \.min, \.max, \.jnAcc)
        case .pivot: fields = Fields<cpPivotJoint>(\.anchorA, \.anchorB, \.jAcc)
        case .groove: fields = Fields<cpGrooveJoint>(\.grv_a, \.grv_b, \.grv_n, \.anchorB, \.jAcc)
        case .dampedSpring: fields = Fields<cpDampedSpring>(\.anchorA, \.anchorB, \.restLength, \.stiffness, \.damping, \.jAcc)
        case .dampedRotarySpring: fields = Fields<cpDampedRotarySpring>(\.restAngle, \.stiffness, \.damping, \.jAcc)
        case .rotaryLimit: fields = Fields<cpRotaryLimitJoint>(\.min, \.max, \.jAcc)
        case .ratchet: fields = Fields<cpRatchetJoint>(\.angle, \.phase, \.ratchet, \.jAcc)
        case .gear: fields = Fields<cpGearJoint>(\.phase, \.ratio, \.ratio_inv, \.jAcc)
        case .simpleMotor: fields = Fields<cpSimpleMotor>(\.rate, \.jAcc)
        }
        read?(fields, raw)
        write?(fields, raw)
    }
}

/// Type-erased access to a `FieldList`, so one switch can name every kind.
protocol FieldAccess {
    var valueCount: Int { get }
    func read(_ raw: UnsafeMutableRawPointer, into values: inout [Double])
    func write(_ raw: UnsafeMutableRawPointer, from values: [Double], at index: inout Int)
}

private struct Fields<Root>: FieldAccess {
    let list: FieldList<Root>
    init(_ paths: PartialKeyPath<Root>...) { list = FieldList(paths: paths) }
    var valueCount: Int { list.valueCount }
    func read(_ raw: UnsafeMutableRawPointer, into values: inout [Double]) {
        list.read(raw.assumingMemoryBound(to: Root.self), into: &values)
    }
    func write(_ raw: UnsafeMutableRawPointer, from values: [Double], at index: inout Int) {
        list.write(raw.assumingMemoryBound(to: Root.self), from: values, at: &index)
    }
}

extension FieldList {
    init(paths: [PartialKeyPath<Root>]) { self.paths = paths }
}

/// A shape's geometry in body coordinates, as `ShapeRecord.geometry` holds it.
enum ShapeGeometry {
    static func read(_ s: UnsafeMutablePointer<cpShape>) -> [Double] {
        var values: [Double] = []
        let raw = UnsafeMutableRawPointer(s)
        switch s.pointee.klass.pointee.type {
        case CP_CIRCLE_SHAPE:
            FieldList<cpCircleShape>(paths: [\.c, \.r]).read(raw.assumingMemoryBound(to: cpCircleShape.self), into: &values)
        case CP_SEGMENT_SHAPE:
            segmentFields.read(raw.assumingMemoryBound(to: cpSegmentShape.self), into: &values)
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

    /// Writes geometry read by ``read(_:)`` back; a polygon must already have as many
    /// vertices. The shape's world-space data is recomputed by the caller (`cpShapeUpdate`).
    static func write(_ s: UnsafeMutablePointer<cpShape>, _ values: [Double]) {
        let raw = UnsafeMutableRawPointer(s)
        var index = 0
        switch s.pointee.klass.pointee.type {
        case CP_CIRCLE_SHAPE:
            FieldList<cpCircleShape>(paths: [\.c, \.r]).write(raw.assumingMemoryBound(to: cpCircleShape.self), from: values, at: &index)
        case CP_SEGMENT_SHAPE:
            segmentFields.write(raw.assumingMemoryBound(to: cpSegmentShape.self), from: values, at: &index)
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

    private static var segmentFields: FieldList<cpSegmentShape> { FieldList<cpSegmentShape>(paths: [\.a, \.b, \.n, \.r, \.a_tangent, \.b_tangent]) }

    /// How many values a shape of this kind holds: nil when `count` fits no shape.
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
        let g = record.geometry
        switch record.kind {
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
        switch ConstraintKind(rawValue: record.kind)! {
        case .pin: PinJoint(a: a, b: b, anchorA: .zero, anchorB: [1, 0])  // not 0 long: the engine warns of those
        case .slide: SlideJoint(a: a, b: b, distance: 0...1)
        case .pivot: PivotJoint(a: a, b: b, anchorA: .zero, anchorB: .zero)
        case .groove: GrooveJoint(a: a, b: b, grooveA: .zero, grooveB: [1, 0])
        case .dampedSpring: DampedSpring(a: a, b: b, anchorA: .zero, anchorB: .zero, restLength: 0, stiffness: 0, damping: 0)
        case .dampedRotarySpring: DampedRotarySpring(a: a, b: b, restAngle: 0, stiffness: 0, damping: 0)
        case .rotaryLimit: RotaryLimitJoint(a: a, b: b, angle: 0...0)
        case .ratchet: RatchetJoint(a: a, b: b, phase: 0, ratchet: 1)
        case .gear: GearJoint(a: a, b: b, phase: 0, ratio: 1)
        case .simpleMotor: SimpleMotor(a: a, b: b, rate: 0)
        }
    }
}
