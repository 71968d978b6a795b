internal import CZlib

/// zlib's deflate (RFC 1950 framing), which browsers undo with
/// `new DecompressionStream("deflate")`.
enum Deflate {
    static func compress(_ input: [UInt8]) throws(ReplayError) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                compress2(out.baseAddress, &length, source.baseAddress, uLong(source.count), Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw .deflateFailed(status: status) }
        return Array(output.prefix(Int(length)))
    }
}
