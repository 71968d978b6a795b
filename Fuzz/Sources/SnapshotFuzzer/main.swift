// Snapshots are untrusted data. libFuzzer mutates snapshot files (seeded from the built-in
// scenes' snapshots in Fuzz/corpus-snapshots); before reading, this harness writes a valid
// checksum over the mutated bytes, as an attacker can, so that every mutation reaches the
// record decoder and the checks behind it. Each input that decodes is restored as
// `chipmunk-sim run X.snapshot` restores it (the scene it names, or a bare space), stepped
// 60 times, snapshotted again, queried and drawn: every input must end in an error or a
// finite result. A trap, a signal or the engine's own abort is a finding.
import Chipmunk
import ChipmunkCatalog
import ChipmunkPictures
import ChipmunkScenes
import FuzzDriver

/// FNV-1a 64, the snapshot format's trailing checksum, written over the bytes before it.
func withValidChecksum(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count > 8 else { return bytes }
    var bytes = bytes
    let hash = FNV1a.hash(bytes[..<(bytes.count - 8)])
    for index in 0..<8 { bytes[bytes.count - 8 + index] = UInt8(truncatingIfNeeded: hash >> UInt64(8 * index)) }
    return bytes
}

runFuzzer { data, count in
    guard let snapshot = try? Snapshot(bytes: withValidChecksum(inputBytes(data, count))) else { return 0 }
    guard let scene = try? SceneCatalog.scene(restoring: snapshot) else { return 0 }
    for _ in 0..<60 {
        do { try scene.step(scene.timeStep) } catch { break }
    }
    _ = scene.space.snapshot()
    _ = scene.space.pointQueryNearest(.zero)
    let frame = Frame(scene.space, options: [.shapes, .constraints, .collisionPoints])
    _ = frame.svg(view: FrameView(fitting: frame), pixelWidth: 64)
    return 0
}
