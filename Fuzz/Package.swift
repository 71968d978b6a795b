// swift-tools-version:6.0
// The libFuzzer harness for the scene loader and the first steps of a scene. A package of
// its own, so that the library's build never links libFuzzer: scripts/fuzz.sh builds it
// with -sanitize=fuzzer,address across every target, the binding's included.
import PackageDescription

let package = Package(
    name: "SwiftChipmunkFuzz",
    dependencies: [.package(name: "SwiftChipmunk", path: "..")],
    targets: [
        .executableTarget(
            name: "SceneFuzzer",
            dependencies: [
                .product(name: "Chipmunk", package: "SwiftChipmunk"),
                .product(name: "ChipmunkScenes", package: "SwiftChipmunk"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
