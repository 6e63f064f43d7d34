// The globals a client sees in the registry, and what binding each one creates.
import CShim
import CWaylandServer
import InputRouter

/// A bind handler kept alive for the global's lifetime.
final class GlobalBinding {
    let bind: (ClientState, Int32, UInt32) -> Void
    unowned(unsafe) let server: WaylandServer
    init(server: WaylandServer, _ bind: @escaping (ClientState, Int32, UInt32) -> Void) {
        self.server = server
        self.bind = bind
    }
}

private let globalBound: wl_global_bind_func_t = { client, data, version, id in
    let binding = Unmanaged<GlobalBinding>.fromOpaque(data!).takeUnretainedValue()
    guard let client else { return }
    let state = binding.server.adopt(client)
    state.boundServerGlobal = true
    binding.bind(state, Int32(version), id)
    binding.server.sendDeliveries()
}

/// The versions offered: the highest libwayland 1.21 and wayland-protocols 1.31 define.
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
    // Primary selection (PrimarySelection.swift).
    static let primarySelectionManager: Int32 = 1
}

extension WaylandServer {
    func createGlobals() {
        addGlobal("wl_compositor", GlobalVersion.compositor) { server, client, version, id in
            server.createObject("wl_compositor", client: client, version: version, id: id) {
                CompositorObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("wl_subcompositor", GlobalVersion.subcompositor) { server, client, version, id in
            server.createObject("wl_subcompositor", client: client, version: version, id: id) {
                SubcompositorObject(server: server, owner: client, resource: $0)
            }
        }
        createConfiguredOutputs()  // wl_output, one per output (Outputs.swift)
        addGlobal("wl_seat", GlobalVersion.seat) { server, client, version, id in
            guard let seat = server.createObject("wl_seat", client: client, version: version, id: id, {
                SeatObject(server: server, owner: client, resource: $0)
            }) else { return }
            server.seatResources.append(seat.resource)
            seat.sendState()
        }
        addGlobal("wl_data_device_manager", GlobalVersion.dataDeviceManager) { server, client, version, id in
            server.createObject("wl_data_device_manager", client: client, version: version, id: id) {
                DataDeviceManagerObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("xdg_wm_base", GlobalVersion.xdgWmBase) { server, client, version, id in
            server.createObject("xdg_wm_base", client: client, version: version, id: id) {
                XdgWmBase(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("zxdg_decoration_manager_v1", GlobalVersion.decorationManager) { server, client, version, id in
            server.createObject("zxdg_decoration_manager_v1", client: client, version: version, id: id) {
                DecorationManagerObject(server: server, owner: client, resource: $0)
            }
        }
        // Relative pointer and pointer constraints (RelativePointer.swift, PointerConstraints.swift).
        addGlobal("zwp_relative_pointer_manager_v1", GlobalVersion.relativePointerManager) { server, client, version, id in
            server.createObject("zwp_relative_pointer_manager_v1", client: client, version: version, id: id) {
                RelativePointerManagerObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("zwp_pointer_constraints_v1", GlobalVersion.pointerConstraints) { server, client, version, id in
            server.createObject("zwp_pointer_constraints_v1", client: client, version: version, id: id) {
                PointerConstraintsObject(server: server, owner: client, resource: $0)
            }
        }
        createInputProtocolGlobals()
        createTextInputActivationIdleGlobals()
        // Primary selection (PrimarySelection.swift).
        addGlobal("zwp_primary_selection_device_manager_v1", GlobalVersion.primarySelectionManager) { server, client, version, id in
            server.createObject("zwp_primary_selection_device_manager_v1", client: client, version: version, id: id) {
                PrimarySelectionManagerObject(server: server, owner: client, resource: $0)
            }
        }
    }

    func addGlobal(
        _ interface: String, _ version: Int32, _ bind: @escaping (WaylandServer, ClientState, Int32, UInt32) -> Void
    ) {
        let binding = GlobalBinding(server: self) { [unowned(unsafe) self] client, version, id in bind(self, client, version, id) }
        globalBindings.append(binding)
        offeredGlobals.append(GlobalDescription(interface: interface, version: version))
        if let global = wl_global_create(
            display, ir_interface(interface), version, Unmanaged.passUnretained(binding).toOpaque(), globalBound)
        {
            createdGlobals.append(global)
        }
    }

    /// Tells every `wl_seat` resource the current capabilities.
    func sendCapabilities() {
        for r in seatResources { wl_seat_send_capabilities(r, seatCapabilities) }
    }
}

// MARK: Input protocols (pointer gestures, keyboard shortcuts inhibit)

extension WaylandServer {
    func createInputProtocolGlobals() {
        addGlobal("zwp_pointer_gestures_v1", GlobalVersion.pointerGestures) { server, client, version, id in
            server.createObject("zwp_pointer_gestures_v1", client: client, version: version, id: id) {
                PointerGesturesObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("zwp_keyboard_shortcuts_inhibit_manager_v1", GlobalVersion.shortcutsInhibitManager) { server, client, version, id in
            server.createObject("zwp_keyboard_shortcuts_inhibit_manager_v1", client: client, version: version, id: id) {
                ShortcutsInhibitManagerObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("zwp_tablet_manager_v2", GlobalVersion.tabletManager) { server, client, version, id in
            server.createObject("zwp_tablet_manager_v2", client: client, version: version, id: id) {
                TabletManagerObject(server: server, owner: client, resource: $0)
            }
        }
    }
}

// MARK: Text input, activation, idle

extension WaylandServer {
    func createTextInputActivationIdleGlobals() {
        addGlobal("zwp_text_input_manager_v3", GlobalVersion.textInputManager) { server, client, version, id in
            server.createObject("zwp_text_input_manager_v3", client: client, version: version, id: id) {
                TextInputManagerObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("xdg_activation_v1", GlobalVersion.activation) { server, client, version, id in
            server.createObject("xdg_activation_v1", client: client, version: version, id: id) {
                ActivationObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("ext_idle_notifier_v1", GlobalVersion.idleNotifier) { server, client, version, id in
            server.createObject("ext_idle_notifier_v1", client: client, version: version, id: id) {
                IdleNotifierObject(server: server, owner: client, resource: $0)
            }
        }
        addGlobal("zwp_idle_inhibit_manager_v1", GlobalVersion.idleInhibitManager) { server, client, version, id in
            server.createObject("zwp_idle_inhibit_manager_v1", client: client, version: version, id: id) {
                IdleInhibitManagerObject(server: server, owner: client, resource: $0)
            }
        }
    }
}
