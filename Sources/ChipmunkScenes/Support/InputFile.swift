import Foundation

/// Reading a file a person named (a scene, a recording, a golden file, an inputs file):
/// looked at before it is read, so that a directory, a FIFO or /dev/zero is refused with
/// why instead of failing, blocking or never ending, and every refusal says why in words
/// ("cannot read adir" said none of it).
package enum InputFile {
    /// The longest path Linux opens (`PATH_MAX`, its NUL included): the most bytes a scene
    /// name or path in a file (a snapshot, a recording, a golden file, a sweep database) may have.
    package static let longestPath = 4096

    /// Why a file could not be read: one clause, to follow the file's path.
    package struct Problem: Error, CustomStringConvertible {
        /// Such as "is a directory, not a recording".
        package var description: String

        package init(description: String) { self.description = description }
    }

    /// The most bytes read of a recording, a golden file or a list of inputs: 64 MiB. What
    /// writes them checks it too, so that no file is written that cannot be read back.
    package static let largest = 64 << 20

    /// The bytes of the file at `path`, which should be a `kind` (such as "scene file"),
    /// at most `maxBytes` long.
    ///
    /// - Throws: ``Problem``: no such file, a directory, not a regular file, too large, or
    ///   the system's reason it cannot be read.
    package static func read(_ path: String, kind: String, maxBytes: Int = largest) throws(Problem) -> Data {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else {
            throw Problem(description: "no such file")
        }
        let type = attributes[.type] as? FileAttributeType
        if type == .typeDirectory { throw Problem(description: "is a directory, not a \(kind)") }
        if type == .typeSymbolicLink {
            throw Problem(description: "is a symbolic link that leads to no file (a loop of links?), not a \(kind)")
        }
        if type != .typeRegular {
            throw Problem(description: "is not a regular file (a FIFO, device or socket), not a \(kind)")
        }
        if let size = attributes[.size] as? Int, size > maxBytes {
            throw Problem(description: "is \(size) bytes; a \(kind) may be at most \(maxBytes) bytes")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "\(error)"
            throw Problem(description: "cannot be read (\(reason))")
        }
    }
}
