import Chipmunk
import ChipmunkCatalog
import Testing

@testable import ChipmunkLive

/// The world and its viewers, driven by a test clock (ticks of exactly 1/60 s).
@Suite struct LiveWorldTests {
    /// Everything queued for a viewer so far.
    func drain(_ stream: AsyncStream<LiveWorld.Outbound>, count: Int) async -> [LiveWorld.Outbound] {
        var items: [LiveWorld.Outbound] = []
        for await item in stream {
            items.append(item)
            if items.count == count { break }
        }
        return items
    }

    /// On a clock that stands still, 1,001 messages fall in one second however long the
    /// machine takes over them (under ASan on a busy machine, real seconds went by between
    /// them, and the flood was not closed).
    @Test func aFloodAndMalformedMessagesCloseOnlyTheirViewer() async throws {
        let clock = TestClock()
        let world = try LiveWorld(source: "crates", now: clock.now, workTime: clock.work)
        let good = try #require(await world.join())
        let flooding = try #require(await world.join())
        let malformed = try #require(await world.join())
        let oversized = try #require(await world.join())
        #expect(await world.viewerCount == 4)
        for _ in 0..<(LiveWorld.maximumMessagesPerSecond + 1) {
            await world.receive(#"{"type":"move","x":1,"y":2}"#, from: flooding.id)
        }
        await world.receive("{not json", from: malformed.id)
        await world.receive(String(repeating: " ", count: 5000), from: oversized.id)
        #expect(await world.viewerCount == 1)
        // The window is a second: a second later, the good viewer may send as many again.
        clock.advance(by: .seconds(1))
        for _ in 0..<LiveWorld.maximumMessagesPerSecond {
            await world.receive(#"{"type":"move","x":1,"y":2}"#, from: good.id)
        }
        #expect(await world.viewerCount == 1)
        func closeReason(_ stream: AsyncStream<LiveWorld.Outbound>) async -> String? {
            for await item in stream { if case .close(let reason) = item { return reason } }
            return nil
        }
        #expect(await closeReason(flooding.outbound) == "more than 1000 messages in a second")
        #expect(await closeReason(malformed.outbound) == "not a JSON object")
        #expect(await closeReason(oversized.outbound) == "message of 5000 bytes (at most 1024)")
        for _ in 0..<2 { await world.tick(seconds: 1.0 / 60) }
        // The good viewer got the scene, then a frame per tick.
        let items = await drain(good.outbound, count: 3)
        guard case .text(let scene) = items[0] else {
            Issue.record("no scene first: \(items[0])")
            return
        }
        #expect(scene.hasPrefix(#"{"#) && scene.contains(#""type":"scene""#))
        guard case .binary(let frame) = items.last! else {
            Issue.record("no frame")
            return
        }
        #expect(frame.count == LiveFrames.headerBytes + 5 * 16)
        let frameStep = UInt32(frame[4]) | UInt32(frame[5]) << 8 | UInt32(frame[6]) << 16 | UInt32(frame[7]) << 24
        #expect(frameStep == 4)
        for _ in 0..<58 { await world.tick(seconds: 1.0 / 60) }
        #expect(await world.withSession { $0.step } == 120)
    }

    @Test func aViewerWhoLeavesLetsGo() async throws {
        let world = try LiveWorld(source: "crates")
        let viewer = try #require(await world.join())
        for _ in 0..<60 { await world.tick(seconds: 1.0 / 60) }
        let crate = await world.withSession { $0.scene.space.bodies[0].position }
        await world.receive(#"{"type":"grab","x":\#(crate.x),"y":\#(crate.y)}"#, from: viewer.id)
        await world.tick(seconds: 1.0 / 60)
        #expect(await world.withSession { $0.handLines.count } == 1)
        await world.leave(viewer.id)
        await world.tick(seconds: 1.0 / 60)
        #expect(await world.withSession { $0.handLines.count } == 0)
        #expect(await world.viewerCount == 0)
    }
}

/// Messages generated at the edges of every field, from several viewers, between frames:
/// whatever they say, the world never stops the process, and its recording still replays.
@Suite struct LiveWorldAttackTests {
    /// A small seeded generator: the same messages every run.
    struct Generator {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    }

    static let numbers: [String] = [
        "0", "-0", "1", "-1", "0.5", "150", "283.9", "1e-300", "5e-324", "1e7", "-1e7", "9999999.999", "1e5", "-1e5",
        "1e4", "4", "0.25", "1e12", "1e308", "-1e308", "\"1\"", "true", "null", "[]", "{}",
    ]
    static let types = [
        "hello", "grab", "move", "release", "push", "tilt", "pause", "resume", "step", "speed", "restart", "scrub",
        "inspect", "warp", "",
    ]
    static let fields = ["x", "y", "vx", "vy", "gx", "gy", "value", "step"]

    @Test(arguments: ["crates", "pyramid-topple", "ui-snake", "chains"])
    func generatedMessagesNeverStopTheWorld(scene: String) async throws {
        let world = try LiveWorld(source: scene)
        var generator = Generator(state: 42)
        var viewers: [Int] = []
        for _ in 0..<3 { viewers.append(try #require(await world.join()).id) }
        for round in 0..<1500 {
            var members = ["\"type\":\"\(generator.pick(Self.types))\""]
            for field in Self.fields where generator.next() % 3 != 0 {
                members.append("\"\(field)\":\(generator.pick(Self.numbers))")
            }
            let viewer = generator.pick(viewers)
            await world.receive("{" + members.joined(separator: ",") + "}", from: viewer)
            if await world.viewerCount < 3, let joined = await world.join() {  // a refused viewer comes back
                viewers.append(joined.id)
            }
            if round % 5 == 0 { await world.tick(seconds: 1.0 / 60) }
        }
        let (steps, recording) = await world.withSession { ($0.recordedSteps, $0.recording) }
        #expect(steps == recording.hashes.count)
        if steps > 0 {
            #expect(try recording.replay(on: SceneCatalog.scene(named: scene)) == steps)
        }
    }
}
