import Chipmunk

// Format version 2: what the API builds without closures (constraints, shape filters,
// sensors, masses, surface velocities, the broad phase) and collision behaviour as data.
// docs/scene-format.md describes every key. This adds the constraints and collision rules
// of a version-2 file to a built space.

extension SceneDescription {
    /// Adds version 2's constraints and collision rules to a built space. `bodies` maps ids.
    func addVersion2(
        to space: Space, scene: Scene, bodies: [String: Body], check: SceneCheck
    ) throws(SceneError) {
        for (index, description) in (constraints ?? []).enumerated() {
            let location = "constraints[\(index)]"
            let constraint = try description.make(bodies: bodies, check: check, at: location)
            space.add(constraint)
        }
        for (index, rule) in (collisions ?? []).enumerated() {
            try rule.install(in: space, scene: scene, check: check, at: "collisions[\(index)]")
        }
    }
}
