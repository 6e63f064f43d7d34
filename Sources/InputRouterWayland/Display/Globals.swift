// The globals a client sees in the registry, and what binding each one creates.
import CShim
import CWaylandServer
import InputRouter

/// A bind handler kept alive for the global's lifetime.
final class GlobalBinding {
    let bind: (ClientState, Int32, UInt32) -> Void
    unowned let server: WaylandServer
    init(server: WaylandServer, _ bind: @escaping (ClientState, Int32, UInt32) -> Void) {
        self.server = server
        self.bind = bind
    }
}

private let globalBound: wl_global_bind_func_t = { client, data, version, id in
    let binding = CallbackContext.borrowed(data!, as: GlobalBinding.self)
    guard let client else { return }
    let state = binding.server.adopt(client)
    state.boundServerGlobal = true
    binding.bind(state, Int32(version), id)
    binding.server.sendDeliveries()
}

/// The versions offered: the highest libwayland 1.21 and wayland-protocols 1.31 define (and
/// the vendored protocols in protocols/).
enum GlobalVersion {
    static let compositor: Int32 = 5
    static let subcompositor: Int32 = 1
    static let output: Int32 = 4
    static let seat: Int32 = 8
    static let dataDeviceManager: Int32 = 3
    static let xdgWmBase: Int32 = 5
    static let decorationManager: Int32 = 1
    static let relativePointerManager: Int32 = 1
    static let pointerConstraints: Int32 = 1
    // Input protocols (PointerGestures.swift, ShortcutsInhibit.swift).
    static let pointerGestures: Int32 = 3
    static let shortcutsInhibitManager: Int32 = 1
    // Text input, activation, idle (TextInput.swift, Activation.swift, Idle.swift).
    static let textInputManager: Int32 = 1
    static let activation: Int32 = 1
    static let idleNotifier: Int32 = 1
    static let idleInhibitManager: Int32 = 1
    static let tabletManager: Int32 = 1
    // Cursors by name (CursorShape.swift): cursor-shape-v1 from wayland-protocols 1.32,
    // vendored in protocols/.
    static let cursorShapeManager: Int32 = 2
    // Primary selection (PrimarySelection.swift).
    static let primarySelectionManager: Int32 = 1
    // Outputs' logical place and size (XdgOutput.swift).
    static let xdgOutputManager: Int32 = 3
    // Panels, launchers and lock screens (LayerShell.swift).
    static let layerShell: Int32 = 4
    // Input method programs (InputMethod.swift).
    static let inputMethodManager: Int32 = 1
    // Session lock (SessionLock.swift).
    static let sessionLockManager: Int32 = 1
    // Virtual keyboards (VirtualKeyboard.swift).
    static let virtualKeyboardManager: Int32 = 1
    // Virtual input devices (VirtualPointer.swift).
    static let virtualPointerManager: Int32 = 2
}

extension WaylandServer {
    func createGlobals() {
        addObjectGlobal(.wlCompositor, GlobalVersion.compositor, CompositorObject.init)
        addObjectGlobal(.wlSubcompositor, GlobalVersion.subcompositor, SubcompositorObject.init)
        createConfiguredOutputs() // wl_output, one per output (Outputs.swift)
        // Right after them: a client reading the registry in order has the outputs to describe.
        addObjectGlobal(.zxdgOutputManagerV1, GlobalVersion.xdgOutputManager, XdgOutputManagerObject.init)
        addSeatGlobal(servedSeats[0]) // Seats.swift
        addObjectGlobal(.wlDataDeviceManager, GlobalVersion.dataDeviceManager, DataDeviceManagerObject.init)
        addObjectGlobal(.xdgWmBase, GlobalVersion.xdgWmBase, XdgWmBase.init)
        // Offered only by a server that draws title bars, as weston and Mutter do: one that
        // could only ever answer `client_side` tells a client nothing by offering it, and SDL
        // 2.26 takes that answer for "the compositor forces client-side", unmaps its window
        // and never maps it again; without the global it draws its own through libdecor.
        if drawsTitleBars {
            addObjectGlobal(.zxdgDecorationManagerV1, GlobalVersion.decorationManager, DecorationManagerObject.init)
        }
        // Relative pointer and pointer constraints (RelativePointer.swift, PointerConstraints.swift).
        addObjectGlobal(
            .zwpRelativePointerManagerV1, GlobalVersion.relativePointerManager, RelativePointerManagerObject.init)
        addObjectGlobal(.zwpPointerConstraintsV1, GlobalVersion.pointerConstraints, PointerConstraintsObject.init)
        createInputProtocolGlobals()
        createTextInputActivationIdleGlobals()
        // Primary selection (PrimarySelection.swift).
        addObjectGlobal(
            .zwpPrimarySelectionDeviceManagerV1, GlobalVersion.primarySelectionManager,
            PrimarySelectionManagerObject.init)
        // Panels, launchers, notifications and wallpapers (LayerShell.swift).
        addObjectGlobal(.zwlrLayerShellV1, GlobalVersion.layerShell, LayerShellObject.init)
        // Input method programs: fcitx5, on-screen keyboards (InputMethod.swift).
        addObjectGlobal(.zwpInputMethodManagerV2, GlobalVersion.inputMethodManager, InputMethodManagerObject.init)
        // Lock screens (SessionLock.swift).
        addObjectGlobal(.extSessionLockManagerV1, GlobalVersion.sessionLockManager, SessionLockManagerObject.init)
        // Typing tools, on-screen keyboards, remote desktops (VirtualKeyboard.swift); who may
        // is the policy's `mayCreateVirtualDevice` (VirtualDevicePolicy.swift).
        addObjectGlobal(
            .zwpVirtualKeyboardManagerV1, GlobalVersion.virtualKeyboardManager, VirtualKeyboardManagerObject.init)
        // Virtual input devices (VirtualPointer.swift; who may: VirtualDevicePolicy.swift).
        addObjectGlobal(
            .zwlrVirtualPointerManagerV1, GlobalVersion.virtualPointerManager, VirtualPointerManagerObject.init)
    }

    /// A global whose bind makes one object of its interface, as most do: `make` gets the
    /// server, the binding client and the new resource.
    func addObjectGlobal<T: WaylandObject>(
        _ interface: UnsafePointer<wl_interface>, _ version: Int32,
        _ make: @escaping (WaylandServer, ClientState, ResourcePointer) -> T
    ) {
        addGlobal(interface, version) { server, client, version, id in
            server.createObject(interface, client: client, version: version, id: id) { make(server, client, $0) }
        }
    }

    func addGlobal(
        _ interface: UnsafePointer<wl_interface>, _ version: Int32,
        _ bind: @escaping (WaylandServer, ClientState, Int32, UInt32) -> Void
    ) {
        let binding = GlobalBinding(server: self) { [unowned self] client, version, id in
            bind(self, client, version, id)
        }
        globalBindings.append(binding)
        offeredGlobals.append(GlobalDescription(interface: String(cString: interface.pointee.name), version: version))
        if let global = wl_global_create(
            display, interface, version, CallbackContext.unretained(binding), globalBound)
        {
            createdGlobals.append(global)
        }
    }
}

// MARK: Input protocols (pointer gestures, keyboard shortcuts inhibit)

extension WaylandServer {
    func createInputProtocolGlobals() {
        addObjectGlobal(.zwpPointerGesturesV1, GlobalVersion.pointerGestures, PointerGesturesObject.init)
        addObjectGlobal(
            .zwpKeyboardShortcutsInhibitManagerV1, GlobalVersion.shortcutsInhibitManager,
            ShortcutsInhibitManagerObject.init)
        addObjectGlobal(.zwpTabletManagerV2, GlobalVersion.tabletManager, TabletManagerObject.init)
        addObjectGlobal(.wpCursorShapeManagerV1, GlobalVersion.cursorShapeManager, CursorShapeManagerObject.init)
    }
}

// MARK: Text input, activation, idle

extension WaylandServer {
    func createTextInputActivationIdleGlobals() {
        addObjectGlobal(.zwpTextInputManagerV3, GlobalVersion.textInputManager, TextInputManagerObject.init)
        addObjectGlobal(.xdgActivationV1, GlobalVersion.activation, ActivationObject.init)
        addObjectGlobal(.extIdleNotifierV1, GlobalVersion.idleNotifier, IdleNotifierObject.init)
        addObjectGlobal(.zwpIdleInhibitManagerV1, GlobalVersion.idleInhibitManager, IdleInhibitManagerObject.init)
    }
}
