/// Why a replay page could not be written.
public enum ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The page's header (its bodies, shapes and view) could not be encoded as JSON.
    case headerNotEncodable
    /// zlib's deflate failed, with its status (it does only when memory runs out).
    case deflateFailed(status: Int32)

    /// What went wrong, in one line.
    public var description: String {
        switch self {
        case .headerNotEncodable: "the header could not be encoded"
        case .deflateFailed(let status): "zlib could not deflate the trajectories (status \(status))"
        }
    }
}
