// swift-tools-version:6.2
// libFuzzer targets for InputRouter, kept out of the main package so that a plain
// `swift build` there never links an executable without a `main`. Build and run with
// `make fuzz` from the repository root; see docs/fuzzing.md.
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, which depends on the checkout.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent

func fuzzer(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: [.product(name: "InputRouterFuzzing", package: rootIdentity)])
}

let package = Package(
    name: "InputRouterFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        fuzzer("RouterFuzzer"), fuzzer("RecordingFuzzer"), fuzzer("KeyboardFuzzer"), fuzzer("WireFuzzer"),
        // Writes the seed corpus; built without sanitizers (`make fuzz-seeds`).
        .executableTarget(
            name: "make-seeds",
            dependencies: [
                .product(name: "InputRouterFuzzing", package: rootIdentity),
                .product(name: "InputRouterRecording", package: rootIdentity),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
