import Chipmunk
import ChipmunkDynamics
import ChipmunkScenes

/// The UIKit Dynamics chapter's examples as scenes, driven by stated inputs instead of
/// taps and fingers. They use UIKit's coordinates: a 320 × 480 point screen, y down.
///
/// Each builder returns the scene with the animator and items behind it, for tests and
/// for code that wants to look inside; `SceneCatalog` lists their scenes as `ui-heavy`,
/// `ui-drag`, `ui-snake`, `ui-snap` and `ui-push`.
package enum DynamicsScenes {
    /// The screen.
    package static let screen = Rect(x: 0, y: 0, width: 320, height: 480)

    /// A finger's path: points at times, followed in straight lines, held after the last.
    package struct FingerPath: Sendable {
        package var points: [(time: Double, position: Vector)]

        package init(_ points: [(time: Double, position: Vector)]) {
            ensure(!points.isEmpty, "FingerPath needs at least one point")
            self.points = points
        }

        package func position(at time: Double) -> Vector {
            guard let last = points.last, time < last.time else { return points.last!.position }
            guard let next = points.firstIndex(where: { $0.time > time }), next > 0 else { return points[0].position }
            let (a, b) = (points[next - 1], points[next])
            let f = (time - a.time) / (b.time - a.time)
            return a.position + (b.position - a.position) * f
        }
    }

    /// A scene around an animator: its space, names for its items' bodies, y down, and a
    /// step that first sets the inputs for the time, then steps the animator.
    static func scene(
        _ name: String, _ animator: DynamicAnimator, items: [ItemView],
        inputs: @escaping (_ time: Double) -> Void = { _ in }
    ) -> Scene {
        var names: [ObjectIdentifier: String] = [ObjectIdentifier(animator.space.staticBody): "static"]
        for item in items {
            guard let body = animator.body(for: item) else { continue }
            names[ObjectIdentifier(body)] = item.name
        }
        let scene = Scene(
            name: name, space: animator.space, timeStep: animator.timeStep, yAxisPointsDown: true,
            driver: AnimatorDriver(animator: animator, inputs: inputs))
        scene.bodyNames = names
        return scene
    }

    /// An animator driving a scene: the inputs for the time, then the animator's step; its
    /// items' `alpha` for pictures.
    private final class AnimatorDriver: SceneDriver {
        let animator: DynamicAnimator
        let inputs: (_ time: Double) -> Void

        init(animator: DynamicAnimator, inputs: @escaping (Double) -> Void) {
            self.animator = animator
            self.inputs = inputs
        }

        func step(at time: Double, by dt: Double) throws {
            inputs(time)
            try animator.step(by: dt)
        }

        func opacity(of body: Body) -> Double { (animator.item(for: body) as? ItemView)?.alpha ?? 1 }

        /// A restored scene's behaviours are as built: set them as the inputs had them when
        /// the snapshot was taken (the step that made it applied the inputs for the time one
        /// step earlier), let the animator adopt them without waking anything, then tell the
        /// delegates of the contacts in progress.
        func sceneDidRestore(_ scene: Scene) {
            animator.adoptBehaviorsAfterRestore { inputs(scene.time - scene.timeStep) }
            animator.reportCurrentContacts()
        }
    }

    /// A collision behaviour that keeps `items` on the screen: its edges are the boundary.
    static func screenEdges(_ items: [ItemView]) -> CollisionBehavior {
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        return collision
    }

    // MARK: ui-heavy

    package final class Heavy {
        package let scene: Scene
        package let animator: DynamicAnimator
        package let label: ItemView
        package let gravity: GravityBehavior
        /// When the tap flips gravity from down to up.
        package static let flipTime = 3.0

        init() {
            animator = DynamicAnimator(referenceBounds: DynamicsScenes.screen)
            label = ItemView(name: "heavy", center: Vector(x: 160, y: 60), size: Size(width: 100, height: 40))
            gravity = GravityBehavior(items: [label])
            let collision = DynamicsScenes.screenEdges([label])
            let properties = DynamicItemBehavior(items: [label])
            properties.elasticity = 0.3
            properties.friction = 0.5
            animator.addBehavior(gravity)
            animator.addBehavior(collision)
            animator.addBehavior(properties)
            let gravity = self.gravity
            scene = DynamicsScenes.scene("ui-heavy", animator, items: [label]) { time in
                let direction = Vector(x: 0, y: time < Self.flipTime - 1e-9 ? 1 : -1)
                if gravity.gravityDirection != direction { gravity.gravityDirection = direction }
            }
        }
    }

    /// A 100 × 40 label falls under gravity and bounces to rest on the bottom edge; at
    /// 3 s a tap flips gravity and it falls to the top edge.
    package static func heavy() -> Heavy { Heavy() }

    // MARK: ui-drag

    package final class Drag {
        package let scene: Scene
        package let animator: DynamicAnimator
        package let brick: ItemView
        package let attachment: AttachmentBehavior
        /// Where the finger touches the brick, from its centre.
        package static let touchOffset = Vector(x: 30, y: -10)
        package static let finger = FingerPath([
            (0, Vector(x: 190, y: 230)), (1, Vector(x: 260, y: 120)), (2, Vector(x: 70, y: 150)),
            (3, Vector(x: 160, y: 260)), (4, Vector(x: 160, y: 260)),
        ])

        init() {
            animator = DynamicAnimator(referenceBounds: DynamicsScenes.screen)
            brick = ItemView(name: "brick", center: Vector(x: 160, y: 240), size: Size(width: 80, height: 40))
            attachment = AttachmentBehavior(
                item: brick, offsetFromCenter: Self.touchOffset, attachedToAnchor: Self.finger.position(at: 0))
            let collision = DynamicsScenes.screenEdges([brick])
            animator.addBehavior(GravityBehavior(items: [brick]))
            animator.addBehavior(collision)
            animator.addBehavior(attachment)
            let attachment = self.attachment
            scene = DynamicsScenes.scene("ui-drag", animator, items: [brick]) { time in
                let anchor = Self.finger.position(at: time)
                if attachment.anchorPoint != anchor { attachment.anchorPoint = anchor }
            }
        }
    }

    /// A brick held by an attachment at a point off its centre; the anchor follows a
    /// finger's path for 3 s, then holds still, and the brick hangs from it.
    package static func drag() -> Drag { Drag() }

    // MARK: ui-snake

    /// Dims a brick to alpha 0.5 while it touches a boundary; counts the calls.
    package final class BoundaryDimmer: CollisionBehaviorDelegate {
        package private(set) var began = 0
        package private(set) var ended = 0
        package private(set) var touching: [ObjectIdentifier: Int] = [:]
        /// Every call, in order: (item, true for began).
        package private(set) var calls: [(item: String, began: Bool)] = []

        package func collisionBehavior(
            _ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
            withBoundaryIdentifier identifier: String?, at point: Vector
        ) {
            began += 1
            touching[ObjectIdentifier(item), default: 0] += 1
            (item as? ItemView)?.alpha = 0.5
            calls.append(((item as? ItemView)?.name ?? "?", true))
        }

        package func collisionBehavior(
            _ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
            withBoundaryIdentifier identifier: String?
        ) {
            ended += 1
            touching[ObjectIdentifier(item), default: 0] -= 1
            if touching[ObjectIdentifier(item)] == 0 { (item as? ItemView)?.alpha = 1 }
            calls.append(((item as? ItemView)?.name ?? "?", false))
        }
    }

    package final class Snake {
        package let scene: Scene
        package let animator: DynamicAnimator
        /// Head first.
        package let bricks: [ItemView]
        package let dimmer = BoundaryDimmer()
        package let finger: AttachmentBehavior
        package static let path = FingerPath([
            (0, Vector(x: 60, y: 100)), (1.5, Vector(x: 260, y: 160)), (3, Vector(x: 240, y: 420)),
            (4.5, Vector(x: 60, y: 400)), (6, Vector(x: 160, y: 200)), (7, Vector(x: 160, y: 200)),
        ])

        init() {
            animator = DynamicAnimator(referenceBounds: DynamicsScenes.screen)
            bricks = (0..<8).map { index in
                ItemView(
                    name: index == 0 ? "head" : "brick \(index)", center: Vector(x: 60 + Double(index) * 34, y: 100),
                    size: Size(width: 30, height: 16))
            }
            for (a, b) in zip(bricks, bricks.dropFirst()) {
                // Joined end to end, 4 points apart.
                animator.addBehavior(
                    AttachmentBehavior(
                        item: a, offsetFromCenter: Vector(x: 15, y: 0), attachedTo: b,
                        offsetFromCenter: Vector(x: -15, y: 0)))
            }
            let head = DynamicItemBehavior(items: [bricks[0]])
            head.allowsRotation = false
            head.resistance = 2
            let body = DynamicItemBehavior(items: Array(bricks[1..<5]))
            body.resistance = 1
            body.angularResistance = 2
            body.friction = 0.3
            // The tail: light, barely damped, free to spin.
            let tail = DynamicItemBehavior(items: Array(bricks[5...]))
            tail.density = 0.2
            tail.resistance = 0.1
            tail.angularResistance = 0
            tail.friction = 0.3
            let collision = DynamicsScenes.screenEdges(bricks)
            collision.collisionDelegate = dimmer
            finger = AttachmentBehavior(item: bricks[0], attachedToAnchor: Self.path.position(at: 0))
            for behavior in [GravityBehavior(items: bricks), collision, head, body, tail, finger] as [DynamicBehavior] {
                animator.addBehavior(behavior)
            }
            let finger = self.finger
            let dimmer = self.dimmer  // the behaviour holds its delegate weakly: the scene keeps it
            scene = DynamicsScenes.scene("ui-snake", animator, items: bricks) { time in
                withExtendedLifetime(dimmer) {}
                let anchor = Self.path.position(at: time)
                if finger.anchorPoint != anchor { finger.anchorPoint = anchor }
            }
        }
    }

    /// Eight bricks joined by attachments, the head (which cannot turn) led by a finger
    /// around the screen; the light tail swings; a brick dims while it touches an edge.
    package static func snake() -> Snake { Snake() }

    // MARK: ui-snap

    package final class Snap {
        package let scene: Scene
        package let animator: DynamicAnimator
        package let square: ItemView
        package let snap: SnapBehavior
        package static let firstPoint = Vector(x: 200, y: 300)
        package static let secondPoint = Vector(x: 100, y: 380)
        package static let secondTap = 3.0

        init(damping: Double) {
            animator = DynamicAnimator(referenceBounds: DynamicsScenes.screen)
            square = ItemView(name: "square", center: Vector(x: 60, y: 60), size: Size(width: 60, height: 60))
            square.rotation = 0.5
            snap = SnapBehavior(item: square, snapTo: Self.firstPoint)
            snap.damping = damping
            animator.addBehavior(snap)
            let snap = self.snap
            scene = DynamicsScenes.scene("ui-snap", animator, items: [square]) { time in
                let point = time < Self.secondTap - 1e-9 ? Self.firstPoint : Self.secondPoint
                if snap.snapPoint != point { snap.snapPoint = point }
            }
        }
    }

    /// A square, turned 0.5 rad, snaps to (200, 300); a second tap at 3 s snaps it to
    /// (100, 380). UIKit's default damping, 0.5.
    package static func snap(damping: Double = 0.5) -> Snap { Snap(damping: damping) }

    // MARK: ui-push

    package final class Push {
        package let scene: Scene
        package let animator: DynamicAnimator
        /// 100 × 100, density 1, pushed continuously right with magnitude 1.
        package let pushed: ItemView
        /// 50 × 50, density 1, given one push down of magnitude 0.5 at `tapTime`.
        package let tapped: ItemView
        package let continuous: PushBehavior
        package let instantaneous: PushBehavior
        package static let tapTime = 0.5

        init() {
            animator = DynamicAnimator(referenceBounds: DynamicsScenes.screen)
            pushed = ItemView(name: "pushed", center: Vector(x: 60, y: 80), size: Size(width: 100, height: 100))
            tapped = ItemView(name: "tapped", center: Vector(x: 200, y: 200), size: Size(width: 50, height: 50))
            continuous = PushBehavior(items: [pushed], mode: .continuous)
            continuous.pushDirection = Vector(x: 1, y: 0)
            instantaneous = PushBehavior(items: [tapped], mode: .instantaneous)
            instantaneous.setAngle(.pi / 2, magnitude: 0.5)
            instantaneous.active = false
            let collision = DynamicsScenes.screenEdges([pushed, tapped])
            animator.addBehavior(continuous)
            animator.addBehavior(instantaneous)
            animator.addBehavior(collision)
            let instantaneous = self.instantaneous
            let dt = animator.timeStep
            scene = DynamicsScenes.scene("ui-push", animator, items: [pushed, tapped]) { time in
                // The tap: the step that starts at tapTime.
                if abs(time - Self.tapTime) < dt / 2 { instantaneous.active = true }
            }
        }
    }

    /// No gravity: a continuous push of magnitude 1 accelerates a 100 × 100 item at
    /// 100 points/s² until it meets the right edge; a tap at 0.5 s pushes a 50 × 50 item
    /// down once (magnitude 0.5: 200 points/s for its mass of 0.25).
    package static func push() -> Push { Push() }
}
