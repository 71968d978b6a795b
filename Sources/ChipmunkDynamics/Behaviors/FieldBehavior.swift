import Chipmunk
import Foundation

/// What a custom field is given for each item, each step.
public struct FieldSample: Sendable {
    /// The item's centre, relative to the field's position.
    public var offset: Vector
    public var velocity: Vector
    public var mass: Double
    public var charge: Double
    /// The animator's time, in seconds.
    public var time: Double
}

/// A force field over a region, as `UIFieldBehavior`.
///
/// Every field has a `position`, a `region` around it (items whose centre is outside are
/// left alone), a `strength`, a `falloff` and a `minimumRadius`: where a field depends on
/// distance, its force is multiplied by 1 / max(distance, minimumRadius)^falloff.
///
/// The forces, for an item of mass m and charge q at offset r from the position, moving
/// at v (points, seconds; 1000 points/s² is UIKit's gravity of 1):
///
/// | field | force |
/// |---|---|
/// | linear gravity (direction d) | m · strength · 1000 · d |
/// | radial gravity | m · strength · 1000 toward the position, with falloff |
/// | spring | −m · strength · r (a spring of ω² = strength to the position) |
/// | drag | −m · strength · v |
/// | vortex | m · strength · 1000 around the position (clockwise on screen), with falloff |
/// | velocity (target u) | m · strength · (u − v) |
/// | noise | m · strength · 1000 · n(r, t), n a smooth random direction field |
/// | turbulence | m · strength · \|v\| · n(r, t) |
/// | electric | q · strength · 1000 away from the position, with falloff |
/// | magnetic | q · strength · (v.y, −v.x): v × B for B out of the screen |
/// | custom | whatever the closure returns |
public final class FieldBehavior: ItemListBehavior {
    public enum Kind {
        case linearGravity(direction: Vector)
        case radialGravity
        case spring
        case drag
        case vortex
        case velocity(Vector)
        case noise(smoothness: Double, animationSpeed: Double)
        case turbulence(smoothness: Double, animationSpeed: Double)
        case electric
        case magnetic
        case custom((FieldSample) -> Vector)
    }

    /// Where a field acts, around its position.
    public enum Region: Sendable, Equatable {
        case infinite
        case rectangle(Size)
        case circle(radius: Double)

        func contains(_ offset: Vector) -> Bool {
            switch self {
            case .infinite: return true
            case .rectangle(let size): return abs(offset.x) <= size.width / 2 && abs(offset.y) <= size.height / 2
            case .circle(let radius): return offset.length <= radius
            }
        }
    }

    public let kind: Kind
    public var position: Vector = .zero {
        didSet { DynamicsParameter.fieldPosition.require(position) }
    }
    public var region: Region = .infinite
    public var strength = 1.0 {
        didSet { DynamicsParameter.fieldStrength.require(strength) }
    }
    public var falloff = 0.0 {
        didSet { DynamicsParameter.fieldFalloff.require(falloff) }
    }
    public var minimumRadius = 0.0 {
        didSet { DynamicsParameter.fieldMinimumRadius.require(minimumRadius) }
    }

    public init(kind: Kind, items: [any DynamicItem] = []) {
        self.kind = kind
        super.init(items: items)
    }

    public static func linearGravityField(direction: Vector) -> FieldBehavior {
        FieldBehavior(kind: .linearGravity(direction: direction))
    }
    public static func radialGravityField(position: Vector) -> FieldBehavior {
        let field = FieldBehavior(kind: .radialGravity)
        field.position = position
        return field
    }
    public static func springField() -> FieldBehavior { FieldBehavior(kind: .spring) }
    public static func dragField() -> FieldBehavior { FieldBehavior(kind: .drag) }
    public static func vortexField() -> FieldBehavior { FieldBehavior(kind: .vortex) }
    public static func velocityField(direction: Vector) -> FieldBehavior { FieldBehavior(kind: .velocity(direction)) }
    public static func noiseField(smoothness: Double, animationSpeed: Double) -> FieldBehavior {
        FieldBehavior(kind: .noise(smoothness: smoothness, animationSpeed: animationSpeed))
    }
    public static func turbulenceField(smoothness: Double, animationSpeed: Double) -> FieldBehavior {
        FieldBehavior(kind: .turbulence(smoothness: smoothness, animationSpeed: animationSpeed))
    }
    public static func electricField() -> FieldBehavior { FieldBehavior(kind: .electric) }
    public static func magneticField() -> FieldBehavior { FieldBehavior(kind: .magnetic) }
    public static func field(evaluationBlock: @escaping (FieldSample) -> Vector) -> FieldBehavior {
        FieldBehavior(kind: .custom(evaluationBlock))
    }

    /// The force on one item.
    public func force(offset r: Vector, velocity v: Vector, mass m: Double, charge q: Double, time: Double) -> Vector {
        let distance = r.length
        let falling = falloff == 0 ? 1 : pow(max(distance, minimumRadius, 1e-9), -falloff)
        let toward = distance > 0 ? r * (-1 / distance) : .zero
        let g = GravityBehavior.standardAcceleration
        switch kind {
        case .linearGravity(let direction): return direction * (m * strength * g)
        case .radialGravity: return toward * (m * strength * g * falling)
        case .spring: return r * (-m * strength)
        case .drag: return v * (-m * strength * falling)
        case .vortex: return Vector(x: -toward.y, y: toward.x) * (m * strength * g * falling)
        case .velocity(let target): return (target - v) * (m * strength)
        case let .noise(smoothness, speed):
            return Self.noise(r, time: time, smoothness: smoothness, speed: speed) * (m * strength * g)
        case let .turbulence(smoothness, speed):
            return Self.noise(r, time: time, smoothness: smoothness, speed: speed) * (m * strength * v.length)
        case .electric: return toward * (-q * strength * g * falling)
        case .magnetic: return Vector(x: v.y, y: -v.x) * (q * strength)
        case .custom(let evaluate):
            return evaluate(FieldSample(offset: r, velocity: v, mass: m, charge: q, time: time)) * strength
        }
    }

    override var exertsForces: Bool { true }

    override func acceleration(of item: any DynamicItem, body: Body, charge: Double, time: Double) -> (Vector, Double)?
    {
        guard body.kind == .dynamic, contains(item) else { return nil }
        let offset = body.position - position
        guard region.contains(offset) else { return nil }
        let f = force(offset: offset, velocity: body.velocity, mass: body.mass, charge: charge, time: time)
        guard f.isFinite, f != .zero else { return nil }
        return (f * (1 / body.mass), 0)
    }

    /// Sleeping items in the region wake up: the field acts inside their integration,
    /// which the engine skips while they sleep.
    override func willStep(in animator: DynamicAnimator, dt: Double) {
        for item in items {
            guard let record = animator.record(for: item), record.body.isSleeping,
                region.contains(record.body.position - position)
            else { continue }
            record.body.activate()
        }
    }

    /// A smooth, repeatable random direction field: value noise on a lattice whose spacing
    /// grows with `smoothness` (0…1: 20 to 400 points), moving at `speed` lattice cells a
    /// second; each component in −1…1.
    static func noise(_ p: Vector, time: Double, smoothness: Double, speed: Double) -> Vector {
        let spacing = 20 + 380 * min(max(smoothness, 0), 1)
        let (x, y, t) = (p.x / spacing, p.y / spacing, time * speed)
        return Vector(x: valueNoise(x, y, t, seed: 0x9E37_79B9), y: valueNoise(x, y, t, seed: 0x85EB_CA6B))
    }

    /// Trilinear value noise with smoothstep weights; no allocation (it runs per item per step).
    private static func valueNoise(_ x: Double, _ y: Double, _ t: Double, seed: UInt64) -> Double {
        let (x0, y0, t0) = (x.rounded(.down), y.rounded(.down), t.rounded(.down))
        func smooth(_ f: Double) -> Double { f * f * (3 - 2 * f) }
        let (fx, fy, ft) = (smooth(x - x0), smooth(y - y0), smooth(t - t0))
        func mix(_ h: UInt64, _ v: Double) -> UInt64 {
            let h = h ^ UInt64(bitPattern: Int64(clamping: Int(exactly: v.rounded()) ?? 0)) &* 0xBF58_476D_1CE4_E5B9
            return (h ^ (h >> 31)) &* 0x94D0_49BB_1331_11EB
        }
        func corner(_ i: Double, _ j: Double, _ k: Double) -> Double {
            let h = mix(mix(mix(seed, i), j), k)
            return Double(h >> 11) / Double(1 << 53) * 2 - 1
        }
        func lerp(_ a: Double, _ b: Double, _ f: Double) -> Double { a + (b - a) * f }
        func layer(_ k: Double) -> Double {
            let bottom = lerp(corner(x0, y0, k), corner(x0 + 1, y0, k), fx)
            let top = lerp(corner(x0, y0 + 1, k), corner(x0 + 1, y0 + 1, k), fx)
            return lerp(bottom, top, fy)
        }
        return lerp(layer(t0), layer(t0 + 1), ft)
    }
}
