// Small handles. They are indices into arrays, never keys of dictionaries, so that
// routing an event never hashes anything.

/// A node of the surface tree. The generation detects use after destruction: a handle to
/// a destroyed node never resolves to the node that later reuses its slot.
public struct NodeID: Hashable, Sendable, CustomStringConvertible {
    /// The node's slot in the tree's array.
    public var index: UInt32
    /// The slot's generation when the handle was made; a mismatch means the node is gone.
    public var generation: UInt32
    /// A handle from its parts; only the tree makes meaningful ones.
    @inlinable public init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
    /// "#index", for traces.
    public var description: String { "#\(index)" }
}

/// A Wayland client (or any owner of surfaces). `ClientID.compositor` owns compositor nodes.
public struct ClientID: Hashable, Sendable, CustomStringConvertible {
    /// Index of the client's record in the router (0 is the compositor).
    public var index: UInt32
    /// A handle from its index; `Router.addClient(name:)` hands out real ones.
    @inlinable public init(index: UInt32) { self.index = index }
    /// The compositor itself: owner of panels, decorations and backgrounds.
    public static let compositor = ClientID(index: 0)
    /// True for the compositor's own pseudo-client.
    public var isCompositor: Bool { index == 0 }
    /// "clientN", for traces.
    public var description: String { "client\(index)" }
}

/// A seat: one pointer, one keyboard focus, one set of touch points.
public struct SeatID: Hashable, Sendable, CustomStringConvertible {
    /// Index of the seat in `Router.seats`.
    public var index: UInt32
    /// A handle from its index; `Router.addSeat(name:)` hands out real ones.
    @inlinable public init(index: UInt32) { self.index = index }
    /// "seatN", for traces.
    public var description: String { "seat\(index)" }
}

/// An input device as the sources name it (libinput device, replayed device, parent seat).
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    /// The source's device number (libinput device index, replay id).
    public var index: UInt32
    /// A device handle; the source picks the numbers.
    @inlinable public init(_ index: UInt32) { self.index = index }
    /// "devN", for traces.
    public var description: String { "dev\(index)" }

    /// The first id of the devices a server makes itself (virtual pointers and keyboards,
    /// input methods), counting up from here. Sources number their devices from 0 up
    /// (libinput from its `deviceIDBase`, recordings, the nested backend), and no source
    /// reaches 2³¹ devices, so the two ranges never meet.
    public static let firstServerMade: UInt32 = 1 << 31

    /// Whether the id is in the server's range (`firstServerMade` on).
    @inlinable public var isServerMade: Bool { index >= DeviceID.firstServerMade }

    /// The device's place in a seat's per-device tables: the id rotated left by one bit.
    /// Source ids (0, 1, 2...) take the even places and server-made ids (2³¹, 2³¹ + 1...)
    /// the odd ones, so both stay dense, a table grows only as far as the devices
    /// present reach, and the two ranges never share a place. One instruction.
    @inline(__always) var slot: Int { Int(index << 1 | index >> 31) }
}

/// An interned action name ("close", "copy"...), so deliveries stay trivial values.
public struct ActionID: Hashable, Sendable {
    /// Index into the router's interned action names.
    public var index: UInt32
    /// A handle from its index; `Router.action(_:)` hands out real ones.
    @inlinable public init(index: UInt32) { self.index = index }
}
