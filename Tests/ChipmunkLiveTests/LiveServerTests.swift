#if Live
    import Chipmunk
    import ChipmunkScenes
    import ChipmunkTestSupport
    import Foundation
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    import NIOCore
    import NIOEmbedded
    import NIOHTTP1

    @testable import ChipmunkLive

    /// The server as a user's executable runs it: `LiveServer(name:scene:)` on a free port.
    @Suite struct LiveServerTests {
        /// A ball on a ramp, written in Swift: a scene no file or name knows.
        static func ramp() -> Scene {
            let space = Space()
            space.gravity = [0, -1000]
            space.add(Segment(body: space.staticBody, from: [0, 100], to: [300, 0], radius: 2, friction: 0.7))
            let ball = Body(mass: 1, moment: Moment.circle(mass: 1, outerRadius: 10))
            ball.position = [40, 200]
            space.add(ball, Circle(body: ball, radius: 10, friction: 0.7, elasticity: 0.5))
            return Scene(name: "ramp", space: space)
        }

        /// A TCP socket connected to `url`'s port, for bytes no HTTP client sends; its reads
        /// give up after `Patience` (a hang guard, as `fetch` has).
        func connectRaw(_ url: URL) throws -> Int32 {
            let port = try #require(url.port)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected != 0 { close(fd) }
            try #require(connected == 0)
            var bound = timeval(tv_sec: Int(Patience.seconds), tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
            return fd
        }

        static func sendBytes(_ fd: Int32, _ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        }

        /// A WebSocket upgrade request for `/ws`.
        static let upgrade = Array(
            ("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)

        /// A masked client frame: `opcode` 1 (text) or 0 (continuation), FIN when `last`;
        /// payloads up to 65,535 bytes.
        static func frame(_ opcode: UInt8, _ payload: [UInt8], last: Bool) -> [UInt8] {
            var bytes: [UInt8] = [(last ? 0x80 : 0) | opcode]
            if payload.count < 126 {
                bytes.append(0x80 | UInt8(payload.count))
            } else {
                bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 255)]
            }
            bytes += [0, 0, 0, 0]  // a zero mask leaves the payload as it is
            return bytes + payload
        }

        /// What `fd` receives until `enough` holds for it, the server closes the connection
        /// (`closed`), or a read fails or gives up (after `Patience`). Read on a thread of its
        /// own: a blocking read on one of the cooperative pool's two threads holds up the
        /// server's tasks that would answer it, and two such reads at once deadlocked.
        func receive(_ fd: Int32, until enough: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }) async
            -> (bytes: [UInt8], closed: Bool)
        {
            await withCheckedContinuation { continuation in
                Thread {
                    var received: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    while !enough(received) {
                        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                        // A reset is a close too: a server that closes a socket before reading
                        // what it was sent (a request-head deadline on a busy machine) resets it.
                        let reset = count < 0 && errno == ECONNRESET
                        if count <= 0 { return continuation.resume(returning: (received, count == 0 || reset)) }
                        received += buffer[..<count]
                    }
                    continuation.resume(returning: (received, false))
                }.start()
            }
        }

        /// Everything `fd` receives until the server closes (or resets) it; nil if a read
        /// failed otherwise or gave up first.
        func readUntilClosed(_ fd: Int32) async -> String? {
            let (bytes, closed) = await receive(fd)
            return closed ? String(decoding: bytes, as: UTF8.self) : nil
        }

        /// The deadline on a connection's first request head, on a channel whose clock the
        /// test moves (no wall-clock race): nothing sent, or half a head, is closed at the
        /// deadline and not before; a head that arrives a byte at a time, or with its blank
        /// line split across reads, cancels it, and every byte reaches the parser untouched.
        @Test func theRequestHeadDeadlineClosesOnlyWhatSendsNoHead() throws {
            let timeout = TimeAmount.seconds(30)
            var handlers: [ObjectIdentifier: LiveRoutes.RequestHeadDeadline] = [:]
            func channel() throws -> EmbeddedChannel {
                let handler = LiveRoutes.RequestHeadDeadline(timeout: timeout)
                let channel = EmbeddedChannel(handler: handler)
                handlers[ObjectIdentifier(channel)] = handler
                try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
                return channel
            }
            func outcome(_ channel: EmbeddedChannel) throws -> LiveRoutes.RequestHeadDeadline.Outcome {
                try #require(handlers[ObjectIdentifier(channel)]).outcome.wait()
            }
            func send(_ channel: EmbeddedChannel, _ text: String) throws {
                try channel.writeInbound(ByteBuffer(string: text))
            }
            func passed(_ channel: EmbeddedChannel) throws -> String {
                var text = ""
                while let buffer = try channel.readInbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
                return text
            }

            let silent = try channel()
            silent.embeddedEventLoop.advanceTime(by: timeout - .nanoseconds(1))
            #expect(silent.isActive, "open until the deadline")
            silent.embeddedEventLoop.advanceTime(by: .nanoseconds(1))
            #expect(!silent.isActive, "nothing sent: closed at the deadline")
            #expect(try outcome(silent) == .closed)

            let half = try channel()
            try send(half, "GET /state HTTP/1.1\r\nHost: x\r\n")
            half.embeddedEventLoop.advanceTime(by: timeout)
            #expect(!half.isActive, "half a head: closed at the deadline")

            let head = "GET / HTTP/1.1\r\nHost: x\r\n\r\nthe body"
            let slow = try channel()
            for byte in head { try send(slow, String(byte)) }
            slow.embeddedEventLoop.advanceTime(by: timeout * 10)
            #expect(slow.isActive, "a head a byte at a time cancels the deadline")
            #expect(try passed(slow) == head)
            #expect(try outcome(slow) == .arrived)

            for cut in 1..<head.count {
                let split = try channel()
                try send(split, String(head.prefix(cut)))
                try send(split, String(head.dropFirst(cut)))
                split.embeddedEventLoop.advanceTime(by: timeout * 10)
                #expect(split.isActive, "the head cut after \(cut) bytes")
                #expect(try passed(split) == head)
                _ = try? split.finish()
            }
            _ = try? slow.finish()
        }

        /// Behind the deadline, the parser: a first request it refuses ends as refused (and
        /// is answered 400), one it takes as arrived. The server logs neither refused nor
        /// closed connections as its own errors (Hummingbird logged a line for each).
        @Test func theFirstRequestsOutcomeIsTheParsersWord() throws {
            func outcome(of bytes: String) throws -> (LiveRoutes.RequestHeadDeadline.Outcome, Bool) {
                let deadline = LiveRoutes.RequestHeadDeadline(timeout: .seconds(30))
                let channel = EmbeddedChannel()
                try channel.pipeline.syncOperations.addHandler(deadline)
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                try channel.pipeline.syncOperations.addHandler(LiveRoutes.BadRequest(deadline))
                try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
                _ = try? channel.writeInbound(ByteBuffer(string: bytes))
                var answered = false
                while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) {
                    if case .head(let head) = part, head.status == .badRequest { answered = true }
                }
                defer { _ = try? channel.finish() }
                return (try deadline.outcome.wait(), answered)
            }
            let refused = try outcome(of: "\u{0}\u{1} not HTTP\r\n\r\n")
            #expect(refused.0 == .refused && refused.1)
            let refusedEarly = try outcome(of: "\u{0}\u{1}")
            #expect(refusedEarly.0 == .refused && refusedEarly.1, "refused before a blank line")
            let taken = try outcome(of: "GET /state HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(taken.0 == .arrived && !taken.1)
        }

        /// On a served world: a connection that sends no request head (nothing, or half a
        /// head) is closed after `requestHeadTimeout`, and an HTTP connection idle after its
        /// answer after `idleTimeout`: both were held open for ever. Each server has one
        /// short timeout, and only connections meant to be closed race it: what a busy
        /// machine delays is their closing, never the outcome.
        @Test func connectionsThatSendNothingAreClosed() async throws {
            var headDeadline = LiveServer.Configuration(port: 0)
            headDeadline.requestHeadTimeout = .milliseconds(100)
            let (url, serving) = try await start(LiveServer(name: "ramp", configuration: headDeadline) { Self.ramp() })
            defer { serving.cancel() }
            let silent = try connectRaw(url)
            defer { close(silent) }
            #expect(await readUntilClosed(silent) == "", "nothing sent: closed with no answer")
            let half = try connectRaw(url)
            defer { close(half) }
            Self.sendBytes(half, Array("GET /state HTTP/1.1\r\nHost: x\r\n".utf8))
            #expect(await readUntilClosed(half) == "", "half a head: closed with no answer")

            var idleLimit = LiveServer.Configuration(port: 0)
            idleLimit.idleTimeout = .milliseconds(100)
            let (idleURL, idleServing) = try await start(
                LiveServer(name: "ramp", configuration: idleLimit) { Self.ramp() })
            defer { idleServing.cancel() }
            let idle = try connectRaw(idleURL)
            defer { close(idle) }
            Self.sendBytes(idle, Array("GET /state HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let answer = await readUntilClosed(idle)
            #expect(answer?.hasPrefix("HTTP/1.1 200 OK") == true && answer?.contains(#""scene":"ramp""#) == true)
            // A viewer is not HTTP once upgraded: ten times the idle limit later, its socket
            // still drives the world.
            let viewer = try connectRaw(idleURL)
            defer { close(viewer) }
            Self.sendBytes(viewer, Self.upgrade)
            // The 101's head and the first frames may come in one read.
            let head = await receive(viewer) { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }
            #expect(String(decoding: head.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 101"))
            try await Task.sleep(for: .seconds(1))
            Self.sendBytes(viewer, Self.frame(1, Array(#"{"type":"pause"}"#.utf8), last: true))
            struct State: Decodable { var paused: Bool }
            let state = try await poll(idleURL.appending(path: "state"), as: State.self) { $0.paused }
            #expect(state.paused, "the viewer's pause arrived")
        }

        /// `url`'s answer and its status, bounded by `Patience` (URLSession's own 60 s bound
        /// failed a CI run on two busy cores).
        func fetch(_ url: URL, configure: (inout URLRequest) -> Void = { _ in }) async throws -> (Data, Int?) {
            var request = URLRequest(url: url)
            request.timeoutInterval = Patience.seconds
            configure(&request)
            let (data, response) = try await URLSession.shared.data(for: request)
            return (data, (response as? HTTPURLResponse)?.statusCode)
        }

        func get(_ url: URL) async throws -> Data {
            let (data, status) = try await fetch(url)
            #expect(status == 200)
            return data
        }

        /// `url`'s JSON as `T`, fetched again every `interval` until `done` holds of it (or
        /// `Patience` runs out: the caller's expectations then say what was not met).
        func poll<T: Decodable>(
            _ url: URL, as _: T.Type, every interval: Duration = .milliseconds(20), until done: (T) -> Bool
        ) async throws -> T {
            let deadline = ContinuousClock.now + .seconds(Patience.seconds)
            var value = try JSONDecoder().decode(T.self, from: try await get(url))
            while !done(value), ContinuousClock.now < deadline {
                try await Task.sleep(for: interval)
                value = try JSONDecoder().decode(T.self, from: try await get(url))
            }
            return value
        }

        /// Starts `server` and returns its URL once it listens, and the task serving (cancel it
        /// to stop the server).
        func start(_ server: LiveServer) async throws -> (url: URL, serving: Task<Void, any Error>) {
            let (urls, ready) = AsyncStream<URL>.makeStream()
            let serving = Task { try await server.run(onReady: { ready.yield($0) }) }
            var iterator = urls.makeAsyncIterator()
            return (try #require(await iterator.next()), serving)
        }

        @Test func aSceneWrittenInSwiftIsServedFromAUsersCode() async throws {
            let (url, serving) = try await start(
                LiveServer(name: "my-ramp", configuration: .init(port: 0)) { Self.ramp() })
            #expect(url.host == "127.0.0.1" && url.port != 8080)
            let page = String(decoding: try await get(url), as: UTF8.self)
            #expect(page.contains("<canvas id=\"world\""))
            struct State: Decodable {
                var scene: String
                var step: Int
                var bodies: [Body]
                struct Body: Decodable { var name: String }
            }
            let state = try JSONDecoder().decode(State.self, from: try await get(url.appending(path: "state")))
            #expect(state.scene == "ramp" && state.bodies.map(\.name) == ["0"])
            // A recording holds a step once the world has taken one (before, 409 with why).
            _ = try await poll(url.appending(path: "state"), as: State.self) { $0.step > 0 }
            let recording = try JSONDecoder().decode(
                InputRecording.self, from: try await get(url.appending(path: "recording")))
            #expect(recording.scene == "my-ramp")
            // What the page downloads replays on the user's own scene.
            #expect(try recording.replay(on: Self.ramp()) == recording.hashes.count)
            serving.cancel()
            _ = await serving.result
        }

        /// `HEAD` answers as `GET` without the body (it was 404); an unknown path or method
        /// gets 404 with a line naming it and what is served (it had no body), and `/ws`
        /// without a WebSocket upgrade 426.
        @Test func headAnswersAndAnUnknownRequestIsTold() async throws {
            let (url, serving) = try await start(
                LiveServer(name: "ramp", configuration: .init(port: 0)) { Self.ramp() })
            for path in ["", "state", "recording"] {
                let (data, status) = try await fetch(url.appending(path: path)) { $0.httpMethod = "HEAD" }
                #expect(status == 200 || (path == "recording" && status == 409), "HEAD /\(path): \(status ?? 0)")
                #expect(data.isEmpty, "HEAD /\(path)")
            }
            for (method, path) in [("GET", "nope"), ("POST", "state")] {
                let (data, status) = try await fetch(url.appending(path: path)) { $0.httpMethod = method }
                let text = String(decoding: data, as: UTF8.self)
                #expect(status == 404, "\(method) /\(path)")
                #expect(text.hasPrefix("not found: \(method) /\(path): this server answers"), "\(text)")
            }
            // /ws without the upgrade: 426, saying what it is (it was "not found: GET /ws: … a
            // WebSocket at /ws").
            let (data, status) = try await fetch(url.appending(path: "ws")) { $0.httpMethod = "GET" }
            #expect(status == 426)
            #expect(
                String(decoding: data, as: UTF8.self)
                    == "GET /ws is the viewers' WebSocket: it answers a WebSocket upgrade (the page at / opens one), "
                    + "not a plain request (docs/live.md)\n")
            serving.cancel()
            _ = await serving.result
        }

        /// A port or frame rate outside its rule stops the program naming the property, set
        /// at once or later (a newcomer's pass: port 99,999 served on 34,463, and a frame
        /// rate of 0 made no frame period); the rule's ends are accepted.
        @Test(arguments: [
            "port -1", "port 65536", "port 99999", "later port 70000", "fps 0", "fps -1", "fps nan", "fps 1001",
            "later fps inf",
        ])
        func aConfigurationOutsideItsRulesStopsNamingIt(_ value: String) async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [value] in
                let words = value.split(separator: " ").map(String.init)
                var configuration = LiveServer.Configuration(port: 0)
                switch (words.count == 3, words[words.count - 2]) {
                case (false, "port"): configuration = .init(port: Int(words.last!)!)
                case (true, "port"): configuration.port = Int(words.last!)!
                case (false, _): configuration = .init(framesPerSecond: Double(words.last!)!)
                default: configuration.framesPerSecond = Double(words.last!)!
                }
                _ = configuration
            }
            let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            let property =
                value.contains("port") ? "port must be from 0 to 65535" : "framesPerSecond must be from 1 to 1000"
            #expect(stderr.contains("LiveServer.Configuration.\(property)"), "\(value): \(stderr)")
            var accepted = LiveServer.Configuration(port: 65_535, framesPerSecond: 1)
            accepted.port = 0
            accepted.framesPerSecond = 1_000
            #expect(accepted.port == 0 && accepted.framesPerSecond == 1_000)
        }

        /// The page asks its server for nothing but its socket and the downloads: without an
        /// icon of its own, a browser asks for /favicon.ico, and its console shows the 404.
        @Test func thePageNamesItsOwnIcon() {
            #expect(LivePage.html.contains(#"<link rel="icon" href="data:,">"#))
        }

        @Test func aPortInUseIsSaidPlainly() async throws {
            let (url, serving) = try await start(
                LiveServer(name: "ramp", configuration: .init(port: 0)) { Self.ramp() })
            let port = try #require(url.port)
            let second = LiveServer(name: "ramp", configuration: .init(port: port)) { Self.ramp() }
            await #expect(throws: LiveServer.Failure.addressInUse(host: "127.0.0.1", port: port)) {
                try await second.run(onReady: { _ in })
            }
            serving.cancel()
            _ = await serving.result
        }

        /// A world stopped inside the engine (the contact pair budget) cannot be saved: the
        /// snapshot download answers 409 with why, and the server goes on.
        @Test func aStoppedWorldsSnapshotIsRefusedNotACrash() async throws {
            let (url, serving) = try await start(
                LiveServer(name: "pile", configuration: .init(port: 0)) { LiveSessionTests.pile() })
            struct State: Decodable { var failure: String? }
            let state = try await poll(url.appending(path: "state"), as: State.self, every: .milliseconds(50)) {
                $0.failure != nil
            }
            #expect(state.failure?.contains("contact pairs") == true)
            let (data, status) = try await fetch(url.appending(path: "snapshot"))
            #expect(status == 409)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("cannot be saved: scrub back or restart"), "\(text)")
            _ = try await get(url.appending(path: "state"))  // still serving
            serving.cancel()
            _ = await serving.result
        }

        /// A request the HTTP parser refuses (a header past its limit) is answered 400 with
        /// why, and the connection closed: it was left open with no answer, and the client
        /// waited for ever.
        @Test func aRequestTooLargeToParseIsAnsweredNotLeftOpen() async throws {
            let (url, serving) = try await start(
                LiveServer(name: "ramp", configuration: .init(port: 0)) { Self.ramp() })
            // Before the fix, the request hung for ever: `fetch` bounds it.
            let (data, status) = try await fetch(url.appending(path: "state")) {
                $0.setValue(String(repeating: "a", count: 200_000), forHTTPHeaderField: "X-Long")
            }
            #expect(status == 400)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("header"), "\(text)")
            _ = try await get(url.appending(path: "state"))  // still serving
            serving.cancel()
            _ = await serving.result
        }

        /// A download's name keeps its letters: ASCII in `filename`, the name itself in
        /// `filename*`, percent-encoded UTF-8.
        @Test func aDownloadNameKeepsItsLetters() {
            #expect(
                LiveRoutes.contentDisposition("Kisten-Ä日本.inputs.json")
                    == "attachment; filename=\"Kisten-___.inputs.json\"; filename*=UTF-8''Kisten-%C3%84%E6%97%A5%E6%9C%AC.inputs.json"
            )
            #expect(
                LiveRoutes.contentDisposition("crates 2.snapshot")
                    == "attachment; filename=\"crates_2.snapshot\"; filename*=UTF-8''crates_2.snapshot")
        }

        /// A WebSocket upgrade without Sec-WebSocket-Key (or its version) is answered 400 with
        /// what it lacks; it was closed with no answer.
        @Test func anUpgradeWithoutItsKeyIsAnswered() async throws {
            let (url, serving) = try await start(
                LiveServer(name: "ramp", configuration: .init(port: 0)) { Self.ramp() })
            defer { serving.cancel() }
            let fd = try connectRaw(url)
            defer { close(fd) }
            Self.sendBytes(
                fd,
                Array(
                    "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n"
                        .utf8))
            let (received, _) = await receive(fd) { String(decoding: $0, as: UTF8.self).hasSuffix("13\n") }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400"), "\(text)")
            #expect(text.hasSuffix("needs the headers Sec-WebSocket-Key and Sec-WebSocket-Version: 13\n"), "\(text)")
        }

        /// A text message over 1,024 bytes sent in fragments is refused as a single frame is:
        /// code 1008 and the reason. The socket's own limit (1,024 bytes assembled) closed it
        /// with 1009 and no reason.
        @Test func aFragmentedOversizedMessageIsRefusedWithItsReason() async throws {
            let (url, serving) = try await start(
                LiveServer(name: "ramp", configuration: .init(port: 0)) { Self.ramp() })
            defer { serving.cancel() }
            let fd = try connectRaw(url)
            defer { close(fd) }
            func sendAll(_ bytes: [UInt8]) { Self.sendBytes(fd, bytes) }
            sendAll(Self.upgrade)
            let text = Array((#"{"type":"hello","pad":""# + String(repeating: "x", count: 2000) + #""}"#).utf8)
            sendAll(Self.frame(1, Array(text[..<1000]), last: false))
            sendAll(Self.frame(0, Array(text[1000...]), last: true))
            let reason = "message of \(text.count) bytes (at most 1024)"
            let close = [0x88, UInt8(2 + reason.utf8.count), 0x03, 0xF0] + Array(reason.utf8)  // 1008
            // Read frames until the close frame, or until the server closes the connection.
            let (received, _) = await receive(fd) {
                $0.count >= close.count && $0.suffix(close.count).elementsEqual(close)
            }
            #expect(
                received.suffix(close.count).elementsEqual(close),
                "\(String(decoding: received.suffix(60), as: UTF8.self))")
        }

        /// A text message that is not UTF-8 (a lone continuation byte, a cut emoji) closes
        /// with 1007, as RFC 6455 asks, and the world goes on. It arrived repaired, with
        /// U+FFFD, and was refused with 1008 as not JSON.
        @Test(arguments: [
            [0x80] as [UInt8], [0xF0, 0x9F, 0x98], Array(#"{"type":""#.utf8) + [0xFF] + Array(#""}"#.utf8),
        ])
        func textThatIsNotUTF8ClosesWith1007(_ payload: [UInt8]) async throws {
            let (url, serving) = try await start(
                LiveServer(name: "ramp", configuration: .init(port: 0)) { Self.ramp() })
            defer { serving.cancel() }
            let fd = try connectRaw(url)
            defer { close(fd) }
            Self.sendBytes(fd, Self.upgrade)
            Self.sendBytes(fd, Self.frame(1, payload, last: true))
            let close: [UInt8] = [0x88, 0x02, 0x03, 0xEF]  // 1007, no reason
            let (received, _) = await receive(fd) {
                $0.count >= close.count && $0.suffix(close.count).elementsEqual(close)
            }
            #expect(
                received.suffix(close.count).elementsEqual(close),
                "\(received.suffix(8).map { String($0, radix: 16) })")
            _ = try await get(url.appending(path: "state"))  // still serving
        }

        @Test func aSceneFileIsRebuiltWhenSavedAndAnErrorKeepsTheWorld() async throws {
            let folder = try TemporaryFolder("live-reload")
            defer { folder.remove() }
            let file = folder.url.appending(path: "drop.json")
            let text = try String(contentsOf: packageRoot.appending(path: "Scenes/drop.json"), encoding: .utf8)
            try text.write(to: file, atomically: true, encoding: .utf8)
            let world = try LiveWorld(source: file.path)
            let viewer = try #require(await world.join())
            for _ in 0..<30 { await world.tick(seconds: 1.0 / 60) }
            #expect(await world.withSession { $0.step } == 60)
            // A broken file: the world goes on, the viewer is told.
            try "{ not a scene".write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: file.path)
            for _ in 0..<30 { await world.tick(seconds: 1.0 / 60) }
            #expect(await world.withSession { $0.step } == 120)
            var notices: [String] = []
            for await item in viewer.outbound {
                if case .text(let text) = item, text.contains(#""type":"error""#) { notices.append(text) }
                if notices.count == 1 { break }
            }
            #expect(notices.first?.contains("drop.json") == true)
            // Fixed: rebuilt from step 0.
            try text.write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: file.path)
            for _ in 0..<30 { await world.tick(seconds: 1.0 / 60) }
            #expect(await world.withSession { $0.step } < 60)
        }
    }
#endif
