import Chipmunk
import Foundation

/// How trajectories are written.
public enum TrajectoryFormat: String, CaseIterable, Sendable {
    /// `step,body,x,y,angle,vx,vy,w`, one row per dynamic body per recorded step.
    case csv
    /// One JSON object per recorded step: `{"step":1,"bodies":[{"body":0,"x":…},…]}`.
    case jsonl
}

/// Writes the state of a space's dynamic bodies after chosen steps.
///
/// Steps are numbered from 1 (the state after the first step). Bodies are numbered from 0
/// in the order they were added, counting dynamic bodies only. Numbers are in Swift's
/// shortest round-trip form, so parsing them gives back the exact `Double`s.
///
/// Output is buffered and handed to `output` in 64 KiB chunks; call ``finish()`` at the
/// end, and it is also safe to call after an error, so that what was computed is not lost.
/// The writer owns no file: whoever made it writes the bytes (`chipmunk-sim` to a file
/// descriptor, a test to an array).
public struct TrajectoryWriter {
    /// The output format.
    public let format: TrajectoryFormat
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private var buffer = ""
    /// Each body name as a JSON string, quoted once by `JSONEncoder` and then reused. (The
    /// lines themselves are written as text: their keys keep their order, which
    /// JSONEncoder on Linux does not, and a step costs no encoder.)
    private var quotedNames: [String: String] = [:]
    private static let nameEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// Whether each row (CSV) or line (JSONL) also carries the step's `Space.stateHash()`,
    /// as 16 hexadecimal digits.
    public let includesStateHash: Bool

    /// The CSV header.
    public static let csvHeader = "step,body,x,y,angle,vx,vy,w"

    /// Hands what it writes to `output`, which writes all of the bytes or throws; what it
    /// throws becomes a ``WriteError`` whose reason is the error's description.
    ///
    /// With `includesStateHash`, CSV gains a last column `hash` and JSONL a field `"hash"`.
    public init(
        format: TrajectoryFormat, includesStateHash: Bool = false,
        output: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.format = format
        self.output = output
        self.includesStateHash = includesStateHash
        buffer.reserveCapacity(1 << 16)
        if format == .csv { buffer += Self.csvHeader + (includesStateHash ? ",hash\n" : "\n") }
    }

    /// Appends the state of every dynamic body of `space` after step `step`.
    /// Records a step: every dynamic body (and kinematic ones with `includingKinematic`).
    ///
    /// Bodies are named by `names` (a version-2 scene's ids, or indices in the file),
    /// quoted in JSONL; without names they are numbered from 0, counting only the bodies
    /// written, as version-1 output always has been.
    public mutating func record(
        step: Int, space: Space, names: [ObjectIdentifier: String]? = nil, includingKinematic: Bool = false
    ) throws(WriteError) {
        var index = 0
        let hash = includesStateHash ? space.stateHash().hexDigits : ""
        func label(_ body: Body) -> String {
            guard let names else { return String(index) }
            let name = names[ObjectIdentifier(body)] ?? "?"
            return format == .csv ? Self.csvField(name) : quoted(name)
        }
        func written(_ body: Body) -> Bool { body.kind == .dynamic || (includingKinematic && body.kind == .kinematic) }
        switch format {
        case .csv:
            for body in space.bodies where written(body) {
                let p = body.position
                let v = body.velocity
                buffer += "\(step),\(label(body)),\(p.x),\(p.y),\(body.angle),\(v.x),\(v.y),\(body.angularVelocity)"
                buffer += includesStateHash ? ",\(hash)\n" : "\n"
                index += 1
            }
        case .jsonl:
            buffer += "{\"step\":\(step),"
            if includesStateHash { buffer += "\"hash\":\"\(hash)\"," }
            buffer += "\"bodies\":["
            for body in space.bodies where written(body) {
                let p = body.position
                let v = body.velocity
                if index > 0 { buffer += "," }
                buffer += "{\"body\":\(label(body)),\"x\":\(p.x),\"y\":\(p.y),\"angle\":\(body.angle),"
                buffer += "\"vx\":\(v.x),\"vy\":\(v.y),\"w\":\(body.angularVelocity)}"
                index += 1
            }
            buffer += "]}\n"
        }
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// A CSV field, quoted when it holds a comma, a quote or a newline.
    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// `name` as a JSON string: `JSONEncoder`'s quoting, once per name.
    private mutating func quoted(_ name: String) -> String {
        if let quoted = quotedNames[name] { return quoted }
        let quoted = (try? Self.nameEncoder.encode(name)).map { String(decoding: $0, as: UTF8.self) } ?? "\"?\""
        quotedNames[name] = quoted
        return quoted
    }

    /// Hands what is buffered to the output now.
    ///
    /// - Throws: ``WriteError`` when the output throws; the buffer is emptied either way.
    public mutating func flush() throws(WriteError) {
        guard !buffer.isEmpty else { return }
        let failure: (any Error)? = buffer.withUTF8 { bytes in
            do {
                try output(UnsafeRawBufferPointer(bytes))
                return nil
            } catch {
                return error
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw WriteError(reason: "\(failure)") }
    }

    /// Writes out what is buffered. Safe to call after an error, to keep what was computed.
    public mutating func finish() throws(WriteError) {
        try flush()
    }

    /// Output could not be written (a full disk, a closed pipe).
    public struct WriteError: Error, CustomStringConvertible {
        /// What the system said, such as "No space left on device".
        public var reason: String
        /// One line: `cannot write the output: reason`.
        public var description: String { "cannot write the output: \(reason)" }
    }
}
