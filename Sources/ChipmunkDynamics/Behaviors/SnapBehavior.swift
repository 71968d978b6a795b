import Chipmunk
import Foundation

/// Pulls an item to a point and straightens it, with a little overshoot, as
/// `UISnapBehavior`.
///
/// Each step, inside the item's velocity integration, an acceleration pulls its centre to
/// the snap point and an angular one turns it back to angle 0, as an isotropic damped
/// spring would: natural frequency ``frequency``
/// (1.5 Hz), damping ratio 0.1 + 0.9 × `damping`. So `damping` 0 overshoots most and 1 not
/// at all (critical damping); the default is UIKit's 0.5. (A damped-spring constraint of
/// rest length 0 would damp only along its own direction, and leave the item circling.)
public final class SnapBehavior: DynamicBehavior {
    /// The item snapped.
    public let item: any DynamicItem
    /// Where the item's centre is pulled, in points; changing it wakes the item.
    ///
    /// A coordinate past ±1e15 is a programming error: the program stops. The item
    /// overshoots the point (by up to 73 % of the distance at `damping` 0): a snap so far
    /// that the overshoot passes ±1e15 ends the step with `ChipmunkError.diverged`, as any
    /// motion past the core's coordinates does.
    public var snapPoint: Vector {
        didSet {
            DynamicsParameter.snapPoint.require(snapPoint)
            dynamicAnimator?.wake(item)
        }
    }
    /// From 0 (overshoots most) to 1 (none), UIKit's 0.5 by default; changing it wakes the item.
    ///
    /// A value outside 0...1 is a programming error: the program stops.
    public var damping = 0.5 {
        didSet {
            DynamicsParameter.snapDamping.require(damping)
            dynamicAnimator?.wake(item)
        }
    }
    /// How fast the item snaps: the spring's natural frequency in Hz.
    public static let frequency = 1.5

    /// The damping ratio `damping` stands for.
    public var dampingRatio: Double { Self.dampingRatio(damping) }

    private static func dampingRatio(_ damping: Double) -> Double { 0.1 + 0.9 * damping }

    /// Snaps `item` to `point`.
    ///
    /// A coordinate past ±1e15 is a programming error: the program stops.
    public init(item: any DynamicItem, snapTo point: Vector) {
        DynamicsParameter.snapPoint.require(point)
        self.item = item
        snapPoint = point
        super.init()
    }

    override var dynamicItems: [any DynamicItem] { [item] }

    override func install(in animator: DynamicAnimator) {
        animator.wake(item)
    }

    override var exertsForces: Bool { true }

    override func acceleration(of item: any DynamicItem, body: Body, charge: Double, time: Double, dt: Double) -> (
        Vector, Double
    )? {
        guard item === self.item else { return nil }
        // Settled: nothing more, so that the item can fall asleep and the animator pause.
        let offset = snapPoint - body.position
        if offset.length < 0.05, body.velocity.length < DynamicAnimator.restSpeed / 4, abs(body.angle) < 1e-3,
            abs(body.angularVelocity) < 1e-2
        {
            return nil
        }
        let pull = Self.pull(
            offset: offset, velocity: body.velocity, turn: body.angle, angularVelocity: body.angularVelocity,
            damping: damping)
        // Items that cannot turn (a huge moment) keep their angle.
        return (pull.linear, body.moment < Parameter.massRange.upperBound ? pull.angular : 0)
    }

    /// The snap's spring law: the acceleration that pulls a body `offset` from its snap point
    /// and the angular one that turns it back by `turn` radians, at natural frequency
    /// ``frequency`` and damping ratio 0.1 + 0.9 × `damping`. (`chipmunk-sim serve`'s Snap
    /// mode pulls by it too.)
    public static func pull(offset: Vector, velocity: Vector, turn: Double, angularVelocity: Double, damping: Double)
        -> (linear: Vector, angular: Double)
    {
        let omega = 2 * Double.pi * frequency
        let ratio = dampingRatio(damping)
        return (
            offset * (omega * omega) - velocity * (2 * ratio * omega),
            -turn * omega * omega - angularVelocity * 2 * ratio * omega
        )
    }
}
