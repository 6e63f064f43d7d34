// Which clients may add input devices to a seat: virtual keyboards (typing tools, on-screen
// keyboards, remote desktops), virtual pointers and input methods. Any of them can type or
// click into every other client, so a compositor may want only some programs to have them.
// The embedder decides through `WaylandServer.mayCreateVirtualDevice`, asked when a client
// asks for the device; without it every client may (as in wlroots). A denied client gets
// the protocol's error for it, which disconnects it (docs/wayland.md lists them); a denied
// input method, whose protocol has no error, is told `unavailable` and stays inert.
import InputRouter

/// The kind of input device a client asks the server to create for it.
public enum VirtualDeviceKind: Sendable {
    /// `zwlr_virtual_pointer_manager_v1.create_virtual_pointer`.
    case pointer
    /// `zwp_virtual_keyboard_manager_v1.create_virtual_keyboard`.
    case keyboard
    /// `zwp_input_method_manager_v2.get_input_method`.
    case inputMethod
}

extension WaylandServer {
    /// Whether `client` may create a device of `kind`: the embedder's answer, else yes.
    func mayCreateVirtualDevice(_ kind: VirtualDeviceKind, client: ClientState) -> Bool {
        mayCreateVirtualDevice?(client.id, kind) ?? true
    }
}
