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
    case bodyMass = "Body.mass"
    case bodyMoment = "Body.moment"
    case bodyCenterOfGravity = "Body.centerOfGravity"
    case bodyPosition = "Body.position"
    case bodyVelocity = "Body.velocity"
    case bodyAngle = "Body.angle"
    case bodyAngularVelocity = "Body.angularVelocity"
    case bodyForce = "Body.force"
    case bodyTorque = "Body.torque"
    case appliedForce = "Body.applyForce force"
    case appliedImpulse = "Body.applyImpulse impulse"
    case applicationPoint = "Body.applyForce/applyImpulse point"
    case integrationGravity = "Body.updateVelocity gravity"
    case integrationDamping = "Body.updateVelocity damping"
    case integrationTimeStep = "Body.updateVelocity/updatePosition dt"

    // Shapes
    case shapeFriction = "Shape.friction"
    case shapeElasticity = "Shape.elasticity"
    case shapeSurfaceVelocity = "Shape.surfaceVelocity"
    case shapeMass = "Shape.mass"
    case shapeDensity = "Shape.density"
    case circleRadius = "Circle.radius"
    case circleOffset = "Circle.offset"
    case segmentEnd = "Segment.start/end"
    case segmentRadius = "Segment.radius"
    case segmentNeighbor = "Segment.neighbors"
    case polygonVertex = "Polygon.vertices"
    case polygonTransform = "Polygon.transform"
    case polygonRadius = "Polygon.radius"
    case boxSize = "Polygon.box width/height"
    case boxBounds = "Polygon.box boundingBox"

    // Space
    case spaceGravity = "Space.gravity"
    case spaceDamping = "Space.damping"
    case spaceIterations = "Space.iterations"
    case spaceCollisionSlop = "Space.collisionSlop"
    case spaceCollisionBias = "Space.collisionBias"
    case spaceCollisionPersistence = "Space.collisionPersistence"
    case spaceIdleSpeedThreshold = "Space.idleSpeedThreshold"
    case spaceSleepTimeThreshold = "Space.sleepTimeThreshold"
    case spaceTimeStep = "Space.step dt"
    case spatialHashCellSize = "Space.useSpatialHash cellSize"
    case spatialHashCount = "Space.useSpatialHash count"

    // Constraints
    case constraintMaxForce = "Constraint.maxForce"
    case constraintErrorBias = "Constraint.errorBias"
    case constraintMaxBias = "Constraint.maxBias"
    case anchor = "Constraint.anchorA/anchorB"
    case pinDistance = "PinJoint.distance"
    case slideDistance = "SlideJoint.distance"
    case slideMin = "SlideJoint.min"
    case slideMax = "SlideJoint.max"
    case pivot = "PivotJoint.pivot"
    case grooveEnd = "GrooveJoint.groove"
    case springRestLength = "DampedSpring.restLength"
    case springStiffness = "DampedSpring/DampedRotarySpring.stiffness"
    case springDamping = "DampedSpring/DampedRotarySpring.damping"
    case springForce = "DampedSpring.forceFunction result"
    case rotarySpringRestAngle = "DampedRotarySpring.restAngle"
    case rotarySpringTorque = "DampedRotarySpring.torqueFunction result"
    case rotaryLimitAngle = "RotaryLimitJoint.angle"
    case ratchetPhase = "RatchetJoint.phase"
    case ratchetInterval = "RatchetJoint.ratchet"
    case ratchetAngle = "RatchetJoint.angle"
    case gearPhase = "GearJoint.phase"
    case gearRatio = "GearJoint.ratio"
    case motorRate = "SimpleMotor.rate"

    // Contacts and queries
    case arbiterRestitution = "Arbiter.restitution"
    case arbiterFriction = "Arbiter.friction"
    case arbiterSurfaceVelocity = "Arbiter.surfaceVelocity"
    case contactPoint = "Arbiter.contactPointSet"
    case queryPoint = "query point"
    case queryDistance = "query maxDistance"
    case queryRadius = "query radius"
    case queryBox = "query box"

    // Stepping
    case stepperTimeStep = "FixedStepper.timeStep"
    case stepperMaxSteps = "FixedStepper.maxStepsPerFrame"
    case stepperCPUBudget = "FixedStepper.cpuBudget"
    case frameDuration = "FixedStepper.advance frameDuration"

    /// The most solver iterations a space takes: enough for any stiff scene, and a bound
    /// that keeps a mistyped value (a million) from turning one step into minutes.
    public static let maxIterations = 1_000

    /// The most steps ``FixedStepper`` takes in one frame. A cap is what keeps a stall from
    /// turning into the spiral of death; a cap of billions (with a tiny time step) turned
    /// one `advance(by:)` into hours.
    public static let maxStepsPerFrame = 100_000

    /// The masses and moments of inertia a body may have. Outside it the engine fails: the
    /// solver's determinant for a joint underflows to 0 past about 1e160 ("Unsolvable
    /// constraint."), and forces overflow as the inverse grows towards 1e308.
    public static let massRange = 1e-150...1e150

    /// The masses (and densities) one shape may carry, besides 0: see ``Rule/zeroOrWithin(_:)``.
    public static let shapeMassRange = 1e-100...1e100

    /// The largest coordinate, size or position the collision code is given. Past about
    /// 1e19 the engine's polygon collision loses the precision it needs and aborts
    /// ("Internal Error: EPA vertexes are the same"; found by fuzzing with a vertex at
    /// 3.5e25); 1e15 keeps shapes of size 1 resolved to an eighth of a unit. A step that
    /// would carry a body past it counts as a divergence.
    public static let maxCoordinate: Double = CChipmunkMaxCoordinate()

    /// The rule the parameter's values must keep.
    public var rule: Rule {
        switch self {
        case .bodyMass, .bodyMoment:
            return .within(Self.massRange)
        case .gearRatio:
            return .nonZeroWithFiniteInverse
        case .bodyPosition, .circleOffset, .segmentEnd, .segmentNeighbor, .polygonVertex, .polygonTransform,
            .bodyCenterOfGravity, .anchor, .pivot, .grooveEnd, .boxBounds:
            // Anchors and centres of gravity are coordinates too. How far an anchor may sit
            // from its body's centre of gravity also depends on the body's mass and moment:
            // `Space.step` checks that for pivots and grooves before the engine solves them.
            return .magnitudeAtMost(Self.maxCoordinate)
        case .ratchetInterval:
            // The engine divides the relative angle by it: 0 gives a NaN angle, and a
            // denormal an infinite one.
            return .magnitudeWithin(Self.massRange)
        case .spaceCollisionBias:
            // The fraction of overlap left after a second: above 1, overlap grows back.
            return .nonNegativeAtMost(1)
        case .circleRadius, .segmentRadius, .polygonRadius, .boxSize:
            return .nonNegativeAtMost(Self.maxCoordinate)
        case .bodyVelocity, .bodyAngle, .bodyAngularVelocity, .bodyForce,
            .bodyTorque, .appliedForce, .appliedImpulse, .applicationPoint, .integrationGravity, .shapeSurfaceVelocity,
            .spaceGravity,
            .springForce, .rotarySpringRestAngle, .rotarySpringTorque, .rotaryLimitAngle,
            .ratchetPhase, .ratchetAngle, .gearPhase, .motorRate, .arbiterSurfaceVelocity,
            .contactPoint, .queryPoint, .queryBox:
            return .finite
        case .shapeMass, .shapeDensity:
            // A body's mass and moment summed from its shapes must stay within massRange, and a
            // shape's moment is its mass times a factor of its size: a margin of 1e50 on each
            // side leaves shapes from 1e-25 to 1e25 units wide room. (Several shapes, or
            // extreme sizes, can still leave it: `Shape.check(mass:)` checks the sum.)
            return .zeroOrWithin(Self.shapeMassRange)
        case .integrationDamping, .shapeFriction, .shapeElasticity, .spaceDamping,
            .spaceCollisionSlop,
            .spaceIdleSpeedThreshold, .constraintErrorBias, .pinDistance, .slideDistance, .slideMin, .slideMax,
            .springRestLength,
            .springStiffness, .springDamping, .arbiterRestitution, .arbiterFriction, .queryRadius, .frameDuration:
            return .nonNegativeFinite
        case .constraintMaxForce, .constraintMaxBias, .queryDistance:
            return .nonNegative
        case .spaceSleepTimeThreshold:
            return .positive
        case .integrationTimeStep, .spaceTimeStep, .stepperTimeStep, .stepperCPUBudget:
            return .positiveFinite
        case .spatialHashCellSize:
            // Shapes must fit in a bounded number of cells (`Space.maxSpatialHashCells`): a
            // denormal cell fits none, and no shape is wider than 1e16 (maxCoordinate).
            return .within(1e-100...1e16)
        case .spaceIterations: return .wholeNumber(1...Self.maxIterations)
        case .spaceCollisionPersistence: return .wholeNumber(1...Int(UInt32.max))
        case .spatialHashCount: return .wholeNumber(1...10_000_000)
        case .stepperMaxSteps: return .wholeNumber(1...Self.maxStepsPerFrame)
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

    /// A whole-number parameter (iterations, persistence): stops unless in range.
    @inline(__always)
    package func require(_ value: Int) {
        ensure(rule.accepts(Double(value)), ChipmunkError.invalidValue(self, Double(value)).description)
    }
}
