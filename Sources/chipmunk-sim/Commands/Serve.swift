#if Live
    import ArgumentParser
    import Chipmunk
    import ChipmunkCatalog
    import ChipmunkLive
    import Foundation

    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Serve a running scene to a browser: drag, flick, snap, tilt, pause, step, scrub back and record it.",
            discussion: """
                One world, stepped at the scene's fixed time step (the book's 1/120 s) in 60 Hz frames, \
                is shared by every page that opens the printed URL. Drag a body with the mouse or a \
                finger (a pivot joint to a kinematic hand, as Chipmunk's demo grabs; on a touch screen \
                each finger holds its own body); flick one; snap one (tap it, then where it goes); turn \
                gravity with the arrow keys, or with the phone's tilt (Tilt button); pause, step, change \
                the speed (¼× to 4×), restart; scrub back to any step of the last 10 seconds (the state \
                kept every 12 steps, stepped on with the recorded inputs) and continue from there, \
                which branches the session. The page's Recording link downloads every input \
                given so far with the state hash after every step: `chipmunk-sim replay` checks it bit \
                for bit. Snapshot downloads the world as it is (`chipmunk-sim run FILE` continues it).

                A scene file is watched: saving it rebuilds the world; a file with an error is shown on \
                the page and the last good world goes on.

                The server binds 127.0.0.1 unless --host says otherwise: whoever reaches the port drives \
                the world. A phone's tilt needs a secure page (HTTPS) or localhost (docs/live.md).

                Examples:
                  chipmunk-sim serve crates-tilt
                  chipmunk-sim serve Scenes/drop.json --port 0
                  chipmunk-sim serve --host 0.0.0.0 --port 8080 ui-drag
                """
        )

        @Argument(help: "A built-in scene (see `list`), a scene file, or a snapshot file.")
        var scene: String

        @Option(help: "The address to listen on; anything but loopback is warned about.")
        var host = "127.0.0.1"

        @Option(
            parsing: .unconditional, help: "The port; 0 picks a free one, which the printed URL names (default: 8080).",
            transform: WholeNumber.parser(0...65_535, nil))
        var port = 8080

        func validate() throws {
            guard !host.isEmpty, host.count <= 255 else { throw ValidationError("--host must be an address or a name") }
        }

        func run() throws {
            // Build the scene here first, so a bad argument is the usual one-line error.
            _ = try SceneCatalog.scene(opening: scene)
            let server = LiveServer(serving: scene, configuration: .init(host: host, port: port))
            let outcome = Locked<(any Error)?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                do { try await server.run() } catch { outcome.withLock { $0 = error } }
                done.signal()
            }
            done.wait()
            if let error = outcome.withLock({ $0 }) { throw RunError("serve: \(error)") }
        }
    }
#endif
