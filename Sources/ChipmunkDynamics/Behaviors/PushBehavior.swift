import Chipmunk
import Foundation

/// A force on items, continuous or once, as `UIPushBehavior`.
///
/// UIKit's scale: magnitude 1 accelerates a 100 × 100 point item of density 1 at
/// 100 points/s², so the force is `pushDirection × 100` (mass × points/s²). An
/// instantaneous push gives the same as an impulse (100 mass × points/s per unit), then
/// turns itself off (`active` becomes false); set `active` again to push again.
public final class PushBehavior: ItemListBehavior {
    /// How the push acts.
    public enum Mode: Sendable {
        /// A force on every step while `active`.
        case continuous
        /// One impulse, on the next step, then `active` becomes false.
        case instantaneous
    }
    /// Force per unit of magnitude, in mass × points/s².
    public static let forceScale = 100.0

    /// Continuous or instantaneous, fixed at creation.
    public let mode: Mode
    /// Whether the behaviour pushes; an instantaneous push clears it after its push.
    public var active = true
    /// The push: a direction whose length is the magnitude (zero, no push, by default).
    ///
    /// A component past ±1e15 is a programming error: the program stops (1e308 became an
    /// infinite force).
    public var pushDirection: Vector {
        get { heading.vector }
        set {
            DynamicsParameter.pushDirection.require(newValue)
            heading.set(newValue)
        }
    }
    /// The direction's angle in radians (0 points right, π/2 down); setting it keeps the
    /// magnitude. A push of magnitude 0 keeps the angle set, so that `angle` then
    /// `magnitude` pushes that way, as in UIKit.
    ///
    /// An angle past ±1e15 is a programming error: the program stops.
    public var angle: Double {
        get { heading.angle }
        set {
            DynamicsParameter.pushAngle.require(newValue)
            heading.set(angle: newValue)
        }
    }
    /// The direction's length; setting it keeps the angle.
    ///
    /// A value that is negative or past 1e15 is a programming error: the program stops.
    public var magnitude: Double {
        get { heading.magnitude }
        set {
            DynamicsParameter.pushMagnitude.require(newValue)
            heading.set(magnitude: newValue)
        }
    }
    /// Sets the direction from an angle in radians and a magnitude.
    public func setAngle(_ angle: Double, magnitude: Double) {
        self.angle = angle
        self.magnitude = magnitude
    }

    private var heading = Heading(.zero)
    private var offsets: [ObjectIdentifier: Vector] = [:]

    /// Where on the item the push acts, from its centre in the item's own coordinates
    /// (off centre, it turns the item too).
    public func targetOffsetFromCenter(for item: any DynamicItem) -> Vector { offsets[ObjectIdentifier(item)] ?? .zero }
    /// Makes the push act on `item` at `offset` from its centre, in the item's own coordinates.
    ///
    /// An offset with a component past ±1e15 is a programming error: the program stops.
    public func setTargetOffsetFromCenter(_ offset: Vector, for item: any DynamicItem) {
        DynamicsParameter.pushTargetOffset.require(offset)
        offsets[ObjectIdentifier(item)] = offset
    }

    /// A push on `items` in `mode`, active, with no direction yet.
    public init(items: [any DynamicItem], mode: Mode) {
        self.mode = mode
        super.init(items: items)
    }

    override func willStep(in animator: DynamicAnimator, dt: Double) {
        guard active, pushDirection != .zero else { return }
        let force = pushDirection * Self.forceScale
        for item in items {
            guard let body = animator.record(for: item)?.body, body.kind == .dynamic else { continue }
            if body.isSleeping { body.activate() }
            let point = body.localToWorld(targetOffsetFromCenter(for: item))
            switch mode {
            case .continuous: body.applyForce(force, at: point)
            case .instantaneous: body.applyImpulse(force, at: point)
            }
        }
        if mode == .instantaneous { active = false }
    }
}
