// Feeds arbitrary bytes to the scene loader as a scene file, builds the scene if it loads,
// and steps it: every input must end in a scene, a SceneError, or a ChipmunkError from
// `step`. A trap, a signal or the engine's own abort is a finding, which libFuzzer saves.
import Chipmunk
import ChipmunkScenes
import Foundation

/// libFuzzer's entry point for programs that have their own `main` (SwiftPM names the
/// executable's entry point itself, so libFuzzer's `main` is not used).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// One input: load, build, and step up to 20 times at the scene's own time step.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Data(bytes: data ?? UnsafePointer(bitPattern: 1)!, count: data == nil ? 0 : count)
    guard let description = try? SceneDescription.decode(bytes, source: "fuzz") else { return 0 }
    guard let scene = try? description.makeScene() else { return 0 }
    for _ in 0..<20 {
        do { try scene.step(scene.timeStep) } catch { break }
    }
    return 0
}

func runFuzzer() -> Int32 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return withUnsafeMutablePointer(to: &argv) { argv in
        LLVMFuzzerRunDriver(&argc, argv) { data, count in fuzzOne(data, count) }
    }
}

exit(runFuzzer())
