/// How long a test waits for something that will happen (a server's answer, a screen, a
/// sweep's first rows) before it calls it a hang: a bound, never a timing, so it is long.
/// On CI's two cores a whole suite runs beside the test, and a server test's answer once
/// took over a minute (URLSession's default 60 s bound failed it, 2026-11-27). A wait that
/// is met returns at once, so a long bound costs nothing when nothing hangs.
package enum Patience {
    /// Ten minutes: longer than the whole suite takes on a busy machine.
    package static let seconds: Double = 600
}
