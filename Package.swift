// swift-tools-version:6.0
// InputRouter: input routing for Wayland compositors. See README.md and DESIGN.md.
import PackageDescription

/// A Debian C library reached through pkg-config. Nothing but its own wrapper imports it.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "InputRouter",
    products: [
        .library(name: "InputRouter", targets: ["InputRouter"]),
        .library(name: "Keyboard", targets: ["Keyboard"]),
        .library(name: "Recording", targets: ["Recording"]),
        .library(name: "FuzzSupport", targets: ["FuzzSupport"]),
    ],
    targets: [
        // C libraries (Debian packages), one system library target each.
        systemLibrary("CPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        systemLibrary("CWaylandServer", pkgConfig: "wayland-server", apt: ["libwayland-dev"]),
        systemLibrary("CWaylandClient", pkgConfig: "wayland-client", apt: ["libwayland-dev"]),
        systemLibrary("CLibinput", pkgConfig: "libinput", apt: ["libinput-dev"]),
        systemLibrary("CUdev", pkgConfig: "libudev", apt: ["libudev-dev"]),
        systemLibrary("CSeat", pkgConfig: "libseat", apt: ["libseat-dev"]),
        systemLibrary("CXKBCommon", pkgConfig: "xkbcommon", apt: ["libxkbcommon-dev", "xkb-data"]),
        systemLibrary("CYAML", pkgConfig: "yaml-0.1", apt: ["libyaml-dev"]),
        // What Swift cannot call directly (variadics, va_list).
        .target(name: "CShim", dependencies: ["CWaylandServer"]),

        // The routing core: no I/O; pixman for regions and nothing else from C.
        .target(name: "InputRouter", dependencies: ["CPixman"], linkerSettings: [.linkedLibrary("m")]),
        .testTarget(name: "InputRouterTests", dependencies: ["InputRouter"]),

        // Keyboard layer (xkbcommon). Owned by the keyboard work; see Sources/Keyboard.
        .target(name: "Keyboard", dependencies: ["InputRouter", "CXKBCommon"]),
        .testTarget(name: "KeyboardTests", dependencies: ["Keyboard", "InputRouter"]),

        // Input sources: `libinput record` replay and synthetic logs (libyaml).
        .target(name: "Recording", dependencies: ["InputRouter", "CYAML"]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "InputRouter"], exclude: ["Fixtures"]),
        .testTarget(name: "IntegrationTests", dependencies: ["InputRouter", "Keyboard", "Recording"]),

        // Fuzzing: the byte decoders and checks of the fuzz targets (fuzz/, docs/fuzzing.md),
        // shared with the regression tests that replay the corpus and findings without libFuzzer.
        .target(name: "FuzzSupport", dependencies: ["InputRouter", "Keyboard", "Recording"]),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzSupport", "InputRouter", "Recording"], exclude: ["Regressions"]),

        // Programs.
        .executableTarget(name: "route-demo", dependencies: ["InputRouter"], path: "examples/route-demo", exclude: ["scene.txt"]),
        .target(name: "CAllocCounter", path: "benchmarks/CAllocCounter"),
        .executableTarget(
            name: "core-bench", dependencies: ["InputRouter", "CAllocCounter"], path: "benchmarks/core-bench"),
    ],
    swiftLanguageModes: [.v6]
)
