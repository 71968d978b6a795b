import Chipmunk
import ChipmunkScenes

/// What a live world keeps to go back to (the page's Back slider): its saved states, one
/// every ``LiveSession/Limits/stateEvery`` steps, which a scrub restores into the world
/// itself (tens of microseconds), and a snapshot every
/// ``LiveSession/Limits/snapshotEveryStates``-th state, for a world that cannot be restored
/// into (a step stopped inside the engine): that scrub builds the scene again and restores
/// the snapshot into it.
///
/// It reaches back ``LiveSession/Limits/scrubSeconds`` of scene time within
/// ``LiveSession/Limits/ringBytes`` of memory, and saves into the buffers of the states it
/// drops: once warm, keeping a state allocates nothing.
struct ScrubRing {
    /// The saved states, oldest first, each with the step it was saved after.
    private(set) var states: [(step: Int, state: SceneState)] = []
    /// Snapshots' bytes, oldest first, each with its step. Only the bytes are kept: a
    /// decoded snapshot holds its state a second time, several times the bytes.
    private(set) var snapshots: [(step: Int, bytes: [UInt8])] = []
    /// States dropped, whose buffers the next saves reuse: two at most, for the ring drops
    /// one or two a save; a branch drops more, and those are freed.
    private var spares: [SceneState] = []
    private let limits: LiveSession.Limits

    init(limits: LiveSession.Limits) {
        self.limits = limits
    }

    /// The memory the ring takes (``LiveSession/Limits/ringBytes`` bounds it): its states'
    /// buffers as allocated (they grow by doubling and stay for the next save) and its
    /// snapshots' bytes.
    var bytes: Int {
        states.reduce(0) { $0 + $1.state.heapBytes } + snapshots.reduce(0) { $0 + $1.bytes.capacity }
    }

    /// The latest state saved at or before `step`.
    func state(atOrBefore step: Int) -> (step: Int, state: SceneState)? {
        states.last { $0.step <= step }
    }

    /// The latest snapshot kept at or before `step`.
    func snapshot(atOrBefore step: Int) -> (step: Int, bytes: [UInt8])? {
        snapshots.last { $0.step <= step }
    }

    /// Empties the ring for a new scene (its states would not fit it), snapshots too unless
    /// `keepingSnapshots` (a scrub that built the same scene again from one of them).
    mutating func empty(keepingSnapshots: Bool = false) {
        states = []
        spares = []
        if !keepingSnapshots { snapshots = [] }
    }

    /// Whether `scene`'s step is one a state is kept at.
    func isDue(_ scene: Scene) -> Bool {
        scene.stepCount % limits.stateEvery == 0
    }

    /// Saves `scene`'s state (into a dropped state's buffers when there is one), a snapshot
    /// of it too when one is due (named `reference` in it) or the ring has none, and drops
    /// what is older than ``LiveSession/Limits/scrubSeconds`` or past
    /// ``LiveSession/Limits/ringBytes``, keeping the newest state whatever it weighs.
    mutating func keep(_ scene: Scene, reference: String) {
        guard states.last?.step != scene.stepCount else { return }
        var state = spares.popLast() ?? SceneState()
        scene.save(into: &state)
        states.append((scene.stepCount, state))
        let snapshotDue =
            scene.stepCount % (limits.stateEvery * limits.snapshotEveryStates) == 0
            && (snapshots.last?.step ?? -1) < scene.stepCount  // kept already, when stepped again
        if snapshotDue || snapshots.isEmpty {
            snapshots.append((scene.stepCount, scene.snapshot(reference: reference).bytes))
        }
        let reach = scene.stepCount - Int(saturating: limits.scrubSeconds / scene.timeStep)  // 1e-300 s: no limit
        var bytes = self.bytes
        var drop = 0
        while drop < states.count - 1, states[drop].step < reach || bytes > limits.ringBytes {
            bytes -= states[drop].state.heapBytes
            drop += 1
        }
        for index in 0..<drop { spare(states[index].state) }
        states.removeFirst(drop)
        // Snapshots go as far back as the states, and one more: the one at or before the
        // oldest state. (After a scrub that built the scene again, the states start there.)
        while snapshots.count > 1, snapshots[1].step <= states[0].step { snapshots.removeFirst() }
    }

    /// Drops what was kept after `step`: a branch starts there.
    mutating func drop(after step: Int) {
        while let last = states.last, last.step > step { spare(states.removeLast().state) }
        snapshots.removeAll { $0.step > step }
    }

    private mutating func spare(_ state: SceneState) {
        if spares.count < 2 { spares.append(state) }
    }
}
