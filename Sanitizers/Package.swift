// swift-tools-version:6.1
// The instrumented builds of scripts/sanitize.sh and scripts/fuzz.sh: the test targets of
// Tests/ (Sanitizers/Tests is a link to it) but the CLI's, and the libFuzzer harnesses of
// Fuzz/ (Sanitizers/Fuzzers is a link to Fuzz/Sources), over the libraries alone, without
// the Live trait. A package of its own so that these builds compile the binding, its
// libraries, these suites and the harnesses, not the command-line tool, the server's
// packages or the tools; the default tier runs the rest. ASan's release build instruments
// every module for libFuzzer's coverage too (scripts/lib.sh, asan_build), so that one build
// serves both the ASan suites and the fuzzers; only the harnesses link libFuzzer. TSan's
// build makes the suites' product alone. Test files that reach a library's `package`
// declarations import it `@testable`, since these targets are in another package.
import PackageDescription

let root = "SwiftChipmunk"

/// A library of the root package.
func library(_ name: String) -> Target.Dependency { .product(name: name, package: root) }

/// A libFuzzer harness: an executable over FuzzDriver, linked with libFuzzer (its own `main`
/// calls libFuzzer's driver) and with lld, as gold fails on the instrumented debug info.
func fuzzer(_ name: String, _ libraries: [String]) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzDriver"] + libraries.map(library), path: "Fuzzers/\(name)",
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])])
}

let package = Package(
    name: "SwiftChipmunkSanitizers",
    dependencies: [
        .package(name: root, path: "..", traits: []),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
    ],
    // The same targets, dependencies and exclusions as in ../Package.swift.
    targets: [
        .target(name: "ChipmunkTestSupport", dependencies: [library("Chipmunk")], path: "Tests/ChipmunkTestSupport"),
        .testTarget(name: "ChipmunkTests", dependencies: [library("Chipmunk"), "ChipmunkTestSupport"]),
        .testTarget(
            name: "ChipmunkAnimationTests",
            dependencies: [library("ChipmunkAnimation"), library("Chipmunk"), "ChipmunkTestSupport"]),
        .testTarget(
            name: "ChipmunkDynamicsTests",
            dependencies: [
                library("ChipmunkDynamics"), library("ChipmunkScenes"), library("ChipmunkCatalog"), library("Chipmunk"),
                "ChipmunkTestSupport",
            ]),
        .testTarget(
            name: "ChipmunkScenesTests",
            dependencies: [
                library("ChipmunkScenes"), library("ChipmunkCatalog"), library("Chipmunk"), library("ChipmunkDynamics"),
                library("ChipmunkPictures"), "ChipmunkTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ChipmunkPicturesTests",
            dependencies: [
                library("ChipmunkPictures"), library("ChipmunkCatalog"), library("ChipmunkScenes"),
                library("ChipmunkDynamics"), library("Chipmunk"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]),
        // The live session, world and scrub ring without the server (`#if Live`: this package
        // has no Live trait, so the server's suite is left out, as the root's is without it).
        .testTarget(
            name: "ChipmunkLiveTests",
            dependencies: [
                library("ChipmunkLive"), library("ChipmunkScenes"), library("ChipmunkCatalog"), library("Chipmunk"),
                "ChipmunkTestSupport",
            ]),
        .testTarget(
            name: "ChipmunkCatalogTests",
            dependencies: [library("ChipmunkCatalog"), library("ChipmunkScenes"), "ChipmunkTestSupport"]),
        .testTarget(
            name: "ChipmunkBatchTests",
            dependencies: [
                library("ChipmunkBatch"), library("ChipmunkScenes"), library("Chipmunk"), "ChipmunkTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // The harnesses of scripts/fuzz.sh: scene files, snapshot files, and the other readers.
        .target(name: "FuzzDriver", path: "Fuzzers/FuzzDriver"),
        fuzzer("SceneFuzzer", ["Chipmunk", "ChipmunkScenes"]),
        fuzzer("SnapshotFuzzer", ["Chipmunk", "ChipmunkScenes", "ChipmunkCatalog", "ChipmunkPictures"]),
        fuzzer("ReaderFuzzer", ["Chipmunk", "ChipmunkScenes", "ChipmunkCatalog", "ChipmunkBatch"]),
    ],
    swiftLanguageModes: [.v6]
)
