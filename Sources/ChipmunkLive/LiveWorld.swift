import Chipmunk
import ChipmunkCatalog
import ChipmunkScenes
import Foundation

/// The served world and its viewers, on one actor: frames go out to every viewer, and each
/// viewer's messages become inputs of the one ``LiveSession``.
///
/// The server's frame loop calls ``tick(seconds:)`` 60 times a second; tests call it with
/// whatever durations they like (the test clock).
package actor LiveWorld {
    /// What goes out to a viewer.
    package enum Outbound: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
        /// Close the socket, saying why.
        case close(String)
    }

    private struct Viewer {
        var outbound: AsyncStream<Outbound>.Continuation
        var seenVersion = -1
        /// Messages in the current second, and when it began.
        var windowStart: ContinuousClock.Instant
        var inWindow = 0
        /// The world's time this viewer's messages may still take (see ``workBudget``), as of
        /// `workNoted` (a reading of `now`).
        var work = LiveWorld.workBudget
        var workNoted: ContinuousClock.Instant
    }

    /// Most messages a viewer may send in one second: the page sends each finger's latest
    /// move once per frame (60 a second), and a touch screen has ten fingers.
    package static let maximumMessagesPerSecond = 1000
    /// Frames a slow viewer may have queued before the oldest are dropped.
    package static let queuedFrames = 8
    /// Most viewers at once.
    package static let maximumViewers = 64
    /// The world's time one viewer's messages may take: 2 s at once, earned back at a
    /// quarter of the time that passes. A restart or a scrub builds the scene again (21 ms
    /// for pyramid-topple), and the messages are handled one after another, so counting them
    /// a second at a time let one viewer send 2,000 restarts and keep the world at step 3
    /// for everyone (a helper's attack): counted by the time they took (the CPU time of
    /// their handling, ``WorkClock``), the 95th closes its socket. Dragging, tilting and the
    /// page's own Restart and Back slider take a fraction of it.
    package static let workBudget = Duration.seconds(2)
    /// How much of the time that passes a viewer earns back for its messages.
    package static let workShare = 0.25

    /// What the message limits read the time from: the continuous clock, or a test's own.
    package typealias Now = @Sendable () -> ContinuousClock.Instant
    /// What a message's handling is charged by, against ``workBudget``: the CPU time of the
    /// thread that handles it (``threadTime``), or a test's own clock. Counted on the wall
    /// clock, the time other programs took on a busy machine was charged too, and the
    /// browser test's flood of moves was closed for its share of the world's time while
    /// CI built beside it.
    package typealias WorkClock = @Sendable () -> Duration

    /// The CPU time the calling thread has taken. A message is handled on the world's
    /// actor without suspending, so two readings around it measure that message's work.
    package static let threadTime: WorkClock = {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    private let session: LiveSession
    private let now: Now
    private let workTime: WorkClock
    private var viewers: [Int: Viewer] = [:]
    private var nextViewer = 1
    private var frameBytes: [UInt8] = []
    /// The scene file served, when it is one: watched for changes.
    private let watchedFile: URL?
    private var watchedDate: Date?
    private var ticks = 0

    /// Serves what `source` names: a built-in scene, a scene file (reloaded when saved) or a
    /// snapshot (`SceneCatalog.scene(opening:)`). A file is named by its full path in the
    /// downloads, which land in another folder.
    package init(
        source: String, limits: LiveSession.Limits = .init(), now: @escaping Now = { .now },
        workTime: @escaping WorkClock = threadTime
    ) throws {
        let source = Self.fullPath(source)
        try self.init(
            source: source, limits: limits, watching: Self.watchable(source), now: now, workTime: workTime,
            makeScene: Self.builder(source))
    }

    /// What builds the scene `source` names, read once: a scene file's description, or a
    /// snapshot file's bytes. Restart and the Back slider build the scene again from it; they
    /// had read the file again, so after a bad save or a deletion every scrub failed with
    /// the file's error while the last good world went on (a helper's attack).
    static func builder(_ source: String) throws -> @Sendable () throws -> Scene {
        guard !SceneCatalog.builtIn.contains(where: { $0.name == source }),
            FileManager.default.fileExists(atPath: source)
        else { return { try SceneCatalog.scene(opening: source) } }
        let url = URL(fileURLWithPath: source)
        if SceneCatalog.isSnapshotFile(source) {
            // The snapshot's own scene is read once too (a served snapshot's Restart and scrubs
            // read its scene file again: a second helper's attack); a bare space's snapshot
            // is its own scene.
            let snapshot = try SceneCatalog.loadSnapshot(contentsOf: url)
            let name = snapshot.scene.name
            let scene: @Sendable () throws -> Scene
            if name.isEmpty {
                scene = { try SceneCatalog.scene(restoring: snapshot) }
            } else {
                scene = try builder(SceneCatalog.reference(name, besides: url.deletingLastPathComponent()))
            }
            return {
                do {
                    let built = try scene()
                    if !name.isEmpty { try built.restore(snapshot) }
                    return built
                } catch let error as SnapshotError {
                    throw SceneError(source: source, reason: "\(error)")  // as scene(opening:) says it
                }
            }
        }
        let description: SceneDescription
        do {
            description = try SceneDescription.load(contentsOf: url)
        } catch {
            _ = try SceneCatalog.scene(named: source)  // its error names another tool's file for what it is
            throw error
        }
        return { try description.makeScene(source: url.lastPathComponent) }
    }

    /// A file's full path; a built-in scene's name as it is. (A recording of `serve my.json`
    /// named `my.json`, which `replay` looked for in the folder it ran in, and beside the
    /// download, but not where the server ran: a helper's attack.)
    static func fullPath(_ source: String) -> String {
        guard !SceneCatalog.builtIn.contains(where: { $0.name == source }),
            FileManager.default.fileExists(atPath: source)
        else { return source }
        return URL(fileURLWithPath: source).standardizedFileURL.path
    }

    /// Serves the scene `makeScene` builds (a scene written in Swift); `source` names it in
    /// recordings. `now` is where the message limits read the time, and `workTime` what a
    /// message's handling is charged by (tests give clocks of their own, so that no limit
    /// depends on how busy the machine is).
    package init(
        source: String, limits: LiveSession.Limits = .init(), watching file: URL? = nil,
        now: @escaping Now = { .now }, workTime: @escaping WorkClock = threadTime,
        makeScene: @escaping @Sendable () throws -> Scene
    ) throws {
        self.now = now
        self.workTime = workTime
        session = try LiveSession(source: source, limits: limits, makeScene: makeScene)
        watchedFile = file
        watchedDate = file.flatMap { Self.modificationDate($0) }
    }

    /// A scene file's URL, when `source` names one that is not a snapshot.
    static func watchable(_ source: String) -> URL? {
        guard !SceneCatalog.builtIn.contains(where: { $0.name == source }), !SceneCatalog.isSnapshotFile(source),
            FileManager.default.fileExists(atPath: source)
        else { return nil }
        return URL(fileURLWithPath: source)
    }

    private static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    // MARK: Viewers

    /// A new viewer: its number and what to send it.
    package func join() -> (id: Int, outbound: AsyncStream<Outbound>)? {
        guard viewers.count < Self.maximumViewers else { return nil }
        let id = nextViewer
        nextViewer += 1
        let (stream, continuation) = AsyncStream<Outbound>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.queuedFrames))
        let joined = now()
        viewers[id] = Viewer(outbound: continuation, windowStart: joined, workNoted: joined)
        sendScene(to: id)
        return (id, stream)
    }

    /// A viewer left (its tab closed): its hand lets go; nothing else changes.
    package func leave(_ id: Int) {
        guard let viewer = viewers.removeValue(forKey: id) else { return }
        viewer.outbound.finish()
        try? session.release(viewer: id)
    }

    /// How many viewers are connected.
    package var viewerCount: Int { viewers.count }

    private func sendScene(to id: Int) {
        session.noteStructure()
        viewers[id]?.seenVersion = session.structureVersion
        viewers[id]?.outbound.yield(.text(LiveFrames.sceneMessage(session)))
    }

    private func send(_ text: String, to id: Int) {
        viewers[id]?.outbound.yield(.text(text))
    }

    private func broadcast(_ text: String) {
        for viewer in viewers.values { viewer.outbound.yield(.text(text)) }
    }

    /// Closes viewer `id`'s socket with `reason`; the world and the others go on.
    private func refuse(_ id: Int, _ reason: String) {
        guard let viewer = viewers.removeValue(forKey: id) else { return }
        viewer.outbound.yield(.close(reason))
        viewer.outbound.finish()
        try? session.release(viewer: id)
    }

    // MARK: Messages

    /// Handles one text message from viewer `id`. A malformed message, one too many in a
    /// second, or one that leaves the viewer's messages past their share of the world's time
    /// (``workBudget``), closes that viewer's socket with the reason.
    package func receive(_ text: String, from id: Int) {
        guard var viewer = viewers[id] else { return }
        let start = now()
        if start - viewer.windowStart >= .seconds(1) {
            viewer.windowStart = start
            viewer.inWindow = 0
        }
        viewer.inWindow += 1
        viewer.work = min(Self.workBudget, viewer.work + (start - viewer.workNoted) * Self.workShare)
        viewer.workNoted = start
        viewers[id] = viewer
        guard viewer.inWindow <= Self.maximumMessagesPerSecond else {
            return refuse(id, "more than \(Self.maximumMessagesPerSecond) messages in a second")
        }
        let message: LiveMessage
        do {
            message = try LiveMessage(text: text)
        } catch {
            return refuse(id, "\(error)")
        }
        let begun = workTime()
        handle(message, from: id)
        let spent = workTime() - begun
        let done = now()
        guard viewers[id] != nil else { return }
        viewers[id]!.work -= spent
        viewers[id]!.workNoted = done
        if viewers[id]!.work < .zero {
            refuse(
                id,
                "its messages took more of the world's time than its share (a restart builds the scene again, a scrub restores a state and steps again)"
            )
        }
    }

    /// A binary message: the page sends none, so the viewer is refused.
    package func receiveBinary(from id: Int) {
        refuse(id, "\(LiveMessage.Problem.binary)")
    }

    /// What a message does. Inputs the scene refuses are told to the viewer, not fatal.
    package func handle(_ message: LiveMessage, from id: Int) {
        do {
            switch message {
            case .hello: sendScene(to: id)
            case .grab(let point, let finger): try session.grab(viewer: id, finger: finger, at: point)
            case .move(let point, let finger): session.moveHand(viewer: id, finger: finger, to: point)
            case .release(let finger): try session.release(viewer: id, finger: finger)
            case .push(let point, let velocity): try session.push(at: point, velocityChange: velocity)
            case .tilt(let gravity): try session.tilt(gravity: gravity)
            case .pause: session.pause()
            case .resume: session.resume()
            case .step:
                session.pause()
                session.singleStep()
                sendFrames()
            case .speed(let value): session.setSpeed(value)
            case .restart:
                try session.restart()
                sendFrames()
            case .scrub(let step):
                try session.scrub(to: step)
                sendFrames()
            case .inspect(let point): send(LiveFrames.inspection(session, at: point), to: id)
            case .snap(let point):
                switch session.snap(viewer: id, at: point) {
                case .chose(let name): send(LiveFrames.notice("snap", "body \(name) chosen: tap where it goes"), to: id)
                case .snapping: break
                case .nothing: send(LiveFrames.notice("snap", "tap a body first, then where it goes"), to: id)
                }
            }
        } catch {
            send(LiveFrames.notice("error", "\(error)"), to: id)
        }
    }

    // MARK: Frames

    /// One frame: `seconds` of real time pass (the loop measures them), the world steps,
    /// and every viewer gets the frame. Every 30 frames a served scene file is checked for
    /// changes.
    package func tick(seconds: Double) {
        let failed = session.failure
        session.frame(seconds: seconds)
        if failed == nil, let failure = session.failure { broadcast(LiveFrames.notice("failure", failure)) }
        ticks += 1
        if ticks % 30 == 0 { reloadIfChanged() }
        sendFrames()
    }

    private func sendFrames() {
        session.noteStructure()
        for (id, viewer) in viewers {
            if viewer.seenVersion != session.structureVersion { sendScene(to: id) }
            LiveFrames.frame(session, holding: session.holds(viewer: id), into: &frameBytes)
            viewer.outbound.yield(.binary(frameBytes))
        }
    }

    /// Rebuilds the world from the served file when it changed; a file that does not build
    /// leaves the world as it was and tells the viewers why.
    /// A file that went away is told once; the last good scene goes on, and the file is
    /// read again when it comes back.
    private func reloadIfChanged() {
        guard let file = watchedFile else { return }
        guard let date = Self.modificationDate(file) else {
            if watchedDate != nil {
                watchedDate = nil
                broadcast(
                    LiveFrames.notice("error", "\(file.lastPathComponent) is gone (the last good scene goes on)"))
            }
            return
        }
        guard date != watchedDate else { return }
        watchedDate = date
        do {
            try session.restart(with: Self.builder(file.path))
            broadcast(LiveFrames.notice("reloaded", "\(file.lastPathComponent) changed: the scene was built again"))
        } catch {
            // A SceneError names the file already.
            let text = error is SceneError ? "\(error)" : "\(file.lastPathComponent): \(error)"
            broadcast(LiveFrames.notice("error", "\(text) (the last good scene goes on)"))
        }
    }

    // MARK: Downloads and state

    /// The session's recording as JSON (`chipmunk-sim replay` reads it).
    ///
    /// - Throws: `LiveSession.Unrecorded` when it holds no step yet.
    package func recordingJSON() throws(LiveSession.Unrecorded) -> [UInt8] { try session.recordingFile() }

    /// A snapshot of the world now.
    ///
    /// - Throws: `LiveSession.Unsaved` when a step stopped inside the engine.
    package func snapshotBytes() throws(LiveSession.Unsaved) -> [UInt8] { try session.snapshot().bytes }

    /// The world's state as JSON, for tests and scripts: step, gravity, whether paused, the
    /// failure if any, and every body's name, position, angle and velocity.
    package func stateJSON() -> [UInt8] {
        struct BodyState: Encodable {
            var name: String
            var kind: String
            var position: [Double]
            var angle: Double
            var velocity: [Double]
            var sleeping: Bool
        }
        struct State: Encodable {
            var scene: String
            var step: Int
            var paused: Bool
            var speed: Double
            var failure: String?
            var gravity: [Double]
            var viewers: Int
            var recordedSteps: Int
            var recordedInputs: Int
            var scrub: [Int]
            var bodies: [BodyState]
        }
        let scene = session.scene
        let state = State(
            scene: scene.name, step: session.step, paused: session.isPaused, speed: session.speed,
            failure: session.failure, gravity: [scene.space.gravity.x, scene.space.gravity.y], viewers: viewers.count,
            recordedSteps: session.recordedSteps, recordedInputs: session.recordedInputs.count,
            scrub: [session.scrubRange.lowerBound, session.scrubRange.upperBound],
            bodies: scene.space.bodies.map {
                BodyState(
                    name: scene.name(of: $0), kind: "\($0.kind)", position: [$0.position.x, $0.position.y],
                    angle: $0.angle, velocity: [$0.velocity.x, $0.velocity.y], sleeping: $0.isSleeping)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(state))) ?? []
    }

    /// The scene's name.
    package var sceneName: String { session.scene.name }

    /// Runs `body` on the session, on the actor: for tests.
    package func withSession<T: Sendable>(_ body: (LiveSession) throws -> T) rethrows -> T {
        try body(session)
    }
}
