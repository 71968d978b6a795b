/// A small seeded random number generator (splitmix64), so that scenes with random
/// placement are the same in every run and on every machine. Chipmunk's demos use
/// `rand()`, whose sequence differs between C libraries; the ports use this instead.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed gives the same sequence.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [0, 1) from the top 53 bits: `Double(next() >> 11) * 0x1p-53`.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
