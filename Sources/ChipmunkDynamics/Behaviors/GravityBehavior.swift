import Chipmunk
import Foundation

/// Gravity for its items, as `UIGravityBehavior`: a direction whose length is the
/// magnitude; magnitude 1.0 is 1000 points/s². The default points down: (0, 1).
public final class GravityBehavior: ItemListBehavior {
    /// UIKit's scale: the acceleration of magnitude 1, in points/s².
    public static let standardAcceleration = 1000.0

    /// The direction, whose length is the magnitude: (0, 1), down at 1000 points/s², by default.
    ///
    /// A value that is not finite is a programming error: the program stops.
    public var gravityDirection = Vector(x: 0, y: 1) {
        didSet {
            DynamicsParameter.gravityDirection.require(gravityDirection)
            changed()
        }
    }

    /// The direction's angle in radians (0 points right, π/2 down).
    public var angle: Double {
        get { gravityDirection.angle }
        set { gravityDirection = gravityDirection.withAngle(newValue) }
    }

    /// The direction's length.
    public var magnitude: Double {
        get { gravityDirection.length }
        set {
            DynamicsParameter.gravityMagnitude.require(newValue)
            gravityDirection = gravityDirection.withMagnitude(newValue)
        }
    }

    /// Sets the direction from an angle in radians and a magnitude.
    public func setAngle(_ angle: Double, magnitude: Double) {
        gravityDirection = Vector(angle: angle) * magnitude
    }

    /// The acceleration in points/s².
    public var acceleration: Vector { gravityDirection * Self.standardAcceleration }

    override func configure(in animator: DynamicAnimator) {
        for item in items { animator.record(for: item)?.gravity += acceleration }
    }
}
