internal import CChipmunk
internal import CChipmunkRuntime

/// Owns a C space, and the C objects that die while still inside it.
///
/// Held by its ``Space``, by the space's static body (whose memory lies inside the C
/// space), and by every body, shape and constraint while the engine has it in this C
/// space. An object freed while still in the C space (because its space is being torn
/// down) hands its C object here instead of freeing it at once; those are freed right
/// after `cpSpaceFree`, which may still touch them. This keeps dropping a space O(n):
/// only objects that outlive it are taken out one by one.
final class OwnedCSpace {
    let handle: UnsafeMutablePointer<cpSpace>
    /// Whether this is a `cpHastySpace` (the threaded solver).
    let isHasty: Bool
    /// The state the space's callbacks share; reached from bodies, shapes and constraints
    /// through their `cSpace`, without touching the ``Space``.
    let callbacks = CallbackState.make()
    /// What the guarded integrators and spring laws refused in the current step; the C
    /// space's user data points here (see `CChipmunkStepReport`).
    let stepReport: UnsafeMutablePointer<CChipmunkStepReport>
    /// The contacts of pairs left cached beside sleeping bodies, kept out of the engine's
    /// reused contact memory (KeptContacts.c).
    let keptContacts = CChipmunkKeptContactsCreate()
    /// C objects whose Swift owners died while they were still in this C space.
    private var orphans: [(object: UnsafeMutableRawPointer, free: (UnsafeMutableRawPointer) -> Void)] = []

    init(hasty: Bool) {
        Engine.silenceBanner()
        isHasty = hasty
        handle = hasty ? cpHastySpaceNew() : cpSpaceNew()
        stepReport = .allocate(capacity: 1)
        stepReport.initialize(to: CChipmunkStepReport())
        cpSpaceSetUserData(handle, UnsafeMutableRawPointer(stepReport))
    }

    /// Takes a C object to free after the C space.
    func adopt(_ object: UnsafeMutableRawPointer, free: @escaping (UnsafeMutableRawPointer) -> Void) {
        orphans.append((object, free))
    }

    deinit {
        CChipmunkWakeAllBeforeFree(handle)  // frees the contacts copied by sleeping (upstream #227)
        if isHasty { cpHastySpaceFree(handle) } else { cpSpaceFree(handle) }
        for orphan in orphans { orphan.free(orphan.object) }
        CChipmunkKeptContactsDestroy(keptContacts)
        stepReport.deallocate()
        CallbackState.recycle(callbacks)
    }
}

/// What a body, a shape and a constraint share: a C object they own, whose user data
/// points back at them unretained, and the C space the engine has them in.
protocol CObjectOwner: AnyObject {
    associatedtype CObject
    var handle: UnsafeMutablePointer<CObject> { get }
    /// The C space the engine has this object in; it can lag ``SpaceObject/space`` while
    /// changes are deferred.
    var cSpace: OwnedCSpace? { get }
    /// The engine's free function for this kind of object.
    static func freeCObject(_ object: UnsafeMutablePointer<CObject>)
}

extension CObjectOwner {
    /// Frees the C object, or hands it to the C space it is still in (see ``OwnedCSpace``).
    /// Called once, from `deinit`.
    func releaseCObject() {
        guard let cSpace else { return Self.freeCObject(handle) }
        cSpace.adopt(UnsafeMutableRawPointer(handle)) { Self.freeCObject($0.assumingMemoryBound(to: CObject.self)) }
    }

    /// The user-data pointer that leads the engine's callbacks back to this object.
    var unretainedPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The Swift owner that a C object's user data points to.
    @inline(__always)
    static func owner(of userData: UnsafeMutableRawPointer?) -> Self {
        Unmanaged<Self>.fromOpaque(userData!).takeUnretainedValue()
    }
}
