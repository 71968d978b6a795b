import ArgumentParser
import Chipmunk
import ChipmunkCatalog
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
            --view gives it; --size WxH makes the picture exactly that size, widening the view \
            to its shape. --format png draws through Cairo (Debian's libcairo2); --format \
            text draws with braille characters, one cell 2×4 dots (--size counts characters). \
            --contacts adds each contact point and a short line along its normal.

            --every K draws every Kth step from 0 to --step, one file each: -o then names them \
            with a printf number, as in frames/crates-%04d.png (the step goes in). Text goes to \
            -o (stdout by default), each frame under a line "step N", or one file a frame when \
            -o holds a printf number.

            A snapshot file continues the run it was taken from, as in `run`: --step counts the \
            steps to add (0: the snapshot's own step), and frames are numbered by the run's \
            step, so crates-120.snapshot --step 60 draws step 180.

            Examples:
              chipmunk-sim render crates --step 600 --format text
              chipmunk-sim render Scenes/pyramid-stack.json --step 1200 -o pyramid.svg
              chipmunk-sim render chains --step 900 --format png -o chains.png
              chipmunk-sim render crates-120.snapshot -o crates.svg
              chipmunk-sim render crates --step 240 --every 60 --format png --size 300x300 -o crates-%04d.png
            """
    )

    @Argument(help: "A built-in scene, a scene file or a snapshot file.") var scene: String

    @Option(
        parsing: .unconditional,
        help:
            "Draw after this many steps (0, the default: as built, or a snapshot as taken); with --every, the last step drawn.",
        transform: WholeNumber.parser(0...WholeNumber.maxStep, "steps"))
    var step = 0

    @Option(
        parsing: .unconditional,
        help: "Draw every Kth step from 0 (a snapshot: its step) to --step, one file each (see -o).",
        transform: WholeNumber.parser(1...WholeNumber.maxStep, "steps"))
    var every: Int?

    @Option(
        help: ArgumentHelp(
            "The picture's format (default: from -o's extension, .svg, .png or .txt; else svg).",
            discussion: "A --format that disagrees with -o's extension is an error."))
    var format: PictureFormat?

    @Option(
        parsing: .unconditional,
        help: "Picture width: pixels for SVG and PNG (default 640), characters for text (default 80).",
        transform: WholeNumber.parser(PictureSize.sides, "pixels or characters"))
    var width: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The picture's exact size: pixels for SVG and PNG, characters for text.", valueName: "WxH"),
        transform: PictureSize.parse)
    var size: PictureSize?

    @OptionGroup var viewOption: ViewOption
    /// `--view`.
    var view: FrameView? { viewOption.view }

    @Flag(help: "Draw contact points and their normals too.") var contacts = false

    @Option(name: [.short, .customLong("output")], help: "The file to write ('-': stdout).") var output = "-"

    /// The format: `--format`, else the one `-o`'s extension names, else SVG.
    var pictureFormat: PictureFormat { format ?? PictureFormat(extensionOf: output) ?? .svg }

    func validate() throws {
        // First: writing over the scene is the worst of what -o can get wrong.
        try Output.refuseOverwriting(output, option: "-o", inputs: [("the scene file being read", scene)])
        if let format, let named = PictureFormat(extensionOf: output), named != format {
            throw ValidationError(
                "--format \(format.rawValue) does not match -o \(output), whose extension says \(named.rawValue); give one of them, or make them agree"
            )
        }
        // `-o x.gif` wrote SVG into x.gif: an extension that names no format of ours is
        // refused unless --format says what to write.
        let suffix = URL(fileURLWithPath: output).pathExtension
        if format == nil, output != "-", !suffix.isEmpty, PictureFormat(extensionOf: output) == nil {
            throw ValidationError(
                "-o \(output): .\(suffix) is no format render writes; end it in .svg, .png or .txt, or give --format")
        }
        let format = pictureFormat
        if format == .png, output == "-" { throw ValidationError("--format png needs -o FILE") }
        if size != nil, width != nil { throw ValidationError("give --size or --width, not both") }
        if format == .text, let size, size.width * size.height > FrameView.maxTextCharacters {
            throw ValidationError(
                "--size \(size) is \(size.width * size.height) characters of text, more than "
                    + "\(FrameView.maxTextCharacters) (2000x2000)")
        }
        if every != nil {
            guard step > 0 else { throw ValidationError("--every needs --step N, the last step to draw") }
            // Text frames go to one file (or stdout) unless -o numbers them.
            if format != .text || output.contains("%") {
                guard output.contains("%") else {
                    throw ValidationError(
                        "--every writes a file a frame: give -o with a number in it, such as frames/crates-%04d.\(format.fileExtension)"
                    )
                }
                guard output.filter({ $0 == "%" }).count == 1,
                    let number = output.range(of: #"%0?[0-9]*d"#, options: .regularExpression)
                else {
                    throw ValidationError("-o must hold one printf number such as %d or %04d (got \(output))")
                }
                // A width of 99,999,999 padded every name with that many spaces: the run
                // hung building them. No step number needs more than 20 digits.
                let width = output[number].dropFirst().dropLast().drop(while: { $0 == "0" })
                guard width.count <= 2, Int(width) ?? 0 <= 20 else {
                    throw ValidationError(
                        "-o's number may be at most 20 digits wide, such as %04d (got \(output[number]))")
                }
            }
        }
    }

    func run() throws {
        // A view given with a width fixes the text's size: checked before any step is taken.
        if pictureFormat == .text, size == nil, let view { try Self.requireTextFits(view, columns: width ?? 80) }
        let scene = try SceneCatalog.scene(opening: self.scene, warn: Output.warning)
        // A snapshot goes on from its own step (as `run`'s does): --step counts steps to add,
        // and the frames are named by the run's step. Both are bounded, so is their sum.
        let first = scene.stepCount
        let last = first + step
        let stride = every ?? max(step, 1)
        var text = ""
        // The frames drawn, with their files and steps, for the summary.
        var frames: [(path: String, step: Int)] = []
        for target in Swift.stride(from: every == nil ? last : first, through: last, by: stride) {
            while scene.stepCount < target {
                do {
                    try scene.step(scene.timeStep)
                } catch {
                    if !text.isEmpty { try write(Array(text.utf8), to: output) }
                    throw RunError(
                        "\(ChipmunkError.stepFailure(scene.stepCount + 1, "\(error)")); the frames before it were drawn"
                    )
                }
            }
            let bytes = try draw(scene)
            if every != nil, pictureFormat == .text, !output.contains("%") {
                text += "step \(target)\n" + String(decoding: bytes, as: UTF8.self)
                frames.append((output, target))
            } else if every != nil {
                frames.append((String(format: output, target), target))
                try write(bytes, to: frames.last!.path)
            } else {
                try write(bytes, to: output)
            }
        }
        if !text.isEmpty { try write(Array(text.utf8), to: output) }
        if output != "-" {
            if let first = frames.first, let last = frames.last, frames.count > 1 {
                Output.summary(
                    first.path == last.path
                        ? "wrote \(output): \(frames.count) frames, steps \(first.step) to \(last.step)"
                        : "wrote \(frames.count) frames, \(first.path) to \(last.path)")
            } else {
                Output.summary("wrote \(frames.first?.path ?? output): step \(frames.first?.step ?? last)")
            }
        }
    }

    /// The picture of the scene now.
    private func draw(_ scene: Scene) throws -> [UInt8] {
        let format = pictureFormat
        let frame = Frame(scene.space, options: contacts ? .all : [.shapes, .constraints], opacity: scene.bodyOpacity)
        var view = self.view ?? FrameView(fitting: frame)
        view.yPointsDown = scene.yAxisPointsDown
        var pixelWidth = width ?? (format == .text ? 80 : 640)
        if let size {
            // Text cells are 2 dots wide and 4 high; the view widens to the picture's shape.
            let aspect =
                format == .text
                ? Double(size.width * 2) / Double(size.height * 4) : Double(size.width) / Double(size.height)
            view = view.widened(toAspect: aspect)
            pixelWidth = size.width
        }
        switch format {
        case .png:
            return try frame.png(view: view, pixelWidth: pixelWidth).png
        case .svg: return Array(frame.svg(view: view, pixelWidth: pixelWidth).utf8)
        case .text:
            try Self.requireTextFits(view, columns: pixelWidth)
            return Array(frame.text(view: view, columns: pixelWidth).utf8)
        }
    }

    /// Refuses a text picture larger than ``FrameView/maxTextCharacters``: 20,000 × 20,000
    /// characters took minutes and gigabytes, and a view's shape alone (up to 10,000 times
    /// as tall as wide) could ask for 400,000 rows of 80.
    private static func requireTextFits(_ view: FrameView, columns: Int) throws {
        let rows = view.textRows(columns: columns)
        guard rows <= PictureSize.sides.upperBound, columns * rows <= FrameView.maxTextCharacters else {
            throw RunError(
                "a text picture of \(columns) × \(rows) characters is too large (at most "
                    + "\(PictureSize.sides.upperBound) a side and \(FrameView.maxTextCharacters) in all): "
                    + "give a smaller --width or --size, or a --view nearer the picture's shape")
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Output.file(bytes, to: path, option: "-o")
    }
}
