import Chipmunk
import ChipmunkDynamics

let screen = Rect(x: 0, y: 0, width: 320, height: 480)

func item(_ name: String = "item", at center: Vector, width: Double = 100, height: Double = 100) -> ItemView {
    ItemView(name: name, center: center, size: Size(width: width, height: height))
}

/// Steps the animator for `seconds` of simulated time (whole steps).
func run(_ animator: DynamicAnimator, seconds: Double) throws {
    for _ in 0..<Int((seconds / animator.timeStep).rounded()) { try animator.step() }
}

/// The animator, stepped, with what `sample` says after each step.
func trace<T>(_ animator: DynamicAnimator, seconds: Double, _ sample: () -> T) throws -> [T] {
    var values: [T] = []
    for _ in 0..<Int((seconds / animator.timeStep).rounded()) {
        try animator.step()
        values.append(sample())
    }
    return values
}

final class PauseRecorder: DynamicAnimatorDelegate {
    var events: [(String, Double)] = []
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { events.append(("resume", animator.elapsedTime)) }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { events.append(("pause", animator.elapsedTime)) }
}

final class ContactRecorder: CollisionBehaviorDelegate {
    var log: [String] = []
    var points: [Vector] = []
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem,
        at point: Vector
    ) {
        log.append("began \((item1 as! ItemView).name)-\((item2 as! ItemView).name)")
        points.append(point)
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem
    ) {
        log.append("ended \((item1 as! ItemView).name)-\((item2 as! ItemView).name)")
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
        withBoundaryIdentifier identifier: String?,
        at point: Vector
    ) {
        log.append("began \((item as! ItemView).name)|\(identifier ?? "bounds")")
        points.append(point)
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?
    ) {
        log.append("ended \((item as! ItemView).name)|\(identifier ?? "bounds")")
    }
}
