import Chipmunk
import Foundation

/// Told when an animator's items all come to rest, and when they move again, as
/// `UIDynamicAnimatorDelegate` is.
public protocol DynamicAnimatorDelegate: AnyObject {
    /// Called when an item moves again after every item was at rest.
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator)
    /// Called when every item has come to rest.
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
}

extension DynamicAnimatorDelegate {
    /// Does nothing.
    public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
    /// Does nothing.
    public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
}

/// UIKit Dynamics on Chipmunk: an animator over reference bounds that moves the items
/// its behaviours name.
///
/// UIKit's conventions hold: points, y pointing down, angles clockwise on screen, and a
/// gravity magnitude of 1.0 meaning 1000 points/s². An item's mass is its density times
/// its area / 10,000, so a 100 × 100 point item of density 1 has mass 1; a push of
/// magnitude 1 accelerates it at 100 points/s², as UIKit documents.
///
/// Every behaviour is built on the animator's ``space``: bodies and shapes for items,
/// static segments for boundaries, constraints for attachments and snaps, a velocity
/// integrator per item for gravity and resistance, forces for pushes and fields. The
/// animator steps the space in fixed steps (``timeStep``, 1/120 s by default) through a
/// `FixedStepper`: ``advance(by:)`` takes a frame's duration, ``step()`` one step. The
/// same behaviours and inputs give the same bits.
///
/// ```swift
/// let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
/// let label = ItemView(name: "Heavy", center: Vector(x: 160, y: 100), size: Size(width: 100, height: 40))
/// let collision = CollisionBehavior(items: [label])
/// collision.translatesReferenceBoundsIntoBoundary = true
/// animator.addBehavior(GravityBehavior(items: [label]))
/// animator.addBehavior(collision)
/// for _ in 0..<120 { try animator.advance(by: 1.0 / 60) }  // two seconds of 60 Hz frames
/// // label.center.y is now 460: resting on the bottom edge
/// ```
public final class DynamicAnimator {
    /// The rectangle the animator works in (`referenceView.bounds`).
    public let referenceBounds: Rect
    /// The simulated world. Read it freely; change it only through behaviours.
    public let space: Space
    /// The fixed step.
    public let timeStep: Double
    /// The behaviours added, in order (children are inside their parents).
    public private(set) var behaviors: [DynamicBehavior] = []
    /// Told when the items come to rest and when they move again; held weakly.
    public weak var delegate: (any DynamicAnimatorDelegate)?
    /// Simulated seconds the animator has run (while not at rest).
    public private(set) var elapsedTime: Double = 0
    /// False when every item is at rest (asleep); the delegate hears each change.
    public private(set) var isRunning = false
    /// Steps taken.
    public private(set) var stepCount = 0

    private var stepper: FixedStepper
    var records: [ObjectIdentifier: ItemRecord] = [:]
    /// The same records by shape, for contacts.
    private var shapeRecords: [ObjectIdentifier: ItemRecord] = [:]
    /// The same records by body, for ``item(for:)``.
    private var bodyRecords: [ObjectIdentifier: ItemRecord] = [:]
    /// Items in the order they joined: the order bodies enter the space.
    private(set) var orderedRecords: [ItemRecord] = []
    /// Every behaviour in the tree, depth first, parents before children.
    private(set) var flatBehaviors: [DynamicBehavior] = []
    /// The ones that exert forces inside the velocity integration.
    private(set) var forceBehaviors: [DynamicBehavior] = []
    private var installed: [ObjectIdentifier: DynamicBehavior] = [:]
    private var needsUpdate = false
    var boundaryOwners: [ObjectIdentifier: (behavior: CollisionBehavior, identifier: String?)] = [:]

    static let itemType: CollisionType = 1
    static let boundaryType: CollisionType = 2
    /// The speed below which an item counts as still, in points/s.
    public static let restSpeed = 4.0
    /// How long, in seconds, every item must stay still before it sleeps and the animator pauses.
    public static let restTime = 0.5

    /// An animator over `referenceBounds` (points, y down) that steps in fixed steps of `timeStep` seconds.
    ///
    /// Bounds whose width or height is outside 1e-6...1e15, or with a corner past ±5e14
    /// (half of `Parameter.maxCoordinate`, so that insets keep the boundary within it), or a
    /// time step that is not positive and finite, are a programming error: the program
    /// stops. So is an item whose `center` or `rotation` is past ±1e15 when it joins (or at
    /// ``updateItem(usingCurrentState:)``).
    public init(referenceBounds: Rect, timeStep: Double = 1.0 / 120) {
        DynamicsParameter.referenceBoundsSize.require(referenceBounds.size)
        DynamicsParameter.referenceBoundsCorner.requireCorners(of: referenceBounds)
        DynamicsParameter.animatorTimeStep.require(timeStep)
        self.referenceBounds = referenceBounds
        self.timeStep = timeStep
        stepper = FixedStepper(timeStep: timeStep)
        space = Space()
        space.gravity = .zero  // gravity is per item: only a gravity behaviour's items fall
        space.iterations = 20
        space.sleepTimeThreshold = Self.restTime
        space.idleSpeedThreshold = Self.restSpeed
        for other in [Self.itemType, Self.boundaryType] {
            space.onCollision(
                between: Self.itemType, and: other,
                begin: { [weak self] arbiter in
                    self?.contact(arbiter, began: true)
                    return true
                },
                separate: { [weak self] arbiter in self?.contact(arbiter, began: false) })
        }
    }

    // MARK: Behaviours

    /// Adds a behaviour (with its children); it acts from the next step.
    ///
    /// A behaviour already in an animator or a parent, or one that takes the animator past
    /// ``maxCollisionBehaviors`` collision behaviours, is a programming error: the program stops.
    public func addBehavior(_ behavior: DynamicBehavior) {
        ensure(
            behavior.dynamicAnimator == nil && behavior.parent == nil,
            "DynamicAnimator.addBehavior: the behaviour is already in an animator or a parent")
        behaviors.append(behavior)
        behavior.setAnimator(self)
        requireCollisionBehaviorLimit("DynamicAnimator.addBehavior")
        setNeedsUpdate()
    }

    /// The most collision behaviours an animator takes at once: each has a pair of the
    /// engine's 32 collision bits.
    public static let maxCollisionBehaviors = 16

    /// Stops the program, naming `method`, when the behaviours hold more collision behaviours
    /// than ``maxCollisionBehaviors`` (it stopped at the next step, far from the call).
    func requireCollisionBehaviorLimit(_ method: String) {
        func count(_ behavior: DynamicBehavior) -> Int {
            (behavior is CollisionBehavior ? 1 : 0) + behavior.childBehaviors.reduce(0) { $0 + count($1) }
        }
        let total = behaviors.reduce(0) { $0 + count($1) }
        ensure(
            total <= Self.maxCollisionBehaviors,
            "\(method): an animator takes at most \(Self.maxCollisionBehaviors) collision behaviours (got \(total))")
    }

    /// Removes a behaviour (with its children); it no longer acts from the next step. A
    /// behaviour not in the animator is ignored.
    public func removeBehavior(_ behavior: DynamicBehavior) {
        guard let index = behaviors.firstIndex(where: { $0 === behavior }) else { return }
        behaviors.remove(at: index)
        behavior.setAnimator(nil)
        setNeedsUpdate()
    }

    /// Removes every behaviour.
    public func removeAllBehaviors() {
        for behavior in behaviors { behavior.setAnimator(nil) }
        behaviors.removeAll()
        setNeedsUpdate()
    }

    /// The items the behaviours move whose frames (centre ± half size) meet `rect`.
    public func items(in rect: Rect) -> [any DynamicItem] {
        updateIfNeeded()
        return orderedRecords.filter { record in
            let size = record.item.bounds.size
            let c = record.item.center
            return rect.intersects(
                Rect(x: c.x - size.width / 2, y: c.y - size.height / 2, width: size.width, height: size.height))
        }.map(\.item)
    }

    /// Reads an item's `center` and `rotation` again, after the caller moved it.
    public func updateItem(usingCurrentState item: any DynamicItem) {
        updateIfNeeded()
        guard let record = records[ObjectIdentifier(item)] else { return }
        DynamicsParameter.itemCenter.require(item.center)
        DynamicsParameter.itemRotation.require(item.rotation)
        record.body.position = item.center
        record.body.angle = item.rotation
        record.body.activate()
        space.reindexShapes(of: record.body)
    }

    /// The body that stands for an item, once the item is in a behaviour of this animator.
    public func body(for item: any DynamicItem) -> Body? {
        updateIfNeeded()
        return records[ObjectIdentifier(item)]?.body
    }

    /// The item a body in the space stands for, or nil for a body that is not an item's
    /// (the space's static body): for drawing the space with the items' own looks. It
    /// reads the space as it is, applying no pending change.
    public func item(for body: Body) -> (any DynamicItem)? {
        bodyRecords[ObjectIdentifier(body)]?.item
    }

    func setNeedsUpdate() { needsUpdate = true }

    // MARK: Stepping

    /// Runs a frame of `frameDuration` seconds in fixed steps (the book's accumulator:
    /// the remainder waits for the next frame).
    ///
    /// A frame runs at most ``maxStepsPerFrame`` steps (120, one second at the default
    /// step), against the spiral of death: time beyond them is dropped, and the report's
    /// `droppedTime` says how much. So `advance(by: 2)` simulates one second; to simulate
    /// longer, advance frame by frame, or call ``step()`` as often as needed.
    ///
    /// Calling it while it runs (from a behaviour's `action` or a delegate) is a
    /// programming error: the program stops. (``step()`` may be called there.)
    @discardableResult
    public func advance(by frameDuration: Double) throws -> FrameReport {
        DynamicsParameter.frameDuration.require(frameDuration)
        ensure(
            !isAdvancing,
            "DynamicAnimator.advance(by:) was called while it ran (from a behaviour's action or a delegate); "
                + "advance the animator from the frame loop, or call step() there")
        isAdvancing = true
        defer { isAdvancing = false }
        // The stepper is a struct being changed: the closure must not read it (timeStep is a copy).
        return try stepper.advance(by: frameDuration) { dt in try self.step(by: dt) }
    }

    /// Set while ``advance(by:)`` runs: its stepper cannot be reached again until it returns.
    private var isAdvancing = false

    /// The most steps one ``advance(by:)`` runs.
    public var maxStepsPerFrame: Int { stepper.maxStepsPerFrame }

    /// One fixed step: behaviours act (pushes, fields, moving anchors), the space steps,
    /// items get their new centres and rotations, then each behaviour's `action` runs.
    ///
    /// Calling it while the space steps (from a collision delegate) is a programming
    /// error: the program stops. A behaviour's `action` and the animator's delegate run
    /// after the space's step, and may call it.
    public func step() throws { try step(by: timeStep) }

    /// One step of `dt` seconds (for a caller with its own clock, such as a scene).
    public func step(by dt: Double) throws {
        DynamicsParameter.stepDuration.require(dt)
        ensure(
            !space.isDeferringChanges,
            "DynamicAnimator.step() was called while the space stepped (from a collision delegate); "
                + "step the animator after the step returns, from a behaviour's action or the frame loop")
        updateIfNeeded()
        for behavior in flatBehaviors { behavior.willStep(in: self, dt: dt) }
        try space.step(dt)
        stepCount += 1
        for record in orderedRecords {
            record.item.center = record.body.position
            record.item.rotation = record.body.angle
        }
        let atRest = orderedRecords.allSatisfy { $0.body.kind != .dynamic || $0.body.isSleeping }
        if isRunning || !atRest { elapsedTime += dt }
        for behavior in flatBehaviors { behavior.action?() }
        if atRest == isRunning {
            isRunning = !atRest
            if isRunning { delegate?.dynamicAnimatorWillResume(self) } else { delegate?.dynamicAnimatorDidPause(self) }
        }
    }

    /// For a space just restored from a snapshot: runs `setBehaviors` (which sets the
    /// behaviours as they were when the snapshot was taken) and brings the items' bodies up
    /// to them, without waking any body. The snapshot holds the bodies' state; the
    /// uninterrupted run woke them, or not, when the changes happened.
    package func adoptBehaviorsAfterRestore(_ setBehaviors: () -> Void) {
        isAdoptingRestoredState = true
        defer { isAdoptingRestoredState = false }
        setBehaviors()
        // The step that ended where the state was saved began by applying those settings,
        // and an instantaneous push it found active pushed then and turned itself off: as
        // it did, so here (re-activated, it would push again at the next step).
        func settle(_ behavior: DynamicBehavior) {
            if let push = behavior as? PushBehavior, push.mode == .instantaneous, push.active,
                push.pushDirection != .zero
            {
                push.active = false
            }
            for child in behavior.childBehaviors { settle(child) }
        }
        for behavior in behaviors { settle(behavior) }
        updateIfNeeded()
    }

    /// Set while ``adoptBehaviorsAfterRestore(_:)`` runs: changes then wake nothing.
    private var isAdoptingRestoredState = false

    /// Wakes the body of `item` (a behaviour's change reaches it), unless the animator is
    /// adopting a restored space's behaviours.
    func wake(_ item: any DynamicItem) {
        guard !isAdoptingRestoredState else { return }
        record(for: item)?.body.activate()
    }

    /// Set while ``updateIfNeeded()`` rebuilds the items and behaviours.
    private var isUpdating = false

    private func updateIfNeeded() {
        // Inside a step (a collision delegate, an action) settings wait for the next step:
        // anchoring an item changes its body's kind, which cannot happen during a step.
        guard needsUpdate, !space.isDeferringChanges, !isUpdating else { return }
        needsUpdate = false
        isUpdating = true
        defer {
            isUpdating = false
            let ends = pendingEnds
            pendingEnds.removeAll()
            tellEnded(ends)
        }
        var flat: [DynamicBehavior] = []
        func walk(_ behavior: DynamicBehavior) {
            flat.append(behavior)
            for child in behavior.childBehaviors { walk(child) }
        }
        for behavior in behaviors { walk(behavior) }
        flatBehaviors = flat
        forceBehaviors = flat.filter(\.exertsForces)

        // Items: the ones the behaviours name, in order; bodies for new ones, none for gone ones.
        var seen: Set<ObjectIdentifier> = []
        for behavior in flat {
            for item in behavior.dynamicItems where seen.insert(ObjectIdentifier(item)).inserted {
                if records[ObjectIdentifier(item)] == nil {
                    let record = ItemRecord(item: item, animator: self)
                    records[ObjectIdentifier(item)] = record
                    shapeRecords[ObjectIdentifier(record.shape)] = record
                    bodyRecords[ObjectIdentifier(record.body)] = record
                    orderedRecords.append(record)
                    space.add(record.body, record.shape)
                }
            }
        }
        // Behaviours that left take their constraints and boundaries with them.
        let current = Set(flat.map(ObjectIdentifier.init))
        for (id, behavior) in installed where !current.contains(id) {
            behavior.uninstall(from: self)
            installed[id] = nil
        }
        endContactsNoLongerHeld(current: current)
        for record in orderedRecords where !seen.contains(ObjectIdentifier(record.item)) {
            space.remove(record.body, record.shape)
            records[ObjectIdentifier(record.item)] = nil
            shapeRecords[ObjectIdentifier(record.shape)] = nil
            bodyRecords[ObjectIdentifier(record.body)] = nil
        }
        orderedRecords.removeAll { !seen.contains(ObjectIdentifier($0.item)) }

        // Each item's settings, rebuilt from the behaviours in order (later ones win).
        for record in orderedRecords { record.reset() }
        var collisionIndex = 0
        for behavior in flat {
            if let collision = behavior as? CollisionBehavior {
                collision.index = collisionIndex
                collisionIndex += 1
            }
            behavior.configure(in: self)
        }
        // An attachment whose item becomes anchored or free is taken out before the body's
        // kind changes (the engine refuses a kind that leaves a joint without a dynamic body),
        // and a spring whose item's mass changes is rebuilt (its stiffness comes from the
        // masses): both are made again, as the bodies are now, by `install` below.
        for case let attachment as AttachmentBehavior in flat {
            let changing = attachment.items.compactMap(record(for:)).contains { record in
                record.changesKind || (attachment.dependsOnMass && record.changesMass)
            }
            if changing { attachment.uninstall(from: self) }
        }
        for record in orderedRecords { record.apply(waking: !isAdoptingRestoredState) }
        for behavior in flat {
            if installed[ObjectIdentifier(behavior)] == nil {
                installed[ObjectIdentifier(behavior)] = behavior
            }
            behavior.install(in: self)
        }
    }

    func record(for item: any DynamicItem) -> ItemRecord? { records[ObjectIdentifier(item)] }

    // MARK: Contacts

    /// Tells the collision delegates of every contact the space holds now, as if each
    /// began: for a space restored from a snapshot, whose contacts began before it was
    /// saved and will end after. Each contact is told once, item with boundary or item with
    /// item, in the order of the items.
    public func reportCurrentContacts() {
        updateIfNeeded()
        // The contacts told before a restore (a rollback into the same animator) are not the
        // space's any more: they end first, so that every "began" has its "ended".
        let open = toldContacts.values.flatMap { $0 }
        toldContacts.removeAll()
        tellEnded(open)
        var told: Set<[ObjectIdentifier]> = []
        for record in orderedRecords {
            // The closure throws nothing, so neither does the walk.
            record.body.forEachArbiter { arbiter in
                let (a, b) = arbiter.shapes
                let pair = [ObjectIdentifier(a), ObjectIdentifier(b)].sorted()
                if told.insert(pair).inserted { contact(arbiter, began: true) }
            }
        }
    }

    /// A contact a collision delegate was told began: it is told the same contact ended.
    private struct ToldContact {
        let behavior: CollisionBehavior
        let item: any DynamicItem
        /// The other item, or nil for a boundary.
        let other: (any DynamicItem)?
        let boundary: String?
        /// When it was told, counting from 0: ends found together are told in this order,
        /// not the table's, which differs from process to process.
        let order: Int
    }

    private var contactsTold = 0

    /// The contacts delegates were told began, by their pair of shapes: each is told its end
    /// when the pair separates, whatever changed since. Removing the collision behaviour, an
    /// item or a boundary while an item rested on it gave "began" and never "ended", since
    /// the end looked the pair up in behaviours that no longer held it.
    private var toldContacts: [ShapePair: [ToldContact]] = [:]
    /// Ends found while the animator rebuilds (a shape taken out separates at once): told
    /// once it is done, so that a delegate may change the animator.
    private var pendingEnds: [ToldContact] = []

    /// Two shapes, in either order: the engine may give a pair of items in one order when
    /// they begin touching and in the other when they separate.
    private struct ShapePair: Hashable {
        let first: ObjectIdentifier
        let second: ObjectIdentifier
        init(_ arbiter: Arbiter) {
            let (a, b) = (ObjectIdentifier(arbiter.shapes.0), ObjectIdentifier(arbiter.shapes.1))
            (first, second) = a < b ? (a, b) : (b, a)
        }
    }

    /// Ends the told contacts the behaviours no longer hold (a collision behaviour removed,
    /// an item taken out of it, its mode changed) while the pair may go on touching through
    /// another behaviour: the delegate hears "ended" now, not when the pair separates.
    private func endContactsNoLongerHeld(current: Set<ObjectIdentifier>) {
        for (pair, told) in toldContacts {
            let (held, gone) = told.reduce(into: ([ToldContact](), [ToldContact]())) { split, contact in
                let behavior = contact.behavior
                let holds =
                    current.contains(ObjectIdentifier(behavior)) && behavior.contains(contact.item)
                    && (contact.other.map { behavior.collisionMode.contains(.items) && behavior.contains($0) }
                        ?? behavior.collisionMode.contains(.boundaries))
                if holds { split.0.append(contact) } else { split.1.append(contact) }
            }
            guard !gone.isEmpty else { continue }
            toldContacts[pair] = held.isEmpty ? nil : held
            pendingEnds += gone
        }
    }

    private func contact(_ arbiter: Arbiter, began: Bool) {
        guard began else {
            guard let told = toldContacts.removeValue(forKey: ShapePair(arbiter)) else { return }
            if isUpdating { pendingEnds += told } else { tellEnded(told) }
            return
        }
        let (a, b) = arbiter.shapes
        guard let first = shapeRecords[ObjectIdentifier(a)] else { return }
        let point = arbiter.contactPointSet.first?.pointA ?? first.body.position
        var told: [ToldContact] = []
        if let owner = boundaryOwners[ObjectIdentifier(b)] {
            guard owner.behavior.contains(first.item), owner.behavior.collisionMode.contains(.boundaries),
                let delegate = owner.behavior.collisionDelegate
            else { return }
            told.append(
                ToldContact(
                    behavior: owner.behavior, item: first.item, other: nil, boundary: owner.identifier,
                    order: contactsTold))
            contactsTold += 1
            toldContacts[ShapePair(arbiter)] = told
            delegate.collisionBehavior(
                owner.behavior, beganContactFor: first.item, withBoundaryIdentifier: owner.identifier, at: point)
            return
        }
        guard let second = shapeRecords[ObjectIdentifier(b)] else { return }
        for case let collision as CollisionBehavior in flatBehaviors
        where collision.collisionMode.contains(.items) && collision.contains(first.item)
            && collision.contains(second.item) && collision.collisionDelegate != nil
        {
            told.append(
                ToldContact(
                    behavior: collision, item: first.item, other: second.item, boundary: nil, order: contactsTold))
            contactsTold += 1
        }
        guard !told.isEmpty else { return }
        toldContacts[ShapePair(arbiter)] = told
        for contact in told {
            contact.behavior.collisionDelegate?.collisionBehavior(
                contact.behavior, beganContactFor: first.item, with: second.item, at: point)
        }
    }

    private func tellEnded(_ told: [ToldContact]) {
        for contact in told.count > 1 ? told.sorted(by: { $0.order < $1.order }) : told {
            guard let delegate = contact.behavior.collisionDelegate else { continue }
            if let other = contact.other {
                delegate.collisionBehavior(contact.behavior, endedContactFor: contact.item, with: other)
            } else {
                delegate.collisionBehavior(
                    contact.behavior, endedContactFor: contact.item, withBoundaryIdentifier: contact.boundary)
            }
        }
    }
}

/// An item's body and shape, and the settings its behaviours give it this step.
final class ItemRecord {
    let item: any DynamicItem
    let body: Body
    let shape: Shape
    /// The shape's area in points², for the mass.
    let area: Double
    private let unitMoment: Double

    // Rebuilt from the behaviours on every change.
    var gravity: Vector = .zero
    var properties = ItemProperties()
    var categories: UInt32 = 0
    var mask: UInt32 = 0

    private weak var animator: DynamicAnimator?

    init(item: any DynamicItem, animator: DynamicAnimator) {
        self.item = item
        self.animator = animator
        let size = item.bounds.size
        DynamicsParameter.itemBoundsSize.require(size)
        DynamicsParameter.itemCenter.require(item.center)
        DynamicsParameter.itemRotation.require(item.rotation)
        body = Body(mass: 1, moment: 1)
        body.position = item.center
        body.angle = item.rotation
        switch item.collisionBounds {
        case .rectangle:
            shape = Polygon.box(body: body, width: size.width, height: size.height)
            area = size.width * size.height
            unitMoment = Moment.box(mass: 1, width: size.width, height: size.height)
        case .ellipse where size.width == size.height:
            shape = Circle(body: body, radius: size.width / 2)
            area = .pi * size.width * size.width / 4
            unitMoment = Moment.circle(mass: 1, outerRadius: size.width / 2)
        case .ellipse:
            let vertices = (0..<24).map { k -> Vector in
                let angle = Double(k) * 2 * .pi / 24
                return Vector(x: cos(angle) * size.width / 2, y: sin(angle) * size.height / 2)
            }
            shape = Polygon(body: body, vertices: vertices)
            area = Area.polygon(vertices: vertices)
            unitMoment = Moment.polygon(mass: 1, vertices: vertices)
        case .path(let points):
            DynamicsParameter.itemPath.require(points)
            ensure(
                (try? Polygon.check(vertices: points, transform: .identity, radius: 0)) != nil
                    && abs(Area.polygon(vertices: points)) >= DynamicsParameter.minimumPathArea,
                "DynamicItem collision path must enclose an area of at least \(DynamicsParameter.minimumPathArea) "
                    + "points² (got \(points))")
            shape = Polygon(body: body, vertices: points)
            area = abs(Area.polygon(vertices: points))
            unitMoment = Moment.polygon(mass: 1, vertices: points)
        }
        shape.collisionType = DynamicAnimator.itemType
        shape.filter = ShapeFilter(categories: [], mask: [])
        body.velocityUpdate = { [weak self] body, _, _, dt in
            guard let self else { return try body.updateVelocity(gravity: .zero, damping: 1, dt: dt) }
            try self.integrateVelocity(body, dt: dt)
        }
    }

    /// Gravity, the forces of fields and snaps, and resistance, in one velocity step.
    private func integrateVelocity(_ body: Body, dt: Double) throws {
        var acceleration = gravity
        var angular = 0.0
        if let animator {
            for behavior in animator.forceBehaviors {
                guard
                    let (linear, spin) = behavior.acceleration(
                        of: item, body: body, charge: properties.charge, time: animator.elapsedTime, dt: dt)
                else { continue }
                // A field whose force is not finite (a custom field's NaN, a falloff that
                // overflows near its centre) ends the step naming the behaviour and the item:
                // it is not dropped without a word (it was told as "body 0's velocity").
                guard linear.isFinite, spin.isFinite else {
                    throw DynamicsError.nonFiniteAcceleration(
                        step: (body.space?.stepsTaken ?? 0) + 1, behavior: behavior.name,
                        item: animator.orderedRecords.firstIndex { $0 === self } ?? -1,
                        itemName: (item as? ItemView).map { "ItemView '\($0.name)'" }
                            ?? String(describing: type(of: item)),
                        value: !linear.x.isFinite ? linear.x : !linear.y.isFinite ? linear.y : spin)
                }
                acceleration += linear
                angular += spin
            }
        }
        // Several finite ones can still overflow when summed: a divergence of the body, as
        // the engine's own integration would say.
        guard acceleration.isFinite, angular.isFinite else {
            throw ChipmunkError.diverged(
                step: (body.space?.stepsTaken ?? 0) + 1, body: body.indexInSpace, quantity: .velocity,
                value: !acceleration.x.isFinite ? acceleration.x : !acceleration.y.isFinite ? acceleration.y : angular)
        }
        try body.updateVelocity(
            gravity: acceleration, damping: exp(-properties.resistance * dt),
            angularDamping: exp(-properties.angularResistance * dt), angularAcceleration: angular, dt: dt)
    }

    func reset() {
        gravity = .zero
        properties = ItemProperties()
        categories = 0
        mask = 0
    }

    /// The mass the settings give the body.
    private var mass: Double { properties.density * area / 10_000 }

    /// Whether ``apply(waking:)`` will turn the body kinematic (anchored) or dynamic (free).
    var changesKind: Bool { properties.isAnchored != (body.kind == .kinematic) }

    /// Whether ``apply(waking:)`` will change the mass of a body that stays dynamic.
    var changesMass: Bool { !properties.isAnchored && body.kind == .dynamic && body.mass != mass }

    /// The gravity the body had when the settings were last applied.
    private var appliedGravity: Vector = .zero

    /// Writes the settings into the body and shape, each only if it changed (the engine's
    /// setters wake the body), and wakes the body when one did or its gravity changed,
    /// unless `waking` is false. (Waking every item with gravity on any change kept an
    /// animator changed twice a second from ever pausing.)
    func apply(waking: Bool = true) {
        let before = (body.kind, body.mass, body.moment, shape.elasticity, shape.friction, shape.filter)
        let mass = self.mass
        if properties.isAnchored {
            if body.kind != .kinematic {
                body.kind = .kinematic
                body.velocity = .zero
                body.angularVelocity = 0
            }
        } else {
            if body.kind != .dynamic { body.kind = .dynamic }
            if body.mass != mass { body.mass = mass }
            let moment = properties.allowsRotation ? unitMoment * mass : Parameter.massRange.upperBound
            if body.moment != moment { body.moment = moment }
        }
        body.positionUpdate =
            properties.allowsRotation ? nil : { body, dt in try body.updatePositionWithoutTurning(dt: dt) }
        if shape.elasticity != properties.elasticity { shape.elasticity = properties.elasticity }
        if shape.friction != properties.friction { shape.friction = properties.friction }
        let filter = ShapeFilter(
            categories: ShapeFilter.Categories(rawValue: categories), mask: ShapeFilter.Categories(rawValue: mask))
        if shape.filter != filter { shape.filter = filter }
        let after = (body.kind, body.mass, body.moment, shape.elasticity, shape.friction, shape.filter)
        if waking, before != after || gravity != appliedGravity { body.activate() }
        appliedGravity = gravity
    }
}

/// An item's physical properties (``DynamicItemBehavior``), with UIKit's defaults.
public struct ItemProperties: Hashable, Sendable {
    /// How much of the speed a collision keeps, 0 by default.
    public var elasticity = 0.0
    /// The friction coefficient, 0 by default.
    public var friction = 0.0
    /// Mass per 100 × 100 points, 1 by default.
    public var density = 1.0
    /// Linear damping per second, 0 by default.
    public var resistance = 0.0
    /// Angular damping per second, 0 by default.
    public var angularResistance = 0.0
    /// Electric charge, for electric and magnetic fields; 0 by default.
    public var charge = 0.0
    /// Whether the item stays where it is, others colliding with it; false by default.
    public var isAnchored = false
    /// Whether the item may turn; true by default.
    public var allowsRotation = true
    /// UIKit's defaults.
    public init() {}
}
