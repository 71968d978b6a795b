internal import CChipmunk

/// Keeps an anchor on body B in a groove (a segment) on body A, like a pin in a slot.
///
/// The corresponding C type is `cpGrooveJoint`.
public final class GrooveJoint: Constraint {
    /// The groove runs from `grooveA` to `grooveB` on `a`; `anchorB` is on `b`, in body
    /// coordinates (rules: ``Parameter/grooveEnd``, ``Parameter/anchor``; the ends must
    /// differ, ``hasLength(from:to:)``).
    ///
    /// The corresponding C function is `cpGrooveJointNew`.
    public init(a: Body, b: Body, grooveA: Vector, grooveB: Vector, anchorB: Vector = .zero) {
        Parameter.grooveEnd.require(grooveA)
        Parameter.grooveEnd.require(grooveB)
        Self.requireLength(from: grooveA, to: grooveB)
        Parameter.anchor.require(anchorB)
        super.init(
            {
                SlabArena.current.grooveJoints.build {
                    cpGrooveJointInit($0, a.handle, b.handle, grooveA.cp, grooveB.cp, anchorB.cp)
                }
            }, a: a, b: b)
    }

    /// Whether a groove from `start` to `end` has a direction: its ends differ. A groove of
    /// no length gives the engine a zero normal, and its solver divides 0 by 0: the first
    /// step returned a NaN velocity. Readers of untrusted data ask this first; the
    /// initialiser and the setters stop the program on a groove without length.
    public static func hasLength(from start: Vector, to end: Vector) -> Bool {
        start != end  // for finite doubles, a - b is 0 only when a == b
    }

    private static func requireLength(from start: Vector, to end: Vector) {
        ensure(
            hasLength(from: start, to: end),
            "GrooveJoint.grooveA and GrooveJoint.grooveB must differ: a groove of no length has no direction "
                + "(got both \(start))")
    }

    /// The groove's start on body A (at another point than ``grooveB``).
    ///
    /// The corresponding C functions are `cpGrooveJointGetGrooveA` and `cpGrooveJointSetGrooveA`.
    public var grooveA: Vector {
        get { Vector(cpGrooveJointGetGrooveA(handle)) }
        set {
            Parameter.grooveEnd.require(newValue)
            Self.requireLength(from: newValue, to: grooveB)
            cpGrooveJointSetGrooveA(handle, newValue.cp)
            space?.jointsMayBeUnsolvable = true
        }
    }

    /// The groove's end on body A (at another point than ``grooveA``).
    ///
    /// The corresponding C functions are `cpGrooveJointGetGrooveB` and `cpGrooveJointSetGrooveB`.
    public var grooveB: Vector {
        get { Vector(cpGrooveJointGetGrooveB(handle)) }
        set {
            Parameter.grooveEnd.require(newValue)
            Self.requireLength(from: grooveA, to: newValue)
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
