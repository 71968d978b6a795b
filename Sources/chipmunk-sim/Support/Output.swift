import SystemPackage

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Where the tool's bytes go. Every write is checked: a full disk, a closed pipe or a
/// missing folder is an error that names the file, never a crash (Foundation's
/// `FileHandle.write` traps on a failed write, and `Data.write(options: .atomic)` would
/// replace `/dev/stdout` or a named pipe with a plain file).
enum Output {
    /// A write that failed: what was being written, and the system's reason.
    enum Failure: Error, CustomStringConvertible {
        /// Standard output could not be written (a closed pipe, a full disk).
        case standardOutput(Errno)
        /// The file named by `option` (`-o`, `--output`, `--events`) could not be written.
        case file(option: String, path: String, Errno)

        var description: String {
            switch self {
            case .standardOutput(let errno): return "cannot write standard output: \(errno)"
            case .file(let option, let path, let errno):
                // "No such file or directory" says little when the file is being created: name the folder.
                if errno == .noSuchFileOrDirectory {
                    let folder = FilePath(path).removingLastComponent()
                    return "cannot write \(option) \(path): no folder \(folder.isEmpty ? "." : folder.string)"
                }
                return "cannot write \(option) \(path): \(errno)"
            }
        }
    }

    /// Writes to standard output.
    static func standardOutput(_ text: String) throws(Failure) {
        try standardOutput(Array(text.utf8))
    }

    /// Writes to standard output.
    static func standardOutput(_ bytes: [UInt8]) throws(Failure) {
        do {
            _ = try FileDescriptor.standardOutput.writeAll(bytes)
        } catch {
            throw .standardOutput(error as? Errno ?? .ioError)
        }
    }

    /// A line of progress or a report on standard error. Best effort: a closed stderr loses
    /// the message, nothing else.
    static func note(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(Array(text.utf8))
    }

    /// A warning from reading a scene (`SceneDescription.warnings`), as a
    /// line on standard error.
    static func warning(_ text: String) {
        note("chipmunk-sim: warning: \(text)\n")
    }

    /// Writes a whole file, named by `option` in errors (`-o`, `--output`, `--events`).
    /// `-` is standard output. A link, a device or a pipe (`/dev/stdout`, a FIFO) is written
    /// in place, through the link; a plain file is written to a temporary file beside it and
    /// renamed over it, so that a failed write leaves the old file, or none, never half of
    /// the new one.
    static func file(_ bytes: [UInt8], to path: String, option: String) throws(Failure) {
        if path == "-" { return try standardOutput(bytes) }
        do {
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                let target = try FileDescriptor.open(
                    FilePath(path), .writeOnly, options: [.create, .truncate],
                    permissions: [.ownerReadWrite, .groupRead, .otherRead])
                try target.closeAfter { _ = try target.writeAll(bytes) }
                return
            }
            try writeAtomically(bytes, to: FilePath(path))
        } catch {
            throw .file(option: option, path: path, error as? Errno ?? .ioError)
        }
    }

    private static func writeAtomically(_ bytes: [UInt8], to path: FilePath) throws {
        let temporary = path.removingLastComponent()
            .appending(".\(path.lastComponent?.string ?? "output").\(getpid()).tmp")
        let descriptor = try FileDescriptor.open(
            temporary, .writeOnly, options: [.create, .truncate, .exclusiveCreate],
            permissions: [.ownerReadWrite, .groupRead, .otherRead])
        do {
            try descriptor.closeAfter { _ = try descriptor.writeAll(bytes) }
            guard rename(temporary.string, path.string) == 0 else { throw Errno(rawValue: errno) }
        } catch {
            unlink(temporary.string)
            throw error
        }
    }

    /// Checks that everything `print` wrote reached standard output; called once at exit.
    static func flushStandardOutput() throws(Failure) {
        if fflush(stdout) != 0 || ferror(stdout) != 0 {
            throw .standardOutput(Errno(rawValue: errno))
        }
    }
}
