/// How long a test waits for something that will happen (a server's answer, a screen, a
/// sweep's first rows) before it calls it a hang: a bound, never a timing, so it is long.
///
/// Swift Testing runs the tests on the cooperative thread pool, two threads on CI's two
/// cores, and a test that blocks its thread (waiting on a child process, polling a screen)
/// holds up every task behind it, a live server's among them: `LiveServerTests` take 0.4 s
/// alone and 10.6 s beside the play and killed-sweep tests, and in a whole-suite CI run one
/// of their requests passed URLSession's default 60 s bound (2026-11-27). A wait that is
/// met returns at once, so a long bound costs nothing when nothing hangs.
package enum Patience {
    /// Ten minutes: longer than the whole suite takes on a busy machine.
    package static let seconds: Double = 600
}
