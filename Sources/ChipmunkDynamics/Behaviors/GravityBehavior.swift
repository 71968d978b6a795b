import Chipmunk
import Foundation

/// Gravity for its items, as `UIGravityBehavior`: a direction whose length is the
/// magnitude; magnitude 1.0 is 1000 points/s². The default points down: (0, 1).
public final class GravityBehavior: ItemListBehavior {
    /// UIKit's scale: the acceleration of magnitude 1, in points/s².
    public static let standardAcceleration = 1000.0

    /// The direction, whose length is the magnitude: (0, 1), down at 1000 points/s², by default.
    ///
    /// A component past ±1e15 is a programming error: the program stops.
    public var gravityDirection: Vector {
        get { heading.vector }
        set {
            DynamicsParameter.gravityDirection.require(newValue)
            heading.set(newValue)
            changed()
        }
    }

    /// The direction's angle in radians (0 points right, π/2 down); setting it keeps the
    /// magnitude. Gravity of magnitude 0 keeps the angle set.
    ///
    /// An angle past ±1e15 is a programming error: the program stops.
    public var angle: Double {
        get { heading.angle }
        set {
            DynamicsParameter.gravityAngle.require(newValue)
            heading.set(angle: newValue)
            changed()
        }
    }

    /// The direction's length; setting it keeps the angle.
    ///
    /// A value that is negative or past 1e15 is a programming error: the program stops.
    public var magnitude: Double {
        get { heading.magnitude }
        set {
            DynamicsParameter.gravityMagnitude.require(newValue)
            heading.set(magnitude: newValue)
            changed()
        }
    }

    /// Sets the direction from an angle in radians and a magnitude.
    public func setAngle(_ angle: Double, magnitude: Double) {
        self.angle = angle
        self.magnitude = magnitude
    }

    private var heading = Heading(Vector(x: 0, y: 1))

    /// The acceleration in points/s².
    public var acceleration: Vector { gravityDirection * Self.standardAcceleration }

    override func configure(in animator: DynamicAnimator) {
        for item in items { animator.record(for: item)?.gravity += acceleration }
    }
}
