// libFuzzer's driver, shared by the harnesses: each passes its one-input function.
#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer's entry point for programs that have their own `main` (SwiftPM names the
/// executable's entry point itself, so libFuzzer's `main` is not used).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer over `fuzzOne` with the process's arguments, and exits with its status.
public func runFuzzer(_ fuzzOne: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = withUnsafeMutablePointer(to: &argv) { argv in LLVMFuzzerRunDriver(&argc, argv, fuzzOne) }
    exit(status)
}

/// The input as bytes (libFuzzer passes a null pointer for the empty input).
public func inputBytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let data, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: count))
}
