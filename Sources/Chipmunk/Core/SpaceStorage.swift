internal import CChipmunk

/// Owns the C space. Held by its ``Space`` and by the space's static body, whose memory
/// lies inside the C space, so that neither can outlive the memory it points into.
final class SpaceStorage {
    let handle: UnsafeMutablePointer<cpSpace>

    init() {
        _ = engineBannerSilenced
        handle = cpSpaceNew()
    }

    deinit {
        cpSpaceFree(handle)
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
}
