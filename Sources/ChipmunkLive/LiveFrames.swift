import Chipmunk
import ChipmunkPictures
import ChipmunkScenes
import Foundation

/// What the server sends a viewer: the scene's description as JSON text when its bodies or
/// shapes change, and a small binary frame 60 times a second (docs/live.md, "Protocol").
package enum LiveFrames {
    /// The binary frame's layout, little-endian; `live.js` reads the same offsets.
    ///
    /// | bytes | field |
    /// |---|---|
    /// | 0 | u32 1 (a frame) |
    /// | 4 | u32 steps taken |
    /// | 8 | u32 flags: 1 paused, 2 failed, 4 recording full, 8 this viewer holds a body |
    /// | 12 | f32 speed |
    /// | 16 | f32 gravity x, f32 gravity y |
    /// | 24 | u32 first and u32 last step the ring can go back to |
    /// | 32 | u32 structure version (the scene message it goes with) |
    /// | 36 | u32 bodies, u32 hands |
    /// | 44 | per body: f32 x, f32 y, f32 angle, u32 flags (1 sleeping) |
    /// | … | per hand: f32 hand x, y, held point x, y |
    package static let headerBytes = 44

    /// One frame of `session`, for a viewer that holds a body or not.
    package static func frame(_ session: LiveSession, holding: Bool, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        let space = session.scene.space
        let bodies = space.bodies
        let hands = session.handLines
        func u32(_ value: Int) {
            let v = UInt32(clamping: value)
            withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func f32(_ value: Double) {
            withUnsafeBytes(of: Float(value).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        var flags = 0
        if session.isPaused { flags |= 1 }
        if session.failure != nil { flags |= 2 }
        if session.recordingIsFull { flags |= 4 }
        if holding { flags |= 8 }
        u32(1)
        u32(session.step)
        u32(flags)
        f32(session.speed)
        f32(space.gravity.x)
        f32(space.gravity.y)
        let range = session.scrubRange
        u32(range.lowerBound)
        u32(range.upperBound)
        u32(session.structureVersion)
        u32(bodies.count)
        u32(hands.count)
        for body in bodies {
            f32(body.position.x)
            f32(body.position.y)
            f32(body.angle)
            u32(body.isSleeping ? 1 : 0)
        }
        for line in hands {
            f32(line.hand.x)
            f32(line.hand.y)
            f32(line.held.x)
            f32(line.held.y)
        }
    }

    /// The scene's description: its bodies' shapes in their own coordinates (in the order
    /// of the frame's bodies), the static shapes in the world's, and the view that fits them.
    package static func sceneMessage(_ session: LiveSession) -> String {
        let scene = session.scene
        let space = scene.space
        var box: BoundingBox?
        for shape in space.shapes {
            let b = shape.boundingBox
            guard b.left.isFinite, b.right.isFinite, b.bottom.isFinite, b.top.isFinite else { continue }
            box = box.map { $0.union(b) } ?? b
        }
        let view = box ?? BoundingBox(left: -100, bottom: -100, right: 100, top: 100)
        let bodies = space.bodies.map { body in
            BodyDescription(
                name: scene.name(of: body), kind: "\(body.kind)",
                shapes: body.shapes.map { ShapeGeometry($0, in: .body) })
        }
        let statics = space.staticBody.shapes.map { ShapeGeometry($0, in: .world) }
        let message = SceneMessage(
            name: scene.name, source: session.source, version: session.structureVersion, timeStep: scene.timeStep,
            yDown: scene.yAxisPointsDown, gravity: [session.initialGravity.x, session.initialGravity.y],
            view: [view.left, view.bottom, view.right, view.top], bodies: bodies,
            statics: statics, failure: session.failure)
        return String(decoding: (try? JSONEncoder().encode(message)) ?? Data("{}".utf8), as: UTF8.self)
    }

    private struct BodyDescription: Encodable {
        var name: String
        var kind: String
        var shapes: [ShapeGeometry]
    }

    private struct SceneMessage: Encodable {
        var type = "scene"
        var name: String
        var source: String
        var version: Int
        var timeStep: Double
        var yDown: Bool
        /// Gravity as the scene was built.
        var gravity: [Double]
        var view: [Double]
        var bodies: [BodyDescription]
        var statics: [ShapeGeometry]
        var failure: String?
    }

    /// What a viewer sees of the body at a point: name, kind, motion, mass, whether it
    /// sleeps, its contacts and its constraints.
    package static func inspection(_ session: LiveSession, at point: Vector) -> String {
        struct Inspection: Encodable {
            var type = "inspect"
            var body: String?
            var kind: String?
            var position: [Double]?
            var angle: Double?
            var velocity: [Double]?
            var angularVelocity: Double?
            var mass: Double?
            var moment: Double?
            var sleeping: Bool?
            var contacts: [String]?
            var constraints: [String]?
        }
        var result = Inspection()
        let scene = session.scene
        let found = scene.space.pointQuery(point, maxDistance: 5).min { $0.distance < $1.distance }?.shape.body
        if let body = found, body !== scene.space.staticBody {
            result.body = scene.name(of: body)
            result.kind = "\(body.kind)"
            result.position = [body.position.x, body.position.y]
            result.angle = body.angle
            result.velocity = [body.velocity.x, body.velocity.y]
            result.angularVelocity = body.angularVelocity
            result.mass = body.mass
            result.moment = body.moment
            result.sleeping = body.isSleeping
            var contacts: [String] = []
            body.forEachArbiter { arbiter in
                let (a, b) = arbiter.bodies
                let other = a === body ? b : a
                contacts.append("\(scene.name(of: other)) (\(counted(arbiter.count, "point")))")
            }
            result.contacts = contacts
            result.constraints = scene.space.constraints.filter { $0.bodyA === body || $0.bodyB === body }.map {
                let other = $0.bodyA === body ? $0.bodyB : $0.bodyA
                return "\(type(of: $0)) to \(scene.name(of: other))"
            }
        }
        // A body that never turns has a moment of infinity, which JSON has no number for.
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "infinity", negativeInfinity: "-infinity", nan: "nan")
        return String(decoding: (try? encoder.encode(result)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A notice for the page: an error to show (a reload that failed, a message refused).
    package static func notice(_ kind: String, _ text: String) -> String {
        struct Notice: Encodable {
            var type: String
            var text: String
        }
        return String(
            decoding: (try? JSONEncoder().encode(Notice(type: kind, text: text))) ?? Data("{}".utf8), as: UTF8.self)
    }
}
