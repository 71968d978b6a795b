internal import CChipmunk
internal import CChipmunkRuntime

extension Space {
    /// How many pairs the engine's broad phase would record if `shape` were added now: one
    /// for each shape whose bounding box overlaps it, unless both are on static bodies
    /// (static shapes are kept in a tree that makes no pairs). Shapes of one body count:
    /// the tree pairs them as any others, and only the narrow phase skips them (15,000
    /// circles on one body, counted as 0 when only other bodies counted, took over 6 GB).
    ///
    /// Adding a shape makes the engine's default broad phase record a pair for each such
    /// shape at once, and a step then keeps an arbiter, about 560 bytes with its contacts,
    /// for each pair that touches, solved every iteration: 10,000 circles added on one
    /// point took 2.7 GB before any step, and 1,415 (1,000,000 pairs) took 564 MB and 2.4 s
    /// a step in a release build. Readers of files count with this before each add, to
    /// refuse such a pile before it claims the memory. Counting stops a little past `limit`.
    package func overlappingPairs(with shape: Shape, limit: Int = .max) -> Int {
        let box = shape.cacheBoundingBox()
        let isStatic = shape.body.kind == .static
        // The default broad phase keeps each moving shape under a box widened by a tenth of
        // its size and by a tenth of a second of its body's velocity, and pairs those
        // boxes: bodies that start apart but fly at one point pair at once (5,000 did, 12.5
        // million pairs, as they were added). Counted on the trees themselves.
        if CChipmunkBroadPhaseLayoutIsKnown() != 0, spatialHash == nil {
            let c = shape.handle.pointee.bb
            var (l, b, r, t) = (c.l, c.b, c.r, c.t)
            if !isStatic {
                let x = (r - l) * 0.1
                let y = (t - b) * 0.1
                let v = shape.body.handle.pointee.v
                l += min(-x, v.x * 0.1)
                b += min(-y, v.y * 0.1)
                r += max(x, v.x * 0.1)
                t += max(y, v.y * 0.1)
            }
            let limit = Int64(min(limit, Int(Int64.max - 1)))
            let dynamic = CChipmunkTreeOverlapCount(handle.pointee.dynamicShapes, l, b, r, t, limit)
            let fixed = isStatic ? 0 : CChipmunkTreeOverlapCount(handle.pointee.staticShapes, l, b, r, t, limit)
            if dynamic >= 0, fixed >= 0 { return Int(dynamic + fixed) }
        }
        var count = 0
        for other in boundingBoxQuery(box) where !(isStatic && other.body.kind == .static) {
            count += 1
        }
        return count
    }
}
