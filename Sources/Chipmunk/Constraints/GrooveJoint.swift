internal import CChipmunk

/// Keeps an anchor on body B in a groove (a segment) on body A, like a pin in a slot.
/// The corresponding C type is `cpGrooveJoint`.
public final class GrooveJoint: Constraint {
    /// The groove runs from `grooveA` to `grooveB` on `a`; `anchorB` is on `b` (body coordinates).
    /// The corresponding C function is `cpGrooveJointNew`.
    public init(_ a: Body, _ b: Body, grooveA: Vector, grooveB: Vector, anchorB: Vector) throws(ChipmunkError) {
        try requireFinite(grooveA, "groove A")
        try requireFinite(grooveB, "groove B")
        try requireFinite(anchorB, "anchor B")
        super.init(handle: cpGrooveJointNew(a.handle, b.handle, grooveA.cp, grooveB.cp, anchorB.cp), bodyA: a, bodyB: b)
    }

    /// The groove's start on body A. The corresponding C function is `cpGrooveJointGetGrooveA`.
    public var grooveA: Vector {
        Vector(cpGrooveJointGetGrooveA(handle))
    }
    /// The groove's end on body A. The corresponding C function is `cpGrooveJointGetGrooveB`.
    public var grooveB: Vector {
        Vector(cpGrooveJointGetGrooveB(handle))
    }
    /// The anchor on body B. The corresponding C function is `cpGrooveJointGetAnchorB`.
    public var anchorB: Vector {
        Vector(cpGrooveJointGetAnchorB(handle))
    }
    /// Moves the groove. The corresponding C functions are `cpGrooveJointSetGrooveA` and `cpGrooveJointSetGrooveB`.
    public func setGroove(from a: Vector, to b: Vector) throws(ChipmunkError) {
        try requireFinite(a, "groove A")
        try requireFinite(b, "groove B")
        cpGrooveJointSetGrooveA(handle, a.cp)
        cpGrooveJointSetGrooveB(handle, b.cp)
    }
}
