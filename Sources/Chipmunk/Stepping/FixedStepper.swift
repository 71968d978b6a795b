#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Advances a simulation in fixed time steps, however irregular the frames that drive it.
///
/// This is listing 11.5 of *iOS Core Animation: Advanced Techniques* ("fixed time step"),
/// made safe against the spiral of death: each frame's real duration is added to an
/// accumulator, whole steps are taken from it, and at most ``maxStepsPerFrame`` steps run
/// per frame. Time beyond that is dropped, and the ``FrameReport`` says so, so a slow
/// frame costs the simulation time instead of making the next frame slower still.
///
/// ```swift
/// var stepper = FixedStepper()                 // 1/120 s steps
/// let report = try stepper.advance(space, by: frameDuration)   // throws what step throws
/// let alpha = report.interpolation             // draw between the last two states
/// ```
///
/// The same total time gives the same number of steps, and so bit-identical states,
/// whether it arrives as even frames or jittery ones: frame durations are summed in
/// floating point, and a remainder within a billionth of a step of a whole step counts
/// as a whole step.
public struct FixedStepper: Sendable {
    /// The simulated time each step advances, in seconds.
    public let timeStep: Double
    /// The most steps one frame may take; time beyond them is dropped.
    public let maxStepsPerFrame: Int
    /// The share of real time that physics may use before a frame is flagged; the book advises 50 %.
    public let cpuBudget: Double
    /// Reads a CPU clock in seconds: by default this thread's CPU time.
    private let clock: @Sendable () -> Double

    /// Time delivered but not yet simulated, in seconds; always less than one step after a frame.
    public private(set) var accumulatedTime: Double = 0
    /// Steps taken since the stepper was made.
    public private(set) var stepCount: Int = 0
    /// Time dropped by the cap since the stepper was made, in seconds.
    public private(set) var droppedTime: Double = 0

    /// Simulated time so far: ``stepCount`` × ``timeStep``.
    public var simulatedTime: Double { Double(stepCount) * timeStep }

    /// Creates a stepper.
    ///
    /// - Parameters:
    ///   - timeStep: seconds per step, 1/120 by default as in the book.
    ///   - maxStepsPerFrame: the cap; 120 by default, so a stall of up to one second
    ///     (a page fault storm, a debugger pause) is caught up and a longer one dropped.
    ///   - cpuBudget: the physics share of real time past which a frame is flagged.
    ///   - clock: a CPU clock in seconds; inject one to make timing tests repeatable.
    ///
    /// Rules: ``Parameter/stepperTimeStep``, ``Parameter/stepperMaxSteps``,
    /// ``Parameter/stepperCPUBudget``.
    public init(
        timeStep: Double = 1.0 / 120.0,
        maxStepsPerFrame: Int = 120,
        cpuBudget: Double = 0.5,
        clock: @escaping @Sendable () -> Double = FixedStepper.threadCPUTime
    ) {
        Parameter.stepperTimeStep.require(timeStep)
        Parameter.stepperMaxSteps.require(maxStepsPerFrame)
        Parameter.stepperCPUBudget.require(cpuBudget)
        self.timeStep = timeStep
        self.maxStepsPerFrame = maxStepsPerFrame
        self.cpuBudget = cpuBudget
        self.clock = clock
    }

    /// Delivers one frame of real time and takes the whole steps it allows.
    ///
    /// `step` is called with ``timeStep`` once per step. If it throws, the error is
    /// rethrown at once; the steps before it count, and the frame's remaining time stays
    /// accumulated.
    ///
    /// The duration must keep the rule of ``Parameter/frameDuration``.
    ///
    /// - Throws: what `step` throws.
    public mutating func advance(by frameDuration: Double, step: (Double) throws -> Void) rethrows -> FrameReport {
        Parameter.frameDuration.require(frameDuration)
        accumulatedTime += frameDuration
        let tolerance = timeStep * 1e-9
        let start = clock()
        var steps = 0
        while accumulatedTime + tolerance >= timeStep, steps < maxStepsPerFrame {
            try step(timeStep)
            accumulatedTime -= timeStep
            steps += 1
            stepCount += 1
        }
        let physicsTime = steps > 0 ? max(0, clock() - start) : 0
        if accumulatedTime < 0 { accumulatedTime = 0 }  // a remainder snapped to a whole step
        var dropped = 0.0
        if accumulatedTime + tolerance >= timeStep {
            // The cap was reached: keep the fraction of a step, drop the whole steps.
            let kept = accumulatedTime.truncatingRemainder(dividingBy: timeStep)
            dropped = accumulatedTime - kept
            accumulatedTime = kept
            droppedTime += dropped
        }
        let simulated = Double(steps) * timeStep
        let share = simulated > 0 ? physicsTime / simulated : 0
        return FrameReport(
            steps: steps, droppedTime: dropped, physicsTime: physicsTime, cpuShare: share,
            isOverBudget: share > cpuBudget, interpolation: min(accumulatedTime / timeStep, 1))
    }

    /// Delivers one frame of real time to a space.
    public mutating func advance(_ space: Space, by frameDuration: Double) throws -> FrameReport {
        try advance(by: frameDuration) { try space.step($0) }
    }
}

/// What one frame of ``FixedStepper/advance(by:step:)`` did.
public struct FrameReport: Sendable, Hashable {
    /// Steps taken this frame.
    public var steps: Int
    /// Real time dropped because the frame hit the step cap, in seconds; 0 normally.
    public var droppedTime: Double
    /// CPU time spent stepping this frame, in seconds.
    public var physicsTime: Double
    /// ``physicsTime`` as a share of the time simulated this frame: above 1 means the
    /// simulation cannot keep up with real time.
    public var cpuShare: Double
    /// Whether ``cpuShare`` exceeded the stepper's budget (the book's 50 % by default).
    public var isOverBudget: Bool
    /// How far real time has run past the last step, as a fraction of a step in [0, 1):
    /// draw `previous + (current - previous) * interpolation`.
    public var interpolation: Double
}

extension FixedStepper {
    /// This thread's CPU time in seconds: the default clock.
    @usableFromInline @Sendable static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
