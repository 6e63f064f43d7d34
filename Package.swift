// swift-tools-version:6.3;(experimentalCGen)
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
        .library(name: "InputRouterKeyboard", targets: ["InputRouterKeyboard"]),
        .library(name: "InputRouterRecording", targets: ["InputRouterRecording"]),
        .library(name: "InputRouterWayland", targets: ["InputRouterWayland"]),

        .library(name: "InputRouterLibinput", targets: ["InputRouterLibinput"]),
        .library(name: "InputRouterRendering", targets: ["InputRouterRendering"]),
        .library(name: "InputRouterNested", targets: ["InputRouterNested"]),
        .library(name: "InputRouterFuzzing", targets: ["InputRouterFuzzing"]),
        .executable(name: "ir-replay", targets: ["ir-replay"]),
        // The module Mir's Wayland Conformance Suite loads (`make conformance`).
        .library(name: "InputRouterWLCS", type: .dynamic, targets: ["InputRouterWLCS"]),
        // The C API (include/input_router.h): libinputrouter.so for compositors in C (`make install`).
        .library(name: "inputrouter", type: .dynamic, targets: ["InputRouterC"]),
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
        // What Swift cannot call directly: libwayland-server's variadics, an ioctl (CShim);
        // libinput's and libseat's va_list log handlers (CLibinputShim).
        .target(name: "CShim", dependencies: ["CWaylandServer"]),
        .target(name: "CLibinputShim", dependencies: ["CLibinput", "CSeat"]),

        // What the tests start their programs with: posix_spawn, every descriptor owned
        // (Tests/Support/TestSupport/ChildProcess.swift says why not Foundation's Process).
        .target(name: "CTestSpawn", path: "Tests/Support/CTestSpawn"),
        .target(name: "TestSupport", dependencies: ["CTestSpawn"], path: "Tests/Support/TestSupport"),

        // The routing core: no I/O; pixman for regions and nothing else from C.
        .target(name: "InputRouter", dependencies: ["CPixman"], linkerSettings: [.linkedLibrary("m")]),
        // InputRouterRecording: the scene snapshot round trip reads its snapshots back as text.
        .testTarget(name: "InputRouterTests", dependencies: ["InputRouter", "InputRouterRecording"]),

        // Keyboard layer (xkbcommon). Owned by the keyboard work; see Sources/InputRouterKeyboard.
        .target(name: "InputRouterKeyboard", dependencies: ["InputRouter", "CXKBCommon"]),
        .testTarget(name: "KeyboardTests", dependencies: ["InputRouterKeyboard", "InputRouter"]),

        // Input sources: `libinput record` replay and synthetic logs (libyaml).
        .target(name: "InputRouterRecording", dependencies: ["InputRouter", "CYAML"]),
        .testTarget(
            name: "RecordingTests", dependencies: ["InputRouterRecording", "InputRouter"], exclude: ["Fixtures"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["TestSupport", "InputRouter", "InputRouterKeyboard", "InputRouterRecording"]),

        // The C API: include/input_router.h, seen by Swift through a module map (no sources of
        // its own), implemented with @_cdecl over the core, the keyboard and recordings. Its
        // tests are C programs (Tests/CAPI, `make capi-test`).
        .systemLibrary(name: "CInputRouterAPI", path: "Sources/CInputRouterAPI"),
        .target(
            name: "InputRouterC",
            dependencies: ["InputRouter", "InputRouterKeyboard", "InputRouterRecording", "CInputRouterAPI"]),

        // The Wayland protocols of protocols/*.xml in C, generated at build time by the plugin
        // (wayland-scanner), and from the same XML the typed request enums of WaylandServer.
        // C from a plugin is what `experimentalCGen` in the tools-version line enables.
        .plugin(name: "WaylandProtocols", capability: .buildTool()),
        .target(name: "CWaylandProtocols", plugins: ["WaylandProtocols"]),
        // The Wayland layer: libwayland-server objects in, deliveries out as protocol events.
        .target(
            name: "InputRouterWayland",
            dependencies: ["InputRouter", "InputRouterKeyboard", "CWaylandServer", "CWaylandProtocols", "CShim"],
            plugins: ["WaylandProtocols"]),

        .testTarget(
            name: "WaylandServerTests",
            dependencies: [
                "TestSupport",
                "InputRouterWayland", "InputRouter", "InputRouterKeyboard", "CWaylandServer", "InputRouterRecording",
                "InputRouterWireClient", "InputRouterRendering",
            ]),
        // The test client: a real Wayland client process that builds scenes and prints
        // every input event it receives (Tests/Probe/README.md).
        .target(
            name: "CProbeShim", dependencies: ["CWaylandClient", "CWaylandProtocols"], path: "Tests/Probe/CProbeShim"),
        .executableTarget(
            name: "wl-probe", dependencies: ["CWaylandClient", "CWaylandProtocols", "CProbeShim"],
            path: "Tests/Probe/wl-probe",
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // Hostile clients (docs/hostile-clients.md): a client library that writes the wire
        // format itself, wl-hostile on it, and the test that runs many sessions at the server.
        .target(name: "InputRouterWireClient"),
        .executableTarget(
            name: "wl-hostile", dependencies: ["InputRouterWireClient"], path: "Tests/Hostile",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "HostileClientTests",
            dependencies: [
                "TestSupport", "InputRouterWayland", "InputRouter", "CWaylandServer", "InputRouterRendering",
            ]),

        // The live libinput backend (udev seat through libseat, or single device nodes).
        .target(
            name: "InputRouterLibinput",
            dependencies: ["InputRouter", "InputRouterRecording", "CLibinput", "CUdev", "CSeat", "CLibinputShim"]),
        .testTarget(
            name: "LibinputSourceTests", dependencies: ["InputRouterLibinput", "InputRouter", "InputRouterRecording"]),
        .executableTarget(
            name: "libinput-trace", dependencies: ["InputRouterLibinput", "InputRouter", "InputRouterRecording"],
            path: "tools/libinput-trace"),
        // A synthetic (or hostile) log as a `libinput record` file (docs/recordings.md).
        .executableTarget(name: "ir-synthetic", dependencies: ["InputRouterRecording"], path: "tools/ir-synthetic"),
        // A bug report's bundle replayed with no client: scene snapshot, input, trace (docs/bug-reports.md).
        .executableTarget(
            name: "ir-replay", dependencies: ["InputRouterRecording", "InputRouterKeyboard", "InputRouter"],
            path: "tools/ir-replay"),

        // Pictures of an output: composited frames, hit maps, PNG files (docs/rendering.md).
        systemLibrary("CZlib", pkgConfig: "zlib", apt: ["zlib1g-dev"]),
        .target(
            name: "InputRouterRendering",
            dependencies: ["InputRouter", "InputRouterWayland", "CWaylandServer", "CPixman", "CZlib"]),
        .testTarget(
            name: "RenderingTests",
            dependencies: [
                "TestSupport", "InputRouterRendering", "InputRouter", "InputRouterWayland", "CWaylandServer", "CZlib",
            ]),
        // The nested backend: the compositor as a window of the session it runs in (docs/nested.md).
        .target(name: "CNestedShim", dependencies: ["CWaylandClient"]),
        .target(
            name: "InputRouterNested",
            dependencies: [
                "InputRouter", "InputRouterKeyboard", "InputRouterWayland", "CWaylandClient", "CWaylandProtocols",
                "CNestedShim",
            ]),
        .testTarget(
            name: "NestedBackendTests",
            dependencies: [
                "TestSupport",
                "InputRouterNested", "InputRouterWayland", "InputRouter", "InputRouterKeyboard", "InputRouterRendering",
            ]),
        // Fuzzing: the byte decoders and checks of the fuzz targets (fuzz/, docs/fuzzing.md),
        // shared with the regression tests that replay the corpus and findings without libFuzzer.
        .target(
            name: "InputRouterFuzzing",
            dependencies: [
                "InputRouter", "InputRouterKeyboard", "InputRouterRecording", "InputRouterWayland",
                "InputRouterWireClient", "CWaylandServer", "CShim", "CWaylandProtocols",
            ]),
        .testTarget(
            name: "FuzzTests",
            dependencies: [
                "InputRouterFuzzing", "InputRouter", "InputRouterRecording", "InputRouterWayland",
                "InputRouterWireClient", "CWaylandServer",
            ],
            exclude: ["Regressions"]),

        // WLCS (Debian's wlcs): the vtables in C, the harness in Swift on the public API
        // (Tests/Conformance/README.md). Swift 5 mode: the harness is handed from the thread
        // WLCS creates it on to the server's thread once, which Swift 6 cannot express.
        .target(name: "CWlcs", dependencies: ["CWaylandClient"], linkerSettings: [.linkedLibrary("wayland-client")]),
        .target(
            name: "InputRouterWLCS",
            dependencies: ["InputRouterWayland", "InputRouter", "InputRouterRendering", "CWaylandServer", "CWlcs"],
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // Programs.
        .executableTarget(
            name: "ir-compositor",
            dependencies: [
                "InputRouterWayland", "InputRouter", "InputRouterKeyboard", "InputRouterRecording",
                "InputRouterLibinput", "InputRouterRendering", "InputRouterNested",
                // --check-invariants: the client model the fuzzers use (examples/compositor/Health.swift).
                "InputRouterFuzzing",
            ],
            path: "examples/compositor", exclude: ["demo.sh"]),
        // The tinywl counterpart: its own wl_display, loop and pixman drawing, the core's path
        // in plain sight (docs/embedding.md).
        .executableTarget(
            name: "ir-embed",
            dependencies: ["InputRouterWayland", "InputRouter", "InputRouterRecording", "CPixman", "CWaylandServer"],
            path: "examples/embed"),
        // The DocC tutorial "Route input in your own compositor": each step's code, the file
        // the tutorial shows, compiled as a program of its own, so a renamed API breaks the
        // build and not only the page (Sources/InputRouter/InputRouter.docc/Resources).
        .executableTarget(
            name: "tutorial-embed-01", dependencies: ["InputRouter", "InputRouterWayland"],
            path: "Sources/InputRouter/InputRouter.docc/Resources/embed-01"),
        .executableTarget(
            name: "tutorial-embed-02", dependencies: ["InputRouter", "InputRouterWayland"],
            path: "Sources/InputRouter/InputRouter.docc/Resources/embed-02"),
        .executableTarget(
            name: "tutorial-embed-03", dependencies: ["InputRouter", "InputRouterWayland"],
            path: "Sources/InputRouter/InputRouter.docc/Resources/embed-03"),
        .executableTarget(
            name: "tutorial-embed-04", dependencies: ["InputRouter", "InputRouterWayland"],
            path: "Sources/InputRouter/InputRouter.docc/Resources/embed-04"),
        .executableTarget(
            name: "tutorial-embed-05", dependencies: ["InputRouter", "InputRouterWayland", "InputRouterRecording"],
            path: "Sources/InputRouter/InputRouter.docc/Resources/embed-05"),
        .executableTarget(
            name: "tutorial-embed-06", dependencies: ["InputRouter", "InputRouterWayland", "InputRouterRecording"],
            path: "Sources/InputRouter/InputRouter.docc/Resources/embed-06"),
        .executableTarget(
            name: "route-demo", dependencies: ["InputRouter"], path: "examples/route-demo", exclude: ["scene.txt"]),
        .target(name: "CAllocCounter", path: "benchmarks/CAllocCounter"),
        .executableTarget(
            name: "core-bench", dependencies: ["InputRouter", "InputRouterKeyboard", "CAllocCounter"],
            path: "benchmarks/core-bench"),
        .executableTarget(
            name: "wayland-bench",
            dependencies: [
                "InputRouterWayland", "InputRouter", "InputRouterWireClient", "CWaylandServer", "CWaylandProtocols",
                "CAllocCounter",
            ],
            path: "benchmarks/wayland-bench"),
    ],
    swiftLanguageModes: [.v6]
)

// `make test-sanitizers` (IR_SANITIZER_SUBSET=1) builds only what its hostile-input suites
// need, so the two sanitizer builds leave out the programs, the Wayland tests, the live
// and nested backends, rendering and WLCS: about half the compile time of each.
if Context.environment["IR_SANITIZER_SUBSET"] != nil {
    let kept: Set<String> = [
        "InputRouter", "InputRouterKeyboard", "InputRouterRecording", "InputRouterWayland", "InputRouterWireClient",
        "InputRouterFuzzing", "CShim", "CWaylandProtocols",
        "WaylandProtocols",
        "CPixman", "CWaylandServer", "CLibinput", "CSeat", "CXKBCommon", "CYAML",
        "InputRouterTests", "KeyboardTests", "RecordingTests", "IntegrationTests", "FuzzTests",
        "TestSupport", "CTestSpawn",
    ]
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in product.name != "InputRouter" && !kept.contains(product.name) }
}
