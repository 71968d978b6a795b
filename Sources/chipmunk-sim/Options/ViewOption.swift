import ArgumentParser
import ChipmunkPictures

/// `--view x,y,width,height`: the world rectangle a picture shows, for `play`, `run
/// --format html` and `render`; each command fits the scene when it is not given.
struct ViewOption: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: "The world rectangle to show, as x,y,width,height (default: fitted to the scene).",
        transform: FrameView.parse)
    var view: FrameView?
}
