import ArgumentParser

/// `--steps`, `--seconds` and `--dt`: how long a command runs a scene, and at what time
/// step: a run's length (named so, not `Duration`, which is Swift's). Shared by `run`,
/// `verify --update`, `record` and `sweep`.
struct RunLength: ParsableArguments {
    @Option(
        parsing: .unconditional, help: "Steps to simulate. Default: the command's own span of simulated time.",
        transform: WholeNumber.parser(1...WholeNumber.maxStep, "steps"))
    var steps: Int?

    @Option(
        parsing: .unconditional, help: "Simulated seconds, rounded to whole steps (instead of --steps).",
        transform: DecimalNumber.parser(0...(.greatestFiniteMagnitude), "seconds", aboveLowerBound: true))
    var seconds: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The time step, as a fraction (1/120) or a decimal (0.005). Default: the scene's own "
                + "(1/120 for the book's scenes, 1/60 or 1/180 for Chipmunk's demos).",
            valueName: "dt"), transform: TimeStep.parse)
    var dt: TimeStep?

    /// Whether any of the three was given.
    var isGiven: Bool { steps != nil || seconds != nil || dt != nil }

    func validate() throws {
        if steps != nil, seconds != nil { throw ValidationError("give --steps or --seconds, not both") }
    }

    /// The most steps a run may take, and the last step number it may reach (2^53).
    static let maxSteps = WholeNumber.maxStep

    /// The step numbers of a run of `count` steps after step `first` (a snapshot's), or an
    /// error when they would pass ``maxSteps`` (an overflow trap before).
    static func stepRange(after first: Int, count: Int) throws -> ClosedRange<Int> {
        guard first >= 0, count >= 1, first <= maxSteps - count else {
            throw ValidationError(
                "\(count) steps after step \(first) would pass step \(maxSteps) (2^53), the last a run may reach")
        }
        return (first + 1)...(first + count)
    }

    /// The time step: `--dt`, or the scene's own.
    func timeStep(sceneDefault: Double) -> Double { dt?.seconds ?? sceneDefault }

    /// The number of steps at time step `dt`: `--steps`, or `--seconds` (else
    /// `defaultSeconds`) of simulated time rounded to whole steps.
    func stepCount(dt: Double, defaultSeconds: Double) throws -> Int {
        if let steps { return steps }
        return try Self.stepCount(seconds: seconds ?? defaultSeconds, dt: dt)
    }

    /// `seconds` at `dt`, rounded to whole steps.
    static func stepCount(seconds: Double, dt: Double) throws -> Int {
        let total = seconds / dt
        guard total.isFinite, total >= 0.5, total <= Double(maxSteps) else {
            throw ValidationError("\(seconds) s at a time step of \(dt) s is not a usable number of steps")
        }
        return Int(total.rounded())
    }
}
