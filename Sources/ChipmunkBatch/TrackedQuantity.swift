import Chipmunk
import ChipmunkScenes
import Foundation

/// A quantity a sweep follows through each run: `energy` (the dynamic bodies' total
/// kinetic energy) or `BODY.q`, q one of x, y, vx, vy, speed, angle, w.
package struct TrackedQuantity: Sendable, Hashable {
    package enum Measure: String, Sendable, CaseIterable { case x, y, vx, vy, speed, angle, w }

    package var name: String
    /// nil for `energy`.
    package var body: String?
    package var measure: Measure?

    package init(parsing text: String) throws(SweepError) {
        name = text
        if text == "energy" { return }
        guard let dot = text.lastIndex(of: "."),
            let measure = Measure(rawValue: String(text[text.index(after: dot)...])),
            dot != text.startIndex
        else {
            throw .badInput(.trackOption(text), .notAQuantity)
        }
        body = String(text[..<dot])
        self.measure = measure
    }
}
