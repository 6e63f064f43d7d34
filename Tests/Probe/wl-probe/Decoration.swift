// xdg-decoration in the test client: with --ssd, --csd or --decoration-unset, every
// toplevel gets a zxdg_toplevel_decoration_v1 before its initial commit and asks for
// server-side, client-side or nothing; the configure is printed as
// `decoration.configure NAME server_side`. The `decoration-*` hostile modes break one of
// the protocol's rules each.
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

enum DecorationRequest { case serverSide, clientSide, unset }
var decorationRequest: DecorationRequest?
var decorationManager: OpaquePointer?
var startMaximized = false

func modeName(_ mode: UInt32) -> String {
    switch mode {
    case ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue: "client_side"
    case ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue: "server_side"
    default: "mode\(mode)"
    }
}

var decorationNames: [OpaquePointer: String] = [:]
let decorationListener: UnsafeMutablePointer<zxdg_toplevel_decoration_v1_listener> = {
    let l = UnsafeMutablePointer<zxdg_toplevel_decoration_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zxdg_toplevel_decoration_v1_listener())
    l.pointee.configure = { _, decoration, mode in
        say("decoration.configure \(decorationNames[decoration!] ?? "?") \(modeName(mode))")
    }
    return l
}()

/// Called for each toplevel before its initial commit, as toolkits do.
func createDecoration(for p: ProbeSurface) {
    guard let request = decorationRequest else { return }
    guard let manager = decorationManager else { fail("the server lacks zxdg_decoration_manager_v1") }
    let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, p.toplevel)!
    decorationNames[decoration] = p.spec.name
    zxdg_toplevel_decoration_v1_add_listener(decoration, decorationListener, nil)
    switch request {
    case .serverSide:
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
    case .clientSide:
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue)
    case .unset: break
    }
}

/// `decoration NAME server|client|unset|destroy` (Commands.swift): changes the mode
/// after the window is up (the first two create the object if there is none).
func runDecorationCommand(_ words: [String], _ p: ProbeSurface) -> Bool {
    guard words[0] == "decoration", words.count == 3, let manager = decorationManager, let toplevel = p.toplevel else {
        return false
    }
    var decoration = decorationNames.first { $0.value == p.spec.name }?.key
    if words[2] == "destroy" {
        guard let d = decoration else { return false }
        decorationNames[d] = nil
        zxdg_toplevel_decoration_v1_destroy(d)
        return true
    }
    if decoration == nil {
        decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
        decorationNames[decoration!] = p.spec.name
        zxdg_toplevel_decoration_v1_add_listener(decoration, decorationListener, nil)
    }
    switch words[2] {
    case "server":
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
    case "client":
        zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE.rawValue)
    case "unset": zxdg_toplevel_decoration_v1_unset_mode(decoration)
    default: return false
    }
    return true
}

/// The last xdg_surface.configure serial a hostile mode saw.
var hostileSerial: UInt32 = 0
let hostileSurfaceListener: UnsafeMutablePointer<xdg_surface_listener> = {
    let l = UnsafeMutablePointer<xdg_surface_listener>.allocate(capacity: 1)
    l.initialize(to: xdg_surface_listener())
    l.pointee.configure = { _, _, serial in hostileSerial = serial }
    return l
}()

func runHostileDecoration(_ mode: String) -> Never {
    guard let manager = decorationManager else { fail("the server lacks zxdg_decoration_manager_v1") }
    let surface = wl_compositor_create_surface(compositor)!
    let xdg = xdg_wm_base_get_xdg_surface(wmBase, surface)!
    xdg_surface_add_listener(xdg, hostileSurfaceListener, nil)
    let toplevel = xdg_surface_get_toplevel(xdg)!
    /// The initial commit and its configure, acknowledged.
    func configure() {
        wl_surface_commit(surface)
        wl_display_roundtrip(display)
        xdg_surface_ack_configure(xdg, hostileSerial)
    }
    switch mode {
    case "decoration-twice":
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
    case "decoration-after-buffer":
        configure()
        wl_surface_attach(surface, makeBuffer(width: 10, height: 10), 0, 0)
        wl_surface_commit(surface)
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
    case "decoration-unacked-buffer":
        // The decoration's configure is answered with a buffer before it is acknowledged.
        configure()
        let d = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
        zxdg_toplevel_decoration_v1_set_mode(d, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        wl_surface_attach(surface, makeBuffer(width: 10, height: 10), 0, 0)
        wl_surface_commit(surface)
    case "decoration-orphaned":
        _ = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
        configure()
        xdg_toplevel_destroy(toplevel)
    case "decoration-bad-mode":
        let d = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
        zxdg_toplevel_decoration_v1_set_mode(d, 7)
    default:
        fail("unknown hostile mode \(mode)")
    }
    wl_display_roundtrip(display)
    while wl_display_dispatch(display) != -1 {}
    reportError()
    exit(1)
}
