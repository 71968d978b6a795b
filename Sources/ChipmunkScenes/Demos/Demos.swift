import Chipmunk

/// Ports of Chipmunk's own demos, as Swift scenes. Each keeps the C demo's bodies, shapes,
/// constraints and callbacks, with a seeded generator in place of `rand()` and, where
/// the demo waits for a keyboard or mouse, a fixed input stated in its documentation.
public enum Demos {}
