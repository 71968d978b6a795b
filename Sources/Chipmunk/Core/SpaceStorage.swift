internal import CChipmunk

/// Owns the C space, and the C objects that die while still inside it.
///
/// Held by its ``Space``, by the space's static body (whose memory lies inside the C
/// space), and by every body and shape while the engine has it in this C space. A body
/// or shape that is freed while still in the C space (because its space is being torn
/// down) hands its C object here instead of freeing it at once; they are freed right
/// after `cpSpaceFree`, which may still touch them. This keeps dropping a space O(n):
/// only objects that outlive it are taken out one by one.
final class SpaceStorage {
    let handle: UnsafeMutablePointer<cpSpace>
    /// Whether this is a `cpHastySpace` (the threaded solver).
    let isHasty: Bool
    /// The state the space's callbacks share; reached from bodies, shapes and constraints
    /// through their ``Body/engineSpace``, without touching the ``Space``.
    let callbacks = CallbackState()
    private var orphanShapes: [UnsafeMutablePointer<cpShape>] = []
    private var orphanBodies: [UnsafeMutablePointer<cpBody>] = []
    private var orphanConstraints: [UnsafeMutablePointer<cpConstraint>] = []

    init(hasty: Bool) {
        _ = engineBannerSilenced
        isHasty = hasty
        handle = hasty ? cpHastySpaceNew() : cpSpaceNew()
    }

    func adopt(_ shape: UnsafeMutablePointer<cpShape>) { orphanShapes.append(shape) }
    func adopt(_ body: UnsafeMutablePointer<cpBody>) { orphanBodies.append(body) }
    func adopt(_ constraint: UnsafeMutablePointer<cpConstraint>) { orphanConstraints.append(constraint) }

    deinit {
        if isHasty { cpHastySpaceFree(handle) } else { cpSpaceFree(handle) }
        for constraint in orphanConstraints { cpConstraintFree(constraint) }
        for shape in orphanShapes { cpShapeFree(shape) }
        for body in orphanBodies { cpBodyFree(body) }
    }
}

/// Debian's debug build prints a banner on stdout from the first `cpSpaceNew` in a process.
/// Making that first space with stdout silenced keeps data written to stdout clean.
/// A global `let` is initialised once, thread-safely, on first use.
private let engineBannerSilenced: Void = {
    cpSpaceFree(CChipmunkSpaceNewQuietly())
}()

/// Facts about the engine this binding is linked against.
public enum Engine {
    /// The engine's version, such as "7.0.3". The corresponding C variable is `cpVersionString`.
    public static var version: String { String(cString: CChipmunkVersionString()) }

    /// Makes sure Debian's debug banner ("Initializing cpSpace …") has been printed to
    /// nowhere. The first ``Space`` does this by itself; call this first if C code of your
    /// own creates a space before any ``Space`` exists and stdout carries data.
    public static func silenceBanner() {
        _ = engineBannerSilenced
    }
}
