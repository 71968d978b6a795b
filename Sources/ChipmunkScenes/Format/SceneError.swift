/// Why a scene could not be read or built: where, and what was wrong.
///
/// The description is one line: `crates.json: bodies[2].mass: must be positive and finite (got -1.0)`.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or scene name.
    public var source: String
    /// The path inside the scene, such as `bodies[2].shapes[0].friction`; empty for the whole file.
    public var location: String
    /// What was wrong.
    public var reason: String

    /// Creates an error.
    public init(source: String, location: String = "", reason: String) {
        self.source = source
        self.location = location
        self.reason = reason
    }

    /// `source: location: reason`, on one line; a location of more than 200 characters (a
    /// path through keys that are data, such as a parameter's name) cut, with its size.
    public var description: String {
        location.isEmpty ? "\(source): \(reason)" : "\(source): \(location.excerpt(200)): \(reason)"
    }
}
