import Chipmunk
import Foundation

/// Zigzag LEB128: small numbers of either sign in one byte.
struct VarintWriter {
    var bytes: [UInt8] = []

    mutating func append(_ value: Int64) {
        var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while zigzag >= 0x80 {
            bytes.append(UInt8(zigzag & 0x7f) | 0x80)
            zigzag >>= 7
        }
        bytes.append(UInt8(zigzag))
    }
}
