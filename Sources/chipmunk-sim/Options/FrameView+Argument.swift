import ArgumentParser
import Chipmunk
import ChipmunkPictures
import Foundation

extension FrameView {
    /// `--view x,y,width,height`, as `render`, `play` and `run` take it: ArgumentParser
    /// calls this once, and the error says what is wrong with the rectangle.
    static func parse(_ view: String) throws -> FrameView {
        let parts = view.split(separator: ",", omittingEmptySubsequences: false)
            .compactMap { Double(decimal: $0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, parts.allSatisfy(\.isFinite), parts[2] > 0, parts[3] > 0 else {
            throw ValidationError("--view must be x,y,width,height with a positive width and height (got \(view))")
        }
        if let problem = FrameView.problem(x: parts[0], y: parts[1], width: parts[2], height: parts[3]) {
            throw ValidationError("--view: \(problem)")
        }
        return FrameView(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }
}
