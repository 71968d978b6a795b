import Chipmunk
import Testing

@testable import ChipmunkLive

@Suite struct LiveMessageTests {
    @Test func readsEachMessage() throws {
        #expect(try LiveMessage(text: #"{"type":"grab","x":1.5,"y":-2}"#) == .grab([1.5, -2]))
        #expect(try LiveMessage(text: #"{"type":"tilt","gx":0,"gy":-1000}"#) == .tilt([0, -1000]))
        #expect(try LiveMessage(text: #"{"type":"speed","value":0.25}"#) == .speed(0.25))
        #expect(try LiveMessage(text: #"{"type":"scrub","step":120}"#) == .scrub(step: 120))
        #expect(try LiveMessage(text: #"{"type":"snap","x":3,"y":4}"#) == .snap([3, 4]))
        #expect(
            try LiveMessage(text: #"{"type":"push","x":1,"y":2,"vx":3,"vy":4}"#)
                == .push(at: [1, 2], velocity: [3, 4]))
    }

    /// A hand per finger: `finger` says which, and a message without one is finger 0 (a mouse).
    @Test func readsTheFinger() throws {
        #expect(try LiveMessage(text: #"{"type":"grab","x":1,"y":2,"finger":3}"#) == .grab([1, 2], finger: 3))
        #expect(try LiveMessage(text: #"{"type":"move","x":1,"y":2,"finger":9}"#) == .move([1, 2], finger: 9))
        #expect(try LiveMessage(text: #"{"type":"release","finger":0}"#) == .release(finger: 0))
        #expect(try LiveMessage(text: #"{"type":"release"}"#) == .release(finger: 0))
        #expect(try LiveMessage(text: #"{"type":"move","x":1,"y":2}"#) == .move([1, 2], finger: 0))
        #expect(try LiveMessage(text: #"{"type":"grab","x":1,"y":2,"finger":2.0}"#) == .grab([1, 2], finger: 2))
    }

    @Test(arguments: [
        ("nope", LiveMessage.Problem.notJSON),
        ("[1,2]", .notJSON),
        (#"{"x":1}"#, .unknownType(nil)),
        (#"{"type":"warp"}"#, .unknownType("warp")),
        (#"{"type":3}"#, .typeNotAString),
        (#"{"type":"\ud800"}"#, .typeNotAString),  // a lone surrogate, no text: it was "no type"
        (#"{"type":"grab","x":1}"#, .missing(field: "y", type: "grab")),
        (#"{"type":"grab","x":true,"y":1}"#, .missing(field: "x", type: "grab")),
        (#"{"type":"grab","x":"1","y":1}"#, .missing(field: "x", type: "grab")),
        (#"{"type":"grab","x":1e300,"y":1}"#, .outOfRange(field: "x", value: 1e300, range: -1e7...1e7)),
        (#"{"type":"grab","x":1e400,"y":1}"#, .unrepresentable(field: "x", type: "grab")),
        (#"{"type":"tilt","gx":0,"gy":-1e999}"#, .unrepresentable(field: "gy", type: "tilt")),
        (#"{"type":"grab","x":1e-400,"y":0}"#, .unrepresentable(field: "x", type: "grab")),
        (#"{"type":"pause","type":"grab"}"#, .duplicateKey("type")),
        (#"{"type":"grab","x":1,"y":2,"x":"a"}"#, .duplicateKey("x")),
        // A key spelled with escapes is the same key: the decoder would keep one of the two.
        (#"{"ty\u0070e":"grab","type":"pause"}"#, .duplicateKey("type")),
        (#"{"type":"grab","x":[1e400],"y":1}"#, .missing(field: "x", type: "grab")),
        (#"{"type":"speed","value":8}"#, .outOfRange(field: "value", value: 8, range: 0.25...4)),
        (#"{"type":"tilt","gx":-1e16,"gy":0}"#, .outOfRange(field: "gx", value: -1e16, range: -1e15...1e15)),
        (#"{"type":"scrub","step":-1}"#, .outOfRange(field: "step", value: -1, range: 0...1e12)),
        (#"{"type":"scrub","step":12.5}"#, .notWhole(field: "step", value: 12.5)),
        (#"{"type":"grab","x":1,"y":2,"finger":10}"#, .outOfRange(field: "finger", value: 10, range: 0...9)),
        (#"{"type":"move","x":1,"y":2,"finger":-1}"#, .outOfRange(field: "finger", value: -1, range: 0...9)),
        (#"{"type":"release","finger":0.5}"#, .notWhole(field: "finger", value: 0.5)),
        (#"{"type":"release","finger":"1"}"#, .missing(field: "finger", type: "release")),
        (#"{"type":"release","finger":null}"#, .missing(field: "finger", type: "release")),
        (#"{"type":"grab","x":1,"y":2,"finger":1e400}"#, .unrepresentable(field: "finger", type: "grab")),
    ])
    func refusesWhatIsWrongNamingIt(text: String, problem: LiveMessage.Problem) {
        #expect(throws: problem) { try LiveMessage(text: text) }
    }

    @Test func refusesAnOversizedMessage() {
        let text = #"{"type":"hello","pad":""# + String(repeating: "x", count: 2000) + #""}"#
        #expect(throws: LiveMessage.Problem.tooLarge(bytes: text.utf8.count)) { try LiveMessage(text: text) }
    }
}

/// The reasons a refused message gets, as a viewer reads them.
@Suite struct LiveMessageReasonTests {
    /// A close frame's reason is cut at a character's end: cut at byte 120, an unknown type of
    /// 40 emoji was no UTF-8, and the server's force-unwrap stopped it (a helper's attack).
    @Test func aCloseReasonIsCutAtACharacter() throws {
        let text = #"{"type":""# + String(repeating: "😀", count: 40) + #""}"#
        let problem = try #require(throws: LiveMessage.Problem.self) { try LiveMessage(text: text) }
        let reason = LiveMessage.closeReason(problem.description)
        #expect(reason.utf8.count <= 123 && reason.utf8.count > 100)
        #expect(reason.hasPrefix("unknown type \"😀😀") && problem.description.hasPrefix(reason))
        #expect(LiveMessage.closeReason("too many viewers") == "too many viewers")
    }

    /// A type that is a NUL or a line break is shown escaped ("no type" was said of "\u0000").
    @Test func anUnprintableTypeIsShownEscaped() {
        #expect(throws: LiveMessage.Problem.unknownType("\u{0}")) { try LiveMessage(text: #"{"type":"\u0000"}"#) }
        #expect(LiveMessage.Problem.unknownType("\u{0}\n").description == #"unknown type "\0\n""#)
    }

    @Test func aTinyNumberIsNotCalledHuge() {
        let reason = LiveMessage.Problem.unrepresentable(field: "x", type: "grab").description
        #expect(
            reason
                == #"grab: "x" is a number a Double cannot hold (beyond ±1.8e308, or nearer 0 than 5e-324), which no field takes"#
        )
        #expect(LiveMessage.Problem.duplicateKey("type").description == #""type" is given twice"#)
    }
}
