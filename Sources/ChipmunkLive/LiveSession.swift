import Chipmunk
import ChipmunkCatalog
import ChipmunkDynamics
import ChipmunkScenes
import Foundation

/// One served scene's authoritative world: the scene, the book's fixed-step loop, the
/// hands that hold bodies, the recording of every input, and a ring of saved states to
/// scrub back over.
///
/// Everything a viewer does becomes a ``SceneInput`` applied before a step and logged in
/// ``recording`` at that step, so a session replays bit for bit (`chipmunk-sim replay`).
/// A session is not thread-safe: ``LiveWorld`` owns one and calls it from one actor; tests
/// call it directly, with frames of any duration instead of a clock.
package final class LiveSession {
    /// How much a session keeps.
    package struct Limits: Sendable {
        /// Seconds of scene time the ring of saved states reaches back.
        package var scrubSeconds = 10.0
        /// Steps between two states of the ring.
        package var stateEvery = 12
        /// Every how many of the ring's states a snapshot is kept too: what a scrub restores
        /// into the scene built again when the world cannot be restored into (a step stopped
        /// inside the engine, ``Space/isStoppedByContactPairs``).
        package var snapshotEveryStates = 10
        /// The ring's memory at most (states' buffers as allocated, and snapshots): older
        /// ones go first.
        package var ringBytes = 64 << 20
        /// Steps a recording holds at most (about 2.3 hours at 120 Hz); after that the
        /// world goes on and the recording keeps its first steps.
        package var recordedSteps = 1_000_000
        /// Inputs a recording holds at most (a hand's velocity every step of 1,000,000 is
        /// as many); after that, as after ``recordedSteps``, the recording keeps the steps it
        /// has. Four viewers flicking a paused world 390 times a second each logged 31,200
        /// inputs in 20 s at one step, and nothing else bounded them (a helper's attack).
        package var recordedInputs = 1_000_000

        package init() {}
    }

    /// A viewer's hold on a body: the hand body's name and where the pointer is.
    struct Hand {
        var name: String
        var target: Vector
    }

    /// A body pulled to a point and turned upright, as `UISnapBehavior` snaps a view (see
    /// ``snap(viewer:at:)``).
    struct Snap {
        var body: String
        var target: Vector
        /// The last step it pulls at: a body that cannot reach its point (a wall, a pile in the
        /// way) is let go.
        var until: Int
    }

    /// What a tap in Snap mode did.
    package enum SnapOutcome: Equatable, Sendable {
        /// The tap was on a body: that body snaps at the viewer's next tap.
        case chose(String)
        /// The viewer's chosen body snaps to the tap.
        case snapping(String)
        /// No body there, and none chosen.
        case nothing
    }

    /// Whose hand: a viewer's finger (0 to 9, ``LiveMessage/fingers``; a mouse is finger 0).
    struct HandOwner: Hashable {
        var viewer: Int
        var finger: Int
    }

    /// How the scene is found again: a built-in name, a scene file's path, or a snapshot's
    /// (the recording names it, for `chipmunk-sim replay`).
    package let source: String
    /// What the Snapshot link's snapshots name as their scene (`SceneCatalog.scene(restoring:)`
    /// builds it again): the source, or, when the source is a snapshot file, the scene that
    /// snapshot names (a snapshot cannot be a snapshot's scene).
    package let snapshotReference: String
    private var makeScene: () throws -> Scene
    package private(set) var scene: Scene
    package let limits: Limits
    private var stepper: FixedStepper
    /// Every input and the state hash after every step since the scene was (re)built, or,
    /// after a scrub, along the branch taken.
    /// (Built when asked for: the session keeps the hashes as numbers, 8 bytes a step.)
    package var recording: InputRecording {
        var recording = log
        recording.hashes = hashes.map(\.hexDigits)
        return recording
    }
    /// The recording without its hashes, which ``hashes`` holds.
    private var log: InputRecording
    /// The state hash after every recorded step.
    private var hashes: [UInt64] = []
    /// Steps recorded so far.
    package var recordedSteps: Int { hashes.count }
    /// Inputs recorded so far.
    package var recordedInputs: [InputRecording.Entry] { log.inputs }
    package private(set) var isPaused = false
    /// Gravity when the scene was built: what the page's ↓ key sets again, and the strength a
    /// phone's tilt turns.
    package private(set) var initialGravity = Vector.zero
    /// Simulated seconds per real second: ¼ to 4.
    package private(set) var speed = 1.0
    /// Why the world stopped: a step threw (it diverged). Restart or scrub back.
    package private(set) var failure: String?
    /// The states and snapshots a scrub goes back to.
    private(set) var ring: ScrubRing
    private var hands: [HandOwner: Hand] = [:]
    /// Each viewer's body chosen for Snap mode, and its snap while one runs.
    private var snapChoices: [Int: String] = [:]
    private var snaps: [Int: Snap] = [:]
    private var nextHand = 1
    /// Hands that hold a body in a restored world but belong to no viewer: they let go at
    /// the next step.
    private var strayHands: [String] = []
    /// After a scrub back, the recorded steps the world is at: the recording, the hashes and
    /// the ring still hold what came after, so that scrubbing forward again takes the same
    /// steps, until the world changes or steps on from here (``branchIfScrubbedBack()``).
    private var scrubbedBackTo: Int?
    /// Changes whenever bodies or shapes may have come or gone: viewers ask for the
    /// scene's description again.
    package private(set) var structureVersion = 0
    private var structureSignature = 0

    /// The speeds a viewer can choose.
    package static let speeds: ClosedRange<Double> = 0.25...4

    /// Builds the scene with `makeScene` and starts at step 0, running.
    package init(source: String, limits: Limits = Limits(), makeScene: @escaping () throws -> Scene) throws {
        self.source = source
        snapshotReference = Self.snapshotReference(source)
        self.limits = limits
        self.makeScene = makeScene
        ring = ScrubRing(limits: limits)
        scene = try makeScene()
        stepper = FixedStepper()
        log = InputRecording(scene: source, content: "", timeStep: scene.timeStep)
        begin(scene)
    }

    /// The scene a served snapshot file names, found as `SceneCatalog.scene(opening:)`
    /// finds it (beside the snapshot); `source` itself when it is no snapshot file.
    private static func snapshotReference(_ source: String) -> String {
        guard SceneCatalog.isSnapshotFile(source),
            let snapshot = try? SceneCatalog.loadSnapshot(contentsOf: URL(fileURLWithPath: source))
        else { return source }
        let name = snapshot.scene.name
        guard !name.isEmpty else { return "" }  // a bare space's snapshot stays one
        let resolved = SceneCatalog.reference(name, besides: URL(fileURLWithPath: source).deletingLastPathComponent())
        // A scene file is named in full: the download lands in another folder.
        guard !SceneCatalog.builtIn.contains(where: { $0.name == resolved }),
            FileManager.default.fileExists(atPath: resolved)
        else { return resolved }
        return URL(fileURLWithPath: resolved).standardizedFileURL.path
    }

    /// Starts from `scene` as built: its clock, an empty recording, a new ring.
    private func begin(_ scene: Scene) {
        self.scene = scene
        initialGravity = scene.space.gravity
        stepper = FixedStepper(timeStep: scene.timeStep, maxStepsPerFrame: Self.maxStepsPerFrame(scene.timeStep))
        log = InputRecording(scene: source, content: scene.contentHash().hexDigits, timeStep: scene.timeStep)
        hashes = []
        baseStep = scene.stepCount
        scrubbedBackTo = nil
        ring.empty()
        ring.keep(scene, reference: source)
    }

    /// 4× speed at 60 Hz frames, with room for one late frame: the spiral-of-death cap.
    private static func maxStepsPerFrame(_ timeStep: Double) -> Int {
        max(2, min(10_000, Int(saturating: (4.0 / 60 / timeStep * 2).rounded(.up))))
    }

    /// Steps taken since the scene was built (a snapshot's scene starts at its step).
    package var step: Int { scene.stepCount }

    /// The step the recording starts after: 0, or a served snapshot's step.
    private var baseStep = 0

    /// Steps recorded or to record: the steps since the world (re)started.
    private var recordedStep: Int { scene.stepCount - baseStep }

    /// Whether the recording has stopped growing (``Limits/recordedSteps``,
    /// ``Limits/recordedInputs``).
    package var recordingIsFull: Bool {
        hashes.count >= limits.recordedSteps || log.inputs.count >= limits.recordedInputs
    }

    /// The steps a scrub can go back to: from the ring's oldest state to the current step.
    /// A step the recording holds is reached exactly (a scrub restores the state at or
    /// before it and steps on with the recorded inputs); past a full recording, a scrub
    /// stops at the ring's state at or before the step.
    package var scrubRange: ClosedRange<Int> {
        let first = ring.states.first?.step ?? step
        // Scrubbed back, the steps after are still there to go forward to.
        let end = scrubbedBackTo != nil ? baseStep + hashes.count : min(step, baseStep + hashes.count)
        return first...max(first, ring.states.last?.step ?? step, end)
    }

    // MARK: Time

    /// Runs one frame of `seconds` real time at the chosen speed, unless paused or failed.
    /// Returns the steps taken.
    @discardableResult
    package func frame(seconds: Double) -> Int {
        guard !isPaused, failure == nil, seconds > 0, seconds.isFinite else { return 0 }
        var taken = 0
        do {
            _ = try stepper.advance(by: min(seconds, 1) * speed) { _ in
                try stepOnce()
                taken += 1
            }
        } catch {
            fail(error)
        }
        return taken
    }

    /// Takes exactly one step, paused or not (a viewer's single step). False when the
    /// world has failed.
    @discardableResult
    package func singleStep() -> Bool {
        guard failure == nil else { return false }
        do { try stepOnce() } catch { fail(error) }
        return failure == nil
    }

    private func fail(_ error: any Error) {
        // The engine's errors name their step already; a callback's may not.
        failure = error is ChipmunkError ? "\(error)" : "step \(scene.stepCount + 1): \(error)"
        isPaused = true
    }

    /// Steers the hands, takes one step, logs its hash and keeps a snapshot when due.
    private func stepOnce() throws {
        branchIfScrubbedBack()
        for name in strayHands where scene.body(named: name) != nil { try apply(.remove(body: name)) }
        strayHands = []
        let dt = scene.timeStep
        for (owner, hand) in hands {
            guard let body = scene.body(named: hand.name) else {
                hands[owner] = nil
                continue
            }
            // The hand reaches the pointer in one step, then stops: a kinematic body moves
            // by its velocity, so the joint sees the hand's real motion.
            let offset = hand.target - body.position
            let velocity = offset.length < 1e-9 ? Vector.zero : offset * (1 / dt)
            if velocity != body.velocity { try apply(.velocity(body: hand.name, velocity: velocity)) }
        }
        for viewer in snaps.keys.sorted() { try pull(snaps[viewer]!, of: viewer, dt: dt) }
        try scene.step(dt)
        if !recordingIsFull, hashes.count == recordedStep - 1 {
            hashes.append(scene.space.stateHash())
        }
        if ring.isDue(scene) { ring.keep(scene, reference: source) }
    }

    // MARK: Inputs

    /// Applies `input` before the next step and logs it there.
    ///
    /// - Throws: ``SceneError`` when the scene refuses it; nothing is logged then.
    package func apply(_ input: SceneInput) throws {
        branchIfScrubbedBack()
        try scene.apply(input)
        // A recording that stopped growing keeps its first steps whole: later inputs are not logged.
        if hashes.count == recordedStep, !recordingIsFull {
            log.inputs.append(.init(step: recordedStep + 1, input: input))
        }
    }

    /// The dynamic body under `point` (within `radius`), and the point on it nearest `point`.
    package func body(at point: Vector, radius: Double = 5) -> (body: Body, point: Vector)? {
        var best: (body: Body, point: Vector, distance: Double)?
        for info in scene.space.pointQuery(point, maxDistance: radius) where info.shape.body.kind == .dynamic {
            if best == nil || info.distance < best!.distance {
                best = (info.shape.body, info.distance > 0 ? info.point : point, info.distance)
            }
        }
        return best.map { ($0.body, $0.point) }
    }

    /// Viewer `viewer`'s finger `finger` takes hold of the dynamic body at `point` (letting
    /// go of what that finger held; the viewer's other fingers hold on). Returns the body's
    /// name, or nil when no dynamic body is there.
    @discardableResult
    package func grab(viewer: Int, finger: Int = 0, at point: Vector) throws -> String? {
        ensure(LiveMessage.fingers.contains(finger), "LiveSession.grab: finger \(finger) is not 0 to 9")
        try release(viewer: viewer, finger: finger)
        guard failure == nil, let (body, at) = body(at: point) else { return nil }
        let name = scene.name(of: body)
        // Chipmunk's demo holds bodies of about unit mass with 50,000; this is fifty times the
        // body's weight under the scene's gravity (or under 100, in a weightless scene).
        let weight = body.mass * max(scene.space.gravity.length, 100)
        let maxForce = min(50 * weight, 1e30)
        guard maxForce > 0, maxForce.isFinite else { return nil }
        var handName = "hand\(nextHand)"
        while nameIsTaken(handName) {
            nextHand += 1
            handName = "hand\(nextHand)"
        }
        nextHand += 1
        try apply(.grab(hand: handName, body: name, at: at, maxForce: maxForce))
        hands[HandOwner(viewer: viewer, finger: finger)] = Hand(name: handName, target: at)
        return name
    }

    /// Whether a hand may not take `name`: a body has it, or an input logged or scripted in
    /// the scene names it. (A hand named as a scene's own `add` made that add fail without a
    /// word, and the scene lost a body: a helper's attack.)
    private func nameIsTaken(_ name: String) -> Bool {
        func names(_ input: SceneInput) -> Bool {
            if case .grab(let hand, _, _, _) = input, hand == name { return true }
            return input.body == name
        }
        return scene.body(named: name) != nil || log.inputs.contains { names($0.input) }
            || scene.inputs.contains { names($0.action) }
    }

    /// Moves a finger's hand towards `point` (from the next step on).
    package func moveHand(viewer: Int, finger: Int = 0, to point: Vector) {
        hands[HandOwner(viewer: viewer, finger: finger)]?.target = point
    }

    /// Finger `finger` of viewer `viewer` lets go.
    package func release(viewer: Int, finger: Int) throws {
        guard let hand = hands.removeValue(forKey: HandOwner(viewer: viewer, finger: finger)) else { return }
        if scene.body(named: hand.name) != nil { try apply(.remove(body: hand.name)) }
    }

    /// Viewer `viewer` lets go with every finger (it left), lowest finger first, and its
    /// snap stops.
    package func release(viewer: Int) throws {
        snaps[viewer] = nil
        snapChoices[viewer] = nil
        for finger in LiveMessage.fingers { try release(viewer: viewer, finger: finger) }
    }

    /// Whether viewer `viewer` holds a body, with any finger.
    package func holds(viewer: Int) -> Bool { hands.keys.contains { $0.viewer == viewer } }

    /// The hands holding bodies: each hand's position and the held point, in world
    /// coordinates; and each snap's point and its body's centre.
    package var handLines: [(hand: Vector, held: Vector)] {
        scene.space.constraints.compactMap { constraint in
            guard let joint = constraint as? PivotJoint, joint.bodyA.kind == .kinematic, joint.bodyA.shapes.isEmpty
            else { return nil }
            return (joint.bodyA.position, joint.bodyB.localToWorld(joint.anchorB))
        }
            + snaps.keys.sorted().compactMap { viewer in
                scene.body(named: snaps[viewer]!.body).map { (snaps[viewer]!.target, $0.position) }
            }
    }

    /// A flick: the body under `point` gains `velocityChange` there (an impulse of its mass
    /// times it). Returns the body's name, or nil when no dynamic body is there.
    @discardableResult
    package func push(at point: Vector, velocityChange: Vector) throws -> String? {
        guard failure == nil, let (body, at) = body(at: point) else { return nil }
        let impulse = velocityChange * body.mass
        guard impulse.x.isFinite, impulse.y.isFinite else { return nil }
        let name = scene.name(of: body)
        try apply(.impulse(body: name, impulse: impulse, at: at))
        return name
    }

    /// Snap mode's tap, as UIKit Dynamics' snap demo: a tap on a body chooses it, and a tap
    /// elsewhere snaps the chosen body there: pulled to the point and turned upright (to the
    /// nearest whole turn) by a damped spring, ``SnapBehavior``'s (1.5 Hz, UIKit's damping
    /// 0.5), gravity cancelled, for at most ``snapSeconds`` or until it rests there. A
    /// new snap of the viewer's replaces its last. Each step's pull is logged as the body's
    /// `velocity` and `angularVelocity`, so the recording replays it.
    @discardableResult
    package func snap(viewer: Int, at point: Vector) -> SnapOutcome {
        guard failure == nil else { return .nothing }
        if let (body, _) = body(at: point) {
            let name = scene.name(of: body)
            if name != snapChoices[viewer] {
                snapChoices[viewer] = name
                return .chose(name)
            }
        }
        guard let name = snapChoices[viewer], scene.body(named: name)?.kind == .dynamic else { return .nothing }
        // Saturating: a scene of time step 1e-300 made Int(_:) trap; a pull of 2^53 steps never ends.
        let steps = max(1, min(Int(saturating: (Self.snapSeconds / scene.timeStep).rounded()), 1 << 53))
        snaps[viewer] = Snap(body: name, target: point, until: scene.stepCount + steps)
        return .snapping(name)
    }

    /// Simulated seconds a snap pulls at most (600 steps at the book's 1/120 s).
    package static let snapSeconds = 5.0

    /// Whether viewer `viewer` has a snap running.
    package func snaps(viewer: Int) -> Bool { snaps[viewer] != nil }

    /// One step of a snap: the body's velocity and spin as the spring's acceleration leaves
    /// them after `dt` (SnapBehavior's law). The engine moves a body by its velocity, then
    /// adds gravity to it: the spring reads the velocity without that last gravity, and sets
    /// the one the body moves by, so that gravity does not pull the body off its point.
    private func pull(_ snap: Snap, of viewer: Int, dt: Double) throws {
        guard let body = scene.body(named: snap.body), body.kind == .dynamic, scene.stepCount < snap.until else {
            snaps[viewer] = nil
            return
        }
        let offset = snap.target - body.position
        let moving = body.velocity - scene.space.gravity * dt
        let turn = body.angle.remainder(dividingBy: 2 * Double.pi)
        let canTurn = body.moment < Parameter.massRange.upperBound
        if offset.length < 0.05, moving.length < 0.5, !canTurn || abs(turn) < 1e-3,
            !canTurn || abs(body.angularVelocity) < 1e-2
        {
            snaps[viewer] = nil  // at rest there: the body is free again
            return
        }
        let pull = SnapBehavior.pull(
            offset: offset, velocity: moving, turn: turn, angularVelocity: body.angularVelocity, damping: 0.5)
        let velocity = moving + pull.linear * dt
        guard velocity.x.isFinite, velocity.y.isFinite else {
            snaps[viewer] = nil
            return
        }
        try apply(.velocity(body: snap.body, velocity: velocity))
        if canTurn {
            try apply(.angularVelocity(body: snap.body, angularVelocity: body.angularVelocity + pull.angular * dt))
        }
    }

    /// Sets gravity: a tilt of the phone, or the arrow keys. A gravity logged before at the
    /// same step gives way to this one (nothing at a step reads gravity before the step
    /// does): a phone tilted while the world is paused logs one input, not ten a second.
    package func tilt(gravity: Vector) throws {
        // Only this step's inputs, the log's last, are looked at.
        let step = recordedStep + 1
        var earlier: Int?
        var index = log.inputs.endIndex
        while earlier == nil, index > 0, log.inputs[index - 1].step == step {
            index -= 1
            if Self.isGravity(log.inputs[index].input) { earlier = index }
        }
        let logged = log.inputs.count
        try apply(.gravity(gravity))
        if let earlier, log.inputs.count == logged + 1 { log.inputs.remove(at: earlier) }
    }

    private static func isGravity(_ input: SceneInput) -> Bool {
        if case .gravity = input { return true }
        return false
    }

    // MARK: Controls

    package func pause() { isPaused = true }

    /// Runs again, unless the world failed. After a scrub, this is where the branch starts.
    package func resume() {
        if failure == nil { isPaused = false }
    }

    package func setSpeed(_ speed: Double) {
        self.speed = min(max(speed, Self.speeds.lowerBound), Self.speeds.upperBound)
    }

    /// Builds the scene again from step 0 (with `makeScene`, if given: a reloaded file's),
    /// and starts a new recording. Throws, and keeps the world, when the scene does not build.
    package func restart(with makeScene: (() throws -> Scene)? = nil) throws {
        let factory = makeScene ?? self.makeScene
        let scene = try factory()
        self.makeScene = factory
        failure = nil
        hands = [:]
        snaps = [:]
        snapChoices = [:]
        strayHands = []
        structureVersion += 1
        begin(scene)
    }

    /// Goes back (or forward) to step `step` (within ``scrubRange``) and pauses there: the
    /// ring's latest state at or before it is restored, and the steps from there to `step`
    /// are taken again with the inputs recorded for them, each checked against its recorded
    /// state hash. The steps after stay recorded, and a scrub can go forward to them again;
    /// stepping on or an input branches (``branchIfScrubbedBack()``): the recording drops
    /// what came after, and the new inputs follow. Returns the step the world is at now.
    ///
    /// A step taken again that throws, or whose state hash differs from the first time's
    /// (a scene that is not deterministic), stops the world there as a failed step does.
    @discardableResult
    package func scrub(to step: Int) throws -> Int {
        let target = min(max(step, scrubRange.lowerBound), scrubRange.upperBound)
        let at: Int
        if !scene.space.isStoppedByContactPairs {
            // The world itself goes back: the state restores its own objects, those taken out
            // since (a chain's broken links) with their code, and takes out those added since.
            guard let kept = ring.state(atOrBefore: target) else { return self.step }
            try scene.restore(kept.state)
            at = kept.step
        } else {
            // A space a step stopped inside the engine's broad phase cannot be restored into:
            // the scene is built again and a snapshot restored into that.
            guard let kept = ring.snapshot(atOrBefore: target) else { return self.step }
            let fresh = try makeScene()
            try fresh.restore(Snapshot(bytes: kept.bytes))
            scene = fresh
            at = kept.step
            ring.empty(keepingSnapshots: true)  // the states saved were of the world dropped
            ring.keep(scene, reference: source)
        }
        failure = nil
        // States past `at` are kept already; none are (after a scrub that built the scene
        // again, or a ring that memory keeps short): the steps taken again save them.
        let reached = stepAgain(from: at - baseStep, to: target - baseStep, keepingStates: ring.states.last?.step == at)
        scrubbedBackTo = reached
        // A step that failed again is where the world stopped: the branch starts there.
        if failure != nil { branchIfScrubbedBack() }
        stepper = FixedStepper(timeStep: scene.timeStep, maxStepsPerFrame: Self.maxStepsPerFrame(scene.timeStep))
        isPaused = true
        // The viewers' hands of then are nobody's now: they let go when the branch starts.
        let grabbed = Set(
            log.inputs.compactMap { entry -> String? in
                guard entry.step <= reached, case .grab(let hand, _, _, _) = entry.input else { return nil }
                return hand
            })
        strayHands = scene.bodyNamesNow.filter { grabbed.contains($0) }
        hands = [:]
        snaps = [:]
        structureVersion += 1
        return scene.stepCount
    }

    /// Starts a branch where a scrub left the world: the recording, the hashes and the ring
    /// drop the steps after it. (A scrub trimmed them at once, so a viewer who scrubbed back
    /// only to look could never return: a helper's attack.)
    private func branchIfScrubbedBack() {
        guard let reached = scrubbedBackTo else { return }
        scrubbedBackTo = nil
        log.inputs.removeAll { $0.step > reached }
        if hashes.count > reached { hashes.removeLast(hashes.count - reached) }
        ring.drop(after: scene.stepCount)
    }

    /// Takes recorded steps `start + 1 ... end` again (counted from ``baseStep``; as many
    /// as the recording holds), each after its recorded inputs, as `chipmunk-sim replay`
    /// does. Returns the step reached; one that throws or gives another state hash than the
    /// first time sets ``failure`` and ends there.
    ///
    /// With `keepingStates` (the ring holds nothing after the state stepped from), the ring
    /// saves the states it passes, as stepping on does: the next scrubs need not step all
    /// the way from there.
    private func stepAgain(from start: Int, to end: Int, keepingStates: Bool = false) -> Int {
        let end = max(start, min(end, hashes.count))
        var next = log.inputs.firstIndex { $0.step > start } ?? log.inputs.endIndex
        for recorded in stride(from: start + 1, through: end, by: 1) {
            do {
                while next < log.inputs.count, log.inputs[next].step == recorded {
                    try scene.apply(log.inputs[next].input)
                    next += 1
                }
                try scene.step(scene.timeStep)
            } catch {
                fail(error)
                return recorded - 1
            }
            if keepingStates, ring.isDue(scene) { ring.keep(scene, reference: source) }
            let hash = scene.space.stateHash()
            guard hash == hashes[recorded - 1] else {
                failure =
                    "step \(baseStep + recorded), taken again to scrub back, gave state hash \(hash.hexDigits) where "
                    + "it first gave \(hashes[recorded - 1].hexDigits): the scene is not deterministic"
                hashes[recorded - 1] = hash  // the recording follows the world as it is now
                return recorded
            }
        }
        return end
    }

    /// A snapshot of the world now, for a viewer to download (`chipmunk-sim run FILE`).
    ///
    /// - Throws: ``Unsaved`` when a step stopped inside the engine (the contact pair
    ///   budget): that state cannot be saved; scrubbing back or restarting can.
    package func snapshot() throws(Unsaved) -> Snapshot {
        guard !scene.space.isStoppedByContactPairs else {
            throw Unsaved(step: scene.stepCount, reason: failure ?? "a step stopped inside the engine")
        }
        return scene.snapshot(reference: snapshotReference)
    }

    /// The session's recording as a file, for a viewer to download (`chipmunk-sim replay FILE`).
    ///
    /// - Throws: ``Unrecorded`` when it holds no step yet (at the start, after Restart, or
    ///   branched at the start after a scrub), which `replay` would refuse ("hashes: is empty").
    package func recordingFile() throws(Unrecorded) -> [UInt8] {
        guard recordedSteps > 0 else {
            throw Unrecorded(
                reason: "the recording holds no step yet (the world is at step \(scene.stepCount), where it starts): "
                    + "step it, or let it run, then download it")
        }
        do {
            return Array(try recording.encoded())
        } catch {
            throw Unrecorded(reason: "the recording could not be written as JSON: \(error)")
        }
    }

    /// Why there is no recording to download.
    package struct Unrecorded: Error, CustomStringConvertible {
        /// Why, in words.
        package var reason: String

        package var description: String { reason }
    }

    /// Why the world now cannot be saved: the step that stopped it.
    package struct Unsaved: Error, CustomStringConvertible {
        /// The last step the world took.
        package var step: Int
        /// The failure that stopped it.
        package var reason: String

        package var description: String {
            "the world stopped inside the engine (\(reason)), so its state after step \(step) cannot be saved: "
                + "scrub back or restart"
        }
    }

    // MARK: Structure

    /// Whether bodies or shapes came or went since the last call: then
    /// ``structureVersion`` has moved on.
    package func noteStructure() {
        var hasher = Hasher()
        for body in scene.space.bodies { hasher.combine(ObjectIdentifier(body)) }
        for shape in scene.space.shapes { hasher.combine(ObjectIdentifier(shape)) }
        hasher.combine(scene.space.constraints.count)
        let signature = hasher.finalize()
        if signature != structureSignature {
            structureSignature = signature
            structureVersion += 1
        }
    }
}
