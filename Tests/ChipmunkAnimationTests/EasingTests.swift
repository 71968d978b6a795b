import Chipmunk
import ChipmunkAnimation
import Foundation
import Testing

@Suite struct TimingFunctionTests {
    @Test("The five named curves have Core Animation's exact control points")
    func controlPoints() {
        let expected: [(TimingFunction, [Double])] = [
            (.linear, [0, 0, 1, 1]), (.default, [0.25, 0.1, 0.25, 1]), (.easeIn, [0.42, 0, 1, 1]),
            (.easeOut, [0, 0, 0.58, 1]), (.easeInEaseOut, [0.42, 0, 0.58, 1]),
        ]
        for (curve, points) in expected {
            #expect(
                [curve.controlPoint1.x, curve.controlPoint1.y, curve.controlPoint2.x, curve.controlPoint2.y] == points)
        }
    }

    /// Reference values from a 50-digit bisection (Python's decimal), independent of the code under test.
    @Test("Known values, to 1e-12")
    func knownValues() {
        let xs = [0.1, 0.25, 0.5, 0.75, 0.9]
        let table: [(TimingFunction, [Double])] = [
            (
                .default,
                [0.09479630571604325, 0.40851059135539586, 0.802403387584857, 0.9604589783489741, 0.9943164774845563]
            ),
            (
                .easeIn,
                [0.01702660965156294, 0.09346465071882486, 0.3153568125725393, 0.6218618691748902, 0.8394278457624665]
            ),
            (
                .easeOut,
                [0.16057215423753346, 0.3781381308251098, 0.6846431874274607, 0.9065353492811752, 0.982973390348437]
            ),
            (
                .easeInEaseOut,
                [0.019722453548311196, 0.12916193104731982, 0.5, 0.8708380689526802, 0.9802775464516889]
            ),
        ]
        for (curve, values) in table {
            for (x, y) in zip(xs, values) {
                #expect(abs(curve(x) - y) <= 1e-12, "\(curve) at \(x): \(curve(x)) vs \(y)")
            }
        }
        for x in stride(from: 0.0, through: 1, by: 0.05) { #expect(abs(TimingFunction.linear(x) - x) <= 1e-12) }
    }

    @Test("Any cubic Bézier is solved for x to 1e-12, and the named curves are monotonic")
    func solvesForX() {
        let curves: [TimingFunction] = [
            .linear, .default, .easeIn, .easeOut, .easeInEaseOut, TimingFunction(controlPoints: 0.9, -0.5, 0.1, 1.5),
            TimingFunction(controlPoints: 1, 0, 0, 1), TimingFunction(controlPoints: 0, 1, 1, 0),
        ]
        for curve in curves {
            for k in 0...1000 {
                let x = Double(k) / 1000
                let t = curve.parameter(forX: x)
                #expect(abs(curve.point(at: t).x - x) <= 1e-12, "\(curve) at \(x)")
            }
        }
        for curve in curves.prefix(5) {
            var previous = -Double.infinity
            for k in 0...1000 {
                let y = curve(Double(k) / 1000)
                #expect(y >= previous)
                previous = y
            }
            #expect(curve(0) == 0 && abs(curve(1) - 1) <= 1e-12)
        }
        // ease-in-ease-out is symmetric about (0.5, 0.5).
        for x in stride(from: 0.0, through: 1, by: 0.01) {
            #expect(abs(TimingFunction.easeInEaseOut(x) + TimingFunction.easeInEaseOut(1 - x) - 1) <= 1e-12)
        }
    }
}

@Suite struct BookEasingTests {
    @Test("bounceEaseOut equals listing 11.1's formula bit for bit", arguments: [0.3, 0.5, 0.8, 0.95])
    func bounceEaseOut(t: Double) {
        // The listing, written out again here in the same operations and order.
        let book: Double
        if t < 4 / 11.0 {
            book = (121 * t * t) / 16.0
        } else if t < 8 / 11.0 {
            book = (363 / 40.0 * t * t) - (99 / 10.0 * t) + 17 / 5.0
        } else if t < 9 / 10.0 {
            book = (4356 / 361.0 * t * t) - (35442 / 1805.0 * t) + 16061 / 1805.0
        } else {
            book = (54 / 5.0 * t * t) - (513 / 25.0 * t) + 268 / 25.0
        }
        #expect(BookEasing.bounceEaseOut(t).bitPattern == book.bitPattern)
    }

    @Test("bounceEaseOut lands at 4/11, 8/11 and 9/10 (value 1) and ends at 1")
    func landings() {
        #expect(BookEasing.bounceEaseOut(0) == 0)
        #expect(abs(BookEasing.bounceEaseOut(1) - 1) < 1e-12)
        for t in [4 / 11.0, 8 / 11.0, 9 / 10.0] { #expect(abs(BookEasing.bounceEaseOut(t) - 1) < 1e-12, "\(t)") }
        #expect(abs(BookEasing.bounceEaseOut(0.3) - 0.680625) < 1e-15)
    }

    @Test("interpolate is (to - from) * time + from, for numbers, vectors and transforms")
    func interpolation() {
        #expect(BookEasing.interpolate(32, 268, 0.25) == 91)
        #expect(interpolate(32.0, 268.0, 0.25) == 91)
        #expect(interpolate(Vector(x: 0, y: 10), Vector(x: 10, y: 30), 0.5) == Vector(x: 5, y: 20))
        let t = interpolate(Transform.identity, Transform.translation(Vector(x: 10, y: -4)), 0.5)
        #expect(t == Transform(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: -2))
        #expect(interpolate(0.0, 10.0, 1.2) == 12, "eased values past 1 extrapolate")
    }
}

@Suite struct PennerEasingTests {
    @Test("Every curve and mode maps 0 to 0 and 1 to 1; the monotonic ones never go back; in-out is symmetric")
    func endsAndShape() {
        #expect(Easing.all.count == 30)
        for easing in Easing.all {
            #expect(abs(easing(0)) <= 1e-12 && abs(easing(1) - 1) <= 1e-12, "\(easing)")
            if easing.isMonotonic {
                var previous = -Double.infinity
                for k in 0...1000 {
                    let y = easing(Double(k) / 1000)
                    #expect(y >= previous - 1e-15, "\(easing) at \(Double(k) / 1000)")
                    previous = y
                }
            }
            if easing.mode == .inOut {
                for t in stride(from: 0.0, through: 1, by: 0.05) {
                    #expect(abs(easing(t) + easing(1 - t) - 1) <= 1e-12, "\(easing) at \(t)")
                }
            }
        }
    }

    @Test("Known values of Penner's equations")
    func knownValues() {
        let cases: [(Easing, Double, Double)] = [
            (Easing(.quad, .in), 0.5, 0.25),
            (Easing(.quad, .out), 0.5, 0.75),
            (Easing(.cubic, .inOut), 0.25, 0.0625),
            (Easing(.quart, .in), 0.5, 0.0625),
            (Easing(.quint, .out), 0.5, 0.96875),
            (Easing(.sine, .out), 0.5, sin(Double.pi / 4)),
            (Easing(.sine, .inOut), 0.25, (1 - cos(Double.pi / 4)) / 2),
            (Easing(.expo, .in), 0.5, 0.03125),
            (Easing(.expo, .out), 0.5, 0.96875),
            (Easing(.circ, .in), 0.6, 0.2),
            (Easing(.back, .in), 0.5, 2.70158 * 0.125 - 1.70158 * 0.25),
            (Easing(.back, .out), 0.5, 1 - (2.70158 * 0.125 - 1.70158 * 0.25)),
            (Easing(.elastic, .out), 0.5, 1.015625),
            (Easing(.bounce, .out), 0.5, 0.765625),
            (Easing(.bounce, .in), 0.5, 0.234375),
            (Easing(.elastic, .inOut), 0.25, -(pow(2, -5) * sin((5 - 11.125) * 2 * Double.pi / 4.5)) / 2),
            (Easing(.back, .inOut), 0.25, 0.25 * ((1.70158 * 1.525 + 1) * 0.5 - 1.70158 * 1.525) / 2),
        ]
        for (easing, t, expected) in cases {
            #expect(abs(easing(t) - expected) <= 1e-12, "\(easing) at \(t): \(easing(t)) vs \(expected)")
        }
        #expect(Easing(.back, .in)(0.5) < 0, "back pulls back first")
        #expect((0...100).contains { Easing(.elastic, .out)(Double($0) / 100) > 1 }, "elastic overshoots")
    }
}
