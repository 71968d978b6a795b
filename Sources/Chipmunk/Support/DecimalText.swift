extension Double {
    /// The value of `text` when it is a decimal number as people and JSON write them
    /// ("0.005", "-2", "1e-3"), else nil. `Double(_:)` also reads hexadecimal ("0x10" is
    /// 16, "0x1p-7" is 1/128), "nan" and "inf", which no one means in a command-line
    /// option, a sweep's values or a golden file's header.
    ///
    /// ```swift
    /// Double(decimal: "1e-3")  // 0.001
    /// Double(decimal: "0x10")  // nil
    /// ```
    package init?(decimal text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.allSatisfy({ "0123456789.eE+-".utf8.contains($0) }),
            let value = Double(String(text))
        else { return nil }
        self = value
    }
}
