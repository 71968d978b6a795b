// swift-tools-version:6.0
// The libFuzzer harnesses for everything the tools read: scene files (and the steps of the
// scenes they make), snapshot files, and the other readers (golden files, input recordings,
// sweep files, results databases). A package of its own, so that the library's build
// never links libFuzzer: scripts/fuzz.sh builds it with -sanitize=fuzzer,address across
// every target, the binding's included.
import PackageDescription

let package = Package(
    name: "SwiftChipmunkFuzz",
    dependencies: [.package(name: "SwiftChipmunk", path: "..")],
    targets: [
        // libFuzzer's driver, shared by the harnesses.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "SceneFuzzer",
            dependencies: [
                "FuzzDriver",
                .product(name: "Chipmunk", package: "SwiftChipmunk"),
                .product(name: "ChipmunkScenes", package: "SwiftChipmunk"),
            ]
        ),
        .executableTarget(
            name: "SnapshotFuzzer",
            dependencies: [
                "FuzzDriver",
                .product(name: "Chipmunk", package: "SwiftChipmunk"),
                .product(name: "ChipmunkScenes", package: "SwiftChipmunk"),
                .product(name: "ChipmunkCatalog", package: "SwiftChipmunk"),
                .product(name: "ChipmunkPictures", package: "SwiftChipmunk"),
            ]
        ),
        .executableTarget(
            name: "ReaderFuzzer",
            dependencies: [
                "FuzzDriver",
                .product(name: "Chipmunk", package: "SwiftChipmunk"),
                .product(name: "ChipmunkScenes", package: "SwiftChipmunk"),
                .product(name: "ChipmunkCatalog", package: "SwiftChipmunk"),
                .product(name: "ChipmunkBatch", package: "SwiftChipmunk"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
