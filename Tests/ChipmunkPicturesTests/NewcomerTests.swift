import Chipmunk
import ChipmunkDynamics
import ChipmunkPictures
import Foundation
import Testing

/// A newcomer draws a DynamicAnimator's items (helper h19).
struct PicturesNewcomerTests {
    @Test func drawsAnimatorItemsWithAlpha() throws {
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
        let a = ItemView(name: "a", center: Vector(x: 100, y: 100), size: Size(width: 50, height: 50))
        let b = ItemView(name: "b", center: Vector(x: 200, y: 100), size: Size(width: 50, height: 50))
        b.alpha = 0.5
        animator.addBehavior(GravityBehavior(items: [a, b]))
        try animator.advance(by: 0.1)
        let frame = Frame(animator.space, opacity: { (animator.item(for: $0) as? ItemView)?.alpha ?? 1 })
        let view = FrameView(fitting: frame, yPointsDown: true)
        #expect(view.yPointsDown)
        #expect(animator.item(for: animator.body(for: b)!) === b)
        #expect(animator.item(for: animator.space.staticBody) == nil)
        let svg = frame.svg(view: view)
        #expect(svg.components(separatedBy: "fill-opacity=\"0.5\"").count - 1 == 1)
        _ = try frame.png(view: view, pixelWidth: 64)
    }

    @Test func drawsItemsAtExtremes() throws {
        let animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
        let tiny = ItemView(name: "t", center: Vector(x: 0, y: 0), size: Size(width: 1e-6, height: 1e-6))
        let far = ItemView(name: "f", center: Vector(x: 1e15, y: 0), size: Size(width: 1e-6, height: 1e-6))
        let huge = ItemView(name: "h", center: Vector(x: -1e15, y: 1e15), size: Size(width: 1e15, height: 1e15))
        animator.addBehavior(DynamicItemBehavior(items: [tiny, far, huge]))
        try animator.step()
        let frame = Frame(animator.space)
        let view = FrameView(fitting: frame)
        _ = frame.svg(view: view, pixelWidth: 32)
        _ = try frame.png(view: view, pixelWidth: 32)
        _ = frame.text(view: view, columns: 20)
    }
}
