extension UInt64 {
    /// The value as 16 hexadecimal digits, most significant first: how state hashes and
    /// benchmark hashes are written.
    package var hexDigits: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
