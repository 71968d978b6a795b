/// A value a layer above the core checks against a core ``Rule``, named as the user writes
/// it: ChipmunkDynamics' `DynamicsParameter` and ChipmunkAnimation's `AnimationParameter`
/// (the core's own ``Parameter`` reports through ``ChipmunkError``). A value that breaks
/// its rule is a programming error, and the stop names the property, the rule and the value:
/// `DisplayLink.frameDuration must be from 1e-09 to 1e9 (got 0.0)`.
package protocol RuledParameter: CustomStringConvertible {
    /// The rule the values must keep.
    var rule: Rule { get }
}

extension RuledParameter {
    /// Stops the program unless `value` keeps the rule.
    @inline(__always)
    package func require(_ value: Double) {
        ensure(rule.accepts(value), "\(self) must be \(rule) (got \(value))")
    }

    /// Stops the program unless both components keep the rule; the message names the first that does not.
    @inline(__always)
    package func require(_ value: Vector) {
        require(value.x)
        require(value.y)
    }
}
