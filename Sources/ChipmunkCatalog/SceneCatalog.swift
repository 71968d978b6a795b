import Chipmunk
import ChipmunkScenes
import Foundation

/// The scenes `chipmunk-sim` knows by name, and how to open a scene file.
public enum SceneCatalog {
    /// A scene that can be built by name.
    public struct Entry: Sendable {
        /// The name `chipmunk-sim run` takes.
        public let name: String
        /// One line on what the scene shows.
        public let summary: String
        /// Builds a new copy of the scene.
        public let make: @Sendable () -> Scene
    }

    /// Every built-in scene, in the order `chipmunk-sim list` shows them.
    public static let builtIn: [Entry] = [
        Entry(
            name: "crate", summary: "Listing 11.3: one 100×100 crate falling from (150, 250) under gravity (0, -1000)",
            make: BookScenes.crate),
        Entry(
            name: "crates", summary: "Listing 11.4: five crates falling inside four walls of a 300×300 view",
            make: BookScenes.crates),
        Entry(
            name: "crates-tilt", summary: "The crates with the phone tilted every 2 s, as the accelerometer would",
            make: BookScenes.cratesTilt),
        Entry(
            name: "pyramid-stack", summary: "Chipmunk demo: 105 boxes settle into a pyramid and fall asleep",
            make: Demos.pyramidStack),
        Entry(
            name: "pyramid-topple", summary: "Chipmunk demo: a pyramid of dominoes, pushed once, topples in order",
            make: Demos.pyramidTopple),
        Entry(
            name: "tumble", summary: "Chipmunk demo: a turning kinematic box tumbles the pieces inside it",
            make: { Demos.tumble() }),
        Entry(
            name: "planet",
            summary: "Chipmunk demo: boxes orbit a planet under inverse-square gravity (custom velocity function)",
            make: { Demos.planet() }),
        Entry(
            name: "one-way", summary: "Chipmunk demo: a ball passes up through a one-way platform, then lands on it",
            make: Demos.oneWay),
        Entry(
            name: "joints", summary: "Chipmunk demo: all ten constraint kinds in one gallery, and a car",
            make: Demos.joints),
        Entry(
            name: "theo-jansen", summary: "Chipmunk demo: a motor drives Theo Jansen's walking machine",
            make: Demos.theoJansen),
        Entry(
            name: "chains",
            summary:
                "Chipmunk demo: 8 hanging chains, a ball thrown up into them, and a weight that breaks one chain's links under load",
            make: Demos.chains),
        Entry(
            name: "buoyancy",
            summary: "Chipmunk demo: in a sensor tank of water, a light box floats and a heavy one sinks",
            make: Demos.buoyancy),
        Entry(
            name: "ui-heavy",
            summary: "UIKit Dynamics: a label falls and bounces to rest on the bottom edge; a tap at 3 s flips gravity",
            make: { DynamicsScenes.heavy().scene }),
        Entry(
            name: "ui-drag",
            summary: "UIKit Dynamics: a brick hangs from an attachment whose anchor follows a finger for 3 s",
            make: { DynamicsScenes.drag().scene }),
        Entry(
            name: "ui-snake",
            summary: "UIKit Dynamics: 8 attached bricks led by a non-turning head; bricks dim while touching an edge",
            make: { DynamicsScenes.snake().scene }),
        Entry(
            name: "ui-snap",
            summary: "UIKit Dynamics: a turned square snaps to (200, 300), then at 3 s to (100, 380)",
            make: { DynamicsScenes.snap().scene }),
        Entry(
            name: "ui-push",
            summary:
                "UIKit Dynamics: a continuous push accelerates a box at 100 pt/s²; a tap at 0.5 s pushes another once",
            make: { DynamicsScenes.push().scene }),
    ]

    /// The scene file of a built-in scene, `Scenes/NAME.json` as the repository holds it
    /// (parameters declared), or nil for a name that is not built in or a scene that needs
    /// code (`planet`, `buoyancy`, the UIKit-style scenes). `chipmunk-sim sweep crates`
    /// sweeps it, wherever the binary is.
    public static func sceneFile(named name: String) -> Data? {
        guard builtIn.contains(where: { $0.name == name }) else { return nil }
        return SceneFiles.all["\(name).json"].map { Data($0.utf8) }
    }

    /// The golden file of a built-in scene, `Tests/Golden/NAME.golden` as the repository
    /// held it when this build was made, or nil for a name that is not built in.
    /// `chipmunk-sim verify crates` checks against it, wherever the binary is.
    public static func goldenFile(named name: String) -> String? {
        guard builtIn.contains(where: { $0.name == name }) else { return nil }
        return GoldenFiles.all["\(name).golden"]
    }

    /// Builds a scene from a built-in name or from a JSON file's path.
    ///
    /// A name that is not built in, or any argument with a `/` or ending in `.json`, is
    /// read as a file; `warn` is given each thing reading it noticed but did not refuse
    /// (`SceneDescription.warnings`).
    public static func scene(named nameOrPath: String, warn: (String) -> Void = { _ in }) throws -> Scene {
        if let entry = builtIn.first(where: { $0.name == nameOrPath }) {
            return entry.make()
        }
        let looksLikeFile = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        guard looksLikeFile || FileManager.default.fileExists(atPath: nameOrPath) else {
            let names = builtIn.map(\.name).joined(separator: ", ")
            throw SceneError(
                source: nameOrPath,
                reason: "no built-in scene has this name, and no such file exists (built-in: \(names))")
        }
        let url = URL(fileURLWithPath: nameOrPath)
        let description: SceneDescription
        do {
            description = try SceneDescription.load(contentsOf: url)
        } catch {
            // Another of the tool's files where a scene was expected: say which, and what takes it
            // ("not valid JSON" or "unknown key 'content'" said nothing of the kind).
            if let kind = OtherFileKind(atPath: nameOrPath) {
                throw SceneError(source: nameOrPath, reason: "is \(kind.description), not a scene file")
            }
            throw error
        }
        description.warnings.forEach(warn)
        return try description.makeScene(source: url.lastPathComponent)
    }

    /// The tool's files that are not scene files, told apart by what they hold.
    public enum OtherFileKind: CustomStringConvertible {
        /// A snapshot (`chipmunk-sim snapshot`): its first bytes are `CHIPSNAP`.
        case snapshot
        /// A golden file (`verify --update`): its first line is `chipmunk-golden N`.
        case golden
        /// An input recording (`record`, a live session's download): a JSON object whose
        /// `format` is `chipmunk-inputs N`.
        case recording

        /// The kind of the file at `path`, or nil for any other file.
        public init?(atPath path: String) {
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            self.init(data: data)
        }

        /// The kind of a file holding `data`, or nil for any other file.
        public init?(data: Data) {
            /// A recording's `format`, and whether it has `hashes`, a key no scene file has.
            struct Header: Decodable {
                var format: String?
                var hasHashes: Bool
                enum CodingKeys: String, CodingKey { case format, hashes }
                init(from decoder: any Decoder) throws {
                    let c = try decoder.container(keyedBy: CodingKeys.self)
                    format = try? c.decodeIfPresent(String.self, forKey: .format)
                    hasHashes = c.contains(.hashes)
                }
            }
            if data.starts(with: Data("CHIPSNAP".utf8)) {
                self = .snapshot
            } else if data.starts(with: Data("chipmunk-golden".utf8))
                || data.starts(with: Data("\u{FEFF}chipmunk-golden".utf8))
            {
                self = .golden
            } else if let header = try? JSONDecoder().decode(Header.self, from: data),
                header.format?.hasPrefix("chipmunk-inputs") == true || (header.format == nil && header.hasHashes)
            {
                // Without its format, a recording was read as a scene: "format: missing" is
                // the recording reader's to say.
                self = .recording
            } else {
                return nil
            }
        }

        /// What the file is, and the commands that take it.
        public var description: String {
            switch self {
            case .snapshot: "a snapshot (run, render and synctest continue it)"
            case .golden: "a golden file (verify --golden and diff read it)"
            case .recording: "an input recording (replay, synctest and diff read it)"
            }
        }
    }

    /// What a command line names: a snapshot file (continued from its state), a built-in
    /// name, or a scene file.
    public static func scene(opening argument: String, warn: (String) -> Void = { _ in }) throws -> Scene {
        if isSnapshotFile(argument) {
            let url = URL(fileURLWithPath: argument)
            let snapshot = try loadSnapshot(contentsOf: url)
            do {
                return try scene(restoring: snapshot, besides: url.deletingLastPathComponent(), warn: warn)
            } catch let error as SnapshotError {
                // Read, but not restorable (invalid, another scene's, another engine's layout).
                throw SceneError(source: argument, reason: "\(error)")
            } catch let error as SceneError {
                // The scene it names (a path as it was given when it was taken, or a name)
                // cannot be built: said as the snapshot's, as a recording's scene is.
                throw SceneError(source: argument, reason: "the scene it was taken of cannot be opened: \(error)")
            }
        }
        return try scene(named: argument, warn: warn)
    }

    /// The scene `recording` (read from `url`) names, opened beside it as
    /// ``scene(opening:warn:)`` does; an error names the recording too ("nonexist: no
    /// built-in scene has this name" did not say where the name came from).
    public static func scene(recordedIn recording: InputRecording, at url: URL, warn: (String) -> Void = { _ in })
        throws -> Scene
    {
        let argument = recording.scene(besides: url)
        do {
            return try scene(opening: argument, warn: warn)
        } catch {
            throw SceneError(
                source: url.lastPathComponent,
                reason: "the scene it was recorded on cannot be opened: \(error)")
        }
    }

    /// The scene a snapshot came from, set to the snapshot's state.
    ///
    /// A snapshot made by `Scene.snapshot(reference:)` names its scene: the scene is built
    /// again by ``scene(named:warn:)`` (so its closures are there) and restored with
    /// `Scene.restore(_:)`. A snapshot of a bare space becomes a scene named "snapshot"
    /// around `Space(restoring:)`, at the space's last time step.
    ///
    /// A scene file the snapshot names by a relative path is looked for from the current
    /// folder, then from `folder` (the snapshot file's, as `scene(opening:)` gives it): a
    /// snapshot taken of `scene.json` in one folder continues from any other.
    ///
    /// - Throws: `SceneError` when the named scene cannot be built, `SnapshotError` when
    ///   the snapshot does not fit it.
    public static func scene(
        restoring snapshot: Snapshot, besides folder: URL? = nil, warn: (String) -> Void = { _ in }
    ) throws -> Scene {
        var reference = snapshot.scene.name
        guard !reference.isEmpty else {
            let space = try Space(restoring: snapshot)
            let dt = space.currentTimeStep > 0 ? space.currentTimeStep : 1.0 / 120.0
            return Scene(name: "snapshot", space: space, timeStep: dt)
        }
        // No path is longer, nor holds a line break or NUL: a forged snapshot's 100 KB name
        // was opened, and echoed whole in the error.
        guard reference.utf8.count <= Self.longestPath, !reference.contains(where: { $0.isNewline || $0 == "\0" })
        else {
            throw SceneError(
                source: String(reference.prefix(40)) + "…",
                reason: "a scene name of \(reference.utf8.count) bytes, not a built-in scene's name or a path "
                    + "(at most \(Self.longestPath) bytes, on one line)")
        }
        if let folder { reference = Self.reference(reference, besides: folder) }
        let scene = try Self.scene(named: reference, warn: warn)
        try scene.restore(snapshot)
        return scene
    }

    /// The largest snapshot file read: 2 GiB (a snapshot holds about 1 KB a body).
    public static let largestSnapshot = 2 << 30

    /// The longest path Linux opens (`PATH_MAX`, its NUL included).
    static let longestPath = InputFile.longestPath

    /// The scene a file (a snapshot, a recording) names, as `scene(named:)` takes it: a
    /// built-in name, an absolute path or one from the current folder as it is, and
    /// otherwise the path from `folder`, the naming file's own, if a file is there. A
    /// recording made in one folder replays from any other.
    public static func reference(_ name: String, besides folder: URL) -> String {
        guard !builtIn.contains(where: { $0.name == name }), !name.hasPrefix("/"),
            !FileManager.default.fileExists(atPath: name)
        else { return name }
        let beside = folder.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: beside) ? beside : name
    }

    /// Reads a snapshot file, naming the file in any error.
    public static func loadSnapshot(contentsOf url: URL) throws -> Snapshot {
        let data: Data
        do {
            // Looked at first, as scene files are: a FIFO blocked, and Foundation's reasons
            // ("You don't have permission" for /dev/zero) said nothing true.
            data = try InputFile.read(url.path, kind: "snapshot", maxBytes: Self.largestSnapshot)
        } catch {
            throw SceneError(source: url.path, reason: error.description)
        }
        do {
            return try Snapshot(bytes: [UInt8](data))
        } catch {
            throw SceneError(source: url.path, reason: "\(error)")
        }
    }

    /// Whether a path names a snapshot file: it ends in `.snapshot`, or starts with the magic.
    public static func isSnapshotFile(_ path: String) -> Bool {
        if path.hasSuffix(".snapshot") { return true }
        // Only a regular file is opened: opening a FIFO waits for a writer, and `run`, `serve`
        // (and its watcher, for good) waited. What is not one is refused by the scene reader.
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard
            (try? FileManager.default.attributesOfItem(atPath: resolved)[.type] as? FileAttributeType) == .typeRegular,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 8)) == Data("CHIPSNAP".utf8)
    }
}

extension InputRecording {
    /// The scene this recording names, found from the current folder or beside the
    /// recording at `url` (``SceneCatalog/reference(_:besides:)``). When both folders hold
    /// a file of that name, the one whose content is the recording's wins: scene files are
    /// often named alike (`drop.json`), and a recording kept beside its scene failed from a
    /// folder holding another (a helper's attack).
    public func scene(besides url: URL) -> String {
        let beside = url.deletingLastPathComponent().appendingPathComponent(scene).path
        guard !scene.hasPrefix("/"), !SceneCatalog.builtIn.contains(where: { $0.name == scene }),
            FileManager.default.fileExists(atPath: scene), FileManager.default.fileExists(atPath: beside)
        else { return SceneCatalog.reference(scene, besides: url.deletingLastPathComponent()) }
        for candidate in [scene, beside] {
            if let opened = try? SceneCatalog.scene(named: candidate), opened.contentHash().hexDigits == content {
                return candidate
            }
        }
        return scene
    }
}
