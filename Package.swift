// swift-tools-version:6.0
// InputRouter: input routing for Wayland compositors. See README.md and docs/design.md.
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
        .library(name: "WaylandServer", targets: ["WaylandServer"]),

        .library(name: "LibinputSource", targets: ["LibinputSource"]),
        .library(name: "Rendering", targets: ["Rendering"]),
        .library(name: "NestedBackend", targets: ["NestedBackend"]),
        .library(name: "FuzzSupport", targets: ["FuzzSupport"]),
        // The module Mir's Wayland Conformance Suite loads (`make conformance`).
        .library(name: "WlcsIntegration", type: .dynamic, targets: ["WlcsIntegration"]),
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
        .target(name: "CShim", dependencies: ["CWaylandServer", "CXdgShell", "CLibinput", "CSeat"]),

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

        // Wayland protocol code generated from protocols/*.xml (tools/generate-protocols.sh).
        .target(name: "CXdgShell"),
        // The Wayland layer: libwayland-server objects in, deliveries out as protocol events.
        .target(name: "WaylandServer", dependencies: ["InputRouter", "Keyboard", "CWaylandServer", "CXdgShell", "CShim"]),

        .testTarget(
            name: "WaylandServerTests",
            dependencies: ["WaylandServer", "InputRouter", "Keyboard", "CWaylandServer", "Recording", "WireClient", "Rendering"]),
        // The test client: a real Wayland client process that builds scenes and prints
        // every input event it receives (Tests/Probe/README.md).
        .target(name: "CProbeShim", dependencies: ["CWaylandClient", "CXdgShell"], path: "Tests/Probe/CProbeShim"),
        .executableTarget(
            name: "wl-probe", dependencies: ["CWaylandClient", "CXdgShell", "CProbeShim"], path: "Tests/Probe/wl-probe",
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // Hostile clients (docs/hostile-clients.md): a client library that writes the wire
        // format itself, wl-hostile on it, and the test that runs many sessions at the server.
        .target(name: "WireClient", path: "Tests/WireClient"),
        .executableTarget(
            name: "wl-hostile", dependencies: ["WireClient"], path: "Tests/Hostile", swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "HostileClientTests", dependencies: ["WaylandServer", "InputRouter", "CWaylandServer", "Rendering"]),

        // The live libinput backend (udev seat through libseat, or single device nodes).
        .target(name: "LibinputSource", dependencies: ["InputRouter", "Recording", "CLibinput", "CUdev", "CSeat", "CShim"]),
        .testTarget(name: "LibinputSourceTests", dependencies: ["LibinputSource", "InputRouter", "Recording"]),
        .executableTarget(name: "libinput-trace", dependencies: ["LibinputSource", "InputRouter", "Recording"], path: "tools/libinput-trace"),
        // A synthetic (or hostile) log as a `libinput record` file (docs/recordings.md).
        .executableTarget(name: "ir-synthetic", dependencies: ["Recording"], path: "tools/ir-synthetic"),

        // Pictures of an output: composited frames, hit maps, PNG files (docs/rendering.md).
        systemLibrary("CZlib", pkgConfig: "zlib", apt: ["zlib1g-dev"]),
        .target(name: "Rendering", dependencies: ["InputRouter", "WaylandServer", "CWaylandServer", "CPixman", "CZlib"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "InputRouter", "WaylandServer", "CWaylandServer", "CZlib"]),
        // The nested backend: the compositor as a window of the session it runs in (docs/nested.md).
        .target(name: "CNestedShim", dependencies: ["CWaylandClient", "CXdgShell"]),
        .target(name: "NestedBackend", dependencies: ["InputRouter", "Keyboard", "WaylandServer", "CWaylandClient", "CXdgShell", "CNestedShim"]),
        .testTarget(name: "NestedBackendTests", dependencies: ["NestedBackend", "WaylandServer", "InputRouter", "Keyboard", "Rendering"]),
        // Fuzzing: the byte decoders and checks of the fuzz targets (fuzz/, docs/fuzzing.md),
        // shared with the regression tests that replay the corpus and findings without libFuzzer.
        .target(name: "FuzzSupport", dependencies: [
            "InputRouter", "Keyboard", "Recording", "WaylandServer", "WireClient", "CWaylandServer", "CShim",
        ]),
        .testTarget(
            name: "FuzzTests", dependencies: ["FuzzSupport", "InputRouter", "Recording", "WaylandServer", "WireClient", "CWaylandServer"],
            exclude: ["Regressions"]),

        // WLCS (Debian's wlcs): the vtables in C, the harness in Swift on the public API
        // (Tests/Conformance/README.md). Swift 5 mode: the harness is handed from the thread
        // WLCS creates it on to the server's thread once, which Swift 6 cannot express.
        .target(name: "CWlcs", dependencies: ["CWaylandClient"], linkerSettings: [.linkedLibrary("wayland-client")]),
        .target(
            name: "WlcsIntegration", dependencies: ["WaylandServer", "InputRouter", "Rendering", "CWaylandServer", "CWlcs"],
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // Programs.
        .executableTarget(
            name: "ir-compositor",
            dependencies: [
                "WaylandServer", "InputRouter", "Keyboard", "Recording", "LibinputSource", "Rendering", "NestedBackend",
            ],
            path: "examples/compositor", exclude: ["demo.sh"]),
        // The tinywl counterpart: its own wl_display, loop and pixman drawing, the core's path
        // in plain sight (docs/embedding.md).
        .executableTarget(
            name: "ir-embed", dependencies: ["WaylandServer", "InputRouter", "Recording", "CPixman", "CWaylandServer"],
            path: "examples/embed"),
        .executableTarget(name: "route-demo", dependencies: ["InputRouter"], path: "examples/route-demo", exclude: ["scene.txt"]),
        .target(name: "CAllocCounter", path: "benchmarks/CAllocCounter"),
        .executableTarget(
            name: "core-bench", dependencies: ["InputRouter", "Keyboard", "CAllocCounter"], path: "benchmarks/core-bench"),
        .executableTarget(
            name: "wayland-bench", dependencies: ["WaylandServer", "InputRouter", "WireClient", "CWaylandServer", "CXdgShell", "CAllocCounter"],
            path: "benchmarks/wayland-bench"),
    ],
    swiftLanguageModes: [.v6]
)

// `make test-sanitizers` (IR_SANITIZER_SUBSET=1) builds only what its hostile-input suites
// need, so the two sanitizer builds leave out the programs, the Wayland tests, the live
// and nested backends, rendering and WLCS: about half the compile time of each.
if Context.environment["IR_SANITIZER_SUBSET"] != nil {
    let kept: Set<String> = [
        "InputRouter", "Keyboard", "Recording", "WaylandServer", "WireClient", "FuzzSupport", "CShim", "CXdgShell",
        "CPixman", "CWaylandServer", "CLibinput", "CSeat", "CXKBCommon", "CYAML",
        "InputRouterTests", "KeyboardTests", "RecordingTests", "IntegrationTests", "FuzzTests",
    ]
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in product.name != "InputRouter" && !kept.contains(product.name) }
}
