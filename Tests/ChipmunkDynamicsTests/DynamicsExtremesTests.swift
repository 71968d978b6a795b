import Chipmunk
import ChipmunkTestSupport
import Foundation
import Testing

@testable import ChipmunkDynamics

/// A rule is a promise (STYLE.md, item 5d), in ChipmunkDynamics as in the core: for every
/// `DynamicsParameter`, each extreme value its rule accepts is given to a small animator
/// that uses it, which then steps 120 times: each step completes or throws from `step`,
/// and every item's centre and rotation stay finite. Each parameter runs in a child
/// process, so a trap fails its own test. Before this test, a push of 1e308, a snap point,
/// an attachment anchor, a boundary, an item's centre, size or rotation at an extreme the
/// Dynamics rules accepted stopped the program in the core, naming `Body.applyForce`,
/// `Body.position`, `Polygon.box` or `Segment.start/end` instead of the user's property.
@Suite(
    .disabled(
        if: Sanitizer.active == "thread",
        "each case runs alone in a child process: ThreadSanitizer adds minutes, and no thread")
)
struct DynamicsExtremesTests {
    /// An item whose bounds the test chooses (`ItemView`'s size has a rule of its own).
    final class Plate: DynamicItem {
        var center: Vector
        let bounds: Rect
        var rotation = 0.0
        init(center: Vector, size: Size) {
            self.center = center
            bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        }
    }

    /// A ball above a box, inside the screen's boundary, both falling.
    struct World {
        var animator = DynamicAnimator(referenceBounds: screen)
        let ball = item("ball", at: Vector(x: 160, y: 200), width: 20, height: 20)
        let box = item("box", at: Vector(x: 160, y: 400), width: 100, height: 100)
        let collision: CollisionBehavior
        let gravity: GravityBehavior
        let properties: DynamicItemBehavior

        init() {
            collision = CollisionBehavior(items: [ball, box])
            collision.translatesReferenceBoundsIntoBoundary = true
            gravity = GravityBehavior(items: [ball, box])
            properties = DynamicItemBehavior(items: [ball, box])
            properties.charge = 1
        }

        /// Adds the world's behaviours to `animator` (a test may have made its own).
        func start() {
            guard !animator.behaviors.contains(where: { $0 === gravity }) else { return }
            for behavior in [collision, gravity, properties] as [DynamicBehavior] { animator.addBehavior(behavior) }
        }

        func add(_ behavior: DynamicBehavior) { animator.addBehavior(behavior) }

        /// Steps 120 times; each step completes or throws, and every item stays finite.
        func run(_ log: ChildLog) {
            for step in 1...120 {
                do { try animator.step() } catch { if step == 1 { log.write("  threw: \(error)") } }
                for item in animator.items(in: Rect(x: -2e15, y: -2e15, width: 4e15, height: 4e15))
                    + [ball, box] as [any DynamicItem]
                where !(item.center.isFinite && item.rotation.isFinite) {
                    log.write("  NOT FINITE at step \(step): \(item.center) \(item.rotation)")
                    exit(3)
                }
            }
        }
    }

    /// Applies `v` to `world` through `parameter`.
    static func apply(_ parameter: DynamicsParameter, _ v: Double, to world: inout World) {
        let (ball, box) = (world.ball, world.box)
        switch parameter {
        case .gravityDirection: world.gravity.gravityDirection = Vector(x: v, y: v)
        case .gravityMagnitude: world.gravity.magnitude = v
        case .gravityAngle: world.gravity.angle = v
        case .pushDirection, .pushMagnitude, .pushTargetOffset, .pushAngle:
            for mode in [PushBehavior.Mode.continuous, .instantaneous] {
                let push = PushBehavior(items: [ball, box], mode: mode)
                switch parameter {
                case .pushDirection: push.pushDirection = Vector(x: v, y: -v)
                case .pushMagnitude: push.magnitude = v
                case .pushAngle: push.setAngle(v, magnitude: 1)
                default:
                    push.pushDirection = Vector(x: 1, y: 1)
                    push.setTargetOffsetFromCenter(Vector(x: v, y: -v), for: ball)
                }
                world.add(push)
            }
        case .snapPoint: world.add(SnapBehavior(item: ball, snapTo: Vector(x: v, y: -v)))
        case .snapDamping:
            let snap = SnapBehavior(item: ball, snapTo: Vector(x: 10, y: 10))
            snap.damping = v
            world.add(snap)
        case .fieldPosition, .fieldStrength, .fieldFalloff, .fieldMinimumRadius:
            let fields: [FieldBehavior] = [
                .radialGravityField(position: .zero), .vortexField(), .springField(), .dragField(), .electricField(),
                .magneticField(), .noiseField(smoothness: 0.5, animationSpeed: 1),
                .turbulenceField(smoothness: 0.5, animationSpeed: 1), .velocityField(direction: Vector(x: 1, y: 0)),
                .linearGravityField(direction: Vector(x: 0, y: 1)),
            ]
            for field in fields {
                switch parameter {
                case .fieldPosition: field.position = Vector(x: v, y: -v)
                case .fieldStrength: field.strength = v
                case .fieldFalloff: field.falloff = v
                default:
                    field.falloff = 2
                    field.minimumRadius = v
                }
                field.addItem(ball)
                field.addItem(box)
                world.add(field)
            }
        case .attachmentAnchorPoint:
            let standard = AttachmentBehavior(item: ball, attachedToAnchor: Vector(x: 100, y: 100))
            standard.anchorPoint = Vector(x: v, y: -v)
            let sliding = AttachmentBehavior.slidingAttachment(
                with: box, attachmentAnchor: Vector(x: 160, y: 400), axisOfTranslation: Vector(x: 1, y: 0))
            sliding.anchorPoint = Vector(x: v, y: v)
            world.add(standard)
            world.add(sliding)
        case .attachmentPoint:
            let anchor = Vector(x: v, y: -v)
            world.add(AttachmentBehavior(item: ball, offsetFromCenter: anchor, attachedToAnchor: -anchor))
            world.add(AttachmentBehavior.pinAttachment(with: ball, attachedTo: box, attachmentAnchor: anchor))
            world.add(AttachmentBehavior.fixedAttachment(with: ball, attachedTo: box, attachmentAnchor: -anchor))
            world.add(
                AttachmentBehavior.slidingAttachment(
                    with: ball, attachedTo: box, attachmentAnchor: anchor, axisOfTranslation: Vector(x: 0, y: 1)))
            world.add(
                AttachmentBehavior.limitAttachment(
                    with: ball, offsetFromCenter: anchor, attachedTo: box, offsetFromCenter: -anchor))
        case .attachmentLength, .attachmentDamping, .attachmentFrequency, .attachmentFrictionTorque:
            let standard = AttachmentBehavior(item: ball, attachedTo: box)
            let limit = AttachmentBehavior.limitAttachment(
                with: ball, offsetFromCenter: .zero, attachedTo: box, offsetFromCenter: .zero)
            for attachment in [standard, limit] {
                switch parameter {
                case .attachmentLength: attachment.length = v
                case .attachmentDamping:
                    attachment.frequency = 1
                    attachment.damping = v
                case .attachmentFrequency:
                    attachment.damping = 1
                    attachment.frequency = v
                default: attachment.frictionTorque = v
                }
                world.add(attachment)
            }
        case .attachmentRangeEnd:
            let sliding = AttachmentBehavior.slidingAttachment(
                with: ball, attachmentAnchor: Vector(x: 160, y: 200), axisOfTranslation: Vector(x: 0, y: 1))
            sliding.attachmentRange = FloatRange(minimum: -abs(v), maximum: abs(v))
            let pin = AttachmentBehavior.pinAttachment(with: ball, attachedTo: box, attachmentAnchor: .zero)
            pin.attachmentRange = FloatRange(minimum: v, maximum: v)
            world.add(sliding)
            world.add(pin)
        case .slidingAxis:
            world.add(
                AttachmentBehavior.slidingAttachment(
                    with: ball, attachmentAnchor: Vector(x: 160, y: 200), axisOfTranslation: Vector(x: v, y: 1)))
            world.add(
                AttachmentBehavior.slidingAttachment(
                    with: ball, attachedTo: box, attachmentAnchor: .zero, axisOfTranslation: Vector(x: 1, y: v)))
        case .boundaryPoint:
            world.collision.addBoundary(withIdentifier: "line", from: Vector(x: v, y: v), to: Vector(x: -v, y: v))
            world.collision.addBoundary(
                withIdentifier: "path", forPath: [Vector(x: v, y: 0), Vector(x: -v, y: 0), Vector(x: 0, y: -v)])
        case .boundaryInsets:
            // Opposite sides inset by v and -v move the boundary by v and keep its size: insets
            // that leave no room inside stop the program, as documented.
            world.collision.setTranslatesReferenceBoundsIntoBoundary(
                with: EdgeInsets(top: v, left: -v, bottom: -v, right: v))
        case .itemElasticity: world.properties.elasticity = v
        case .itemFriction: world.properties.friction = v
        case .itemDensity: world.properties.density = v
        case .itemResistance: world.properties.resistance = v
        case .itemAngularResistance: world.properties.angularResistance = v
        case .itemCharge:
            world.properties.charge = v
            for field in [FieldBehavior.electricField(), .magneticField()] {
                field.addItem(ball)
                world.add(field)
            }
        case .addedLinearVelocity, .addedAngularVelocity:
            for _ in 0..<2 {
                if parameter == .addedLinearVelocity {
                    world.properties.addLinearVelocity(Vector(x: v, y: -v), for: ball)
                } else {
                    world.properties.addAngularVelocity(v, for: ball)
                }
                world.start()
                _ = try? world.animator.step()
            }
        case .itemViewSize, .itemBoundsSize:
            // Each size with the extreme densities, as a box, an ellipse and a circle.
            for density in [1e-12, 1e12] {
                let properties = DynamicItemBehavior(items: [])
                properties.density = density
                for (k, bounds) in [CollisionBounds.rectangle, .ellipse].enumerated() {
                    let size = Size(width: v, height: k == 0 ? v : 1)
                    let item: any DynamicItem =
                        parameter == .itemViewSize
                        ? ItemView(name: "sized", center: Vector(x: 0, y: 0), size: size, collisionBounds: bounds)
                        : Plate(center: Vector(x: 0, y: 0), size: size)
                    properties.addItem(item)
                    world.gravity.addItem(item)
                    world.collision.addItem(item)
                }
                world.add(properties)
            }
        case .itemCenter:
            world.ball.center = Vector(x: v, y: -v)
            world.start()
            _ = try? world.animator.step()
            world.box.center = Vector(x: -v, y: v)
            world.animator.updateItem(usingCurrentState: world.box)
        case .itemRotation:
            world.ball.rotation = v
            world.start()
            _ = try? world.animator.step()
            world.box.rotation = -v
            world.animator.updateItem(usingCurrentState: world.box)
        case .itemPath:
            // A unit triangle at v, so that its area keeps the path's own rule.
            let inward = v > 0 ? -1.0 : 1.0
            let path = [Vector(x: v, y: 0), Vector(x: v, y: 1), Vector(x: v + inward, y: 0)]
            for points in [path, path.reversed()] {
                let item = ItemView(
                    name: "path", center: .zero, size: Size(width: 1, height: 1), collisionBounds: .path(points))
                world.gravity.addItem(item)
                world.collision.addItem(item)
            }
        case .referenceBoundsSize:
            world.animator = DynamicAnimator(
                referenceBounds: Rect(x: -v / 2, y: -v / 2, width: v, height: v))
        case .referenceBoundsCorner:
            let origin = v >= 0 ? v - 1 : v
            world.animator = DynamicAnimator(referenceBounds: Rect(x: origin, y: origin, width: 1, height: 1))
        case .fieldDirection:
            for field in [
                FieldBehavior.linearGravityField(direction: Vector(x: v, y: v)),
                .velocityField(direction: Vector(x: v, y: -v)),
            ] {
                field.addItem(ball)
                world.add(field)
            }
        case .fieldSmoothness, .fieldAnimationSpeed:
            let (smoothness, speed) = parameter == .fieldSmoothness ? (v, 1) : (0.5, v)
            for field in [
                FieldBehavior.noiseField(smoothness: smoothness, animationSpeed: speed),
                .turbulenceField(smoothness: smoothness, animationSpeed: speed),
            ] {
                field.addItem(ball)
                world.add(field)
            }
        case .fieldRegion:
            for region in [FieldBehavior.Region.circle(radius: v), .rectangle(Size(width: v, height: v))] {
                let field = FieldBehavior.radialGravityField(position: Vector(x: 100, y: 100))
                field.region = region
                field.addItem(ball)
                world.add(field)
            }
        case .animatorTimeStep:
            world.animator = DynamicAnimator(referenceBounds: screen, timeStep: v)
        case .stepDuration:
            world.start()
            _ = try? world.animator.step(by: v)
        case .frameDuration:
            world.start()
            _ = try? world.animator.advance(by: v)
        }
    }

    @Test(arguments: DynamicsParameter.allCases.map(\.rawValue))
    func acceptedExtremesAreSafe(name: String) async {
        let log = ChildLog()
        let result = await #expect(processExitsWith: .success) { [name, log = log as ChildLog] in
            let parameter = DynamicsParameter(rawValue: name)!
            for value in parameter.rule.acceptedExtremes {
                log.write("trying \(parameter) = \(value)")
                var world = World()
                DynamicsExtremesTests.apply(parameter, value, to: &world)
                world.start()
                world.run(log)
            }
            log.write("done")
            _exit(0)
        }
        if result == nil { Issue.record("\(name): the child stopped after: \(log.tail(3))") }
    }

    /// Just outside each rule, the setter's check stops with the rule's message, naming
    /// the user's property.
    @Test(arguments: DynamicsParameter.allCases.map(\.rawValue))
    func valuesOutsideStopNamingTheProperty(name: String) async {
        let parameter = DynamicsParameter(rawValue: name)!
        #expect(!parameter.rule.valuesOutside.isEmpty || parameter.rule == .nonNegative, "\(name)")
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [name] in
            let parameter = DynamicsParameter(rawValue: name)!
            // A finite value where there is one: an infinite end of a range means no limit.
            let outside = parameter.rule.valuesOutside
            var world = World()
            DynamicsExtremesTests.apply(
                parameter, outside.first(where: \.isFinite) ?? outside.first(where: { !$0.isNaN })!, to: &world)
            world.start()  // items join, and their centres and sizes are read, at the next step
            _ = try? world.animator.step()
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("\(parameter) must be \(parameter.rule)"), "\(name): \(stderr)")
    }
}
