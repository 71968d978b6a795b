// swift-tools-version:6.1
import PackageDescription

// The benchmarks of SwiftChipmunk, as a package of their own beside the library (as
// swift-nio keeps its benchmarks), so that the library's products carry no benchmark code.
// scripts/bench.sh builds and runs everything here from the repository root.
let package = Package(
    name: "SwiftChipmunkBenchmarks",
    dependencies: [
        .package(name: "SwiftChipmunk", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // package-benchmark: allocation counts per step, read and callback.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The benchmark worlds and modes, and the runner that times them.
        .target(
            name: "ChipmunkBench",
            dependencies: [
                .product(name: "Chipmunk", package: "SwiftChipmunk"),
                .product(name: "ChipmunkScenes", package: "SwiftChipmunk"),
            ]
        ),

        // The same worlds written against the raw C API: a library that chipmunk-bench
        // steps by turns with its Swift worlds (--against-c), and a command.
        .target(name: "ChipmunkBenchWorlds", linkerSettings: [.linkedLibrary("chipmunk"), .linkedLibrary("m")]),
        .executableTarget(name: "chipmunk-bench-c", dependencies: ["ChipmunkBenchWorlds"]),

        // The command line: one JSON line per world and mode.
        .executableTarget(
            name: "chipmunk-bench",
            dependencies: [
                "ChipmunkBench", "ChipmunkBenchWorlds",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ChipmunkCatalog", package: "SwiftChipmunk"),
            ]
        ),

        // How closely the display link keeps real time on this machine: a measurement that
        // depends on the machine's load, so it is a benchmark and not a test.
        .executableTarget(
            name: "display-link-accuracy",
            dependencies: [.product(name: "ChipmunkAnimation", package: "SwiftChipmunk")]
        ),

        // How the cost of dropping a space grows with its size (linear, not with the
        // contacts): CPU-time ratios that depend on the machine's load, so a benchmark.
        .executableTarget(
            name: "drop-cost",
            dependencies: [.product(name: "Chipmunk", package: "SwiftChipmunk")]
        ),

        // package-benchmark suites (`swift package benchmark`): allocations and wall time of
        // a step, a round of body reads and a step with collision callbacks.
        .executableTarget(
            name: "ChipmunkBenchmarks",
            dependencies: [
                "ChipmunkBench", "ChipmunkBenchWorlds", .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ChipmunkDynamics", package: "SwiftChipmunk"),
                .product(name: "ChipmunkScenes", package: "SwiftChipmunk"),
                .product(name: "ChipmunkCatalog", package: "SwiftChipmunk"),
            ],
            path: "Benchmarks/ChipmunkBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        .testTarget(
            name: "ChipmunkBenchTests",
            dependencies: [
                "ChipmunkBench", "ChipmunkBenchWorlds", .product(name: "Chipmunk", package: "SwiftChipmunk"),
                .product(name: "ChipmunkScenes", package: "SwiftChipmunk"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
