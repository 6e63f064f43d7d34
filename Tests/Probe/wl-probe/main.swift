// wl-probe: the project's own Wayland test client. It builds the scene its arguments
// describe, then prints one line for every input event it receives, with surface names,
// so that tests compare exactly what a real client saw. See Tests/Probe/README.md.
//
//   wl-probe --toplevel win 200x100 --sub child win 150,20 100x60 [--below]
//            --input NAME x,y,w,h --hole NAME x,y,w,h --popup-on-press NAME PARENT x,y WxH
//            --move-on-press NAME --forged-move-on-press NAME --no-pointer --no-keyboard --no-touch --hostile MODE
//            --ssd --csd --decoration-unset (Decoration.swift) --maximized
//            --popup-on-key NAME PARENT x,y WxH --move-after NAME PIXELS --move-on-release NAME
//            --seat-version N --seat-index N (the Nth wl_seat advertised, from 0) --seat-name NAME
//            --also-seat-index N (a second wl_seat's pointer: SecondSeat.swift)
//            --relative (Constraints.swift) --xdg-output VERSION (XdgOutput.swift)
//            --gestures (Gestures.swift) --inhibit-shortcuts NAME (ShortcutsInhibit.swift)
//            --text-input --text-input-auto (TextInput.swift) --idle-notify MS (Idle.swift)
//            --tablet (Tablet.swift)
//            --cursor-shape VERSION --cursor-shape-on-enter SHAPE (CursorShape.swift)
//            --data-device (DataDevice.swift)
//            stdin commands `vpointer ...` drive a virtual pointer (VirtualPointer.swift)
//            --slow MS (every line it prints takes MS more: a client on a loaded machine)
//            --ignore-ping (never answers xdg_wm_base.ping: a hung client)
//            --keymap-names (VirtualKeyboard.swift)
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

setvbuf(stdout, nil, _IOLBF, 0)

/// `--slow`: the milliseconds each printed line costs.
var slowMS: UInt32 = 0
var ignorePing = false

func say(_ line: String) {
    print(line)
    if slowMS > 0 { usleep(slowMS * 1000) }
}
func fail(_ line: String) -> Never {
    say("fatal: \(line)")
    exit(2)
}

// MARK: Arguments

struct SurfaceSpec {
    var name: String
    var parent: String?
    var x: Int32 = 0, y: Int32 = 0, width: Int32, height: Int32
    var below = false
    var popupOnPress = false
    var popupOnKey = false
    var input: [(Int32, Int32, Int32, Int32)] = []
    var holes: [(Int32, Int32, Int32, Int32)] = []
}

var specs: [SurfaceSpec] = []
var bindPointer = true
var bindKeyboard = true
var bindTouch = true
var moveOnPress: Set<String> = []
var forgeMove: Set<String> = []
/// A late client: asks for the move citing the press only once the button is up again.
var moveOnRelease: Set<String> = []
var lastPressSerial: UInt32 = 0
var hostile: String?
/// Drag threshold per surface: `xdg_toplevel.move` once the pointer went this far from the press.
var moveAfter: [String: Double] = [:]
/// The wl_seat version to bind (its wl_pointer, wl_keyboard and wl_touch get the same).
var seatVersion: UInt32 = 8
/// Which wl_seat to bind, in the order the server advertises them (several seats).
var seatIndex = 0
var seatsSeen = 0

func pair(_ s: String, _ sep: Character) -> (Int32, Int32) {
    let p = s.split(separator: sep).compactMap { Int32($0) }
    guard p.count == 2 else { fail("expected A\(sep)B, got \(s)") }
    return (p[0], p[1])
}
func rect(_ s: String) -> (Int32, Int32, Int32, Int32) {
    let p = s.split(separator: ",").compactMap { Int32($0) }
    guard p.count == 4 else { fail("expected x,y,w,h, got \(s)") }
    return (p[0], p[1], p[2], p[3])
}

var argv = Array(CommandLine.arguments.dropFirst())
func next() -> String {
    guard !argv.isEmpty else { fail("missing argument") }
    return argv.removeFirst()
}
while !argv.isEmpty {
    switch next() {
    case "--toplevel":
        let name = next()
        let (w, h) = pair(next(), "x")
        specs.append(SurfaceSpec(name: name, width: w, height: h))
    case let flag where flag == "--sub" || flag == "--popup-on-press" || flag == "--popup-on-key":
        let name = next()
        let parent = next()
        let (x, y) = pair(next(), ",")
        let (w, h) = pair(next(), "x")
        specs.append(
            SurfaceSpec(
                name: name, parent: parent, x: x, y: y, width: w, height: h,
                popupOnPress: flag == "--popup-on-press", popupOnKey: flag == "--popup-on-key"))
    case "--below": specs[specs.count - 1].below = true
    case "--input":
        let n = next()
        let r = rect(next())
        specs[index(n)].input.append(r)
    case "--hole":
        let n = next()
        let r = rect(next())
        specs[index(n)].holes.append(r)
    case "--move-on-press": moveOnPress.insert(next())
    case "--forged-move-on-press": forgeMove.insert(next())
    case "--move-on-release": moveOnRelease.insert(next())
    case "--move-after":
        let n = next()
        guard let pixels = Double(next()) else { fail("--move-after NAME PIXELS") }
        moveAfter[n] = pixels
    case "--seat-version":
        guard let v = UInt32(next()), v >= 1 else { fail("--seat-version N") }
        seatVersion = v
    case "--seat-index":
        guard let v = Int(next()), v >= 0 else { fail("--seat-index N") }
        seatIndex = v
    case "--seat-name": seatName = next() // SecondSeat.swift
    case "--also-seat-index":
        guard let v = Int(next()), v >= 0 else { fail("--also-seat-index N") }
        otherSeatIndex = v
    case "--no-pointer": bindPointer = false
    case "--no-keyboard": bindKeyboard = false
    case "--no-touch": bindTouch = false
    case "--hostile": hostile = next()
    case "--ssd": decorationRequest = .serverSide
    case "--csd": decorationRequest = .clientSide
    case "--decoration-unset": decorationRequest = .unset
    case "--maximized": startMaximized = true
    case "--outputs": watchOutputs = true // Outputs.swift
    case "--xdg-output": // XdgOutput.swift
        guard let v = UInt32(next()), (1...3).contains(v) else { fail("--xdg-output VERSION (1 to 3)") }
        xdgOutputVersion = v
        watchOutputs = true
    case "--relative": wantRelative = true
    // Input protocols (Gestures.swift, ShortcutsInhibit.swift).
    case "--gestures": wantGestures = true
    case "--tablet": wantTablet = true // Tablet.swift
    // Cursors by name (CursorShape.swift).
    case "--cursor-shape":
        guard let v = UInt32(next()), (1...2).contains(v) else { fail("--cursor-shape VERSION (1 or 2)") }
        cursorShapeVersion = v
    case "--cursor-shape-on-enter":
        shapeOnEnter = shapeValue(next())
        if cursorShapeVersion == 0 { cursorShapeVersion = 2 }
    case "--inhibit-shortcuts": inhibitShortcutsOf.insert(next())
    // Text input, activation, idle (TextInput.swift, Activation.swift, Idle.swift).
    case "--text-input": wantTextInput = true
    case "--text-input-auto":
        wantTextInput = true
        textInputAuto = true
    case "--idle-notify":
        guard let ms = UInt32(next()) else { fail("--idle-notify MS") }
        idleTimeouts.append(ms)
    // Selections (DataDevice.swift).
    case "--data-device": wantDataDevice = true
    case "--accept-drops": acceptDrops = true
    case "--slow":
        guard let ms = UInt32(next()) else { fail("--slow MS") }
        slowMS = ms
    case "--ignore-ping": ignorePing = true
    case "--keymap-names": showKeymapNames = true // VirtualKeyboard.swift
    case let other: fail("unknown argument \(other)")
    }
}
func index(_ name: String) -> Int {
    guard let i = specs.firstIndex(where: { $0.name == name }) else { fail("no surface \(name)") }
    return i
}

// MARK: Connection and globals

let display: OpaquePointer = {
    guard let d = wl_display_connect(nil) else {
        fail("cannot connect to \(ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "wayland-0")")
    }
    return d
}()
var compositor: OpaquePointer?
var subcompositor: OpaquePointer?
var shm: OpaquePointer?
var wmBase: OpaquePointer?
var seat: OpaquePointer?

func bind(_ registry: OpaquePointer?, _ name: UInt32, _ interface: String, _ version: UInt32) -> OpaquePointer? {
    OpaquePointer(probe_bind(registry, name, interface, version))
}

let registryListener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
registryListener.initialize(to: wl_registry_listener())
registryListener.pointee.global = { _, registry, name, iface, version in
    switch String(cString: iface!) {
    case "wl_compositor": compositor = bind(registry, name, "wl_compositor", min(version, 4))
    case "wl_subcompositor": subcompositor = bind(registry, name, "wl_subcompositor", 1)
    case "wl_shm": shm = bind(registry, name, "wl_shm", 1)
    case "xdg_wm_base": wmBase = bind(registry, name, "xdg_wm_base", min(version, 3))
    case "wl_seat":
        seatGlobals.append((name, version)) // several seats: SecondSeat.swift
        if seatName == nil, seatsSeen == seatIndex { seat = bind(registry, name, "wl_seat", min(version, seatVersion)) }
        if seatsSeen == otherSeatIndex { bindOtherSeat(registry, name, version) }
        seatsSeen += 1
    case "wl_output": bindOutput(registry, name, version) // with --outputs (Outputs.swift)
    case "zxdg_output_manager_v1": bindXdgOutputManager(registry, name, version) // with --xdg-output
    case "zxdg_decoration_manager_v1": decorationManager = bind(registry, name, "zxdg_decoration_manager_v1", 1)
    case "zwp_relative_pointer_manager_v1": relativeManager = bind(registry, name, "zwp_relative_pointer_manager_v1", 1)
    case "zwp_pointer_constraints_v1": pointerConstraints = bind(registry, name, "zwp_pointer_constraints_v1", 1)
    // Input protocols (Gestures.swift, ShortcutsInhibit.swift).
    case "zwp_pointer_gestures_v1": pointerGestures = bind(registry, name, "zwp_pointer_gestures_v1", min(version, 3))
    case "zwp_keyboard_shortcuts_inhibit_manager_v1":
        shortcutsInhibitManager = bind(registry, name, "zwp_keyboard_shortcuts_inhibit_manager_v1", 1)
    // Text input, activation, idle.
    case "zwp_text_input_manager_v3": textInputManager = bind(registry, name, "zwp_text_input_manager_v3", 1)
    case "xdg_activation_v1": activation = bind(registry, name, "xdg_activation_v1", 1)
    case "ext_idle_notifier_v1": idleNotifier = bind(registry, name, "ext_idle_notifier_v1", 1)
    case "zwp_idle_inhibit_manager_v1": idleInhibitManager = bind(registry, name, "zwp_idle_inhibit_manager_v1", 1)
    case "zwp_tablet_manager_v2": tabletManager = bind(registry, name, "zwp_tablet_manager_v2", 1) // Tablet.swift
    case "wp_cursor_shape_manager_v1": bindCursorShapeManager(registry, name, version) // CursorShape.swift
    // Selections (DataDevice.swift).
    case "wl_data_device_manager": dataDeviceManager = bind(registry, name, "wl_data_device_manager", min(version, 3))
    case "zwp_primary_selection_device_manager_v1":
        primaryManager = bind(registry, name, "zwp_primary_selection_device_manager_v1", 1)
    case "zwp_virtual_keyboard_manager_v1": // VirtualKeyboard.swift
        virtualKeyboardManager = bind(registry, name, "zwp_virtual_keyboard_manager_v1", 1)
    // Virtual input devices (VirtualPointer.swift).
    case "zwlr_virtual_pointer_manager_v1": bindVirtualPointerManager(registry, name, version)
    default: break
    }
}
registryListener.pointee.global_remove = { _, _, name in outputGlobalRemoved(name) }
let registry = wl_display_get_registry(display)
wl_registry_add_listener(registry, registryListener, nil)
wl_display_roundtrip(display)
if let seatName { seat = bindSeat(named: seatName, registry) }
guard compositor != nil, subcompositor != nil, shm != nil, wmBase != nil, seat != nil else {
    fail("the server lacks a global (compositor, subcompositor, shm, xdg_wm_base, seat)")
}
if xdgOutputVersion > 0, xdgOutputManager == nil { fail("the server lacks zxdg_output_manager_v1") }
createTabletSeat()
createDataDevices()

let wmListener = UnsafeMutablePointer<xdg_wm_base_listener>.allocate(capacity: 1)
wmListener.initialize(to: xdg_wm_base_listener())
wmListener.pointee.ping = { _, base, serial in if !ignorePing { xdg_wm_base_pong(base, serial) } }
xdg_wm_base_add_listener(wmBase, wmListener, nil)

// MARK: Surfaces

final class ProbeSurface {
    let spec: SurfaceSpec
    let surface: OpaquePointer
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    var popup: OpaquePointer?
    var subsurface: OpaquePointer?
    var configured = false
    init(spec: SurfaceSpec, surface: OpaquePointer) {
        self.spec = spec
        self.surface = surface
    }
}
var surfaces: [ProbeSurface] = []
func named(_ surface: OpaquePointer?) -> String { surfaces.first { $0.surface == surface }?.spec.name ?? "?" }
func probe(_ name: String) -> ProbeSurface? { surfaces.first { $0.spec.name == name } }

/// An opaque colour per surface name, so screenshots tell surfaces apart.
func colour(of name: String) -> UInt32 {
    let palette: [UInt32] = [0xff4e_79a7, 0xfff2_8e2b, 0xff59_a14f, 0xffe1_5759, 0xff76_b7b2, 0xffed_c948, 0xffb0_7aa1]
    return palette[Int(name.utf8.reduce(0) { ($0 &* 31 &+ UInt32($1)) % 7 })]
}

/// A shared-memory buffer of the surface's size, filled with one colour.
func makeBuffer(width: Int32, height: Int32, colour fill: UInt32 = 0x8080_8080) -> OpaquePointer? {
    let stride = width * 4
    let size = Int(stride * height)
    var template = Array(
        "\(ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp")/wl-probe-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { fail("mkstemp failed") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    guard ftruncate(fd, off_t(size)) == 0 else { fail("ftruncate failed") }
    if let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED {
        let pixels = map.bindMemory(to: UInt32.self, capacity: size / 4)
        for i in 0..<(size / 4) { pixels[i] = fill }
        munmap(map, size)
    }
    let pool = wl_shm_create_pool(shm, fd, Int32(size))
    let buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, UInt32(WL_SHM_FORMAT_ARGB8888.rawValue))
    wl_shm_pool_destroy(pool)
    close(fd)
    return buffer
}

func applyInputRegion(_ p: ProbeSurface) {
    guard !p.spec.input.isEmpty || !p.spec.holes.isEmpty else { return }
    let region = wl_compositor_create_region(compositor)
    if p.spec.input.isEmpty { wl_region_add(region, 0, 0, p.spec.width, p.spec.height) }
    for r in p.spec.input { wl_region_add(region, r.0, r.1, r.2, r.3) }
    for r in p.spec.holes { wl_region_subtract(region, r.0, r.1, r.2, r.3) }
    wl_surface_set_input_region(p.surface, region)
    wl_region_destroy(region)
}

func attachAndCommit(_ p: ProbeSurface) {
    applyInputRegion(p)
    wl_surface_attach(
        p.surface, makeBuffer(width: p.spec.width, height: p.spec.height, colour: colour(of: p.spec.name)), 0, 0)
    wl_surface_commit(p.surface)
}

/// Prints `line` once the server has processed every request sent so far (wl_display.sync),
/// so a test that reads it knows the server's state already reflects them.
var pendingAnnouncements: [OpaquePointer: String] = [:]
let syncListener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
syncListener.initialize(to: wl_callback_listener())
syncListener.pointee.done = { _, callback, _ in
    if let callback, let line = pendingAnnouncements.removeValue(forKey: callback) { say(line) }
    wl_callback_destroy(callback)
}
func announceAfterServerSaw(_ line: String) {
    guard let callback = wl_display_sync(display) else { return }
    pendingAnnouncements[callback] = line
    wl_callback_add_listener(callback, syncListener, nil)
}

let xdgSurfaceListener = UnsafeMutablePointer<xdg_surface_listener>.allocate(capacity: 1)
xdgSurfaceListener.initialize(to: xdg_surface_listener())
xdgSurfaceListener.pointee.configure = { _, xdgSurface, serial in
    guard let p = surfaces.first(where: { $0.xdgSurface == xdgSurface }) else { return }
    xdg_surface_ack_configure(xdgSurface, serial)
    if !p.configured {
        p.configured = true
        // Subsurfaces of this window commit first (synchronized: applied with the parent).
        for child in surfaces where child.spec.parent == p.spec.name && child.subsurface != nil {
            attachAndCommit(child)
        }
        attachAndCommit(p)
        announceAfterServerSaw("mapped \(p.spec.name)")
    } else {
        wl_surface_commit(p.surface)
    }
}

let toplevelListener = UnsafeMutablePointer<xdg_toplevel_listener>.allocate(capacity: 1)
toplevelListener.initialize(to: xdg_toplevel_listener())
toplevelListener.pointee.configure = { _, toplevel, w, h, states in
    var names: [String] = []
    if let states, states.pointee.size > 0 {
        let values = states.pointee.data.assumingMemoryBound(to: UInt32.self)
        for i in 0..<(states.pointee.size / 4) {
            names.append(["", "maximized", "fullscreen", "resizing", "activated"][min(Int(values[i]), 4)])
        }
    }
    let name = surfaces.first { $0.toplevel == toplevel }?.spec.name ?? "?"
    say("configure \(name) \(w)x\(h) [\(names.joined(separator: ","))]")
}
toplevelListener.pointee.close = { _, _ in say("close") }

let popupListener = UnsafeMutablePointer<xdg_popup_listener>.allocate(capacity: 1)
popupListener.initialize(to: xdg_popup_listener())
popupListener.pointee.configure = { _, popup, x, y, w, h in
    say("popup.configure \(surfaces.first { $0.popup == popup }?.spec.name ?? "?") \(x),\(y) \(w)x\(h)")
}
popupListener.pointee.popup_done = { _, popup in
    say("popup.done \(surfaces.first { $0.popup == popup }?.spec.name ?? "?")")
}

func createToplevel(_ spec: SurfaceSpec) {
    let p = ProbeSurface(spec: spec, surface: wl_compositor_create_surface(compositor)!)
    surfaces.append(p)
    watchSurfaceOutputs(p)
    p.xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, p.surface)
    xdg_surface_add_listener(p.xdgSurface, xdgSurfaceListener, nil)
    p.toplevel = xdg_surface_get_toplevel(p.xdgSurface)
    xdg_toplevel_add_listener(p.toplevel, toplevelListener, nil)
    xdg_toplevel_set_title(p.toplevel, spec.name)
    createDecoration(for: p)
    if startMaximized { xdg_toplevel_set_maximized(p.toplevel) }
    if inhibitShortcutsOf.contains(spec.name) { inhibitShortcuts(p) }
    wl_surface_commit(p.surface)
}

func createSubsurface(_ spec: SurfaceSpec) {
    guard let parent = probe(spec.parent!) else { fail("no parent \(spec.parent!)") }
    let p = ProbeSurface(spec: spec, surface: wl_compositor_create_surface(compositor)!)
    surfaces.append(p)
    watchSurfaceOutputs(p)
    p.subsurface = wl_subcompositor_get_subsurface(subcompositor, p.surface, parent.surface)
    wl_subsurface_set_position(p.subsurface, spec.x, spec.y)
    if spec.below { wl_subsurface_place_below(p.subsurface, parent.surface) }
}

func createPopup(_ spec: SurfaceSpec, serial: UInt32) {
    guard let parent = probe(spec.parent!), probe(spec.name)?.popup == nil else { return }
    surfaces.removeAll { $0.spec.name == spec.name }
    let p = ProbeSurface(spec: spec, surface: wl_compositor_create_surface(compositor)!)
    surfaces.append(p)
    watchSurfaceOutputs(p)
    let positioner = xdg_wm_base_create_positioner(wmBase)
    xdg_positioner_set_size(positioner, spec.width, spec.height)
    xdg_positioner_set_anchor_rect(positioner, spec.x, spec.y, 1, 1)
    xdg_positioner_set_anchor(positioner, UInt32(XDG_POSITIONER_ANCHOR_TOP_LEFT.rawValue))
    xdg_positioner_set_gravity(positioner, UInt32(XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT.rawValue))
    p.xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, p.surface)
    xdg_surface_add_listener(p.xdgSurface, xdgSurfaceListener, nil)
    p.popup = xdg_surface_get_popup(p.xdgSurface, parent.xdgSurface, positioner)
    xdg_popup_add_listener(p.popup, popupListener, nil)
    xdg_popup_grab(p.popup, seat, serial)
    xdg_positioner_destroy(positioner)
    wl_surface_commit(p.surface)
}

// MARK: Input listeners

func fixed(_ f: wl_fixed_t) -> String { String(format: "%.2f", wl_fixed_to_double(f)) }
var pointerFocus = "?"
var pointerAt = (x: 0.0, y: 0.0)
/// A press in a `--move-after` surface that has not yet become a move.
var pendingDrag: (surface: String, serial: UInt32, x: Double, y: Double)?

let pointerListener = UnsafeMutablePointer<wl_pointer_listener>.allocate(capacity: 1)
pointerListener.initialize(to: wl_pointer_listener())
pointerListener.pointee.enter = { _, _, serial, surface, x, y in
    previousEnterSerial = lastEnterSerial
    lastEnterSerial = serial
    pointerFocus = named(surface)
    pointerAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
    say("pointer.enter \(pointerFocus) \(fixed(x)) \(fixed(y))")
    setShapeOnEnter(serial) // CursorShape.swift
}
pointerListener.pointee.leave = { _, _, _, surface in say("pointer.leave \(named(surface))") }
pointerListener.pointee.motion = { _, _, _, x, y in
    pointerAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
    say("pointer.motion \(fixed(x)) \(fixed(y))")
    // A toolkit's drag threshold: the move is asked for only once the pointer went far enough.
    if let press = pendingDrag, let p = probe(press.surface), let t = p.toplevel {
        let dx = wl_fixed_to_double(x) - press.x
        let dy = wl_fixed_to_double(y) - press.y
        if (dx * dx + dy * dy).squareRoot() >= moveAfter[press.surface] ?? .infinity {
            pendingDrag = nil
            xdg_toplevel_move(t, seat, press.serial)
            announceAfterServerSaw("move requested")
        }
    }
}
pointerListener.pointee.button = { _, pointer, serial, _, button, state in
    say("pointer.button \(button) \(state == 1 ? "pressed" : "released")")
    guard state == 1 else {
        pendingDrag = nil
        if moveOnRelease.contains(pointerFocus), let t = probe(pointerFocus)?.toplevel {
            xdg_toplevel_move(t, seat, lastPressSerial)
            announceAfterServerSaw("move requested")
        }
        return
    }
    lastPressSerial = serial
    if moveAfter[pointerFocus] != nil { pendingDrag = (pointerFocus, serial, pointerAt.x, pointerAt.y) }
    if let p = probe(pointerFocus), let t = p.toplevel {
        // A forged serial: one the server never sent this client.
        if moveOnPress.contains(pointerFocus) || forgeMove.contains(pointerFocus) {
            xdg_toplevel_move(t, seat, forgeMove.contains(pointerFocus) ? serial &+ 1000 : serial)
            announceAfterServerSaw("move requested")
        }
    }
    for spec in specs where spec.popupOnPress && spec.parent == pointerFocus { createPopup(spec, serial: serial) }
}
pointerListener.pointee.axis = { _, _, _, axis, value in say("pointer.axis \(axis) \(fixed(value))") }
pointerListener.pointee.frame = { _, _ in say("pointer.frame") }
pointerListener.pointee.axis_source = { _, _, source in say("pointer.axis_source \(source)") }
pointerListener.pointee.axis_stop = { _, _, _, axis in say("pointer.axis_stop \(axis)") }
pointerListener.pointee.axis_discrete = { _, _, axis, d in say("pointer.axis_discrete \(axis) \(d)") }
pointerListener.pointee.axis_value120 = { _, _, axis, v in say("pointer.axis_value120 \(axis) \(v)") }

let keyboardListener = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
keyboardListener.initialize(to: wl_keyboard_listener())
keyboardListener.pointee.keymap = { _, _, format, fd, size in
    say("keyboard.keymap format=\(format) size>0=\(size > 0)" + keymapNameSuffix(fd, size))
    close(fd)
}
var keyboardFocus = "?"
keyboardListener.pointee.enter = { _, _, serial, surface, keys in
    keyboardFocus = named(surface)
    lastKeyboardEnterSerial = serial
    var list: [UInt32] = []
    if let keys, keys.pointee.size > 0 {
        let v = keys.pointee.data.assumingMemoryBound(to: UInt32.self)
        for i in 0..<(keys.pointee.size / 4) { list.append(v[i]) }
    }
    say("keyboard.enter \(named(surface)) keys=\(list)")
}
keyboardListener.pointee.leave = { _, _, _, surface in say("keyboard.leave \(named(surface))") }
keyboardListener.pointee.key = { _, _, serial, _, key, state in
    say("keyboard.key \(key) \(state == 1 ? "pressed" : "released")")
    guard state == 1 else { return }
    lastKeySerial = serial
    // A menu opened from the keyboard (F10, a menu key): the grab cites the key's serial.
    for spec in specs where spec.popupOnKey && spec.parent == keyboardFocus { createPopup(spec, serial: serial) }
}
keyboardListener.pointee.modifiers = { _, _, _, d, l, k, g in say("keyboard.modifiers \(d) \(l) \(k) \(g)") }
keyboardListener.pointee.repeat_info = { _, _, rate, delay in say("keyboard.repeat_info \(rate) \(delay)") }

let touchListener = UnsafeMutablePointer<wl_touch_listener>.allocate(capacity: 1)
touchListener.initialize(to: wl_touch_listener())
touchListener.pointee.down = { _, _, serial, _, surface, id, x, y in
    lastTouchSerial = serial
    say("touch.down \(named(surface)) \(id) \(fixed(x)) \(fixed(y))")
}
touchListener.pointee.up = { _, _, _, _, id in say("touch.up \(id)") }
touchListener.pointee.motion = { _, _, _, id, x, y in say("touch.motion \(id) \(fixed(x)) \(fixed(y))") }
touchListener.pointee.frame = { _, _ in say("touch.frame") }
touchListener.pointee.cancel = { _, _ in say("touch.cancel") }

let seatListener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
seatListener.initialize(to: wl_seat_listener())
var pointer: OpaquePointer?
var keyboard: OpaquePointer?
var touch: OpaquePointer?
seatListener.pointee.capabilities = { _, seat, caps in
    say("seat.capabilities \(caps)")
    if bindPointer, caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0, pointer == nil {
        pointer = wl_seat_get_pointer(seat)
        wl_pointer_add_listener(pointer, pointerListener, nil)
        bindRelativePointer(pointer)
        createGestures(for: pointer)
    }
    if bindKeyboard, caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0, keyboard == nil {
        keyboard = wl_seat_get_keyboard(seat)
        wl_keyboard_add_listener(keyboard, keyboardListener, nil)
    }
    if bindTouch, caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0, touch == nil {
        touch = wl_seat_get_touch(seat)
        wl_touch_add_listener(touch, touchListener, nil)
    }
}
seatListener.pointee.name = { _, _, _ in }
wl_seat_add_listener(seat, seatListener, nil)
createTextInput()
createIdleNotifications()

// MARK: Scene and loop

if let mode = hostile {
    if mode.hasPrefix("decoration-") { runHostileDecoration(mode) }
    if mode.hasPrefix("constraint-") { runHostileConstraint(mode) }
    runHostile(mode)
}
for spec in specs where spec.parent == nil { createToplevel(spec) }
for spec in specs where spec.parent != nil && !spec.popupOnPress && !spec.popupOnKey { createSubsurface(spec) }
wl_display_roundtrip(display)
wl_display_roundtrip(display)
say("ready")

// Events from the server, and commands from stdin (Commands.swift), whichever comes.
var fds = [
    pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0),
    pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
]
// Connected through WAYLAND_SOCKET=0, stdin is the Wayland socket: no commands there
// (reading lines from it would swallow the server's events).
var stdinOpen = wl_display_get_fd(display) != 0
loop: while true {
    while wl_display_prepare_read(display) != 0 { if wl_display_dispatch_pending(display) < 0 { break loop } }
    wl_display_flush(display)
    fds[1].fd = stdinOpen ? 0 : -1
    if poll(&fds, 2, -1) < 0 {
        wl_display_cancel_read(display)
        continue
    }
    if fds[0].revents != 0 {
        if wl_display_read_events(display) < 0 { break }
    } else {
        wl_display_cancel_read(display)
    }
    if wl_display_dispatch_pending(display) < 0 { break }
    if fds[1].revents != 0 {
        if let line = readLine() { runCommand(line) } else { stdinOpen = false }
    }
}
reportError()
exit(1)

func reportError() {
    var interface: UnsafePointer<wl_interface>?
    var id: UInt32 = 0
    let code = wl_display_get_protocol_error(display, &interface, &id)
    if let interface {
        say("protocol-error \(String(cString: interface.pointee.name))@\(id) code=\(code)")
    } else {
        say("disconnected errno=\(wl_display_get_error(display))")
    }
}
