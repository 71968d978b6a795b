internal import CChipmunk

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

    /// Puts the body to sleep now, alone or in `group` (a sleeping body whose group it joins).
    ///
    /// The body must be dynamic and in a space with sleeping enabled (a finite
    /// ``Space/sleepTimeThreshold``), not asleep in another group, and not inside a step, a
    /// query or a callback; `group`, if given, must be asleep in the same space. Anything
    /// else is a programming error.
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
            // The engine allows this only when the groups already match; it never needs doing.
            ensure(
                group != nil && group!.sleepingRoot == sleepingRoot,
                "Body.sleep: the body is already asleep in another group")
            return
        }
        cpBodySleepWithGroup(handle, group?.handle)
    }

    /// The root of the sleeping group the body is in, if it sleeps.
    private var sleepingRoot: UnsafeMutablePointer<cpBody>? { handle.pointee.sleeping.root }
}
