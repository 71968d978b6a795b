import Foundation

/// The flag earlier versions needed for snapshots that continue exactly.
enum CanonicalBroadPhase {
    static let ignored =
        "note: --canonical-broad-phase is ignored: snapshots hold the broad phase's history, and a restored run "
        + "continues with the uninterrupted run's bits without it\n"
}
