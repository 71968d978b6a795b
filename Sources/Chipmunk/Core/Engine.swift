internal import CChipmunk
internal import CChipmunkRuntime

/// The engine this binding is linked against.
package enum Engine {
    /// The engine's version, such as "7.0.3".
    ///
    /// The corresponding C variable is `cpVersionString`.
    package static var version: String { String(cString: CChipmunkVersionString()) }

    /// The GNU build id of the engine library this process loaded, in hex (40 digits for
    /// Debian's builds), or "unknown". Builds of one version for other CPUs, or with other
    /// compiler flags, differ here: golden files record it.
    package static let buildID: String = {
        var bytes = [UInt8](repeating: 0, count: 64)
        let length = CChipmunkEngineBuildID(&bytes, bytes.count)
        guard length > 0 else { return "unknown" }
        return bytes.prefix(length).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }()

    /// This binding's version, as golden files record it: it changes with every release
    /// that can change a simulation's bits.
    package static let bindingVersion = "0.10.0"

    /// The CPU architecture this build runs on, as golden files and snapshots name it.
    package static var architecture: String {
        #if arch(x86_64)
            return "x86_64"
        #elseif arch(arm64)
            return "arm64"
        #else
            return "other"
        #endif
    }

    /// C bodies, shapes and constraints alive now, in every space and outside any (see
    /// `StructSlab`): 0 once all are freed.
    package static var liveCObjects: Int { StructSlab.liveObjects }

    /// How many of the C bodies, shapes and constraints that `body` made on the calling
    /// thread are still alive when it returns; unlike ``liveCObjects``, not moved by other
    /// threads' objects (tests run in parallel). `body` must not suspend.
    package static func liveCObjects(leftBy body: () throws -> Void) rethrows -> Int {
        try SlabArena.objectsLeftAlive(by: body)
    }

    /// Makes sure Debian's debug banner ("Initializing cpSpace …") has been printed to
    /// nowhere. Every ``Space`` calls this before it makes its C space; tools in this
    /// package that make C spaces of their own call it first too.
    package static func silenceBanner() { _ = bannerSilenced }

    /// Debian's debug build prints a banner on stdout from the first `cpSpaceNew` in a
    /// process; making that first space with stdout silenced keeps data on stdout clean.
    /// A global `let` is initialised once, thread-safely, on first use.
    private static let bannerSilenced: Void = { cpSpaceFree(CChipmunkSpaceNewQuietly()) }()
}
