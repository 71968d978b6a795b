internal import CChipmunk

/// Keeps an anchor on body B in a groove (a segment) on body A, like a pin in a slot.
///
/// The corresponding C type is `cpGrooveJoint`.
public final class GrooveJoint: Constraint {
    /// The groove runs from `grooveA` to `grooveB` on `a`; `anchorB` is on `b`, in body
    /// coordinates (rules: ``Parameter/grooveEnd``, ``Parameter/anchor``).
    ///
    /// The corresponding C function is `cpGrooveJointNew`.
    public init(a: Body, b: Body, grooveA: Vector, grooveB: Vector, anchorB: Vector = .zero) {
        Parameter.grooveEnd.require(grooveA)
        Parameter.grooveEnd.require(grooveB)
        Parameter.anchor.require(anchorB)
        super.init(
            {
                SlabArena.current.grooveJoints.build {
                    cpGrooveJointInit($0, a.handle, b.handle, grooveA.cp, grooveB.cp, anchorB.cp)
                }
            }, a: a, b: b)
    }

    /// The groove's start on body A.
    ///
    /// The corresponding C functions are `cpGrooveJointGetGrooveA` and `cpGrooveJointSetGrooveA`.
    public var grooveA: Vector {
        get { Vector(cpGrooveJointGetGrooveA(handle)) }
        set {
            Parameter.grooveEnd.require(newValue)
            cpGrooveJointSetGrooveA(handle, newValue.cp)
            space?.jointsMayBeUnsolvable = true
        }
    }

    /// The groove's end on body A.
    ///
    /// The corresponding C functions are `cpGrooveJointGetGrooveB` and `cpGrooveJointSetGrooveB`.
    public var grooveB: Vector {
        get { Vector(cpGrooveJointGetGrooveB(handle)) }
        set {
            Parameter.grooveEnd.require(newValue)
            cpGrooveJointSetGrooveB(handle, newValue.cp)
            space?.jointsMayBeUnsolvable = true
        }
    }

    /// The anchor on body B, in its coordinates.
    ///
    /// The corresponding C functions are `cpGrooveJointGetAnchorB` and `cpGrooveJointSetAnchorB`.
    public var anchorB: Vector {
        get { Vector(cpGrooveJointGetAnchorB(handle)) }
        set {
            Parameter.anchor.require(newValue)
            cpGrooveJointSetAnchorB(handle, newValue.cp)
            space?.jointsMayBeUnsolvable = true
        }
    }
}
