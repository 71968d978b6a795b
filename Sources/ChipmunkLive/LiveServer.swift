#if Live
    import Chipmunk
    import ChipmunkScenes
    import Foundation
    import Hummingbird
    import HummingbirdCore
    import HummingbirdWebSocket
    import Logging
    import NIOCore
    import NIOHTTP1
    import NIOWebSocket
    import ServiceLifecycle

    /// Serves a scene live: one authoritative world stepped at the book's fixed 1/120 s
    /// steps in 60 Hz frames, and a page where every viewer drags bodies, flicks them, tilts
    /// gravity, pauses, single-steps, changes the speed, scrubs back and branches, and
    /// downloads the session as a recording that replays bit for bit.
    ///
    /// From your own executable, with a scene written in Swift:
    ///
    /// ```swift
    /// import ChipmunkLive
    ///
    /// let server = LiveServer(name: "my-ramp") { makeRampScene() }
    /// try await server.run()   // prints the URL; stops on SIGINT or SIGTERM
    /// ```
    ///
    /// A recording of such a scene names it by `name`; replay it from your code with
    /// `InputRecording.load(contentsOf:)` and `replay(on: makeRampScene())`.
    public struct LiveServer: Sendable {
        /// Where the server listens.
        public struct Configuration: Sendable {
            /// The address to bind: 127.0.0.1 (this machine only) by default. Anything else
            /// lets other machines drive the world; ``LiveServer/run(onReady:)`` warns.
            public var host: String
            /// The port, from 0 to 65,535; 0 picks a free one. (99,999 served on 34,463, the
            /// socket's 16 bits of it.)
            public var port: Int {
                didSet { Self.check(port: port) }
            }
            /// Display frames per second, from 1 to 1,000: the book's 60. (0 or NaN made no
            /// frame period, and the frame loop trapped.)
            public var framesPerSecond: Double {
                didSet { Self.check(framesPerSecond: framesPerSecond) }
            }
            /// How long a connection may take to send its first request's head before it is
            /// closed: a client that connects and sends nothing, or a byte at a time, would
            /// otherwise hold its socket for ever (tests shorten it).
            package var requestHeadTimeout: TimeAmount = .seconds(30)
            /// How long an HTTP connection may stay idle after an answer (keep-alive) before
            /// it is closed. A viewer's WebSocket is not HTTP once upgraded: pings keep it.
            package var idleTimeout: TimeAmount = .seconds(60)

            /// A configuration; the defaults serve this machine only, on port 8080, at 60 frames a second.
            public init(host: String = "127.0.0.1", port: Int = 8080, framesPerSecond: Double = 60) {
                Self.check(port: port)
                Self.check(framesPerSecond: framesPerSecond)
                self.host = host
                self.port = port
                self.framesPerSecond = framesPerSecond
            }

            private static func check(port: Int) {
                ensure(
                    (0...65_535).contains(port),
                    "LiveServer.Configuration.port must be from 0 to 65535, 0 for a free port (got \(port))")
            }

            private static func check(framesPerSecond: Double) {
                ensure(
                    (1...1_000).contains(framesPerSecond),
                    "LiveServer.Configuration.framesPerSecond must be from 1 to 1000 (got \(framesPerSecond))")
            }
        }

        /// Where the server listens.
        public var configuration: Configuration
        private let makeWorld: @Sendable () throws -> LiveWorld

        /// Serves a built-in scene, a scene file (rebuilt when it is saved) or a snapshot
        /// file, as `chipmunk-sim serve` does.
        public init(serving source: String, configuration: Configuration = Configuration()) {
            self.configuration = configuration
            makeWorld = { try LiveWorld(source: source) }
        }

        /// Serves the scene `scene` builds (it builds it again on restart and on a scrub
        /// back); `name` names it in recordings and snapshots.
        public init(
            name: String, configuration: Configuration = Configuration(),
            scene: @escaping @Sendable () throws -> Scene
        ) {
            self.configuration = configuration
            makeWorld = { try LiveWorld(source: name, makeScene: scene) }
        }

        /// Builds the world and serves it until the process gets SIGINT or SIGTERM, or the
        /// task is cancelled. `onReady` gets the page's URL once the port is bound (by
        /// default it prints it, with a warning when the address is not loopback).
        ///
        /// - Throws: what building the scene throws (a `SceneError`), or the server's error
        ///   (such as a port in use).
        public func run(onReady: @escaping @Sendable (URL) -> Void = LiveServer.printAddress) async throws {
            let world = try makeWorld()
            let app = Application(
                router: LiveRoutes.router(world),
                server: LiveRoutes.server(world, configuration),
                configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
                onServerRunning: { [host = configuration.host] channel in
                    let port = channel.localAddress?.port ?? 0
                    let shown = host.contains(":") ? "[\(host)]" : host
                    onReady(URL(string: "http://\(shown):\(port)/")!)
                },
                logger: Self.quietLogger)
            let frames = Task { await LiveRoutes.frameLoop(world, framesPerSecond: configuration.framesPerSecond) }
            defer { frames.cancel() }
            // SIGINT and SIGTERM let the viewers' sockets close, for at most 2 s: a viewer that
            // stopped reading kept its handler waiting to write, and the server with it, until
            // the viewer went away (a helper's attack: still running 60 s after SIGTERM). Then
            // the handlers are cancelled, which ends a wait to write. (No limit on that
            // cancellation: ServiceLifecycle enforces one with fatalError, which crashed the
            // test process on a busy machine when a test cancelled its server.)
            var shutdown = ServiceGroupConfiguration(
                services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: Self.quietLogger)
            shutdown.maximumGracefulShutdownDuration = .seconds(2)
            do {
                try await ServiceGroup(configuration: shutdown).run()
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw Failure.addressInUse(host: configuration.host, port: configuration.port)
            }
        }

        /// Why the server could not serve.
        public enum Failure: Error, Equatable, CustomStringConvertible {
            /// Another program listens on the address and port.
            case addressInUse(host: String, port: Int)

            /// One line saying what went wrong and what to do.
            public var description: String {
                switch self {
                case .addressInUse(let host, let port):
                    "\(host):\(port) is in use by another program: choose another port, or port 0 for a free one"
                }
            }
        }

        /// Prints where the page is, and warns when other machines can reach it.
        public static let printAddress: @Sendable (URL) -> Void = { url in
            print("Serving \(url.absoluteString) (Ctrl-C stops)")
            if let host = url.host, !LiveServer.isLoopback(host) {
                FileHandle.standardError.write(
                    Data(
                        "warning: \(host) is not a loopback address: anyone who reaches it can drive the world and read its state (docs/live.md, Security)\n"
                            .utf8))
            }
            fflush(nil)
        }

        /// Whether `host` is this machine only.
        public static func isLoopback(_ host: String) -> Bool {
            host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        }

        private static var quietLogger: Logger {
            var logger = Logger(label: "chipmunk-live")
            logger.logLevel = .error
            return logger
        }
    }

    /// The routes: the page, the downloads, the state, and a WebSocket per viewer.
    package enum LiveRoutes {
        /// The most bytes of a frame, and of a message assembled from fragments: past this the
        /// socket closes with 1009 (too big). A message within it but over
        /// `LiveMessage.maximumBytes` is refused by `LiveMessage`, with 1008 and the reason. Text
        /// that is not UTF-8 closes with 1007.
        package static let maximumFrameBytes = 16384

        /// HTTP/1 with the WebSocket upgrade at `/ws`, and a request the HTTP parser refuses
        /// (a URL or headers past its limits, bytes that are not HTTP) answered 400 and closed:
        /// Hummingbird's upgrade channel leaves such a connection open with no answer.
        /// Connections that send no request head in time, or stay idle after an answer, are
        /// closed (`configuration`'s two timeouts).
        package static func server(_ world: LiveWorld, _ configuration: LiveServer.Configuration) -> HTTPServerBuilder {
            let webSocketResponder = webSocketRouter(world).buildResponder()
            return HTTPServerBuilder { responder in
                RefusingMalformedRequests(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: .init(
                            http1: .init(idleTimeout: configuration.idleTimeout),
                            // Text that is not UTF-8 closes with 1007, as RFC 6455 asks;
                            // unchecked, it arrived repaired (U+FFFD) and was refused as not JSON.
                            ws: .init(maxFrameSize: maximumFrameBytes, validateUTF8: true))),
                    requestHeadTimeout: configuration.requestHeadTimeout)
            }
        }

        /// The upgrade channel, with ``RequestHeadDeadline`` at the front of its pipeline
        /// and ``BadRequest`` at the end.
        struct RefusingMalformedRequests: ServerChildChannel {
            let inner: HTTP1WebSocketUpgradeChannel
            let requestHeadTimeout: TimeAmount

            struct Value: ServerChildChannelValue {
                let inner: HTTP1WebSocketUpgradeChannel.Value
                /// How the connection's first request head ended.
                let firstHead: EventLoopFuture<RequestHeadDeadline.Outcome>
                var channel: any Channel { inner.channel }
            }

            func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
                inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
                    let deadline = RequestHeadDeadline(timeout: requestHeadTimeout)
                    try channel.pipeline.syncOperations.addHandler(deadline, position: .first)
                    try channel.pipeline.syncOperations.addHandler(BadRequest(deadline))
                    return Value(inner: value, firstHead: deadline.outcome)
                }
            }

            /// A connection that closes before its first request head (a browser's
            /// preconnect, a port scan, the head deadline), or whose first request is refused
            /// 400, is no error of the server's: Hummingbird logged a line for each at level
            /// error.
            func handle(value: Value, logger: Logger) async {
                let outcome = (try? await value.firstHead.get()) ?? .closed
                guard outcome == .arrived else {
                    return logger.debug("a connection ended before its first request: \(outcome)")
                }
                await inner.handle(value: value.inner, logger: logger)
            }
        }

        /// Closes a connection whose first request head (the bytes up to its blank line) has
        /// not arrived within `timeout` of its opening. Hummingbird's idle timeout starts
        /// only after a request head, so a client that connects and sends nothing, or a byte
        /// at a time, held its socket for ever. Reads the raw bytes ahead of the HTTP parser;
        /// once the head is in, it only passes bytes on.
        final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
            typealias InboundIn = ByteBuffer
            let timeout: TimeAmount
            private var deadline: Scheduled<Void>?
            /// How many bytes of "\r\n\r\n" the bytes read so far end with; 4 once the head is in.
            private var matched = 0
            /// Made when the handler joins a pipeline; kept until the first head's outcome.
            private var promise: EventLoopPromise<Outcome>?
            private var future: EventLoopFuture<Outcome>?

            /// How a connection's first request head ended.
            enum Outcome: Sendable {
                /// It arrived, and the parser took it.
                case arrived
                /// The connection closed first: the client's doing, or the deadline's.
                case closed
                /// The parser refused it (``BadRequest`` answered 400).
                case refused
            }

            init(timeout: TimeAmount) { self.timeout = timeout }

            /// The first head's outcome. Read it once the handler is in a pipeline.
            var outcome: EventLoopFuture<Outcome> {
                guard let future else { preconditionFailure("RequestHeadDeadline is in no pipeline yet") }
                return future
            }

            func handlerAdded(context: ChannelHandlerContext) {
                let channel = context.channel
                deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                let promise = context.eventLoop.makePromise(of: Outcome.self)
                self.promise = promise
                future = promise.futureResult
            }

            func handlerRemoved(context: ChannelHandlerContext) { end(.closed) }

            func channelInactive(context: ChannelHandlerContext) {
                end(.closed)
                context.fireChannelInactive()
            }

            /// The parser refused the request (on the same event loop, from ``BadRequest``).
            func refused() { end(.refused) }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                if matched < 4 {
                    let bytes = unwrapInboundIn(data)
                    for byte in bytes.readableBytesView where matched < 4 {
                        let expected: UInt8 = matched % 2 == 0 ? 13 : 10  // \r \n \r \n
                        matched = byte == expected ? matched + 1 : (byte == 13 ? 1 : 0)
                    }
                    // The parser reads the head within fireChannelRead: if it refuses it,
                    // ``BadRequest`` has ended the outcome as refused before this does.
                    context.fireChannelRead(data)
                    if matched == 4 { end(.arrived) }
                    return
                }
                context.fireChannelRead(data)
            }

            private func end(_ outcome: Outcome) {
                deadline?.cancel()
                deadline = nil
                promise?.succeed(outcome)
                promise = nil
            }
        }

        /// Answers the HTTP parser's error, or a WebSocket upgrade without its headers, with
        /// 400, naming it, and closes the connection.
        final class BadRequest: ChannelInboundHandler, RemovableChannelHandler {
            typealias InboundIn = NIOAny
            typealias OutboundOut = HTTPServerResponsePart
            /// Told of the refusal: the connection's first request ends there.
            let deadline: RequestHeadDeadline

            init(_ deadline: RequestHeadDeadline) { self.deadline = deadline }

            func errorCaught(context: ChannelHandlerContext, error: any Error) {
                let text: String
                if let error = error as? HTTPParserError {
                    text = "bad request: \(error) (the request could not be read as HTTP)\n"
                } else if error is NIOWebSocketUpgradeError {
                    // It was closed with no answer (a helper's attack).
                    text =
                        "bad request: a WebSocket upgrade needs the headers Sec-WebSocket-Key and "
                        + "Sec-WebSocket-Version: 13\n"
                } else {
                    return context.fireErrorCaught(error)
                }
                deadline.refused()
                var headers = HTTPHeaders()
                headers.add(name: "Connection", value: "close")
                headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
                headers.add(name: "Content-Length", value: "\(text.utf8.count)")
                context.write(
                    wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
                    promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
            }
        }

        /// The routes. `HEAD` answers as `GET` does, without the body; any other request
        /// gets 404 with what the server answers.
        package static func router(_ world: LiveWorld) -> Router<BasicRequestContext> {
            let router = Router(options: .autoGenerateHeadEndpoints)
            router.add(middleware: NotFoundSaysWhatIsServed())
            router.get("/") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(string: LivePage.html)))
            }
            // 409 Conflict when the world's state, not the request, is what refuses: a
            // recording of no step yet, a world stopped inside the engine.
            router.get("/recording") { _, _ in
                let name = await world.sceneName
                do {
                    return download(try await world.recordingJSON(), "\(name).inputs.json", "application/json")
                } catch {
                    return conflict(error)
                }
            }
            router.get("/snapshot") { _, _ in
                let name = await world.sceneName
                do {
                    return download(try await world.snapshotBytes(), "\(name).snapshot", "application/octet-stream")
                } catch {
                    return conflict(error)
                }
            }
            router.get("/state") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(bytes: await world.stateJSON())))
            }
            return router
        }

        /// Hummingbird's 404 has no body; this one names the request and what is served.
        struct NotFoundSaysWhatIsServed: RouterMiddleware {
            func handle(
                _ request: Request, context: BasicRequestContext,
                next: (Request, BasicRequestContext) async throws -> Response
            ) async throws -> Response {
                do {
                    return try await next(request, context)
                } catch let error as HTTPError where error.status == .notFound {
                    // /ws is there, for a WebSocket: "not found: GET /ws: … a WebSocket at /ws"
                    // contradicted itself.
                    if request.uri.path == "/ws" {
                        var refusal = plainText(
                            .upgradeRequired,
                            "\(request.method) /ws is the viewers' WebSocket: it answers a WebSocket upgrade "
                                + "(the page at / opens one), not a plain request (docs/live.md)")
                        refusal.headers[.upgrade] = "websocket"
                        return refusal
                    }
                    let path = String(request.uri.path.prefix(200))
                    return plainText(
                        .notFound,
                        "not found: \(request.method) \(path): this server answers GET (or HEAD) "
                            + "/, /state, /recording and /snapshot, and a WebSocket at /ws (docs/live.md)")
                }
            }
        }

        /// `file` as a download's name: plain ASCII in `filename`, and the name itself in
        /// `filename*` (RFC 6266, UTF-8 percent-encoded), which browsers prefer. The raw UTF-8
        /// in `filename` arrived garbled (`Kisten-Ä日本` as `Kisten-Ã_æ_¥æ_¬`: a helper's attack).
        static func contentDisposition(_ file: String) -> String {
            let kept: (Character) -> Bool = { $0.isLetter || $0.isNumber || "-_.".contains($0) }
            let safe = String(file.map { $0.isASCII && kept($0) ? $0 : "_" })
            let encoded = String(file.map { kept($0) ? $0 : "_" }).utf8.map { byte -> String in
                let c = Character(Unicode.Scalar(byte))
                return byte < 0x80 && kept(c) ? String(c) : String(format: "%%%02X", byte)
            }.joined()
            return "attachment; filename=\"\(safe)\"; filename*=UTF-8''\(encoded)"
        }

        private static func download(_ bytes: [UInt8], _ file: String, _ type: String) -> Response {
            Response(
                status: .ok,
                headers: [
                    .contentType: type, .contentDisposition: contentDisposition(file),
                    .cacheControl: "no-store",
                ], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }

        /// 409 with why the world cannot give the download now, for the page's notice.
        private static func conflict(_ error: any Error) -> Response { plainText(.conflict, "\(error)") }

        /// One line of text that says why, never cached: the server's refusals.
        private static func plainText(_ status: HTTPResponse.Status, _ line: String) -> Response {
            Response(
                status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: line + "\n")))
        }

        package static func webSocketRouter(_ world: LiveWorld) -> Router<BasicWebSocketRequestContext> {
            let router = Router(context: BasicWebSocketRequestContext.self)
            router.ws("/ws") { inbound, outbound, _ in
                try await serveViewer(world, inbound: inbound, outbound: outbound)
            }
            return router
        }

        /// One viewer's socket: frames out, messages in, until either side ends.
        package static func serveViewer(
            _ world: LiveWorld, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
        ) async throws {
            guard let (id, stream) = await world.join() else {
                try await outbound.close(.policyViolation, reason: "too many viewers")
                return
            }
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await item in stream {
                            switch item {
                            case .text(let text): try await outbound.write(.text(text))
                            case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                            case .close(let reason):
                                // A close frame's reason holds at most 123 bytes, cut at a
                                // character's end (cut at byte 120, an unknown type of 40
                                // emoji was no UTF-8, and the force-unwrap stopped the server).
                                try await outbound.close(.policyViolation, reason: LiveMessage.closeReason(reason))
                                return
                            }
                        }
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: maximumFrameBytes) {
                            switch message {
                            case .text(let text): await world.receive(text, from: id)
                            case .binary: await world.receiveBinary(from: id)
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            } catch {
                await world.leave(id)
                throw error
            }
            await world.leave(id)
        }

        /// Ticks the world every display frame on the monotonic clock, with absolute
        /// deadlines: a late frame is measured, not repeated, and the stepper caps the catch-up.
        package static func frameLoop(_ world: LiveWorld, framesPerSecond: Double) async {
            let clock = ContinuousClock()
            let period = Duration.seconds(1 / framesPerSecond)
            var last = clock.now
            var deadline = last + period
            while !Task.isCancelled {
                do { try await clock.sleep(until: deadline) } catch { return }
                let now = clock.now
                let elapsed = now - last
                last = now
                deadline += period
                if deadline < now { deadline = now + period }  // missed frames are skipped
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                await world.tick(seconds: seconds)
            }
        }
    }
#endif
