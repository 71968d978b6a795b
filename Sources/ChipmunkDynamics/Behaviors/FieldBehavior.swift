import Chipmunk
import Foundation

/// What a custom field is given for each item, each step.
public struct FieldSample: Sendable {
    /// The item's centre, relative to the field's position.
    public var offset: Vector
    /// The item's velocity, in points/s.
    public var velocity: Vector
    /// The item's mass.
    public var mass: Double
    /// The item's charge (``DynamicItemBehavior/charge``).
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
    /// Which field, with what it needs; the table above gives each one's force.
    public enum Kind {
        /// Uniform gravity along `direction`, whose length scales it.
        case linearGravity(direction: Vector)
        /// Gravity toward the field's position.
        case radialGravity
        /// A spring pulling toward the field's position.
        case spring
        /// A force against the velocity.
        case drag
        /// A force around the field's position.
        case vortex
        /// A force toward the given velocity.
        case velocity(Vector)
        /// A smooth random force field that changes over time.
        case noise(smoothness: Double, animationSpeed: Double)
        /// Noise scaled by the item's speed.
        case turbulence(smoothness: Double, animationSpeed: Double)
        /// A force on charged items, away from the field's position.
        case electric
        /// A force on moving charged items, across their velocity.
        case magnetic
        /// The force the closure returns for each item.
        case custom((FieldSample) -> Vector)
    }

    /// Where a field acts, around its position.
    public enum Region: Sendable, Equatable {
        /// Everywhere.
        case infinite
        /// A rectangle of this size, centred on the position.
        case rectangle(Size)
        /// A disc of this radius around the position.
        case circle(radius: Double)

        func contains(_ offset: Vector) -> Bool {
            switch self {
            case .infinite: return true
            case .rectangle(let size): return abs(offset.x) <= size.width / 2 && abs(offset.y) <= size.height / 2
            case .circle(let radius): return offset.length <= radius
            }
        }
    }

    /// Which field.
    public let kind: Kind
    /// The field's centre, in points; each coordinate from -1e15 to 1e15.
    public var position: Vector = .zero {
        didSet { DynamicsParameter.fieldPosition.require(position) }
    }
    /// Where the field acts, around its position: everywhere by default.
    ///
    /// A size or radius that is negative or NaN is a programming error: the program stops.
    public var region: Region = .infinite {
        didSet {
            switch region {
            case .infinite: break
            case .rectangle(let size): DynamicsParameter.fieldRegion.require(size)
            case .circle(let radius): DynamicsParameter.fieldRegion.require(radius)
            }
        }
    }
    /// The force's scale, 1 by default; must be finite.
    public var strength = 1.0 {
        didSet { DynamicsParameter.fieldStrength.require(strength) }
    }
    /// The power of distance the force falls off with, 0 (none) by default; zero or more, and finite.
    public var falloff = 0.0 {
        didSet { DynamicsParameter.fieldFalloff.require(falloff) }
    }
    /// The distance below which falloff stops growing, 0 by default; zero or more, and finite.
    public var minimumRadius = 0.0 {
        didSet { DynamicsParameter.fieldMinimumRadius.require(minimumRadius) }
    }

    /// A field of `kind` acting on `items`, at position (0, 0).
    ///
    /// A value set later that breaks a property's rule is a programming error: the program stops.
    /// A direction, smoothness or animation speed in `kind` that breaks its rule is a
    /// programming error too (a direction of NaN went on to the step, which diverged).
    public init(kind: Kind, items: [any DynamicItem] = []) {
        switch kind {
        case .linearGravity(let direction), .velocity(let direction):
            DynamicsParameter.fieldDirection.require(direction)
        case .noise(let smoothness, let animationSpeed), .turbulence(let smoothness, let animationSpeed):
            DynamicsParameter.fieldSmoothness.require(smoothness)
            DynamicsParameter.fieldAnimationSpeed.require(animationSpeed)
        case .radialGravity, .spring, .drag, .vortex, .electric, .magnetic, .custom: break
        }
        self.kind = kind
        super.init(items: items)
    }

    /// Uniform gravity along `direction` (`UIFieldBehavior.linearGravityField(direction:)`).
    public static func linearGravityField(direction: Vector) -> FieldBehavior {
        FieldBehavior(kind: .linearGravity(direction: direction))
    }
    /// Gravity toward `position`.
    public static func radialGravityField(position: Vector) -> FieldBehavior {
        let field = FieldBehavior(kind: .radialGravity)
        field.position = position
        return field
    }
    /// A spring toward the field's position.
    public static func springField() -> FieldBehavior { FieldBehavior(kind: .spring) }
    /// Drag against each item's velocity.
    public static func dragField() -> FieldBehavior { FieldBehavior(kind: .drag) }
    /// A vortex around the field's position.
    public static func vortexField() -> FieldBehavior { FieldBehavior(kind: .vortex) }
    /// A force toward the velocity `direction`.
    public static func velocityField(direction: Vector) -> FieldBehavior { FieldBehavior(kind: .velocity(direction)) }
    /// Smooth random forces, `smoothness` from 0 (rough) to 1, changing at `animationSpeed`.
    public static func noiseField(smoothness: Double, animationSpeed: Double) -> FieldBehavior {
        FieldBehavior(kind: .noise(smoothness: smoothness, animationSpeed: animationSpeed))
    }
    /// Noise scaled by each item's speed.
    public static func turbulenceField(smoothness: Double, animationSpeed: Double) -> FieldBehavior {
        FieldBehavior(kind: .turbulence(smoothness: smoothness, animationSpeed: animationSpeed))
    }
    /// A force on charged items, away from the field's position.
    public static func electricField() -> FieldBehavior { FieldBehavior(kind: .electric) }
    /// A force on moving charged items, across their velocity.
    public static func magneticField() -> FieldBehavior { FieldBehavior(kind: .magnetic) }
    /// A field whose force on each item `evaluationBlock` returns.
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

    override var name: String {
        let kind =
            switch kind {
            case .linearGravity: "linear gravity"
            case .radialGravity: "radial gravity"
            case .spring: "spring"
            case .drag: "drag"
            case .vortex: "vortex"
            case .velocity: "velocity"
            case .noise: "noise"
            case .turbulence: "turbulence"
            case .electric: "electric"
            case .magnetic: "magnetic"
            case .custom: "custom"
            }
        return "FieldBehavior (\(kind))"
    }

    override func acceleration(of item: any DynamicItem, body: Body, charge: Double, time: Double, dt: Double) -> (
        Vector, Double
    )? {
        guard body.kind == .dynamic, contains(item) else { return nil }
        let offset = body.position - position
        guard region.contains(offset) else { return nil }
        if case .magnetic = kind {
            // The velocity turns at ω = q · strength / m without changing its length: taken a
            // step at a time as a force, it grew by |1 + iω·dt| a step, and a 10-point item
            // (mass 0.01) in the default field (ω = 100, ω·dt = 0.83 at 1/120 s) diverged at
            // step 140 (a helper's attack). Turned by the step's whole angle, any field keeps
            // the speed; for a small angle it is the table's force.
            let v = body.velocity
            let angle = -charge * strength / body.mass * dt
            let (c, s) = (cos(angle), sin(angle))
            let turned = Vector(x: v.x * c - v.y * s, y: v.x * s + v.y * c)
            guard turned != v else { return nil }
            return ((turned - v) * (1 / dt), 0)
        }
        let f = force(offset: offset, velocity: body.velocity, mass: body.mass, charge: charge, time: time)
        // A force that is not finite goes on, and the step reports it (DynamicAnimator).
        guard f != .zero else { return nil }
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
