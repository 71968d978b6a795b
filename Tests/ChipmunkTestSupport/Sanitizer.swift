#if canImport(Glibc)
    import Glibc
#endif

/// Which sanitizer this test binary was built with, if any: its runtime's entry point is
/// linked in. Exit tests that run each case alone in a child process skip themselves under
/// ThreadSanitizer, which adds minutes to each child.
package enum Sanitizer {
    /// `thread`, `address`, or nil for a plain build.
    package static let active: String? = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(handle) }
        if dlsym(handle, "__tsan_init") != nil { return "thread" }
        if dlsym(handle, "__asan_init") != nil { return "address" }
        return nil
    }()

    /// Whether the case at `row` and `column` of an extremes table (a number's position
    /// and a value, or a parameter and a value) runs in this build. The plain build runs
    /// every case and is where aborts, traps and NaN are found; under AddressSanitizer,
    /// three to four times slower, these tables took over a third of the sanitizer run's
    /// CPU time (SceneExtremesTests 215 s, AcceptedExtremesTests 134 s), so there each row
    /// takes every third value, shifted by one from row to row: every row and every value
    /// still meets ASan.
    package static func runs(row: Int, column: Int) -> Bool {
        active != "address" || (row + column) % 3 == 0
    }
}
