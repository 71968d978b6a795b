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
}
