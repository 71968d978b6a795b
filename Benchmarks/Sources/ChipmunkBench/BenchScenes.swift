import Chipmunk
import ChipmunkScenes

/// The benchmark worlds: built the same way, object by object, by this Swift code, by
/// the C program `chipmunk-bench-c`, and by `scripts/bench/pymunk_bench.py`, so that all
/// three simulate the same world and their hashes can be compared.
public enum BenchScene: RawRepresentable, CaseIterable, Hashable, Sendable {
    /// A pyramid of 20 rows of 1×1 boxes (210 bodies), 500 steps of 1/120 s.
    case pyramid20
    /// A pyramid of 40 rows (820 bodies), 500 steps of 1/120 s.
    case pyramid40
    /// A pyramid of 100 rows (5,050 bodies), 200 steps of 1/60 s.
    case pyramid100
    /// 1,000 circles of radius 5 poured into a U, 500 steps of 1/60 s.
    case circles1000
    /// A 50 × 50 grid of circles joined by pivot joints, hanging from every 8th top body, 200 steps of 1/60 s.
    case jointgrid50
    /// A pyramid of `rows` rows (1 to 200), 100 steps of 1/60 s: the growth table's worlds,
    /// named `growthN`. Not among ``allCases``.
    case growth(rows: Int)

    /// The standard worlds: `all` on the command line.
    public static let allCases: [BenchScene] = [.pyramid20, .pyramid40, .pyramid100, .circles1000, .jointgrid50]

    /// The rows a `growthN` name may give.
    public static let growthRows = 1...200

    public init?(rawValue: String) {
        if let scene = Self.allCases.first(where: { $0.rawValue == rawValue }) {
            self = scene
        } else if rawValue.hasPrefix("growth"), let rows = Int(rawValue.dropFirst(6)), Self.growthRows.contains(rows),
            rawValue == "growth\(rows)"
        {
            self = .growth(rows: rows)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .pyramid20: return "pyramid20"
        case .pyramid40: return "pyramid40"
        case .pyramid100: return "pyramid100"
        case .circles1000: return "circles1000"
        case .jointgrid50: return "jointgrid50"
        case .growth(let rows): return "growth\(rows)"
        }
    }

    /// The time step.
    public var timeStep: Double {
        switch self {
        case .pyramid20, .pyramid40: return 1.0 / 120
        case .pyramid100, .circles1000, .jointgrid50, .growth: return 1.0 / 60
        }
    }

    /// The steps a run takes unless told otherwise.
    public var defaultSteps: Int {
        switch self {
        case .pyramid20, .pyramid40, .circles1000: return 500
        case .pyramid100, .jointgrid50: return 200
        case .growth: return 100
        }
    }

    /// The frames `chipmunk-bench --synctest` runs unless told otherwise: 300, fewer for the
    /// worlds whose step takes milliseconds (a depth-8 synctest steps each frame 9 times).
    public var synctestFrames: Int {
        switch self {
        case .pyramid20, .pyramid40, .circles1000: return 300
        case .pyramid100: return 60
        case .jointgrid50: return 10
        case .growth: return 100
        }
    }

    /// Where `churn` mode drops its extra bodies: above the scene.
    var churnHeight: Double {
        switch self {
        case .pyramid20: return 25
        case .pyramid40: return 45
        case .pyramid100: return 105
        case .circles1000: return 1250
        case .jointgrid50: return 10
        case .growth(let rows): return Double(rows + 5)
        }
    }

    /// Builds the world in `space`; returns its dynamic bodies in creation order.
    public func build(in space: Space) throws -> [Body] {
        switch self {
        case .pyramid20: return try Self.pyramid(20, in: space)
        case .pyramid40: return try Self.pyramid(40, in: space)
        case .pyramid100: return try Self.pyramid(100, in: space)
        case .circles1000: return try Self.circles(in: space)
        case .jointgrid50: return try Self.jointGrid(50, in: space)
        case .growth(let rows): return try Self.pyramid(rows, in: space)
        }
    }

    /// Gravity (0, -10), 10 iterations, collision slop 0.01; a static segment from
    /// (-(N+10), 0) to (N+10, 0) with friction 0.6; then, for row in 0..<N with
    /// n = N - row and i in 0..<n, a 1×1 box of mass 1 at (i - n/2 + 0.5, 0.5 + row),
    /// friction 0.6.
    static func pyramid(_ rows: Int, in space: Space) throws -> [Body] {
        space.gravity = [0, -10]
        space.iterations = 10
        space.collisionSlop = 0.01
        let reach = Double(rows + 10)
        space.add(Segment(body: space.staticBody, from: [-reach, 0], to: [reach, 0], radius: 0, friction: 0.6))
        var bodies: [Body] = []
        bodies.reserveCapacity(rows * (rows + 1) / 2)
        for row in 0..<rows {
            let n = rows - row
            for i in 0..<n {
                let body = Body(mass: 1, moment: Moment.box(mass: 1, width: 1, height: 1))
                body.position = [Double(i) - Double(n) / 2 + 0.5, 0.5 + Double(row)]
                space.add(body)
                space.add(Polygon.box(body: body, width: 1, height: 1, radius: 0, friction: 0.6))
                bodies.append(body)
            }
        }
        return bodies
    }

    /// Gravity (0, -100), 10 iterations, slop 0.5; three static segments (a U) with
    /// friction 0.9; 1,000 circles of radius 5 and mass 1, friction 0.9, at
    /// (-290 + 580u, 20 + 1100v), u and v successive splitmix64 draws from seed 42.
    static func circles(in space: Space) throws -> [Body] {
        space.gravity = [0, -100]
        space.iterations = 10
        space.collisionSlop = 0.5
        for (a, b) in [
            (Vector(x: -300, y: 1200), Vector(x: -300, y: 0)), ([-300, 0], [300, 0]), ([300, 0], [300, 1200]),
        ] {
            space.add(Segment(body: space.staticBody, from: a, to: b, radius: 0, friction: 0.9))
        }
        var random = SplitMix64(seed: 42)
        var bodies: [Body] = []
        bodies.reserveCapacity(1000)
        for _ in 0..<1000 {
            let u = random.nextUnit()
            let v = random.nextUnit()
            let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 5))
            body.position = [-290 + 580 * u, 20 + 1100 * v]
            space.add(body)
            space.add(Circle(body: body, radius: 5, friction: 0.9, elasticity: 0))
            bodies.append(body)
        }
        return bodies
    }

    /// Gravity (0, -10), 10 iterations; for row k and column i, a body of mass 1 at
    /// (i, -k) with a circle of radius 0.4 in group 1; then pivot joints from it: to the
    /// static body at (i, 0) if k == 0 and i % 8 == 0, to its left neighbour at
    /// (i - 0.5, -k) if i > 0, to the one above at (i, -k + 0.5) if k > 0.
    static func jointGrid(_ size: Int, in space: Space) throws -> [Body] {
        space.gravity = [0, -10]
        space.iterations = 10
        var bodies: [Body] = []
        bodies.reserveCapacity(size * size)
        for k in 0..<size {
            for i in 0..<size {
                let x = Double(i)
                let y = -Double(k)
                let body = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 0.4))
                body.position = [x, y]
                space.add(body)
                let shape = Circle(body: body, radius: 0.4)
                shape.filter = ShapeFilter(group: 1)
                space.add(shape)
                if k == 0, i % 8 == 0 { space.add(PivotJoint(a: body, b: space.staticBody, pivot: [x, 0])) }
                if i > 0 { space.add(PivotJoint(a: body, b: bodies[bodies.count - 1], pivot: [x - 0.5, y])) }
                if k > 0 { space.add(PivotJoint(a: body, b: bodies[bodies.count - size], pivot: [x, y + 0.5])) }
                bodies.append(body)
            }
        }
        return bodies
    }
}
