internal import CChipmunk

/// Every value the binding checks before it reaches the engine, with the rule it must keep.
///
/// This is the one validation mechanism of the binding. Setting a property or calling an
/// initialiser with a value that breaks its rule is a programming error: the program stops
/// with a message (printed in release builds too) that names the parameter, the rule and the value, as
/// `Array` does for an index out of range, and never reaches the engine's own abort.
/// Code that handles untrusted numbers (a file, a command line, a sweep) asks first:
///
/// ```swift
/// try Parameter.bodyMass.check(massFromFile)     // throws ChipmunkError.invalidValue
/// body.mass = massFromFile                        // cannot trap now
/// if Parameter.shapeFriction.accepts(x) { shape.friction = x }
/// ```
public enum Parameter: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    // Body
    /// What `Body.mass` takes (its rule: ``rule``).
    case bodyMass = "Body.mass"
    /// What `Body.moment` takes (its rule: ``rule``).
    case bodyMoment = "Body.moment"
    /// What `Body.centerOfGravity` takes (its rule: ``rule``).
    case bodyCenterOfGravity = "Body.centerOfGravity"
    /// What `Body.position` takes (its rule: ``rule``).
    case bodyPosition = "Body.position"
    /// What `Body.velocity` takes (its rule: ``rule``).
    case bodyVelocity = "Body.velocity"
    /// What `Body.angle` takes (its rule: ``rule``).
    case bodyAngle = "Body.angle"
    /// What `Body.angularVelocity` takes (its rule: ``rule``).
    case bodyAngularVelocity = "Body.angularVelocity"
    /// What `Body.force` takes (its rule: ``rule``).
    case bodyForce = "Body.force"
    /// What `Body.torque` takes (its rule: ``rule``).
    case bodyTorque = "Body.torque"
    /// What `Body.applyForce force` takes (its rule: ``rule``).
    case appliedForce = "Body.applyForce force"
    /// What `Body.applyImpulse impulse` takes (its rule: ``rule``).
    case appliedImpulse = "Body.applyImpulse impulse"
    /// What `Body.applyForce/applyImpulse point` takes (its rule: ``rule``).
    case applicationPoint = "Body.applyForce/applyImpulse point"
    /// What `Body.updateVelocity gravity` takes (its rule: ``rule``).
    case integrationGravity = "Body.updateVelocity gravity"
    /// What `Body.updateVelocity damping` takes (its rule: ``rule``).
    case integrationDamping = "Body.updateVelocity damping"
    /// What `Body.updateVelocity/updatePosition dt` takes (its rule: ``rule``).
    case integrationTimeStep = "Body.updateVelocity/updatePosition dt"

    // Shapes
    /// What `Shape.friction` takes (its rule: ``rule``).
    case shapeFriction = "Shape.friction"
    /// What `Shape.elasticity` takes (its rule: ``rule``).
    case shapeElasticity = "Shape.elasticity"
    /// What `Shape.surfaceVelocity` takes (its rule: ``rule``).
    case shapeSurfaceVelocity = "Shape.surfaceVelocity"
    /// What `Shape.mass` takes (its rule: ``rule``).
    case shapeMass = "Shape.mass"
    /// What `Shape.density` takes (its rule: ``rule``).
    case shapeDensity = "Shape.density"
    /// What `Circle.radius` takes (its rule: ``rule``).
    case circleRadius = "Circle.radius"
    /// What `Circle.offset` takes (its rule: ``rule``).
    case circleOffset = "Circle.offset"
    /// What `Segment.start/end` takes (its rule: ``rule``).
    case segmentEnd = "Segment.start/end"
    /// What `Segment.radius` takes (its rule: ``rule``).
    case segmentRadius = "Segment.radius"
    /// What `Segment.neighbors` takes (its rule: ``rule``).
    case segmentNeighbor = "Segment.neighbors"
    /// What `Polygon.vertices` takes (its rule: ``rule``).
    case polygonVertex = "Polygon.vertices"
    /// What `Polygon.transform` takes (its rule: ``rule``).
    case polygonTransform = "Polygon.transform"
    /// What `Polygon.radius` takes (its rule: ``rule``).
    case polygonRadius = "Polygon.radius"
    /// What `Polygon.box width/height` takes (its rule: ``rule``).
    case boxSize = "Polygon.box width/height"
    /// What `Polygon.box boundingBox` takes (its rule: ``rule``).
    case boxBounds = "Polygon.box boundingBox"

    // Space
    /// What `Space.gravity` takes (its rule: ``rule``).
    case spaceGravity = "Space.gravity"
    /// What `Space.damping` takes (its rule: ``rule``).
    case spaceDamping = "Space.damping"
    /// What `Space.iterations` takes (its rule: ``rule``).
    case spaceIterations = "Space.iterations"
    /// What `Space.collisionSlop` takes (its rule: ``rule``).
    case spaceCollisionSlop = "Space.collisionSlop"
    /// What `Space.collisionBias` takes (its rule: ``rule``).
    case spaceCollisionBias = "Space.collisionBias"
    /// What `Space.collisionPersistence` takes (its rule: ``rule``).
    case spaceCollisionPersistence = "Space.collisionPersistence"
    /// What `Space.idleSpeedThreshold` takes (its rule: ``rule``).
    case spaceIdleSpeedThreshold = "Space.idleSpeedThreshold"
    /// What `Space.sleepTimeThreshold` takes (its rule: ``rule``).
    case spaceSleepTimeThreshold = "Space.sleepTimeThreshold"
    /// What `Space.step dt` takes (its rule: ``rule``).
    case spaceTimeStep = "Space.step dt"
    /// What `Space.useSpatialHash cellSize` takes (its rule: ``rule``).
    case spatialHashCellSize = "Space.useSpatialHash cellSize"
    /// What `Space.useSpatialHash count` takes (its rule: ``rule``).
    case spatialHashCount = "Space.useSpatialHash count"

    // Constraints
    /// What `Constraint.maxForce` takes (its rule: ``rule``).
    case constraintMaxForce = "Constraint.maxForce"
    /// What `Constraint.errorBias` takes (its rule: ``rule``).
    case constraintErrorBias = "Constraint.errorBias"
    /// What `Constraint.maxBias` takes (its rule: ``rule``).
    case constraintMaxBias = "Constraint.maxBias"
    /// What `Constraint.anchorA/anchorB` takes (its rule: ``rule``).
    case anchor = "Constraint.anchorA/anchorB"
    /// What `PinJoint.distance` takes (its rule: ``rule``).
    case pinDistance = "PinJoint.distance"
    /// What `SlideJoint.distance` takes (its rule: ``rule``).
    case slideDistance = "SlideJoint.distance"
    /// What `SlideJoint.min` takes (its rule: ``rule``).
    case slideMin = "SlideJoint.min"
    /// What `SlideJoint.max` takes (its rule: ``rule``).
    case slideMax = "SlideJoint.max"
    /// What `PivotJoint.pivot` takes (its rule: ``rule``).
    case pivot = "PivotJoint.pivot"
    /// What `GrooveJoint.groove` takes (its rule: ``rule``).
    case grooveEnd = "GrooveJoint.groove"
    /// What `DampedSpring.restLength` takes (its rule: ``rule``).
    case springRestLength = "DampedSpring.restLength"
    /// What `DampedSpring/DampedRotarySpring.stiffness` takes (its rule: ``rule``).
    case springStiffness = "DampedSpring/DampedRotarySpring.stiffness"
    /// What `DampedSpring/DampedRotarySpring.damping` takes (its rule: ``rule``).
    case springDamping = "DampedSpring/DampedRotarySpring.damping"
    /// What `DampedSpring.forceFunction result` takes (its rule: ``rule``).
    case springForce = "DampedSpring.forceFunction result"
    /// What `DampedRotarySpring.restAngle` takes (its rule: ``rule``).
    case rotarySpringRestAngle = "DampedRotarySpring.restAngle"
    /// What `DampedRotarySpring.torqueFunction result` takes (its rule: ``rule``).
    case rotarySpringTorque = "DampedRotarySpring.torqueFunction result"
    /// What `RotaryLimitJoint.angle` takes (its rule: ``rule``).
    case rotaryLimitAngle = "RotaryLimitJoint.angle"
    /// What `RatchetJoint.phase` takes (its rule: ``rule``).
    case ratchetPhase = "RatchetJoint.phase"
    /// What `RatchetJoint.ratchet` takes (its rule: ``rule``).
    case ratchetInterval = "RatchetJoint.ratchet"
    /// What `RatchetJoint.angle` takes (its rule: ``rule``).
    case ratchetAngle = "RatchetJoint.angle"
    /// What `GearJoint.phase` takes (its rule: ``rule``).
    case gearPhase = "GearJoint.phase"
    /// What `GearJoint.ratio` takes (its rule: ``rule``).
    case gearRatio = "GearJoint.ratio"
    /// What `SimpleMotor.rate` takes (its rule: ``rule``).
    case motorRate = "SimpleMotor.rate"

    // Contacts and queries
    /// What `Arbiter.restitution` takes (its rule: ``rule``).
    case arbiterRestitution = "Arbiter.restitution"
    /// What `Arbiter.friction` takes (its rule: ``rule``).
    case arbiterFriction = "Arbiter.friction"
    /// What `Arbiter.surfaceVelocity` takes (its rule: ``rule``).
    case arbiterSurfaceVelocity = "Arbiter.surfaceVelocity"
    /// What `Arbiter.contactPointSet` takes (its rule: ``rule``).
    case contactPoint = "Arbiter.contactPointSet"
    /// What `query point` takes (its rule: ``rule``).
    case queryPoint = "query point"
    /// What `query maxDistance` takes (its rule: ``rule``).
    case queryDistance = "query maxDistance"
    /// What `query radius` takes (its rule: ``rule``).
    case queryRadius = "query radius"
    /// What `query box` takes (its rule: ``rule``).
    case queryBox = "query box"

    // Stepping
    /// What `Space.maxContactPairs` takes (its rule: ``rule``).
    case spaceMaxContactPairs = "Space.maxContactPairs"
    /// What `FixedStepper.timeStep` takes (its rule: ``rule``).
    case stepperTimeStep = "FixedStepper.timeStep"
    /// What `FixedStepper.maxStepsPerFrame` takes (its rule: ``rule``).
    case stepperMaxSteps = "FixedStepper.maxStepsPerFrame"
    /// What `FixedStepper.cpuBudget` takes (its rule: ``rule``).
    case stepperCPUBudget = "FixedStepper.cpuBudget"
    /// What `FixedStepper.advance frameDuration` takes (its rule: ``rule``).
    case frameDuration = "FixedStepper.advance frameDuration"

    /// The most solver iterations a space takes: enough for any stiff scene, and a bound
    /// that keeps a mistyped value (a million) from turning one step into minutes.
    public static let maxIterations = 1_000

    /// The most steps ``FixedStepper`` takes in one frame. A cap is what keeps a stall from
    /// turning into the spiral of death; a cap of billions (with a tiny time step) turned
    /// one `advance(by:)` into hours.
    public static let maxStepsPerFrame = 100_000

    /// The largest contact pair budget a space takes, 100,000,000: about 100 GB of the
    /// engine's pools, past any machine this runs on.
    public static let maxContactPairsLimit = 100_000_000

    /// The masses and moments of inertia a body may have. Outside it the engine fails: the
    /// solver's determinant for a joint underflows to 0 past about 1e160 ("Unsolvable
    /// constraint."), and forces overflow as the inverse grows towards 1e308.
    public static let massRange = 1e-150...1e150

    /// The masses (and densities) one shape may carry, besides 0: see ``Rule/zeroOrWithin(_:)``.
    public static let shapeMassRange = 1e-100...1e100

    /// The largest friction or elasticity a shape takes, 1e100. The engine multiplies the
    /// two shapes' per contact, and two of 1e200 gave an infinite coefficient
    /// (`Arbiter.restitution` read `inf`, and the contact's velocities NaN). Two at 1e100
    /// give 1e200, leaving 1e108 for the velocities and impulses the product multiplies:
    /// measured with two shapes at 1e100, 1e120 and 1e150, the bounce grew until a step
    /// threw ``ChipmunkError/diverged(step:body:quantity:value:)`` on a position past
    /// ``maxCoordinate``; at 1e154 (a product near the largest double) the step threw on a
    /// velocity of `inf` or NaN instead. An arbiter's own coefficient is the product itself:
    /// any finite value is used as is (``arbiterFriction``, ``arbiterRestitution``).
    public static let maxCoefficient = 1e100

    /// The largest coordinate, size or position the collision code is given. Past about
    /// 1e19 the engine's polygon collision loses the precision it needs and aborts
    /// ("Internal Error: EPA vertexes are the same"; found by fuzzing with a vertex at
    /// 3.5e25); 1e15 keeps shapes of size 1 resolved to an eighth of a unit. A step that
    /// would carry a body past it counts as a divergence.
    public static let maxCoordinate: Double = CChipmunkMaxCoordinate()

    /// The time steps a space takes, 1e-300 to 1e300 seconds. The solver multiplies by the
    /// step's inverse: a step of 5e-324 made it infinite, and an error of 0 times that NaN
    /// (a body's velocity, after a FixedStepper took 1,200 such steps); from 1e-300 the
    /// inverse is finite. A step past 1e300 carries any moving body past
    /// ``maxCoordinate``.
    public static let timeStepRange = 1e-300...1e300

    /// The longest distance a joint or a spring keeps: 1e16. No two anchor points within
    /// ``maxCoordinate`` are farther apart (at most about 6.8e15, each a position and an
    /// anchor of at most 1e15 a component), so any distance a joint starts with keeps it.
    /// The solver divides a joint's error by the step: a pin's distance of 1.7e308 made
    /// that bias infinite, and both bodies' velocities NaN at the first step (a helper's
    /// attack); from 1e16 a step of 1/60 s gives 6e17, and the bodies diverge to finite
    /// positions past maxCoordinate instead.
    public static let maxLength = 1e16

    /// The rule the parameter's values must keep.
    public var rule: Rule {
        switch self {
        case .bodyMass:
            return .within(Self.massRange)
        case .bodyMoment:
            // Infinity, as in pymunk and Chipmunk, for a body that never turns: its inverse is
            // 0. A rotary constraint between two bodies of which neither can turn has no
            // solution; `Space.step` throws `.cannotTurn` for it before the engine sees it.
            return .withinOrInfinity(Self.massRange)
        case .gearRatio:
            // The engine divides by the bodies' inverse moments weighted by the ratio and
            // its inverse: a ratio of 1e-170 against a moment of 1e150 made that sum
            // subnormal, its inverse infinite and both spins NaN at the first step (a
            // helper's attack). Within massRange, as the moments are, the sum of two
            // bodies that can turn stays between 1e-300 and 2e300.
            return .magnitudeWithin(Self.massRange)
        case .bodyPosition, .circleOffset, .segmentEnd, .segmentNeighbor, .polygonVertex, .polygonTransform,
            .bodyCenterOfGravity, .anchor, .pivot, .grooveEnd, .boxBounds:
            // Anchors and centres of gravity are coordinates too. How far an anchor may sit
            // from its body's centre of gravity also depends on the body's mass and moment:
            // `Space.step` checks that for pivots and grooves before the engine solves them.
            return .magnitudeAtMost(Self.maxCoordinate)
        case .spaceGravity:
            // An acceleration of maxCoordinate units/s² carries a body at rest past
            // maxCoordinate in under 1.5 s: more is no scene's gravity, and 1e300 only
            // diverged at step 2. Bounded as positions are, it is refused where it is given.
            return .magnitudeAtMost(Self.maxCoordinate)
        case .ratchetPhase, .gearPhase, .motorRate, .bodyAngle:
            // An angle or a spin past maxCoordinate has no fraction left (its ulp is an
            // eighth of a radian at 1e15), and near the largest double the solver's terms
            // overflow: a motor's rate of 1.8e308, or a gear's phase of 5e307, left both
            // bodies spinning at NaN after a step, a ratchet's phase of 1e308 an infinite
            // ratchet angle, and so did two bodies' angles of ±9e307 (their difference).
            // A step that would carry a body's angle past it counts as a divergence.
            return .magnitudeAtMost(Self.maxCoordinate)
        case .ratchetInterval:
            // The engine divides the relative angle by it: 0 gives a NaN angle, and a
            // denormal an infinite one.
            return .magnitudeWithin(Self.massRange)
        case .pinDistance, .slideDistance, .slideMin, .slideMax, .springRestLength:
            return .nonNegativeAtMost(Self.maxLength)
        case .spaceCollisionBias:
            // The fraction of overlap left after a second: above 1, overlap grows back.
            return .nonNegativeAtMost(1)
        case .circleRadius, .segmentRadius, .polygonRadius:
            return .nonNegativeAtMost(Self.maxCoordinate)
        case .boxSize:
            // A box with a side of 0 has no area: as a shape it takes no mass or density,
            // and falls through what it lands on (a polygon's vertices must enclose an area).
            return .positiveAtMost(Self.maxCoordinate)
        case .shapeSurfaceVelocity:
            // The engine takes the difference of two shapes' surface velocities, and then
            // the part of it along the contact's normal: ±1.7e308 on two shapes made it
            // inf - inf, a NaN contact that pushed nothing, and the box fell through the
            // floor with every body finite, so no step threw (a helper's attack). A surface
            // that carries a body past maxCoordinate in a second is no scene's; bounded as
            // gravity is, the difference stays finite.
            return .magnitudeAtMost(Self.maxCoordinate)
        case .ratchetAngle, .arbiterSurfaceVelocity:
            // A ratchet's angle follows the difference of two bodies' angles, and a contact's
            // surface velocity is the difference of two shapes' (each within maxCoordinate):
            // twice maxCoordinate holds any the engine sets. Past it the solver's terms
            // overflow into NaN: a ratchet's angle of 1.8e308 left both spins NaN, and a
            // contact's surface velocity of 1.8e308 the static body's spin.
            return .magnitudeAtMost(2 * Self.maxCoordinate)
        case .bodyVelocity, .bodyAngularVelocity, .bodyForce,
            .bodyTorque, .appliedForce, .appliedImpulse, .applicationPoint, .integrationGravity,
            .springForce, .rotarySpringRestAngle, .rotarySpringTorque, .rotaryLimitAngle,
            .contactPoint, .queryPoint, .queryBox:
            return .finite
        case .shapeMass, .shapeDensity:
            // A body's mass and moment summed from its shapes must stay within massRange, and a
            // shape's moment is its mass times a factor of its size: a margin of 1e50 on each
            // side leaves shapes from 1e-25 to 1e25 units wide room. (Several shapes, or
            // extreme sizes, can still leave it: `Shape.check(mass:)` checks the sum.)
            return .zeroOrWithin(Self.shapeMassRange)
        case .shapeFriction, .shapeElasticity:
            // The engine multiplies the two shapes' per contact: see maxCoefficient.
            return .nonNegativeAtMost(Self.maxCoefficient)
        case .arbiterRestitution, .arbiterFriction:
            // The contact's coefficient itself, not multiplied again: two shapes at
            // maxCoefficient give one of 1e200, the largest the engine sets. A restitution
            // of 1.8e308 made a velocity NaN.
            return .nonNegativeAtMost(Self.maxCoefficient * Self.maxCoefficient)
        case .integrationDamping, .spaceDamping,
            .spaceCollisionSlop,
            .spaceIdleSpeedThreshold, .constraintErrorBias,
            .springStiffness, .springDamping, .queryRadius, .frameDuration:
            return .nonNegativeFinite
        case .constraintMaxForce, .constraintMaxBias, .queryDistance:
            return .nonNegative
        case .spaceSleepTimeThreshold:
            return .positive
        case .integrationTimeStep, .spaceTimeStep, .stepperTimeStep:
            return .within(Self.timeStepRange)
        case .stepperCPUBudget:
            return .positiveFinite
        case .spatialHashCellSize:
            // Shapes must fit in a bounded number of cells (`Space.maxSpatialHashCells`): a
            // denormal cell fits none, and no shape is wider than 1e16 (maxCoordinate).
            return .within(1e-100...1e16)
        case .spaceIterations: return .wholeNumber(1...Self.maxIterations)
        case .spaceCollisionPersistence: return .wholeNumber(1...Int(UInt32.max))
        case .spatialHashCount: return .wholeNumber(1...10_000_000)
        case .stepperMaxSteps: return .wholeNumber(1...Self.maxStepsPerFrame)
        case .spaceMaxContactPairs: return .wholeNumber(1...Self.maxContactPairsLimit)
        }
    }

    /// The parameter as the API spells it, such as `Body.mass`.
    public var description: String { rawValue }

    /// Whether `value` keeps the rule.
    @inlinable
    public func accepts(_ value: Double) -> Bool { rule.accepts(value) }

    /// Whether both components keep the rule.
    @inlinable
    public func accepts(_ value: Vector) -> Bool { rule.accepts(value.x) && rule.accepts(value.y) }

    /// Throws unless `value` keeps the rule: the way to check untrusted numbers first.
    /// - Throws: ``ChipmunkError/invalidValue(_:_:)`` with this parameter and the value.
    public func check(_ value: Double) throws(ChipmunkError) {
        guard rule.accepts(value) else { throw .invalidValue(self, value) }
    }

    /// Throws unless both components keep the rule; the error carries the first that does not.
    public func check(_ value: Vector) throws(ChipmunkError) {
        try check(value.x)
        try check(value.y)
    }

    /// Stops the program unless `value` keeps the rule: the check behind every setter.
    @inline(__always)
    package func require(_ value: Double) {
        ensure(rule.accepts(value), ChipmunkError.invalidValue(self, value).description)
    }

    /// Stops the program unless both components keep the rule.
    @inline(__always)
    package func require(_ value: Vector) {
        require(value.x)
        require(value.y)
    }

    /// Stops the program unless `value` keeps the rule, naming it as `argument` (such as
    /// "Space.pointQuery maxDistance"): a function's argument, where the parameter's own
    /// name ("query radius") would not say which call or argument was wrong.
    @inline(__always)
    package func require(_ value: Double, as argument: @autoclosure () -> String) {
        ensure(rule.accepts(value), "\(argument()) \(ChipmunkError.invalidValue(self, value).reason)")
    }

    /// Stops the program unless both components keep the rule, naming them as `argument`.
    @inline(__always)
    package func require(_ value: Vector, as argument: @autoclosure () -> String) {
        require(value.x, as: argument())
        require(value.y, as: argument())
    }

    /// A whole-number parameter (iterations, persistence): stops unless in range.
    @inline(__always)
    package func require(_ value: Int) {
        ensure(rule.accepts(Double(value)), ChipmunkError.invalidValue(self, Double(value)).description)
    }
}
