internal import CChipmunk
internal import CChipmunkRuntime

extension Body {
    /// The body's kind; it can change while the body is in a space.
    ///
    /// Becoming dynamic, a body takes its mass from its shapes (zero if none have mass or
    /// density): give it a mass and moment before the next step, or ``Space/step(_:)``
    /// throws ``ChipmunkError/massless(step:body:)``. Becoming static or kinematic, it
    /// stops; becoming static, its shapes are brought to where it is (the engine leaves them
    /// where the last step put them, before any move since). A sleeping body is woken first
    /// (the engine crashes otherwise), and so are the bodies resting on or jointed to a
    /// static body that stops being static.
    ///
    /// Setting it is a programming error on a space's own static body, during a step, a
    /// query or a callback, or when a constraint would then join two non-dynamic bodies.
    ///
    /// The corresponding C functions are `cpBodyGetType` and `cpBodySetType`.
    public var kind: Kind {
        get { Kind(cpBodyGetType(handle)) }
        set {
            guard newValue != kind else { return }
            ensure(!isSpaceStaticBody, "Body.kind cannot be changed on a space's own static body")
            // A body removed during a step has left the space in Swift (`space` is nil) but stays
            // in the engine's until the step ends: ask the engine's space too.
            let engineSpace = cpBodyGetSpace(handle)
            ensure(
                !(space?.isDeferringChanges ?? false) && !(engineSpace.map { cpSpaceIsLocked($0) != 0 } ?? false),
                "Body.kind cannot change during a step, a query or a callback; change it in a post-step callback")
            if newValue != .dynamic {
                for constraint in constraints {
                    let other = constraint.bodyA === self ? constraint.bodyB : constraint.bodyA
                    ensure(
                        other.kind == .dynamic,
                        "Body.kind cannot become \(newValue): a constraint would join two non-dynamic bodies, "
                            + "which the engine cannot solve"
                    )
                }
            }
            // cpBodySetType changes the kind before waking the body, and crashes on a sleeping one.
            if isSleeping { cpBodyActivate(handle) }
            // Leaving static, it wakes nothing: bodies asleep against it or jointed to it would
            // keep it in their sleeping component, and the next step aborts ("Inconsistency
            // dectected in the contact graph"). Wake them first.
            if kind == .static, space != nil {
                cpBodyActivateStatic(handle, nil)
                for constraint in constraints {
                    let other = constraint.bodyA === self ? constraint.bodyB : constraint.bodyA
                    if other.kind == .dynamic { cpBodyActivate(other.handle) }
                }
            }
            cpBodySetType(handle, newValue.cp)
            // Its shapes lie where the body is (the engine leaves them where the last step did);
            // its contacts with static bodies would outlive it in reused memory (KindChange.c),
            // and so would its pairs with sleeping bodies, which it keeps cached (KeptContacts.c).
            if newValue == .static, let engineSpace {
                CChipmunkUpdateStaticShapes(engineSpace, handle)
                CChipmunkForgetStaticPairContacts(engineSpace, handle)
                if let cSpace { CChipmunkKeepSleepingPairContacts(engineSpace, cSpace.keptContacts) }
            }
            space?.massMayHaveChanged(for: self)
        }
    }
}

extension Body.Kind {
    init(_ type: cpBodyType) {
        switch type {
        case CP_BODY_TYPE_KINEMATIC: self = .kinematic
        case CP_BODY_TYPE_STATIC: self = .static
        default: self = .dynamic
        }
    }

    var cp: cpBodyType {
        switch self {
        case .dynamic: return CP_BODY_TYPE_DYNAMIC
        case .kinematic: return CP_BODY_TYPE_KINEMATIC
        case .static: return CP_BODY_TYPE_STATIC
        }
    }
}
