// swift-tools-version:6.1
// The library suites for scripts/sanitize.sh: the test targets of Tests/ (Sanitizers/Tests
// is a link to it) but the CLI's, over the libraries alone, without the Live trait. A package
// of its own so that the ASan (release) and TSan builds compile the binding, its libraries
// and these suites, not the command-line tool, the server's packages or the tools; the
// default tier runs the rest. Test files that reach a library's `package` declarations
// import it `@testable`, since these targets are in another package.
import PackageDescription

let root = "SwiftChipmunk"

/// A library of the root package.
func library(_ name: String) -> Target.Dependency { .product(name: name, package: root) }

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
    ],
    swiftLanguageModes: [.v6]
)
