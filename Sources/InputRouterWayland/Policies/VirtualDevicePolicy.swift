// Which clients may make virtual input devices. A virtual pointer or keyboard, or an input
// method, lets a client type and click into every other client's windows: a remote desktop
// (wayvnc), a typing tool (wtype), an on-screen keyboard or an input method (fcitx5) needs
// it, and nothing else should have it. wlroots offers the globals to every client and
// leaves the choice to the compositor; here the compositor answers one question, asked when
// a client asks for such a device (`CompositorPolicy.mayCreateVirtualDevice`). With no answer
// set, every client may, as on wlroots.
//
// A refused request fails with the protocol's error for it when the protocol names one
// (`zwp_virtual_keyboard_manager_v1.unauthorized`). The virtual pointer protocol names
// none: its manager gets error 0 (the number `unauthorized` has on the keyboard's manager),
// with a message saying it was the compositor's policy (docs/wayland.md). An input
// method, whose protocol names no error either, is told `unavailable` and stays inert.
import CWaylandServer
import InputRouter

/// What kind of virtual device a client asks for.
public enum VirtualDeviceKind: Sendable, Hashable {
    /// A `zwlr_virtual_pointer_v1`.
    case pointer
    /// A `zwp_virtual_keyboard_v1`.
    case keyboard
    /// A `zwp_input_method_v2`.
    case inputMethod
}

/// The client asking for a virtual device, as the policy sees it.
public struct VirtualDeviceClient: Sendable, Hashable {
    /// Its id in the router.
    public var id: ClientID
    /// The process id of its socket's peer (`wl_client_get_credentials`).
    public var pid: Int32
    /// Its program name (`/proc/PID/comm`), "client" when unknown.
    public var program: String
}

extension WaylandServer {
    /// Whether `client` may make a virtual device of `kind`: asked once per request, never
    /// on the input path.
    func allowsVirtualDevice(_ kind: VirtualDeviceKind, for client: ClientState) -> Bool {
        guard let policy = virtualDevicePolicy else { return true }
        var pid: pid_t = 0
        wl_client_get_credentials(client.client, &pid, nil, nil)
        return policy(VirtualDeviceClient(id: client.id, pid: pid, program: router.name(of: client.id)), kind)
    }
}
