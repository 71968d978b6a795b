extension StringProtocol {
    /// The text as an error message quotes data: whole when it is at most `limit`
    /// characters, else its first `limit` characters, an ellipsis and its size in bytes. A
    /// key or value of a megabyte was echoed whole (twice, for an unknown key: in its path
    /// and in the reason).
    ///
    /// ```swift
    /// String(repeating: "A", count: 1_000_000).excerpt()  // "AAAA…AAAA… (1000000 bytes)"
    /// "speed".excerpt()  // "speed"
    /// ```
    package func excerpt(_ limit: Int = 60) -> String {
        guard count > limit else { return String(self) }
        return "\(prefix(limit))… (\(utf8.count) bytes)"
    }
}
