import Chipmunk
import ChipmunkPictures
import ChipmunkTestSupport
import Foundation
import Testing

/// The player's payload, written by `Playback` in Swift and read back by the page's own
/// `decodeReplayPayload` (replay-payload.js) in headless Chromium: every section of the
/// layout, compared with what the space held when each step was recorded.
@Suite struct ReplayPayloadTests {
    /// What the test saw at each recorded step, to compare with what the page decodes.
    struct Truth {
        var steps: [Int] = []
        /// Per frame, per body: x, y, angle, vx, vy, w; nil when the body was not in the space.
        var samples: [[[Double]?]] = []
        var states: [[UInt8]] = []
        var opacity: [[UInt8]] = []
        var present: [[UInt8]] = []
        var contactCounts: [Int] = []
    }

    @Test(
        "decodeReplayPayload reads back every section Playback wrote: steps, samples, states, opacity, constraints, contacts"
    )
    func pageDecodesWhatSwiftWrote() throws {
        let space = Space()
        space.gravity = Vector(x: 0, y: -100)
        space.sleepTimeThreshold = 0.2
        let ground = Segment(body: space.staticBody, from: Vector(x: -100, y: 0), to: Vector(x: 100, y: 0), radius: 1)
        ground.friction = 1
        space.add(ground)
        func box(at x: Double) -> (Body, Shape) {
            let body = Body(mass: 1, moment: Moment.box(mass: 1, width: 10, height: 10))
            body.position = Vector(x: x, y: 20)
            let shape = Polygon.box(body: body, width: 10, height: 10, friction: 1)
            return (body, shape)
        }
        let (a, aShape) = box(at: -30)
        let (b, bShape) = box(at: 30)
        let (late, lateShape) = box(at: 0)
        space.add(a, aShape)
        space.add(b, bShape)
        let pin = PinJoint(a: a, b: b)
        space.add(pin)

        var playback = Playback(title: "payload", timeStep: 1.0 / 60)
        playback.opacity = { body in body === b ? 0.5 : 1 }
        var truth = Truth()
        let order = [a, b, late]  // the order the player meets them
        func record(_ step: Int) {
            playback.record(step: step, space: space)
            truth.steps.append(step)
            truth.samples.append(
                order.map { body in
                    space.contains(body)
                        ? [
                            body.position.x, body.position.y, body.angle, body.velocity.x, body.velocity.y,
                            body.angularVelocity,
                        ] : nil
                })
            truth.states.append(
                order.map { body in
                    !space.contains(body)
                        ? 3 : body.isSleeping ? 2 : body.idleTime > space.sleepTimeThreshold ? 1 : 0
                })
            truth.opacity.append(order.map { body in space.contains(body) && body === b ? 128 : 255 })
            truth.present.append([space.contains(pin) ? 1 : 0])
            var contacts = 0
            space.forEachContactPoint { _, _ in contacts += 1 }
            truth.contactCounts.append(contacts)
        }
        record(0)
        for step in 1...240 {
            if step == 60 { space.add(late, lateShape) }
            if step == 120 { space.remove(pin) }
            if step == 180 { space.remove(late, lateShape) }
            try space.step(1.0 / 60)
            if step % 2 == 0 { record(step) }
        }
        #expect(truth.states.joined().contains(2), "a box went to sleep")
        #expect(truth.contactCounts.contains { $0 > 0 })

        let folder = try TemporaryFolder("payload")
        defer { folder.remove() }
        let page = folder.url.appendingPathComponent("payload.html")
        try Data(try playback.html().utf8).write(to: page)
        let decoded = try decode(page, in: folder)
        let grid = try #require(decoded["grid"] as? [String: Double])
        let steps = try #require(decoded["steps"] as? [Double])
        let samples = try #require(decoded["samples"] as? [Double])
        let states = try #require(decoded["states"] as? [Int])
        let present = try #require(decoded["present"] as? [Int])
        let opacity = try #require(decoded["opacity"] as? [Int])
        let contactCounts = try #require(decoded["contactCounts"] as? [Int])

        let frames = truth.steps.count
        #expect(steps.map { Int($0) } == truth.steps)
        #expect(contactCounts == truth.contactCounts)
        #expect(present == truth.present.map { Int($0[0]) })
        let grids = [
            grid["position"]!, grid["position"]!, grid["angle"]!, grid["velocity"]!, grid["velocity"]!,
            grid["velocity"]!,
        ]
        var worst = 0.0
        for (b, _) in order.enumerated() {
            for frame in 0..<frames {
                #expect(states[b * frames + frame] == Int(truth.states[frame][b]), "body \(b), frame \(frame)")
                guard let values = truth.samples[frame][b] else { continue }
                #expect(opacity[b * frames + frame] == Int(truth.opacity[frame][b]), "body \(b), frame \(frame)")
                for q in 0..<6 {
                    let error = abs(samples[(b * frames + frame) * 6 + q] - values[q]) / grids[q]
                    worst = max(worst, error)
                }
            }
        }
        #expect(worst <= 0.5 + 1e-6, "every sample within half a grid step of the truth (worst \(worst))")
    }

    /// What the page's own decoder read from the page's own payload, in Chromium (the
    /// player's `window.replay.payload`, from `decodeReplayPayload`).
    func decode(_ page: URL, in folder: TemporaryFolder) throws -> [String: Any] {
        let object = try Chromium.results(
            of: """
                const d = window.replay.payload;
                out.grid = JSON.parse(document.getElementById("replay-header").textContent).grid;
                for (const key of ["steps", "samples", "states", "present", "opacity", "contactCounts"]) {
                  out[key] = Array.from(d[key]);
                }
                """, in: page)
        #expect(object["error"] == nil, "\(object["error"] ?? "")")
        return object
    }
}
