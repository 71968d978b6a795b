// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "SwiftChipmunk",
    products: [
        .library(name: "Chipmunk", targets: ["Chipmunk"]),
        .library(name: "ChipmunkScenes", targets: ["ChipmunkScenes"]),
        .library(name: "ChipmunkAnimation", targets: ["ChipmunkAnimation"]),
        .library(name: "ChipmunkDynamics", targets: ["ChipmunkDynamics"]),
        .library(name: "ChipmunkPictures", targets: ["ChipmunkPictures"]),
        .library(name: "ChipmunkCatalog", targets: ["ChipmunkCatalog"]),
        // Sweeps' API is package-level (chipmunk-sim is its interface); the product lets
        // the fuzzers (Sanitizers/) link it, built with -enable-testing for the reader harness.
        .library(name: "ChipmunkBatch", targets: ["ChipmunkBatch"]),
        // Serving a scene live in a browser (`chipmunk-sim serve`, or your own executable):
        // built only with the Live trait, on by default (see traits below).
        .library(name: "ChipmunkLive", targets: ["ChipmunkLive"]),
        .executable(name: "chipmunk-sim", targets: ["chipmunk-sim"]),
    ],
    // Live (default): ChipmunkLive's server and `chipmunk-sim serve`, on Hummingbird and SwiftNIO.
    // A package that wants only the physics depends on this one with `traits: []`, and
    // SwiftPM then neither resolves nor builds the server's packages (it still resolves GRDB
    // and the tool's packages, and builds only what the targets use). So does the nested
    // package Sanitizers/, CI's sanitizer builds: they have no server to test.
    traits: [
        .trait(name: "Live", description: "The live server: ChipmunkLive and chipmunk-sim serve (Hummingbird 2)."),
        .default(enabledTraits: ["Live"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        // `swift package generate-documentation` builds the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // Sweep results live in SQLite (Debian's libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Golden files of the SVG renderer's output.
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
        // The live server (trait Live): HTTP and a WebSocket per viewer.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // The server's shutdown on SIGINT and SIGTERM, with a time limit (Hummingbird runs on it).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    // The benchmarks (worlds, runner, the raw-C twin, package-benchmark suites) are the
    // nested package in Benchmarks/, which depends on this one by path.
    //
    // Dependencies point down: Chipmunk (the binding) at the bottom; ChipmunkScenes,
    // ChipmunkDynamics, ChipmunkAnimation and ChipmunkPictures each on Chipmunk alone;
    // ChipmunkCatalog (the built-in scenes by name) on ChipmunkScenes and ChipmunkDynamics;
    // ChipmunkBatch on ChipmunkScenes; the tools on top. Only the command-line tool writes
    // to files and descriptors (swift-system); the libraries hand it bytes.
    targets: [
        // C bridge: Debian's libchipmunk-dev (no pkg-config file ships, so the module map links it).
        .systemLibrary(name: "CChipmunk", providers: [.apt(["libchipmunk-dev"])]),

        // Cairo from Debian, for PNG frames.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),

        // zlib from Debian, to deflate the HTML replay player's trajectories.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),

        // The binding's C code beside the engine: replacements for the engine's narrow phase
        // and messages (symbol interposition: a degenerate polygon pair no longer aborts the
        // program, and the engine's warnings stay off stderr; engine code is called, never
        // copied), and the engine library's build id.
        .target(name: "CChipmunkRuntime", dependencies: ["CChipmunk"]),

        // The Swift binding: spaces, bodies, shapes, the fixed-step stepper.
        .target(name: "Chipmunk", dependencies: ["CChipmunk", "CChipmunkRuntime"]),

        // Scenes as data (JSON) and as Swift code, and trajectory recording.
        .target(name: "ChipmunkScenes", dependencies: ["Chipmunk"]),

        // Pictures of a space: frames through the engine's debug drawing, as SVG, text and
        // PNG (through Cairo), the self-contained HTML replay player, and the page that
        // draws two runs of a scene over each other (it reads a ChipmunkScenes comparison).
        // Its pages' HTML, CSS and JavaScript are files in Replay/Page, embedded at build time.
        .target(
            name: "ChipmunkPictures", dependencies: ["Chipmunk", "ChipmunkScenes", "CCairo", "CZlib"],
            exclude: ["Replay/Page"], plugins: ["EmbedFiles"]),

        // The book's animation on Linux: Core Animation's timing functions, Penner's easing,
        // the book's bounceEaseOut, and NSTimer- and CADisplayLink-style tickers.
        .target(name: "ChipmunkAnimation", dependencies: ["Chipmunk"]),

        // UIKit Dynamics on Chipmunk: an animator, behaviours, items, fields (UIKit's
        // conventions: points, y down).
        .target(name: "ChipmunkDynamics", dependencies: ["Chipmunk"]),

        // The built-in scenes by name (`chipmunk-sim list`): the book's, Chipmunk's demos,
        // the UIKit Dynamics chapter's (built here, on ChipmunkDynamics), their embedded
        // scene files, opening a scene or a snapshot by name, and the snapshot measurements.
        // The scene files (Scenes/*.json) are embedded at build time.
        .target(
            name: "ChipmunkCatalog", dependencies: ["ChipmunkScenes", "ChipmunkDynamics"], plugins: ["EmbedFiles"]),

        // Text files into Swift source at build time: the build tool plugin and its tool.
        .executableTarget(name: "embed-files"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),

        // Parameter sweeps: plans, runs on worker threads, results in a SQLite database,
        // shards and merging.
        .target(
            name: "ChipmunkBatch",
            dependencies: ["Chipmunk", "ChipmunkScenes", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        // A scene served live: one authoritative world stepped by the book's fixed-step loop,
        // a page per viewer (drag, tap, tilt, pause, step, scrub), every input recorded. Its
        // page's HTML, CSS and JavaScript are files in Page, embedded at build time. Without
        // the Live trait the target is empty.
        .target(
            name: "ChipmunkLive",
            dependencies: [
                "Chipmunk", "ChipmunkScenes", "ChipmunkCatalog", "ChipmunkDynamics", "ChipmunkPictures",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Live"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Live"])),
                .product(
                    name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: .when(traits: ["Live"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Live"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Live"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Live"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Live"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Live"])),
            ],
            exclude: ["Page"], plugins: ["EmbedFiles"]),

        // An example of a user's own executable serving a scene written in Swift (`swift run
        // live-ramp`); the browser test drags its ball.
        .executableTarget(
            name: "live-ramp", dependencies: ["Chipmunk", "ChipmunkScenes", "ChipmunkLive"], path: "Examples/live-ramp"),

        // The command-line tool.
        .executableTarget(
            name: "chipmunk-sim",
            dependencies: [
                "Chipmunk",
                "ChipmunkScenes",
                "ChipmunkCatalog",
                "ChipmunkBatch",
                "ChipmunkPictures",
                "ChipmunkAnimation",
                .target(name: "ChipmunkLive", condition: .when(traits: ["Live"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // The chart program of `results --chart`, Chart/chart.py, is embedded at build time.
            exclude: ["Chart"], plugins: ["EmbedFiles"]
        ),

        // The book's scenes written against the raw C API: the exactness reference.
        // C targets do not read the module map's `link`, so name the library here too.
        .executableTarget(
            name: "chipmunk-reference",
            dependencies: ["CChipmunk"],
            cSettings: [.headerSearchPath("../CChipmunk")],  // shim.h, for the one banner-silencing function
            linkerSettings: [.linkedLibrary("chipmunk"), .linkedLibrary("m")]
        ),

        // Creates and removes many objects; run under valgrind by scripts/leaks.sh.
        .executableTarget(name: "chipmunk-stress", dependencies: ["Chipmunk", "ChipmunkScenes", "ChipmunkCatalog"]),

        // What several test targets share: the exit tests' child log, temporary folders,
        // the package's root, the sanitizer the tests run under.
        .target(name: "ChipmunkTestSupport", dependencies: ["Chipmunk"], path: "Tests/ChipmunkTestSupport"),

        .testTarget(name: "ChipmunkTests", dependencies: ["Chipmunk", "ChipmunkTestSupport"]),
        .testTarget(
            name: "ChipmunkAnimationTests", dependencies: ["ChipmunkAnimation", "Chipmunk", "ChipmunkTestSupport"]),
        .testTarget(
            name: "ChipmunkDynamicsTests",
            dependencies: ["ChipmunkDynamics", "ChipmunkScenes", "ChipmunkCatalog", "Chipmunk", "ChipmunkTestSupport"]),
        .testTarget(
            name: "ChipmunkScenesTests",
            dependencies: [
                // ChipmunkPictures: a failing golden-file test attaches the comparison page.
                "ChipmunkScenes", "ChipmunkCatalog", "Chipmunk", "ChipmunkDynamics", "ChipmunkPictures",
                "ChipmunkTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
        // Frames of every built-in scene as SVG (golden files in __Snapshots__), text and PNG.
        .testTarget(
            name: "ChipmunkPicturesTests",
            dependencies: [
                "ChipmunkPictures", "ChipmunkCatalog", "ChipmunkScenes", "ChipmunkDynamics", "Chipmunk",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "ChipmunkSimTests",
            dependencies: [
                "chipmunk-sim", "chipmunk-reference", "Chipmunk", "ChipmunkBatch", "ChipmunkPictures",
                "ChipmunkCatalog",
                "ChipmunkTestSupport",
            ]
        ),
        // The live server without a browser: sessions, inputs, scrubbing, messages, sockets.
        .testTarget(
            name: "ChipmunkLiveTests",
            dependencies: [
                "ChipmunkLive", "ChipmunkScenes", "ChipmunkCatalog", "Chipmunk", "ChipmunkTestSupport",
                // The server's channel handlers, on a channel whose clock a test moves.
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Live"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Live"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Live"])),
            ]
        ),
        // The catalog of built-in scenes: names, summaries and time steps against the docs.
        .testTarget(
            name: "ChipmunkCatalogTests",
            dependencies: ["ChipmunkCatalog", "ChipmunkScenes", "ChipmunkTestSupport"]
        ),
        // Sweeps without the command line: plans, runs, the results database, errors.
        .testTarget(
            name: "ChipmunkBatchTests",
            dependencies: [
                "ChipmunkBatch", "ChipmunkScenes", "Chipmunk", "ChipmunkTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
