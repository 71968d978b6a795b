import Chipmunk
import Foundation

/// Gravity for its items, as `UIGravityBehavior`: a direction whose length is the
/// magnitude; magnitude 1.0 is 1000 points/s². The default points down: (0, 1).
public final class GravityBehavior: ItemListBehavior {
    /// UIKit's scale: the acceleration of magnitude 1, in points/s².
    public static let standardAcceleration = 1000.0

    public var gravityDirection = Vector(x: 0, y: 1) {
        didSet {
            ensure(gravityDirection.isFinite, "GravityBehavior.gravityDirection must be finite")
            changed()
        }
    }

    /// The direction's angle in radians (0 points right, π/2 down).
    public var angle: Double {
        get { atan2(gravityDirection.y, gravityDirection.x) }
        set { gravityDirection = Vector.unit(angle: newValue) * magnitude }
    }

    /// The direction's length.
    public var magnitude: Double {
        get { gravityDirection.length }
        set {
            ensure(newValue >= 0 && newValue.isFinite, "GravityBehavior.magnitude must be >= 0 and finite")
            gravityDirection = Vector.unit(angle: angle) * newValue
        }
    }

    public func setAngle(_ angle: Double, magnitude: Double) {
        gravityDirection = Vector.unit(angle: angle) * magnitude
    }

    /// The acceleration in points/s².
    public var acceleration: Vector { gravityDirection * Self.standardAcceleration }

    override func configure(in animator: DynamicAnimator) {
        for item in items { animator.record(for: item)?.gravity += acceleration }
    }
}
