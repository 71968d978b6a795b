import Synchronization

@testable import ChipmunkLive

/// A clock for ``LiveWorld``'s message limits that moves only as a test says: by `perRead`
/// each time it is read (as `now` or as `work`: the time a message seems to take), and
/// by ``advance(by:)``. The
/// limits it feeds then close a viewer after the same message on any machine, however busy.
final class TestClock: Sendable {
    private let start = ContinuousClock.now
    private let perRead: Duration
    private let elapsed = Mutex(Duration.zero)

    /// A clock that stands still unless advanced, or that moves `perRead` at every reading.
    init(perRead: Duration = .zero) { self.perRead = perRead }

    func advance(by duration: Duration) { elapsed.withLock { $0 += duration } }

    /// What ``LiveWorld`` charges a message's handling by: this clock's time, read as
    /// `now` is (each reading moves it `perRead`).
    var work: LiveWorld.WorkClock {
        { [self] in
            elapsed.withLock { elapsed in
                elapsed += perRead
                return elapsed
            }
        }
    }

    /// What ``LiveWorld`` reads.
    var now: LiveWorld.Now {
        { [self] in
            elapsed.withLock { elapsed in
                elapsed += perRead
                return start + elapsed
            }
        }
    }
}
