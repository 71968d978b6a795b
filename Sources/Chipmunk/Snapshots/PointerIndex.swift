/// Indices of engine objects by their address, for a capture's thousands of lookups: an
/// open-addressed table with linear probing. `Dictionary` hashes each pointer with SipHash,
/// which took a third of capturing a 210-body pyramid.
struct PointerIndex {
    /// Addresses; 0 marks an empty slot (no object lives at address 0).
    private var keys: [UInt]
    private var values: [Int32]
    /// 64 minus log2 of the table's size: a key's slot is the top bits of its product with
    /// 2^64 / φ (Fibonacci hashing), which spreads addresses that differ only in low bits.
    private var shift: UInt64
    private(set) var count = 0

    /// A table that holds `capacity` entries without growing.
    init(capacity: Int = 0) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    private func slot(of key: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The index stored for `pointer`, or nil.
    subscript(_ pointer: UnsafeRawPointer) -> Int32? {
        let key = UInt(bitPattern: pointer)
        var i = slot(of: key)
        while true {
            let found = keys[i]
            if found == key { return values[i] }
            if found == 0 { return nil }
            i = (i + 1) & (keys.count - 1)
        }
    }

    /// Stores `index` for `pointer`, unless it has one already; returns whether it stored it.
    @discardableResult
    mutating func insert(_ pointer: UnsafeRawPointer, _ index: Int32) -> Bool {
        if 2 * (count + 1) > keys.count { grow() }
        let key = UInt(bitPattern: pointer)
        var i = slot(of: key)
        while keys[i] != 0 {
            if keys[i] == key { return false }
            i = (i + 1) & (keys.count - 1)
        }
        keys[i] = key
        values[i] = index
        count += 1
        return true
    }

    private mutating func grow() {
        let old = (keys, values)
        self = PointerIndex(capacity: keys.count)
        for (key, value) in zip(old.0, old.1) where key != 0 {
            insert(UnsafeRawPointer(bitPattern: key)!, value)
        }
    }
}
