/// Stops the program with `message` unless `condition` holds: the check behind every rule
/// the package enforces on values written in code.
///
/// It is `precondition` with one difference that matters to users, who build physics in
/// release: with `-O` a failed `precondition` prints only "precondition failure" (and
/// nothing at all with `SWIFT_BACKTRACE=enable=no`), while `fatalError` prints its message
/// in every build. The message is built only when the check fails.
@inline(__always)
package func ensure(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if _slowPath(!condition()) { stop(message(), file: file, line: line) }
}

/// Stops the program with `message`, in debug and release builds alike (see ``ensure(_:_:file:line:)``).
@inline(never)
package func stop(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
