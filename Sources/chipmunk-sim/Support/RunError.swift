/// A run that stopped part way; the message says where.
struct RunError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
