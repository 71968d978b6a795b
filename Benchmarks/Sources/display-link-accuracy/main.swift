// Runs the display link on the real monotonic clock and prints how closely it kept time:
// the mean frame interval against 1/60 s, the worst lateness of a wake-up, and the frames
// it skipped. It depends on the machine's load, which is why it is measured here and the
// test suite checks the display link's scheduling on a simulated clock instead.
//   display-link-accuracy [FRAMES]     (default 120: two seconds)
import ChipmunkAnimation

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, let frames = Int(arguments.first ?? "120"), (2...100_000).contains(frames) else {
    print("usage: display-link-accuracy [FRAMES]   (FRAMES: a whole number from 2 to 100000; default 120)")
    exit(64)
}
let period = 1.0 / 60
let clock = MonotonicClock()
var stamps: [Double] = []
var worstLateness = 0.0
var skipped = 0
stamps.reserveCapacity(frames)
DisplayLink(frameDuration: period, clock: clock).run { frame in
    stamps.append(frame.timestamp)
    worstLateness = max(worstLateness, frame.timestamp - frame.targetTime)
    skipped += frame.skippedFrames
    return stamps.count < frames ? .continue : .stop
}
let mean = (stamps.last! - stamps.first!) / Double(stamps.count - 1)
print(
    "{\"frames\":\(frames),\"mean_interval_ms\":\(mean * 1000),\"error_percent\":\(abs(mean - period) / period * 100),"
        + "\"worst_lateness_ms\":\(worstLateness * 1000),\"skipped_frames\":\(skipped)}")
