// Small handles. They are indices into arrays, never keys of dictionaries, so that
// routing an event never hashes anything.

/// A node of the surface tree. The generation detects use after destruction: a handle to
/// a destroyed node never resolves to the node that later reuses its slot.
public struct NodeID: Hashable, Sendable, CustomStringConvertible {
    public var index: UInt32
    public var generation: UInt32
    @inlinable public init(index: UInt32, generation: UInt32) { self.index = index; self.generation = generation }
    public var description: String { "#\(index)" }
}

/// A Wayland client (or any owner of surfaces). `ClientID.compositor` owns compositor nodes.
public struct ClientID: Hashable, Sendable, CustomStringConvertible {
    public var index: UInt32
    @inlinable public init(index: UInt32) { self.index = index }
    /// The compositor itself: owner of panels, decorations and backgrounds.
    public static let compositor = ClientID(index: 0)
    public var isCompositor: Bool { index == 0 }
    public var description: String { "client\(index)" }
}

/// A seat: one pointer, one keyboard focus, one set of touch points.
public struct SeatID: Hashable, Sendable, CustomStringConvertible {
    public var index: UInt32
    @inlinable public init(index: UInt32) { self.index = index }
    public var description: String { "seat\(index)" }
}

/// An input device as the sources name it (libinput device, replayed device, parent seat).
public struct DeviceID: Hashable, Sendable, CustomStringConvertible {
    public var index: UInt32
    @inlinable public init(_ index: UInt32) { self.index = index }
    public var description: String { "dev\(index)" }
}

/// An interned action name ("close", "copy"...), so deliveries stay trivial values.
public struct ActionID: Hashable, Sendable {
    public var index: UInt32
    @inlinable public init(index: UInt32) { self.index = index }
}
