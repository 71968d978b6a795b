// How the cost of dropping a space grows with its size: dropping a space should cost O(n),
// not O(n × contacts). Each size's drop is timed against building the same space (adding
// its bodies and shapes, which is linear), both in this thread's CPU time, so that neither
// the allocator nor other threads nor other processes count. With 8.9 times the bodies
// (820 → 7,260) and contacts, drop ÷ build should grow under 4 times, best of 3 each.
// Measured when this was a test: 0.85–1.45 times, alone and inside the whole parallel
// suite; removing the objects one by one before the drop, which costs O(n × contacts), grew
// it 8.6 times. It depends on the machine's load (in wall-clock time a busy suite once read
// 3.8; under TSan the linear drop grows 5.2 times), which is why it is measured here and
// not asserted in the test suite.
//   drop-cost            prints the ratio; exit 1 when it is 4 or more
import Chipmunk

#if canImport(Glibc)
    import Glibc
#endif

/// The CPU time this thread spends in `body`, in seconds.
func threadCPUTime(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
    let start = now()
    try body()
    return now() - start
}

/// Drop time over build time, for a settled pyramid `rows` boxes wide at its base.
func dropOverBuild(rows: Int) throws -> Double {
    weak var weakBody: Body?
    var space: Space? = Space()
    space!.gravity = [0, -10]
    let reach = Double(rows + 10)
    let built = threadCPUTime {
        space!.add(Segment(body: space!.staticBody, from: [-reach, 0], to: [reach, 0]))
        for row in 0..<rows {
            for i in 0..<(rows - row) {
                let body = Body(mass: 1, moment: Moment.box(mass: 1, width: 1, height: 1))
                body.position = [Double(i) - Double(rows - row) / 2 + 0.5, 0.5 + Double(row)]
                space!.add(body)
                space!.add(Polygon.box(body: body, width: 1, height: 1, friction: 0.6))
                weakBody = body
            }
        }
    }
    for _ in 0..<5 { try space!.step(1.0 / 60) }
    var contacts = 0
    for body in space!.bodies { body.forEachArbiter { _ in contacts += 1 } }
    let dropped = threadCPUTime { space = nil }
    if weakBody != nil { print("drop-cost: a body outlived its space") }
    print("\(rows) rows: \(contacts) contacts, drop ÷ build \(dropped / built)")
    return dropped / built
}

let small = try (0..<3).map { _ in try dropOverBuild(rows: 40) }.min()!
let large = try (0..<3).map { _ in try dropOverBuild(rows: 120) }.min()!
print("with 8.9 times the bodies, drop ÷ build grew \(large / small) times (linear: under 4)")
exit(large / small < 4 ? 0 : 1)
