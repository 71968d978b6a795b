internal import CChipmunkRuntime

/// What the binding's replacements for two engine functions (`Sources/CChipmunkRuntime`)
/// have seen on the calling thread: narrow-phase tests the engine could not finish, and
/// the engine's warnings, which are kept off stderr (`CHIPMUNK_WARNINGS=1` prints them).
package enum EngineGuard {
    /// Whether the engine's own calls reach the replacements.
    package static var isActive: Bool { ChipmunkEngineGuardIsActive() != 0 }

    /// Pairs of shapes whose narrow phase the engine stopped on (a degenerate Minkowski
    /// difference), answered by the guard instead, on this thread.
    package static var degenerateCollisions: UInt64 { ChipmunkEngineGuardDegenerateCollisions() }

    /// How many warnings the engine gave on this thread.
    package static var warningCount: UInt64 { ChipmunkEngineGuardWarnings() }

    /// The engine's last warning on this thread, or "" if none.
    package static var lastWarning: String { String(cString: ChipmunkEngineGuardLastWarning()) }
}
