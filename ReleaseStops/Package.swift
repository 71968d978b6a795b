// swift-tools-version:6.1
// The stops' messages in a release build: the exit tests of PreconditionTests and
// AcceptedValueTests (linked here from Tests/ChipmunkTests) against the binding built with
// -O. A package of its own so that the release build is the binding's alone (about a
// minute and a half), not every library, tool and test target of the package (seven and a
// half). scripts/test.sh --full builds and runs it.
import PackageDescription

let package = Package(
    name: "SwiftChipmunkReleaseStops",
    dependencies: [.package(name: "SwiftChipmunk", path: "..", traits: [])],
    targets: [
        .testTarget(
            name: "ReleaseStopTests",
            dependencies: [.product(name: "Chipmunk", package: "SwiftChipmunk")]
        )
    ]
)
