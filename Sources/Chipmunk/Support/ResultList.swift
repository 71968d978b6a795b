/// Collects what a C iteration or query function reports into an array: the one helper
/// behind every `cpSpaceEach…`, `cpBodyEach…` and space query.
///
/// The C callback cannot capture context, so the array travels through the `void *` data
/// argument; `collect` and `append` name the element type on both sides.
///
/// ```swift
/// let shapes = ResultList<Shape>.collect { list in
///     cpSpaceBBQuery(handle, box.cp, filter.cp, { shape, list in
///         ResultList<Shape>.append(Shape.from(shape!), to: list)
///     }, list)
/// }
/// ```
enum ResultList<Element> {
    /// Runs `iterate` with a pointer to an empty array, and returns what was appended to it.
    static func collect(_ iterate: (UnsafeMutableRawPointer) -> Void) -> [Element] {
        var results: [Element] = []
        withUnsafeMutablePointer(to: &results) { iterate(UnsafeMutableRawPointer($0)) }
        return results
    }

    /// Appends to the array that `collect` passed as the C callback's data pointer.
    @inline(__always)
    static func append(_ element: Element, to list: UnsafeMutableRawPointer?) {
        list!.assumingMemoryBound(to: [Element].self).pointee.append(element)
    }
}
