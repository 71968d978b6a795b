import Chipmunk
import Foundation

/// A force on items, continuous or once, as `UIPushBehavior`.
///
/// UIKit's scale: magnitude 1 accelerates a 100 × 100 point item of density 1 at
/// 100 points/s², so the force is `pushDirection × 100` (mass × points/s²). An
/// instantaneous push gives the same as an impulse (100 mass × points/s per unit), then
/// turns itself off (`active` becomes false); set `active` again to push again.
public final class PushBehavior: ItemListBehavior {
    public enum Mode: Sendable { case continuous, instantaneous }
    /// Force per unit of magnitude, in mass × points/s².
    public static let forceScale = 100.0

    public let mode: Mode
    public var active = true
    public var pushDirection = Vector.zero {
        didSet { DynamicsParameter.pushDirection.require(pushDirection) }
    }
    public var angle: Double {
        get { pushDirection.angle }
        set { pushDirection = pushDirection.withAngle(newValue) }
    }
    public var magnitude: Double {
        get { pushDirection.length }
        set {
            DynamicsParameter.pushMagnitude.require(newValue)
            pushDirection = pushDirection.withMagnitude(newValue)
        }
    }
    public func setAngle(_ angle: Double, magnitude: Double) {
        pushDirection = Vector(angle: angle) * magnitude
    }

    private var offsets: [ObjectIdentifier: Vector] = [:]

    /// Where on the item the push acts, from its centre in the item's own coordinates
    /// (off centre, it turns the item too).
    public func targetOffsetFromCenter(for item: any DynamicItem) -> Vector { offsets[ObjectIdentifier(item)] ?? .zero }
    public func setTargetOffsetFromCenter(_ offset: Vector, for item: any DynamicItem) {
        DynamicsParameter.pushTargetOffset.require(offset)
        offsets[ObjectIdentifier(item)] = offset
    }

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
