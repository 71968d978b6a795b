import Chipmunk
import Foundation

/// A behaviour: what the animator does to some items, as `UIDynamicBehavior`.
///
/// Subclass it to group behaviours: add children with ``addChildBehavior(_:)``; the
/// animator runs the whole tree. Every behaviour may have an ``action``, run after each
/// step.
open class DynamicBehavior {
    /// Runs after every step of the animator the behaviour is in. The behaviour holds it:
    /// capture the behaviour and the animator `weak` or `unowned` in it, as in UIKit, or
    /// neither is ever freed.
    public var action: (() -> Void)?
    /// The behaviours added with ``addChildBehavior(_:)``, in order.
    public private(set) var childBehaviors: [DynamicBehavior] = []
    /// The animator the behaviour (or its parent) is in, or nil.
    public private(set) weak var dynamicAnimator: DynamicAnimator?
    weak var parent: DynamicBehavior?

    /// A behaviour that does nothing until given children or an ``action``.
    public init() {}

    /// Adds a child behaviour, which acts while this one is in an animator.
    ///
    /// A behaviour already in an animator or a parent, the behaviour itself, or one that
    /// takes the animator past ``DynamicAnimator/maxCollisionBehaviors`` collision
    /// behaviours, is a programming error: the program stops.
    public func addChildBehavior(_ behavior: DynamicBehavior) {
        ensure(
            behavior.parent == nil && behavior.dynamicAnimator == nil,
            "DynamicBehavior.addChildBehavior: the behaviour is already in an animator or a parent")
        ensure(behavior !== self, "DynamicBehavior.addChildBehavior: a behaviour cannot be its own child")
        childBehaviors.append(behavior)
        behavior.parent = self
        behavior.setAnimator(dynamicAnimator)
        dynamicAnimator?.requireCollisionBehaviorLimit("DynamicBehavior.addChildBehavior")
        dynamicAnimator?.setNeedsUpdate()
    }

    /// Removes a child behaviour; one that is not a child is ignored.
    public func removeChildBehavior(_ behavior: DynamicBehavior) {
        guard let index = childBehaviors.firstIndex(where: { $0 === behavior }) else { return }
        childBehaviors.remove(at: index)
        behavior.parent = nil
        behavior.setAnimator(nil)
        dynamicAnimator?.setNeedsUpdate()
    }

    /// Called when the behaviour joins an animator (or leaves it: nil).
    open func willMove(to animator: DynamicAnimator?) {}

    func setAnimator(_ animator: DynamicAnimator?) {
        willMove(to: animator)
        dynamicAnimator = animator
        for child in childBehaviors { child.setAnimator(animator) }
    }

    /// Tells the animator to rebuild its items' settings before the next step.
    func changed() { dynamicAnimator?.setNeedsUpdate() }

    // The parts each kind fills in.

    /// The items this behaviour moves (not its children's).
    var dynamicItems: [any DynamicItem] { [] }
    /// Adds this behaviour's settings to its items' records (gravity, properties, collision bits).
    func configure(in animator: DynamicAnimator) {}
    /// Makes sure its constraints or boundaries are in the space (called on every change).
    func install(in animator: DynamicAnimator) {}
    /// Takes them out.
    func uninstall(from animator: DynamicAnimator) {}
    /// Just before each step: pushes, moving anchors, waking items.
    func willStep(in animator: DynamicAnimator, dt: Double) {}
    /// Whether ``acceleration(of:body:charge:time:dt:)`` adds anything (fields, snaps).
    var exertsForces: Bool { false }
    /// The acceleration this behaviour gives an item's body over a step of `dt`, linear and
    /// angular, inside the body's velocity integration (after the engine moved it this
    /// step); nil for none.
    func acceleration(of item: any DynamicItem, body: Body, charge: Double, time: Double, dt: Double) -> (
        Vector, Double
    )? {
        nil
    }
    /// The behaviour as a message names it.
    var name: String { String(describing: type(of: self)) }
}

/// A behaviour with a list of items that can change (gravity, collision, push, item
/// properties, fields).
open class ItemListBehavior: DynamicBehavior {
    /// The items, in the order added, each once.
    public private(set) var items: [any DynamicItem]
    /// The items by identity: ``contains(_:)`` runs per item per step, in fields and in
    /// contact callbacks, so it must not search the list.
    private var members: Set<ObjectIdentifier>

    /// A behaviour for `items` (an item listed twice counts once).
    public init(items: [any DynamicItem]) {
        var members: Set<ObjectIdentifier> = []
        self.items = items.filter { members.insert(ObjectIdentifier($0)).inserted }
        self.members = members
        super.init()
    }

    /// Adds an item, from the next step; an item already there is ignored.
    public func addItem(_ item: any DynamicItem) {
        guard members.insert(ObjectIdentifier(item)).inserted else { return }
        items.append(item)
        changed()
    }

    /// Removes an item, from the next step; an item not there is ignored.
    public func removeItem(_ item: any DynamicItem) {
        guard members.remove(ObjectIdentifier(item)) != nil else { return }
        items.removeAll { $0 === item }
        changed()
    }

    func contains(_ item: any DynamicItem) -> Bool { members.contains(ObjectIdentifier(item)) }

    override var dynamicItems: [any DynamicItem] { items }
}
