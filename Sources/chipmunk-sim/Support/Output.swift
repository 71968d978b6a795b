import ArgumentParser
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
        /// `option` was given an empty path ("cannot write -o : no folder ." said before).
        case emptyPath(option: String)

        var description: String {
            switch self {
            case .standardOutput(let errno): return "cannot write standard output: \(errno)"
            case .emptyPath(let option): return "\(option) is empty: give a file, or - for standard output"
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
        if path.isEmpty { throw .emptyPath(option: option) }
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

    /// Refuses, before any work, a `path` that ``file(_:to:option:)`` could not write when
    /// the work is done: a directory, or a file in a folder that does not exist. (`run
    /// --events adir` ran the whole scene, printed its CSV and only then failed.)
    static func checkWritable(_ path: String, option: String) throws(Failure) {
        guard path != "-", !path.isEmpty else { return }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .file(option: option, path: path, .isDirectory)
        }
        let folder = FilePath(path).removingLastComponent()
        if !folder.isEmpty, stat(folder.string, &status) != 0 || status.st_mode & S_IFMT != S_IFDIR {
            throw .file(option: option, path: path, .noSuchFileOrDirectory)
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

    /// A one-line summary of what a command wrote to a file, on standard error: standard
    /// output carries data and verdicts only, whatever -o is (summaries went to stdout for
    /// record, verify --update and diff, to stderr for snapshot, sweep and merge, and
    /// nowhere for run, render and results).
    static func summary(_ text: String) { note(text + "\n") }

    /// Refuses to write `path` (named by `option`, as `-o`) when it is one of the files the
    /// command reads (`inputs`: what each is, such as "the scene file", and its path), or
    /// the same file twice: the output would replace what is being read. Paths are
    /// compared as files (device and inode), so `./a.json` and `a.json` are one; a file
    /// that does not exist yet is no input.
    static func refuseOverwriting(
        _ path: String, option: String, inputs: [(what: String, path: String?)]
    ) throws(ValidationError) {
        guard path != "-" else { return }
        for input in inputs {
            guard let other = input.path, other != "-", sameFile(path, other) else { continue }
            throw ValidationError("\(option) \(path) is \(input.what); choose another file")
        }
    }

    /// Whether two paths name one file: the same device and inode, or, for a file not made
    /// yet, the same absolute path.
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        if let first = identity(of: a), let second = identity(of: b) { return first == second }
        return absolute(a) == absolute(b)
    }

    /// A path made absolute from the working folder, with `.` and `..` resolved lexically.
    private static func absolute(_ path: String) -> FilePath {
        let filePath = FilePath(path)
        if filePath.isAbsolute { return filePath.lexicallyNormalized() }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return filePath.lexicallyNormalized() }
        let folder = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return FilePath(folder).pushing(filePath).lexicallyNormalized()
    }

    /// A file's device and inode; nil for a path that names no file.
    private static func identity(of path: String) -> [UInt64]? {
        var status = stat()
        guard !path.isEmpty, stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// Checks that everything `print` wrote reached standard output; called once at exit.
    static func flushStandardOutput() throws(Failure) {
        if fflush(stdout) != 0 || ferror(stdout) != 0 {
            throw .standardOutput(Errno(rawValue: errno))
        }
    }
}
