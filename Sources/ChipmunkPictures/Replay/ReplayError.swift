import Chipmunk
import Foundation

/// Why a replay page could not be written.
public struct ReplayError: Error, CustomStringConvertible {
    /// What went wrong, in one line.
    public var description: String
    init(_ description: String) { self.description = description }
}
