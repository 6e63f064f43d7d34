// `zwlr_virtual_pointer_manager_v1` and `zwlr_virtual_pointer_v1` (wlr-virtual-pointer,
// version 2): a client (a remote desktop, wlrctl, an on-screen pointer) drives a pointer of
// its own. Each virtual pointer is an input device of a seat, announced with `deviceAdded`
// and taken away with `deviceRemoved` exactly as a mouse plugged in and out, with an id from
// the server's range (VirtualDeviceIDs.swift); its events go through the seat like any
// device's, so grabs, constraints, focus and the responder chain treat it as a mouse.
//
// - Seat: the `wl_seat` the client names, else the first seat.
// - Frames: nothing a virtual pointer sends takes effect before its `frame`: then its
//   motions and buttons are routed in the order they came, each as a mouse's event (each
//   ends with its own `wl_pointer.frame`), and then its scrolling, gathered into one scroll
//   event: what wlroots sends for it, without sending anything early. A client that sends
//   1024 motions and buttons without a frame has them routed then, as if it had framed
//   them: the server holds no more for it.
// - Relative motion moves the seat's cursor, relative-pointer clients get the deltas (both
//   the accelerated and the raw ones are the client's).
// - Absolute motion: x / x_extent and y / y_extent (clamped to 0...1) across the output
//   named at creation (`create_virtual_pointer_with_output`), or across the bounding box of
//   the outputs when none was named or that output is gone; a zero extent moves nothing.
// - Scrolling: `axis` and `axis_discrete` values of one axis in one frame add up (a
//   discrete step is 120 in `axis_value120`; before `wl_pointer` version 8 the sender
//   makes whole-click `axis_discrete` of them, WheelClicks.swift); the source is the
//   frame's `axis_source`, a wheel when none came. `axis_stop` is a zero value on its axis,
//   which the core sends as `wl_pointer.axis_stop` for finger and continuous sources; a
//   frame with a stop and no source is a finger frame (stops belong to fingers), and a
//   stop in a wheel frame is dropped (wheels have none).
// - Gone (`destroy`, or its client disconnected): the seat removes the device, which
//   releases every button it still held, to whoever got the press; events waiting for a
//   frame are dropped.
// - Errors: an axis that is neither vertical nor horizontal: `invalid_axis`; an axis
//   source that is not a `wl_pointer.axis_source`: `invalid_axis_source`; a button state
//   that is neither released nor pressed: `wl_display.invalid_method` (the protocol names
//   no error). A client the compositor's policy refuses (VirtualDevicePolicy.swift) gets
//   error 0 on the manager.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// `zwlr_virtual_pointer_manager_v1`: makes virtual pointers.
final class VirtualPointerManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwlrVirtualPointerManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .createVirtualPointer(let seat, let id): // create_virtual_pointer(seat, id)
            createPointer(seat: seat.object(as: SeatObject.self), output: nil, id: id)
        case .destroy: destroyResource() // destroy: the virtual pointers made with it live on
        // create_virtual_pointer_with_output(seat, output, id), since version 2
        case .createVirtualPointerWithOutput(let seat, let output, let id):
            let output = output.object(as: OutputObject.self)?.output
            createPointer(seat: seat.object(as: SeatObject.self), output: output, id: id)
        }
    }

    private func createPointer(seat seatObject: SeatObject?, output: ServedOutput?, id: UInt32) {
        guard server.allowsVirtualDevice(.pointer, for: owner) else {
            return postError(0, "the compositor does not let this client create virtual pointers")
        }
        let seat = server.seat(from: seatObject)
        let device = server.virtualDeviceIDs.take()
        guard
            let pointer = server.createObject(
                .zwlrVirtualPointerV1, client: owner, version: version, id: id,
                {
                    VirtualPointerObject(
                        server: server, owner: owner, resource: $0, seat: seat, device: device, output: output)
                })
        else {
            server.virtualDeviceIDs.give(back: device)
            return
        }
        let name = DeviceDescription(name: "virtual pointer of \(server.router.name(of: owner.id))")
        server.handle(
            InputEvent(time: 0, device: pointer.device, .deviceAdded([.pointer])), description: name,
            seat: seat)
    }
}

/// `zwlr_virtual_pointer_v1`: one virtual pointer, a device of `seat`.
final class VirtualPointerObject: WaylandObject {
    let seat: Seat
    let device: DeviceID
    /// The output absolute motion maps onto; nil: the whole layout.
    let output: ServedOutput?

    /// What waits for the next `frame`, in request order, with each request's time (µs).
    private enum Pending {
        case event(InputEvent.Kind)
        /// Absolute motion as fractions of the extents, mapped when routed.
        case absolute(x: Double, y: Double)
    }
    private var pending: [(time: UInt64, Pending)] = []
    /// The frame's scrolling so far, routed after the rest.
    private var scroll = PendingScroll()
    /// The time of the newest request: the removal's, so releases carry the client's clock.
    private var lastTime: UInt64 = 0
    /// Its resource was destroyed (and its device removed): nothing more is routed.
    private var gone = false

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, seat: Seat, device: DeviceID,
        output: ServedOutput?
    ) {
        self.seat = seat
        self.device = device
        self.output = output
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwlrVirtualPointerV1Request = decode(opcode, args) else { return }
        switch request {
        case .motion(let time, let dx, let dy): // motion(time, dx, dy)
            let dx = dx
            let dy = dy
            add(time, .event(.pointerMotion(dx: dx, dy: dy, unacceleratedDX: dx, unacceleratedDY: dy)))
        // motion_absolute(time, x, y, x_extent, y_extent)
        case .motionAbsolute(let time, let x, let y, let xExtent, let yExtent):
            guard xExtent > 0, yExtent > 0 else { return } // no frame to map onto
            add(time, .absolute(x: Double(x) / Double(xExtent), y: Double(y) / Double(yExtent)))
        case .button(let time, let button, let state): // button(time, button, state)
            guard state <= 1, let state = ButtonState(rawValue: UInt8(state)) else {
                return postDisplayError(
                    WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "button state \(state) is neither released nor pressed")
            }
            add(time, .event(.pointerButton(button: button, state: state)))
        case .axis(let time, let axis, let value): // axis(time, axis, value)
            guard let axis = checkedAxis(axis) else { return }
            noteScroll(time)
            scroll.add(axis, value: value, value120: 0)
        case .frame: routeFrame() // frame
        case .axisSource(let axisSource): // axis_source(axis_source)
            guard axisSource <= 3, let source = AxisSource(rawValue: UInt8(axisSource)) else {
                return postError(
                    ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE.rawValue,
                    "axis source \(axisSource) is not a wl_pointer.axis_source")
            }
            scroll.source = source
        case .axisStop(let time, let axis): // axis_stop(time, axis)
            guard let axis = checkedAxis(axis) else { return }
            noteScroll(time)
            scroll.stop(axis)
        case .axisDiscrete(let time, let axis, let value, let discrete): // axis_discrete(time, axis, value, discrete)
            guard let axis = checkedAxis(axis) else { return }
            noteScroll(time)
            scroll.add(axis, value: value, value120: discrete.multipliedReportingOverflow(by: 120).partialValue)
        case .destroy: destroyResource() // destroy
        }
    }

    private func checkedAxis(_ raw: UInt32) -> Axis? {
        if raw <= 1, let axis = Axis(rawValue: UInt8(raw)) { return axis }
        postError(ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS.rawValue, "axis \(raw) is not a wl_pointer.axis")
        return nil
    }

    /// The request's time in the core's microseconds.
    private func note(_ ms: UInt32) { lastTime = UInt64(ms) * 1000 }

    /// A scroll request's time: the frame's scroll event carries the newest.
    private func noteScroll(_ ms: UInt32) {
        note(ms)
        scroll.time = lastTime
    }

    private func add(_ ms: UInt32, _ p: Pending) {
        note(ms)
        pending.append((lastTime, p))
        // A client that never frames would grow this without end: past the limit, what it
        // sent is routed as if it had framed it.
        if pending.count >= Self.pendingLimit { routeFrame() }
    }

    /// Motions and buttons held for a frame at most.
    static let pendingLimit = 1024

    /// `frame`: what waited for it goes through the seat, scrolling last.
    private func routeFrame() {
        for (time, p) in pending where !gone {
            switch p {
            case .event(let kind): server.handle(InputEvent(time: time, device: device, kind), seat: seat)
            case .absolute(let x, let y):
                server.warpVirtualPointer(seat, to: OutputLayout.map(x: x, y: y, onto: absoluteFrame), time: time)
            }
        }
        pending.removeAll(keepingCapacity: true)
        if !gone, let kind = scroll.event() {
            server.handle(InputEvent(time: scroll.time ?? lastTime, device: device, kind), seat: seat)
        }
        scroll = PendingScroll()
    }

    /// The output named at creation while it is there, else the bounding box of the outputs.
    private var absoluteFrame: Rect {
        if let output, !output.removed { return server.outputFrame(output) }
        return seat.layout.boundingBox
    }

    override func resourceDestroyed() {
        gone = true
        defer { server.virtualDeviceIDs.give(back: device) }
        guard !server.shuttingDown else { return }
        // The seat releases what it still holds, to whoever got each press.
        server.handle(InputEvent(time: lastTime, device: device, .deviceRemoved), seat: seat)
    }
}

/// One frame's scrolling: per axis a value (with the value120 of its discrete steps) and
/// whether it stopped; the frame's source.
private struct PendingScroll {
    var source: AxisSource?
    var time: UInt64?
    private var vertical: AxisValue?
    private var horizontal: AxisValue?
    private var verticalStop = false
    private var horizontalStop = false

    mutating func add(_ axis: Axis, value: Double, value120: Int32) {
        var v = (axis == .vertical ? vertical : horizontal) ?? AxisValue(value: 0)
        v.value += value
        v.value120 = v.value120.addingReportingOverflow(value120).partialValue
        if axis == .vertical { vertical = v } else { horizontal = v }
    }

    mutating func stop(_ axis: Axis) {
        if axis == .vertical { verticalStop = true } else { horizontalStop = true }
    }

    /// The scroll event of the frame; nil when it had none (or only stops in a wheel frame).
    func event() -> InputEvent.Kind? {
        let stopped = verticalStop || horizontalStop
        guard vertical != nil || horizontal != nil || stopped else { return nil }
        let source = self.source ?? (stopped ? .finger : .wheel)
        let stops = source == .finger || source == .continuous
        let v = vertical ?? (verticalStop && stops ? AxisValue(value: 0) : nil)
        let h = horizontal ?? (horizontalStop && stops ? AxisValue(value: 0) : nil)
        guard v != nil || h != nil else { return nil }
        return .pointerAxis(source: source, vertical: v, horizontal: h)
    }
}

extension WaylandServer {
    /// Absolute motion of a virtual pointer, at a layout point: the seat's cursor goes there
    /// as a mouse's would, and it counts as input for idle notifications.
    func warpVirtualPointer(_ seat: Seat, to point: Point, time: UInt64) {
        seat.notifyPointerWarp(time: time, to: point)
        sendDeliveries()
        if idleWatching { idle.inputArrived(seat: Int(seat.id.index)) }
    }
}
