/// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3): the one hash behind
/// ``Space/stateHash()``, a snapshot's trailing checksum, a scene's content hash and a
/// sweep's keys.
///
/// Numbers are mixed in as their little-endian bytes, a `Double` as its IEEE 754 bit
/// pattern, so the same values give the same hash on every machine and in C:
///
/// ```swift
/// var hasher = FNV1a()
/// hasher.mix(1.5)
/// hasher.mix(bytes: Array("crates".utf8))
/// let fingerprint = hasher.value
/// ```
///
/// The byte functions are `@inlinable`, so a caller in another module gets them
/// specialised for its sequence type: unspecialised, the generic loop made the snapshot
/// fuzzer's checksum of a 50 KB snapshot cost milliseconds.
public struct FNV1a: Sendable, Hashable {
    /// The hash so far; `value` reads it.
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of what has been mixed in so far (the offset basis before anything is).
    @inlinable public var value: UInt64 { state }

    /// A hasher that has mixed in nothing.
    @inlinable public init() {}

    /// FNV-1a 64 of `bytes`.
    @inlinable public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.mix(bytes: bytes)
        return hasher.value
    }

    /// Mixes in one byte.
    @inlinable @inline(__always) public mutating func mix(byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// Mixes in bytes, in order.
    @inlinable public mutating func mix(bytes: some Sequence<UInt8>) {
        for byte in bytes { mix(byte: byte) }
    }

    /// Mixes in the eight bytes of `bits`, least significant first.
    @inlinable @inline(__always) public mutating func mix(_ bits: UInt64) {
        var bits = bits
        for _ in 0..<8 {
            mix(byte: UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    /// Mixes in the bit pattern of `value`, least significant byte first.
    @inlinable @inline(__always) public mutating func mix(_ value: Double) { mix(value.bitPattern) }

    /// Mixes in `x`, then `y`.
    public mutating func mix(_ vector: Vector) {
        mix(vector.x)
        mix(vector.y)
    }
}
