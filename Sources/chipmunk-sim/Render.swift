import ArgumentParser
import Chipmunk
import ChipmunkScenes
import ChipmunkPictures
import Foundation

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a scene at a step, through the engine's debug drawing: SVG, PNG, or text for a terminal.",
        discussion: """
            Shapes are drawn in the Chipmunk demos' colours: static bodies grey, sleeping ones \
            dark, sensors faint; constraints in green, contact points (--contacts) in red. The \
            physics y axis points up in the picture. The view fits everything drawn unless \
            --view gives it. --format png draws through Cairo (Debian's libcairo2); --format \
            text draws with braille characters, one cell 2×4 dots.

            Examples:
              chipmunk-sim render crates --step 600 --format text
              chipmunk-sim render Scenes/pyramid-stack.json --step 1200 -o pyramid.svg
              chipmunk-sim render chains --step 900 --format png -o chains.png
              chipmunk-sim render crates-120.snapshot -o crates.svg
            """
    )

    @Argument(help: "A built-in scene, a scene file or a snapshot file.") var scene: String

    @Option(help: "Draw after this many steps (0: as built).") var step = 0

    @Option(help: "svg, png or text.") var format = "svg"

    @Option(help: "Picture width: pixels for SVG and PNG (default 640), characters for text (default 80).")
    var width: Int?

    @Option(help: "The world rectangle to show, as x,y,width,height (default: fit the scene).") var view: String?

    @Flag(help: "Draw contact points too.") var contacts = false

    @Option(name: [.short, .customLong("output")], help: "The file to write ('-': stdout).") var output = "-"

    func validate() throws {
        guard ["svg", "png", "text"].contains(format) else {
            throw ValidationError("--format must be svg, png or text (got \(format))")
        }
        if format == "png", output == "-" { throw ValidationError("--format png needs -o FILE") }
        guard (0...10_000_000).contains(step) else {
            throw ValidationError("--step must be from 0 to 10000000 (got \(step))")
        }
        if let width, !(1...20_000).contains(width) {
            throw ValidationError("--width must be from 1 to 20000 (got \(width))")
        }
        _ = try FrameView(argument: view)
    }

    func run() throws {
        let scene = try SceneCatalog.scene(opening: self.scene)
        for index in 0..<step {
            do {
                try scene.step(scene.timeStep)
            } catch {
                throw RunError("step \(index + 1) failed: \(error); nothing was drawn")
            }
        }
        let frame = Frame(scene.space, options: contacts ? .all : [.shapes, .constraints])
        var view = try FrameView(argument: view) ?? FrameView(fitting: frame)
        view.yPointsDown = scene.yAxisPointsDown
        let bytes: [UInt8]
        switch format {
        case "png":
            do {
                bytes = try frame.png(view: view, pixelWidth: width ?? 640).png
            } catch {
                throw RunError("\(error)")
            }
        case "svg": bytes = Array(frame.svg(view: view, pixelWidth: width ?? 640).utf8)
        default: bytes = Array(frame.text(view: view, columns: width ?? 80).utf8)
        }
        if output == "-" {
            FileHandle.standardOutput.write(Data(bytes))
        } else {
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw ValidationError("cannot write -o \(output): \(error.localizedDescription)")
            }
        }
    }
}

extension FrameView {
    /// `--view x,y,width,height`, or nil when the option was not given.
    init?(argument view: String?) throws {
        guard let view else { return nil }
        let parts = view.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, parts.allSatisfy({ $0?.isFinite == true }), parts[2]! > 0, parts[3]! > 0 else {
            throw ValidationError("--view must be x,y,width,height with a positive width and height (got \(view))")
        }
        self.init(x: parts[0]!, y: parts[1]!, width: parts[2]!, height: parts[3]!)
    }
}
