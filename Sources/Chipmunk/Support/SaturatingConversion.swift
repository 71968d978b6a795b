extension Int {
    /// `value` rounded toward zero, held to `Int.min...Int.max` (0 for NaN): for counts
    /// computed from data, such as seconds over a time step, where `Int(_:)` traps on a
    /// scene whose time step is 1e-300.
    ///
    /// ```swift
    /// Int(saturating: 10 / 1e-300)  // Int.max
    /// Int(saturating: 1_200.7)      // 1_200
    /// ```
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 0x1p63 {
            self = .max
        } else if value <= -0x1p63 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
