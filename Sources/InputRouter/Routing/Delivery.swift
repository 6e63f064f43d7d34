// Unsafe idioms, and why: the queue's storage (`DeliveryStorage`) is written by every routed
// event, so its counters and slots are `@exclusivity(unchecked)` (one thread; appends never
// leave an access open). Each dynamic check is a runtime call per access,
// measured with Router.swift's, SurfaceTree.swift's and Delivery.swift's `@exclusivity(unchecked)`
// all removed (wayland-bench `--only KIND routed`, callgrind, instructions per event without
// libc's allocator): motion 4,142 -> 5,899, click 26,468 -> 36,311, key 3,643 -> 4,808,
// touch 24,233 -> 31,320, against raw Wayland's 3,559, 21,830, 3,235 and 20,655: every kind
// far over the 1.15x budget.

// What the core decides: deliveries to client surfaces (the Wayland layer turns them into
// protocol events) and records of what compositor responders took. Trivial values: the
// router appends them to a preallocated queue, and routing never allocates.

/// The keys of a `keyboard.enter`, stored in the queue's key buffer.
public struct KeySpan: Hashable, Sendable {
    /// Index of the first key in `DeliveryQueue.keyBuffer`.
    public var start: Int32
    /// How many keys the span holds.
    public var count: Int32
}

/// One thing the router decided to tell a client (a `wl_pointer`, `wl_keyboard`, `wl_touch`...
/// event) or that a compositor responder took. A trivial value: queuing one does not allocate.
public enum Delivery: Hashable, Sendable {
    // Pointer (`wl_pointer`). Points are surface-local; times are microseconds.
    case pointerEnter(SeatID, NodeID, Point, serial: UInt32)
    case pointerLeave(SeatID, NodeID, serial: UInt32)
    case pointerMotion(SeatID, NodeID, time: UInt64, Point)
    case pointerButton(SeatID, NodeID, time: UInt64, button: UInt32, ButtonState, serial: UInt32)
    case pointerAxis(SeatID, NodeID, time: UInt64, Axis, AxisSource, value: Double, value120: Int32)
    case pointerAxisStop(SeatID, NodeID, time: UInt64, Axis)
    case pointerFrame(SeatID, ClientID)
    // Relative pointer and pointer constraints (Seat+Constraints.swift), to the pointer focus.
    case relativeMotion(SeatID, NodeID, time: UInt64, RelativeMotion)
    /// A lock or confinement became active (`locked`/`confined`) or stopped (`unlocked`/`unconfined`).
    case pointerConstraint(SeatID, NodeID, PointerConstraintKind, active: Bool)
    // Keyboard (`wl_keyboard`).
    case keyboardEnter(SeatID, NodeID, keys: KeySpan, serial: UInt32)
    case keyboardLeave(SeatID, NodeID, serial: UInt32)
    case key(SeatID, NodeID, time: UInt64, key: UInt32, KeyState, serial: UInt32)
    case modifiers(SeatID, NodeID, Modifiers, serial: UInt32)
    /// From here on the seat's keys and modifiers are in the keymap of `keyboard`, a device
    /// with a keymap of its own (a virtual keyboard: Seat+KeyboardDevices.swift); nil: the
    /// seat's own keymap. A client must have that keymap before the next key or modifiers
    /// it is sent; `modifiers` to the focus follows this at once.
    case keymapChanged(SeatID, keyboard: DeviceID?)
    // Touch (`wl_touch`). The touch id is libinput's seat slot.
    case touchDown(SeatID, NodeID, time: UInt64, slot: Int32, Point, serial: UInt32)
    case touchMotion(SeatID, NodeID, time: UInt64, slot: Int32, Point)
    case touchUp(SeatID, NodeID, time: UInt64, slot: Int32, serial: UInt32)
    case touchFrame(SeatID, ClientID)
    case touchCancel(SeatID, ClientID)
    /// The surface a touch point was on went away (destroyed, unmapped): `wl_touch.up` for
    /// that point to its client, which cannot name the surface any more; nothing follows.
    case touchReleased(SeatID, ClientID, time: UInt64, slot: Int32, serial: UInt32)
    // Touchpad gestures (pointer-gestures), to the pointer focus.
    case gesture(SeatID, NodeID, time: UInt64, GestureEvent)
    // Tablet tools (`zwp_tablet_tool_v2`), one tool per tablet device. Points are
    // surface-local. Proximity in/out pair per surface; down/up pair inside them.
    case tabletProximityIn(SeatID, NodeID, DeviceID, TabletTool, serial: UInt32)
    case tabletProximityOut(SeatID, NodeID, DeviceID)
    case tabletDown(SeatID, NodeID, DeviceID, time: UInt64, serial: UInt32)
    case tabletUp(SeatID, NodeID, DeviceID, time: UInt64)
    /// `axes` indexes the queue's axes buffer (`queue.axes(_:)`), as keys do: deliveries
    /// stay small.
    case tabletMotion(SeatID, NodeID, DeviceID, time: UInt64, Point, axes: Int32)
    case tabletButton(SeatID, NodeID, DeviceID, time: UInt64, button: UInt32, ButtonState, serial: UInt32)
    case tabletFrame(SeatID, ClientID, time: UInt64)
    // Tablet pads (`zwp_tablet_pad_v2`): focused on the keyboard focus (Seat+Pad.swift).
    // Enter/leave pair per surface; buttons, rings, strips and mode switches come between.
    case padEnter(SeatID, NodeID, DeviceID, serial: UInt32)
    case padLeave(SeatID, NodeID, DeviceID, serial: UInt32)
    /// The pad's group `group` is now in `mode`: after each enter (every group), and before
    /// the event that reported a new mode.
    case padModeSwitch(SeatID, NodeID, DeviceID, time: UInt64, group: UInt8, mode: UInt32, serial: UInt32)
    case padButton(SeatID, NodeID, DeviceID, time: UInt64, button: UInt32, ButtonState)
    case padRing(SeatID, NodeID, DeviceID, time: UInt64, ring: UInt32, position: Double, PadSource)
    case padStrip(SeatID, NodeID, DeviceID, time: UInt64, strip: UInt32, position: Double, PadSource)
    // The compositor's side.
    /// A compositor node, client responder or seat handler took the event.
    case handled(SeatID, Responder, EventKind)
    /// A nil-target action found a responder that implements it.
    case action(SeatID, Responder, ActionID)
    /// A key binding consumed a key press (its release is consumed too).
    case binding(SeatID, index: Int32, key: UInt32)
    /// The node's shortcuts inhibitor became active (the focus is on it, bindings pass to
    /// it) or inactive (`zwp_keyboard_shortcuts_inhibitor_v1`).
    case shortcutsInhibited(SeatID, NodeID, active: Bool)
    /// The seat's input method (the compositor's compose, for a client with an enabled
    /// text input) took a key press meant for the focused node; its release is consumed too.
    case inputMethodKey(SeatID, NodeID, key: UInt32)
    /// A gesture recognizer claimed the pointer or touch sequence.
    case claimed(SeatID, recognizer: Int32)
    case switchToggled(SeatID, SwitchKind, on: Bool)
    /// `xdg_popup.popup_done`: the popup grab was broken.
    case popupDone(SeatID, NodeID)
    /// A resize grab asks the node's owner for this size.
    case resizeRequest(SeatID, NodeID, width: Int32, height: Int32)
    /// Nobody in the chain took the event.
    case dropped(SeatID, EventKind)

    /// The seat that produced the delivery; a switch, no allocation.
    public var seat: SeatID {
        switch self {
        case .pointerEnter(let s, _, _, _), .pointerLeave(let s, _, _), .pointerMotion(let s, _, _, _),
            .pointerButton(let s, _, _, _, _, _), .pointerAxis(let s, _, _, _, _, _, _),
            .pointerAxisStop(let s, _, _, _), .pointerFrame(let s, _), .keyboardEnter(let s, _, _, _),
            .keyboardLeave(let s, _, _), .key(let s, _, _, _, _, _), .modifiers(let s, _, _, _),
            .keymapChanged(let s, _),
            .touchDown(let s, _, _, _, _, _), .touchMotion(let s, _, _, _, _), .touchUp(let s, _, _, _, _),
            .touchFrame(let s, _), .touchCancel(let s, _), .touchReleased(let s, _, _, _, _), .gesture(let s, _, _, _),
            .handled(let s, _, _),
            .action(let s, _, _), .binding(let s, _, _), .claimed(let s, _), .switchToggled(let s, _, _),
            .popupDone(let s, _), .resizeRequest(let s, _, _, _), .dropped(let s, _), .shortcutsInhibited(let s, _, _),
            .inputMethodKey(let s, _, _),
            .tabletProximityIn(let s, _, _, _, _), .tabletProximityOut(let s, _, _), .tabletDown(let s, _, _, _, _),
            .tabletUp(let s, _, _, _), .tabletMotion(let s, _, _, _, _, _), .tabletButton(let s, _, _, _, _, _, _),
            .tabletFrame(let s, _, _), .padButton(let s, _, _, _, _, _), .padRing(let s, _, _, _, _, _, _),
            .padStrip(let s, _, _, _, _, _, _), .padEnter(let s, _, _, _), .padLeave(let s, _, _, _),
            .padModeSwitch(let s, _, _, _, _, _, _), .relativeMotion(let s, _, _, _),
            .pointerConstraint(let s, _, _, _):
            return s
        }
    }

    /// The client surface this delivery goes to, if it goes to one.
    public var surface: NodeID? {
        switch self {
        case .pointerEnter(_, let n, _, _), .pointerLeave(_, let n, _), .pointerMotion(_, let n, _, _),
            .pointerButton(_, let n, _, _, _, _), .pointerAxis(_, let n, _, _, _, _, _),
            .pointerAxisStop(_, let n, _, _),
            .keyboardEnter(_, let n, _, _), .keyboardLeave(_, let n, _), .key(_, let n, _, _, _, _),
            .modifiers(_, let n, _, _), .touchDown(_, let n, _, _, _, _), .touchMotion(_, let n, _, _, _),
            .touchUp(_, let n, _, _, _), .gesture(_, let n, _, _), .popupDone(_, let n),
            .shortcutsInhibited(_, let n, _),
            .tabletProximityIn(_, let n, _, _, _), .tabletProximityOut(_, let n, _), .tabletDown(_, let n, _, _, _),
            .tabletUp(_, let n, _, _), .tabletMotion(_, let n, _, _, _, _), .tabletButton(_, let n, _, _, _, _, _),
            .padButton(_, let n, _, _, _, _), .padRing(_, let n, _, _, _, _, _), .padStrip(_, let n, _, _, _, _, _),
            .padEnter(_, let n, _, _), .padLeave(_, let n, _, _), .padModeSwitch(_, let n, _, _, _, _, _),
            .relativeMotion(_, let n, _, _), .pointerConstraint(_, let n, _, _):
            return n
        default:
            return nil
        }
    }
}

/// The deliveries of the last routed events, in order. Preallocated: appending does not
/// allocate once capacity is reached, and clearing keeps it.
///
/// A handle on the router's storage (`DeliveryStorage`), not a copy: the router swaps two
/// storages per flush by one reference each, and an append is a store and a count, with
/// one capacity test and no uniqueness check. As a `ContiguousArray` field of a value
/// queue, each append checked the array's uniqueness and bounds and wrote the buffer back
/// (about 25 instructions, twice per pointer motion), and the flush moved six words in and
/// out (about 70). Deliveries, keys and axes are trivial values, so a stale slot holds
/// nothing that needs releasing. Read it in the sink it is handed to, or before the next
/// flush: a flush empties it.
public struct DeliveryQueue {
    @usableFromInline let storage: DeliveryStorage

    init() { storage = DeliveryStorage() }

    /// The deliveries in the order they were decided.
    public var deliveries: DeliveryList { DeliveryList(storage: storage, count: storage.used) }
    /// Backing store of `KeySpan`s (held keys of `keyboardEnter`); read through `keys(_:)`.
    public var keyBuffer: ArraySlice<UInt32> { storage.keySlots[..<storage.keysUsed] }
    /// Backing store of tablet axes; read through `axes(_:)`.
    public var axesBuffer: ArraySlice<TabletAxes> { storage.axesSlots[..<storage.axesUsed] }

    /// Writes `value` at `index` (the count in use): over a stale slot, or appended.
    @inline(__always) private static func put<T>(_ value: T, at index: Int, in slots: inout ContiguousArray<T>) {
        if index < slots.count { slots[index] = value } else { slots.append(value) }
    }

    mutating func appendAxes(_ axes: TabletAxes) -> Int32 {
        Self.put(axes, at: storage.axesUsed, in: &storage.axesSlots)
        storage.axesUsed += 1
        return Int32(storage.axesUsed - 1)
    }

    /// The axes of a `tabletMotion` delivery in this queue.
    public func axes(_ index: Int32) -> TabletAxes {
        precondition(index >= 0 && Int(index) < storage.axesUsed, "axes index out of range")
        return storage.axesSlots[Int(index)]
    }

    /// `mutating` though only the storage changes: an in-place access of the router's
    /// queue, where a read copied it and so retained and released the storage around the
    /// `grow` call (~40 instructions per append).
    @inline(__always) mutating func append(_ d: Delivery) {
        if storage.used == storage.capacity { storage.grow() }
        storage.base[storage.used] = d
        storage.used &+= 1
    }

    /// An empty span at the end of the key buffer, for `appendKey(_:to:)`.
    func startKeys() -> KeySpan { KeySpan(start: Int32(storage.keysUsed), count: 0) }

    mutating func appendKey(_ key: UInt32, to span: inout KeySpan) {
        Self.put(key, at: storage.keysUsed, in: &storage.keySlots)
        storage.keysUsed += 1
        span.count += 1
    }

    /// The keys of a `keyboardEnter` delivery in this queue.
    public func keys(_ span: KeySpan) -> ArraySlice<UInt32> {
        precondition(Int(span.start + span.count) <= storage.keysUsed, "key span out of range")
        return storage.keySlots[Int(span.start)..<Int(span.start + span.count)]
    }

    /// True when nothing was decided since the last flush.
    public var isEmpty: Bool { storage.used == 0 }
    /// How many deliveries are queued.
    public var count: Int { storage.used }

    /// The slots stay, with their capacity: the next deliveries overwrite them. Inlinable:
    /// every flush ends with it.
    @inlinable public func removeAll() {
        storage.used = 0
        storage.keysUsed = 0
        storage.axesUsed = 0
    }
}

/// What a `DeliveryQueue` holds: deliveries in one block of trivial slots (written in
/// place, never deinitialised), keys and axes in arrays that keep their capacity.
@usableFromInline final class DeliveryStorage {
    // Written by every routed event: no dynamic exclusivity checks (see Seat's state).
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<Delivery>
    @exclusivity(unchecked) @usableFromInline var capacity = 256
    @exclusivity(unchecked) @usableFromInline var used = 0
    @exclusivity(unchecked) var keySlots: ContiguousArray<UInt32> = []
    @exclusivity(unchecked) @usableFromInline var keysUsed = 0
    @exclusivity(unchecked) var axesSlots: ContiguousArray<TabletAxes> = []
    @exclusivity(unchecked) @usableFromInline var axesUsed = 0

    init() {
        // Slots are overwritten and dropped without deinitialisation: only for a trivial type.
        precondition(_isPOD(Delivery.self), "Delivery must stay a trivial value")
        base = .allocate(capacity: capacity)
        keySlots.reserveCapacity(64)
        axesSlots.reserveCapacity(16)
    }

    deinit { base.deallocate() }

    /// Doubles the block (a flush this long is rare: the queue is drained after each event).
    @usableFromInline @inline(never) func grow() {
        let bigger = UnsafeMutablePointer<Delivery>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: used)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}

/// The deliveries of a queue, read in place (`DeliveryQueue.deliveries`). Holds the storage,
/// so it stays valid; it sees the slots as they are when read, so read it before the next
/// flush reuses them.
public struct DeliveryList: RandomAccessCollection {
    let storage: DeliveryStorage
    public let count: Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(i: Int) -> Delivery {
        precondition(i >= 0 && i < count, "delivery index out of range")
        return storage.base[i]
    }
}

/// Receives deliveries: the Wayland layer, a trace writer, the invariant checker.
public protocol DeliverySink {
    mutating func deliver(_ delivery: Delivery, from queue: DeliveryQueue)
    /// Delivers `slots[0]` and may deliver some of the slots after it, in order; returns
    /// how many it delivered (at least 1). What `Router.flush(into:)` calls: a sink can read
    /// a delivery in place, and send two that go out together (a motion and its frame) in
    /// one step. By default, `deliver(_:from:)` with the first.
    mutating func deliver(_ slots: UnsafeBufferPointer<Delivery>, from queue: DeliveryQueue) -> Int
}

extension DeliverySink {
    @inlinable public mutating func deliver(_ slots: UnsafeBufferPointer<Delivery>, from queue: DeliveryQueue) -> Int {
        deliver(slots[0], from: queue)
        return 1
    }
}
