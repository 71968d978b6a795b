extension Space {
    /// A 64-bit fingerprint of the simulation's state, for determinism tests: equal states
    /// give equal hashes, in every run and process, and the raw C engine driven the same
    /// way gives the same one.
    ///
    /// It is ``FNV1a`` 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over the
    /// bytes of six doubles per body, for every body of ``bodies`` in that order (the
    /// space's static body is not among them): position x, position y, angle, velocity x,
    /// velocity y, angular velocity. Each double is taken as its IEEE 754 bit pattern, least
    /// significant byte first. In C:
    ///
    /// ```c
    /// uint64_t hash = 0xcbf29ce484222325;
    /// for (each body, in the order added) {
    ///     double values[6] = {p.x, p.y, angle, v.x, v.y, w};
    ///     for (int k = 0; k < 6; k++) {
    ///         uint64_t bits; memcpy(&bits, &values[k], 8);
    ///         for (int i = 0; i < 8; i++) { hash ^= (bits >> (8 * i)) & 0xff; hash *= 0x100000001b3; }
    ///     }
    /// }
    /// ```
    ///
    /// It reads each body's state directly and allocates nothing: cheap enough to call
    /// after every step.
    public func stateHash() -> UInt64 {
        var hasher = FNV1a()
        for body in bodies {
            let state = body.handle.pointee
            hasher.mix(state.p.x)
            hasher.mix(state.p.y)
            hasher.mix(state.a)
            hasher.mix(state.v.x)
            hasher.mix(state.v.y)
            hasher.mix(state.w)
        }
        return hasher.value
    }
}
