// Which devices the source opens, and how it gets their file descriptors.

/// Which devices libinput handles.
public enum DeviceSet: Sendable, Hashable {
    /// Every input device udev assigns to the seat (ID_SEAT, default "seat0"), with
    /// hotplug: the udev backend, what a compositor on real hardware uses.
    case udev(seat: String = "seat0")
    /// Exactly these device nodes (`/dev/input/event3`), no hotplug: libinput's path
    /// backend, for tests, VMs and tools. More can be added with `addDevice(path:)`.
    case paths([String])
}

/// How device nodes are opened (libinput's open_restricted / close_restricted).
public enum DeviceAccess: Sendable, Hashable {
    /// Through libseat (seatd or logind): the session may open input devices without
    /// being root, and loses them when the user switches to another VT. `seat` must be
    /// the seat libseat opens (from the session, XDG_SEAT); it is checked.
    case libseat(seat: String = "seat0")
    /// With open(2): needs read access to /dev/input/event* (root, or the `input`
    /// group). For tests, VMs and tools where no seatd or logind runs.
    case direct
}
