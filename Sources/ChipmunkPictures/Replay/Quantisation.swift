import Chipmunk
import Foundation

/// The grids the player's numbers are rounded to, from the view's size: fine enough that
/// the rounding never shows (a position's grid is a millionth of the view).
struct Quantisation: Encodable {
    var position: Double
    var angle: Double
    var velocity: Double
    var contact: Double

    init(view: FrameView) {
        let size = max(view.width, view.height)
        position = size / 1_048_576
        angle = 2 * .pi / 1_048_576
        velocity = size / 65536
        contact = size / 65536
    }

    /// `value` on a grid of `step`, clamped to ±2⁵² so that any finite or infinite value fits.
    static func grid(_ value: Double, _ step: Double) -> Int64 {
        let scaled = (value / step).rounded()
        guard scaled.isFinite else { return scaled.isNaN ? 0 : scaled > 0 ? 1 << 52 : -(1 << 52) }
        return Int64(min(max(scaled, -4_503_599_627_370_496), 4_503_599_627_370_496))
    }
}
