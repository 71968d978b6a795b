import Chipmunk

extension Space {
    /// Calls `body` once for each contact point now: the middle of its two surface points,
    /// and the contact's normal. Each contact is visited from its first body (or from the
    /// moving one when the first is static), so none comes twice.
    package func forEachContactPoint(_ body: (_ point: Vector, _ normal: Vector) -> Void) {
        for moving in bodies where moving.kind != .static {
            moving.forEachArbiter { arbiter in
                let first = arbiter.bodies.0
                guard first === moving || first.kind == .static else { return }
                let set = arbiter.contactPointSet
                for point in set { body((point.pointA + point.pointB) * 0.5, set.normal) }
            }
        }
    }
}
