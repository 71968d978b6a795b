import Chipmunk
import ChipmunkDynamics
@testable import ChipmunkCatalog
@testable import ChipmunkScenes
@testable import ChipmunkPictures
import Foundation
import SnapshotTesting
import Testing

@Suite struct FrameTests {
    /// Found by the snapshot fuzzer: a shape far outside the view (here 1e15 away, drawn at
    /// 640 pixels a unit) trapped converting its SVG coordinate to `Int`; the text picture
    /// trapped the same way on its dot indices. Far coordinates keep an exponent now.
    @Test func shapesFarOutsideTheViewDraw() {
        let space = Space()
        let far = Body(kind: .static)
        far.position = [1e15, -1e15]
        space.add(far, Circle(body: far, radius: 1), Circle(body: space.staticBody, radius: 0.25))
        let frame = Frame(space)
        let view = FrameView(x: -0.5, y: -0.5, width: 1, height: 1)
        let svg = frame.svg(view: view, pixelWidth: 640)
        #expect(svg.contains("cx=\"6.400000000000003e+17\""), "\(svg.prefix(600))")
        #expect(frame.text(view: view, columns: 8).contains("\u{28FF}"), "the near circle is drawn")
    }

    @Test(
        "Every built-in scene renders to SVG with an element for every primitive, and to text",
        arguments: SceneCatalog.builtIn.map(\.name))
    func everyScene(name: String) throws {
        let scene = try SceneCatalog.scene(named: name)
        for _ in 0..<60 { try scene.step(scene.timeStep) }
        let frame = Frame(scene.space)
        #expect(!frame.primitives.isEmpty)
        let view = FrameView(fitting: frame)
        let svg = frame.svg(view: view)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        let elements = ["<polygon", "<circle", "<line"].map { svg.components(separatedBy: $0).count - 1 }.reduce(0, +)
        #expect(elements >= frame.primitives.count)
        let text = frame.text(view: view, columns: 60)
        #expect(text.unicodeScalars.contains { $0.value > 0x2800 && $0.value <= 0x28FF }, "some dots are set")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 60 })
    }

    @Test(
        "The SVG of every built-in scene after 60 steps matches its golden file (swift-snapshot-testing)",
        arguments: SceneCatalog.builtIn.map(\.name))
    func svgGolden(name: String) throws {
        let scene = try SceneCatalog.scene(named: name)
        for _ in 0..<60 { try scene.step(scene.timeStep) }
        let frame = Frame(scene.space, options: .all)
        // Record again with SNAPSHOT_TESTING_RECORD=all swift test --filter svgGolden.
        var view = FrameView(fitting: frame)
        view.yPointsDown = scene.yAxisPointsDown
        assertSnapshot(of: frame.svg(view: view, pixelWidth: 480), as: .lines, named: name)
    }

    @Test("The picture's y axis points up: the crate starts near the top of its view, and lands at the bottom")
    func yPointsUp() throws {
        let scene = BookScenes.crates()
        let view = FrameView(x: 0, y: 0, width: 300, height: 300)
        func crateTop(_ svg: String) -> Double {
            // The crates are the non-grey polygons; their smallest picture y is their top.
            let polygons = svg.split(separator: "\n").filter {
                $0.hasPrefix("<polygon") && !$0.contains("rgb(168,168,168)")
            }
            let ys = polygons.flatMap { line -> [Double] in
                let points = line.components(separatedBy: "points=\"")[1].components(separatedBy: "\"")[0]
                return points.split(separator: " ").compactMap { Double($0.split(separator: ",")[1]) }
            }
            return ys.min() ?? .nan
        }
        let before = crateTop(Frame(scene.space).svg(view: view, pixelWidth: 300))
        for _ in 0..<600 { try scene.step(scene.timeStep) }
        let after = crateTop(Frame(scene.space).svg(view: view, pixelWidth: 300))
        #expect(before < 100, "crates start high up: small picture y (\(before))")
        #expect(after > 150, "crates rest on the floor: large picture y (\(after))")
    }

    /// UIKit's `alpha` is not the engine's: the scene's `bodyOpacity` carries it into the
    /// picture. At step 200 of ui-snake some bricks touch the screen's edge and are dimmed.
    @Test("ui-snake: a brick dimmed to alpha 0.5 is filled at half opacity, and only those")
    func dimmedBricks() throws {
        let snake = DynamicsScenes.snake()
        for _ in 0..<200 { try snake.scene.step(snake.scene.timeStep) }
        let dimmed = snake.bricks.filter { $0.alpha == 0.5 }
        #expect(dimmed.count >= 2, "bricks on the edge at step 200")
        func fills(_ frame: Frame) -> [Float] {
            frame.primitives.compactMap { if case let .polygon(_, _, _, fill) = $0 { fill.alpha } else { nil } }
        }
        let frame = Frame(snake.scene.space, opacity: snake.scene.bodyOpacity)
        #expect(fills(frame).filter { $0 == 0.5 }.count == dimmed.count)
        #expect(fills(frame).allSatisfy { $0 == 0.5 || $0 == 1 })
        #expect(fills(Frame(snake.scene.space)).allSatisfy { $0 == 1 }, "without the scene's opacity, all opaque")
        let svg = frame.svg(view: FrameView(x: 0, y: 0, width: 320, height: 480, yPointsDown: true), pixelWidth: 320)
        #expect(svg.components(separatedBy: "fill-opacity=\"0.5\"").count - 1 == dimmed.count)
    }

    @Test("In text, the crates fill the bottom of their box and leave the top empty")
    func textShowsTheStack() throws {
        let scene = BookScenes.crates()
        for _ in 0..<600 { try scene.step(scene.timeStep) }
        let lines = Frame(scene.space).text(view: FrameView(x: 0, y: 0, width: 300, height: 300), columns: 30).split(
            separator: "\n")
        let full = lines.map { line in line.unicodeScalars.filter { $0.value == 0x28FF }.count }
        #expect(full.prefix(full.count / 2).allSatisfy { $0 == 0 }, "nothing solid in the upper half")
        #expect(full.suffix(4).contains { $0 >= 5 }, "crates fill cells near the floor")
    }
}

@Suite struct FramePNGTests {
    @Test("Cairo draws the crates where the physics has them, y up, and leaves empty space white")
    func cratesInPixels() throws {
        let scene = BookScenes.crates()
        for _ in 0..<600 { try scene.step(scene.timeStep) }
        let image = try Frame(scene.space).png(view: FrameView(x: 0, y: 0, width: 300, height: 300), pixelWidth: 300)
        #expect(image.width == 300 && image.height == 300)
        #expect(Array(image.png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "a PNG file")
        func isWhite(_ x: Double, _ y: Double) -> Bool {
            let c = image.color(x: Int(x), y: 299 - Int(y))  // world y up, picture rows down
            return c.red > 240 && c.green > 240 && c.blue > 240
        }
        for body in scene.space.bodies {
            #expect(!isWhite(body.position.x, body.position.y), "a crate's centre at \(body.position) is drawn")
        }
        #expect(isWhite(150, 250) && isWhite(250, 150), "nothing up there after the crates settled")
    }

    @Test("Every built-in scene draws to PNG", arguments: SceneCatalog.builtIn.map(\.name))
    func everyScene(name: String) throws {
        let scene = try SceneCatalog.scene(named: name)
        for _ in 0..<30 { try scene.step(scene.timeStep) }
        let frame = Frame(scene.space)
        let image = try frame.png(view: FrameView(fitting: frame), pixelWidth: 320)
        #expect(image.width == 320 && image.png.count > 100)
        let nonWhite = (0..<image.height).reduce(0) { count, y in
            count + (0..<image.width).filter { x in image.color(x: x, y: y) != (255, 255, 255) }.count
        }
        #expect(nonWhite > 100, "something is drawn")
    }
}
