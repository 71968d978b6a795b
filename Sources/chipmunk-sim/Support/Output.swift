import SystemPackage

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Where the tool's bytes go. Every write is checked: a full disk, a closed pipe or a
/// missing folder is an error that names the file, never a crash (Foundation's
/// `FileHandle.write` traps on a failed write, and `Data.write(options: .atomic)` would
/// replace `/dev/stdout` or a named pipe with a plain file).
enum Output {
    /// A write that failed; the message names what was being written.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes to standard output.
    static func standardOutput(_ text: String) throws {
        try standardOutput(Array(text.utf8))
    }

    /// Writes to standard output.
    static func standardOutput(_ bytes: [UInt8]) throws {
        do {
            _ = try FileDescriptor.standardOutput.writeAll(bytes)
        } catch {
            throw Failure(description: "cannot write standard output: \(error)")
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
    static func file(_ bytes: [UInt8], to path: String, option: String) throws {
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
            throw Failure(description: "cannot write \(option) \(path): \(describe(error, path: path))")
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

    /// `No such file or directory` says little when the file is being created: name the folder.
    private static func describe(_ error: any Error, path: String) -> String {
        guard let errno = error as? Errno else { return "\(error)" }
        if errno == .noSuchFileOrDirectory {
            let folder = FilePath(path).removingLastComponent()
            return "no folder \(folder.isEmpty ? "." : folder.string)"
        }
        return "\(errno)"
    }

    /// Checks that everything `print` wrote reached standard output; called once at exit.
    static func flushStandardOutput() throws {
        if fflush(stdout) != 0 || ferror(stdout) != 0 {
            throw Failure(description: "cannot write standard output: \(Errno(rawValue: errno))")
        }
    }
}
