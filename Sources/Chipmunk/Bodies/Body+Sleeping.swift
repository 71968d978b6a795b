internal import CChipmunk
internal import CChipmunkRuntime

extension Body {
    /// Whether the body is asleep.
    ///
    /// The corresponding C function is `cpBodyIsSleeping`.
    public var isSleeping: Bool {
        cpBodyIsSleeping(handle) != 0
    }

    /// How long the body has been slower than the space's ``Space/idleSpeedThreshold``, in
    /// seconds; past ``Space/sleepTimeThreshold`` its group may fall asleep. The debug
    /// drawing colours such a body grey.
    public var idleTime: Double {
        handle.pointee.sleeping.idleTime
    }

    /// Wakes the body (and the bodies it touches). Harmless on bodies that are awake; for a
    /// static body, wakes the bodies touching it.
    ///
    /// The corresponding C functions are `cpBodyActivate` and `cpBodyActivateStatic`.
    public func activate() {
        switch kind {
        case .dynamic: cpBodyActivate(handle)
        case .static: cpBodyActivateStatic(handle, nil)
        case .kinematic: break
        }
    }

    /// Puts the body to sleep now, with every body it touches or is jointed to (and those
    /// they touch or are jointed to, and so on), as one group: a new one, or `group`'s (a
    /// sleeping body whose group they join). Bodies of that set asleep in another group are
    /// woken first and join this one. The engine puts such a set to sleep together when it
    /// falls idle; put to sleep alone, a body that touches an awake one (or one asleep in
    /// another group) corrupts the engine's contact graph, and a later step frees memory
    /// twice.
    ///
    /// The body must be dynamic and in a space with sleeping enabled (a finite
    /// ``Space/sleepTimeThreshold``), not asleep in a group other than `group`'s (a body
    /// already asleep, with no group given, is left as it is), not inside a step, a
    /// query or a callback, and its set must not touch or be jointed to a kinematic body
    /// (which keeps bodies awake); `group`, if given, must be asleep in the same space.
    /// Anything else is a programming error.
    ///
    /// The corresponding C functions are `cpBodySleep` and `cpBodySleepWithGroup`.
    public func sleep(group: Body? = nil) {
        ensure(kind == .dynamic, "Body.sleep: only dynamic bodies sleep (this one is \(kind))")
        guard let space else { stop("Body.sleep: the body must be in a space") }
        ensure(
            !space.isDeferringChanges,
            "Body.sleep cannot run during a step, a query or a callback; call it in a post-step callback")
        ensure(
            space.sleepTimeThreshold < .infinity,
            "Body.sleep: sleeping is not enabled; set the space's sleepTimeThreshold to a finite value")
        if let group {
            ensure(
                group.space === space && group.isSleeping,
                "Body.sleep(group:): the group must be a sleeping body in the same space")
        }
        if isSleeping {
            // Asleep already: nothing to do, unless `group` names another group (the engine
            // cannot move a sleeping body between groups; it asserts even for no group).
            ensure(
                group == nil || group!.sleepingRoot == sleepingRoot,
                "Body.sleep(group:): the body is already asleep in another group than the one given; "
                    + "activate() it first")
            return
        }
        let target = group?.sleepingRoot
        let (bodies, touchesKinematic) = touchingSet(excludingGroup: target)
        ensure(
            !touchesKinematic,
            "Body.sleep: the body, or a body it touches or is jointed to, touches or is jointed to a kinematic body, "
                + "which keeps them awake")
        // Those asleep in another group wake first (their whole group), so that all sleep in one.
        for body in bodies where body.pointee.sleeping.root != nil { cpBodyActivate(body) }
        let root = group?.handle ?? handle
        if group == nil { cpBodySleepWithGroup(handle, nil) }
        for body in bodies where body != handle || group != nil { cpBodySleepWithGroup(body, root) }
        // Pairs left cached with nothing awake would keep contacts in memory the engine reuses.
        space.keepSleepingPairContacts()
    }

    /// The dynamic bodies this one touches or is jointed to, transitively, itself first (as
    /// the engine's flood fill finds a sleeping group), leaving out bodies asleep in the
    /// group whose root is `excludedRoot`; and whether any of them touches or is jointed to a
    /// kinematic body.
    private func touchingSet(
        excludingGroup excludedRoot: UnsafeMutablePointer<cpBody>?
    ) -> (bodies: [UnsafeMutablePointer<cpBody>], touchesKinematic: Bool) {
        var bodies = [handle]
        var found: Set<UnsafeMutablePointer<cpBody>> = [handle]
        var touchesKinematic = false
        func reach(_ other: UnsafeMutablePointer<cpBody>) {
            switch cpBodyGetType(other) {
            case CP_BODY_TYPE_KINEMATIC: touchesKinematic = true
            case CP_BODY_TYPE_DYNAMIC:
                if excludedRoot == nil || other.pointee.sleeping.root != excludedRoot, found.insert(other).inserted {
                    bodies.append(other)
                }
            default: break  // static bodies never wake
            }
        }
        var i = 0
        while i < bodies.count {
            let body = bodies[i]
            i += 1
            var arbiter = body.pointee.arbiterList
            while let a = arbiter {
                let isA = a.pointee.body_a == body
                if let other = isA ? a.pointee.body_b : a.pointee.body_a { reach(other) }
                arbiter = isA ? a.pointee.thread_a.next : a.pointee.thread_b.next
            }
            var constraint = body.pointee.constraintList
            while let c = constraint {
                let isA = c.pointee.a == body
                if let other = isA ? c.pointee.b : c.pointee.a { reach(other) }
                constraint = isA ? c.pointee.next_a : c.pointee.next_b
            }
        }
        return (bodies, touchesKinematic)
    }

    /// The root of the sleeping group the body is in, if it sleeps.
    private var sleepingRoot: UnsafeMutablePointer<cpBody>? { handle.pointee.sleeping.root }
}
