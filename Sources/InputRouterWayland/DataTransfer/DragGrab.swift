// Drag and drop (`wl_data_device.start_drag`) as a grab on the seat's open grab protocol
// (PointerGrab, TouchGrab): while it lasts no `wl_pointer` event reaches any client; the
// grab hit-tests under the pointer (or the touch point) itself with the core's hit-test,
// and the surface found gets `wl_data_device.enter`/`motion`/`leave` with an offer of the
// source; the release (or the point's up) drops. Action negotiation is version 3's.
// A drag belongs to the seat of the data device that started it: its grab is on that seat,
// and only that seat's data devices are told (each seat drags on its own).
import CWaylandServer
import Foundation
import InputRouter

final class DragGrab: PointerGrab, TouchGrab {
    unowned let server: WaylandServer
    let origin: ClientState
    /// nil for a drag inside one client: only its own surfaces are told.
    weak var source: DataSourceObject?
    let hasSource: Bool
    let icon: Surface?
    let byTouch: Bool
    /// The seat whose pointer or touch drives it, by index.
    let seatIndex: Int
    private var seat: Seat { server.router.seats[seatIndex] }
    /// The touch point that drives a touch drag: the first of `originSlots` that moves or lifts.
    var slot: Int32?
    /// The origin client's touch points when the drag began, taken from it (it got
    /// `wl_touch.cancel`). Other clients' points go on to their owners.
    var originSlots: [Int32] = []
    /// Where the icon is drawn: the pointer or the touch point, in layout space.
    private(set) var position: Point
    /// The surface under the drag and the offers its client's devices were given.
    private(set) var target: Surface?
    private var offers: [(device: DataDeviceObject, offer: DataOfferObject?)] = []
    private var finished = false

    init(
        server: WaylandServer, origin: ClientState, source: DataSourceObject?, icon: Surface?, byTouch: Bool,
        seat index: Int, at p: Point
    ) {
        self.server = server
        seatIndex = index
        self.origin = origin
        self.source = source
        hasSource = source != nil
        self.icon = icon
        self.byTouch = byTouch
        position = p
    }

    private func ms(_ time: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: time / 1000) }

    /// Follows the drag to `p`: enter and leave when the surface under it changes, motion
    /// while it stays.
    func update(time: UInt64, at p: Point) {
        position = p
        let hit = seat.hitTest(p)
        var surface = hit.flatMap { server.surface(for: $0.node) }
        if let s = surface, !s.owner.alive || (!hasSource && s.owner !== origin) { surface = nil }
        let local = hit?.local ?? .zero
        if surface !== target {
            leave()
            enter(surface, at: local)
        } else if target != nil {
            for o in offers {
                wl_data_device_send_motion(
                    o.device.resource, ms(time), wl_fixed_from_double(local.x), wl_fixed_from_double(local.y))
            }
        }
    }

    private func enter(_ surface: Surface?, at local: Point) {
        guard let surface else { return }
        target = surface
        let serial = server.nextSerial()
        for case let device as DataDeviceObject in server.services(seatIndex).selections.clipboard.devices
        where device.owner === surface.owner {
            var offer: DataOfferObject?
            if let source {
                offer = server.createObject(.wlDataOffer, client: device.owner, version: device.version, id: 0) {
                    DataOfferObject(server: server, owner: device.owner, resource: $0, source: source)
                }
                if let offer {
                    offer.drag = self
                    offer.isDragOffer = true
                    wl_data_device_send_data_offer(device.resource, offer.resource)
                    for m in source.mimeTypes { wl_data_offer_send_offer(offer.resource, m) }
                    if offer.version >= 3 {
                        wl_data_offer_send_source_actions(offer.resource, source.actions ?? DndAction.copy)
                    }
                }
            }
            wl_data_device_send_enter(
                device.resource, serial, surface.resource, wl_fixed_from_double(local.x),
                wl_fixed_from_double(local.y), offer?.resource)
            offers.append((device, offer))
            if let offer { negotiate(offer) }
        }
    }

    private func leave(keeping dropped: DataOfferObject? = nil) {
        guard target != nil else { return }
        for o in offers {
            wl_data_device_send_leave(o.device.resource)
            // An offer left behind reads nothing more; the dropped one waits for `finish`.
            if let offer = o.offer, offer !== dropped {
                offer.drag = nil
                offer.source = nil
            }
        }
        offers.removeAll()
        target = nil
    }

    /// The action both sides allow: the target's preferred one if the source allows it,
    /// else copy, move, ask in that order; told to both when it changes.
    func negotiate(_ offer: DataOfferObject) {
        guard let source else { return }
        let common = (source.actions ?? DndAction.copy) & (offer.actions ?? (offer.version >= 3 ? 0 : DndAction.copy))
        var action: UInt32 = 0
        if offer.preferredAction & common != 0 {
            action = offer.preferredAction
        } else if let a = [DndAction.copy, DndAction.move, DndAction.ask].first(where: { common & $0 != 0 }) {
            action = a
        }
        guard action != offer.action else { return }
        offer.action = action
        if offer.version >= 3 { wl_data_offer_send_action(offer.resource, action) }
        if source.version >= 3 { wl_data_source_send_action(source.resource, action) }
    }

    /// The target accepted a mime type (or none): the source is told (`target`).
    func accepted(_ offer: DataOfferObject, _ mime: String?) {
        guard offers.contains(where: { $0.offer === offer }) else { return }
        offer.acceptedMime = mime
        if let source { wl_data_source_send_target(source.resource, mime) }
    }

    /// The release: a drop when the target accepted a type and an action, else a cancel.
    private func drop(time: UInt64) {
        let offer = offers.first?.offer
        if target != nil, !hasSource {
            for o in offers { wl_data_device_send_drop(o.device.resource) }
            leave()
        } else if let source, let offer, offer.acceptedMime != nil, offer.version < 3 || offer.action != 0 {
            offer.dropped = true
            for o in offers { wl_data_device_send_drop(o.device.resource) }
            if source.version >= 3 { wl_data_source_send_dnd_drop_performed(source.resource) }
            leave(keeping: offer)
        } else {
            leave()
            source?.cancel()
        }
        end()
    }

    /// Ends the grab of whichever device drives the drag; the pointer is picked again.
    private func end() {
        guard !finished else { return }
        finished = true
        if server.services(seatIndex).drag === self { server.services(seatIndex).drag = nil }
        if byTouch { seat.endTouchGrab(self) } else { seat.endPointerGrab(self) }
    }

    /// A device or offer of the target went away (its client destroyed it or disconnected):
    /// nothing more is sent to it.
    func deviceDestroyed(_ device: DataDeviceObject) { offers.removeAll { $0.device === device } }
    func offerDestroyed(_ offer: DataOfferObject) {
        for i in offers.indices where offers[i].offer === offer { offers[i].offer = nil }
    }

    /// The source was destroyed mid-drag: the target is left and the drag ends.
    func sourceDestroyed() {
        leave()
        end()
    }

    // MARK: PointerGrab

    func enter(_ seat: Seat, hit: Hit?, time: UInt64) {
        if !byTouch { update(time: time, at: seat.cursor) } // the scene changed under the drag
    }
    func motion(_ seat: Seat, time: UInt64) { update(time: time, at: seat.cursor) }
    func button(_ seat: Seat, time: UInt64, button: UInt32, state: ButtonState) {
        if state == .released, seat.heldButtons == 0 { drop(time: time) }
    }
    func axis(_ seat: Seat, time: UInt64, source: AxisSource, vertical: AxisValue?, horizontal: AxisValue?) {}
    func frame(_ seat: Seat) {}

    // MARK: TouchGrab

    func down(_ seat: Seat, time: UInt64, slot: Int32, at point: Point, hit: Hit?) {}
    /// Whether `slot` is one of the origin's points, which the drag drives.
    private func drives(_ slot: Int32) -> Bool { originSlots.contains(slot) }
    func motion(_ seat: Seat, time: UInt64, slot: Int32, at point: Point) {
        guard drives(slot) else { return seat.defaultTouchMotion(time: time, slot: slot, at: point) }
        if self.slot == nil { self.slot = slot }
        if self.slot == slot { update(time: time, at: point) }
    }
    func up(_ seat: Seat, time: UInt64, slot: Int32) {
        // Another client's finger down before the drag began still gets its up.
        guard drives(slot) else { return seat.defaultTouchUp(time: time, slot: slot) }
        if self.slot == nil || self.slot == slot { drop(time: time) }
    }
    func touchFrame(_ seat: Seat) { seat.defaultTouchFrame() }

    /// Broken from outside (another grab, the compositor): the target is left and the
    /// source told the drag was cancelled.
    func cancel(_ seat: Seat) {
        finished = true
        if server.services(seatIndex).drag === self { server.services(seatIndex).drag = nil }
        leave()
        source?.cancel()
    }
}

extension WaylandServer {
    /// The first seat's drag icon (`dragIcon(on:)`).
    public var dragIcon: (surface: UnsafeMutablePointer<wl_resource>, position: Point)? { dragIcon(on: seat) }

    /// The drag icon a renderer draws for `seat`, and where: its surface's top-left corner
    /// at that seat's pointer (or the dragging touch point). nil when no drag with an icon
    /// is in progress on that seat. Each seat drags on its own, so a renderer draws one
    /// icon per seat that has one.
    /// The icon's pixels are the renderer's to keep (`bufferCommitted`; `SurfacePixels`).
    public func dragIcon(on seat: Seat) -> (surface: UnsafeMutablePointer<wl_resource>, position: Point)? {
        guard let drag = services(Int(seat.id.index)).drag, let icon = drag.icon else { return nil }
        return (icon.resource, drag.position)
    }

    /// `start_drag` with a serial already checked: the grab is installed on the device of
    /// seat `index` that pressed, the pointer focus is cleared (its client gets `leave`),
    /// and the surface under the drag is entered at once.
    func startDrag(origin: ClientState, source: DataSourceObject?, icon: Surface?, press: SerialEntry, seat index: Int)
    {
        let seat = router.seats[index]
        let services = services(index)
        let byTouch = press.action == .touchDown
        // A touch drag is driven by the origin's fingers: with none down (the serial's point
        // lifted, or a touch drag took it and it lifted since) there is nothing to drag with,
        // and any other finger would drive it and be swallowed: no drag, as for a stale serial.
        if byTouch, !seat.hasTouchPoints(of: origin.id) {
            source?.cancel()
            return
        }
        let drag = DragGrab(
            server: self, origin: origin, source: source, icon: icon, byTouch: byTouch, seat: index,
            at: byTouch ? press.position : seat.cursor)
        if let old = services.drag { if old.byTouch { seat.cancelTouchGrab() } else { seat.cancelPointerGrab() } }
        services.drag = drag
        if byTouch {
            seat.beginTouchGrab(drag)
            // Its fingers are the drag's now: the origin gets `wl_touch.cancel` (as a pointer
            // drag's origin gets `leave`), never an up it would wait for, and may reuse the ids.
            drag.originSlots = seat.takeTouchPoints(of: origin.id)
            sendDeliveries()
        } else {
            seat.beginPointerGrab(drag)
            seat.focusPointer(on: nil)
            seat.defaultPointerFrame()
            sendDeliveries() // the pointer's leave goes before the drag's first enter
        }
        drag.update(time: 0, at: drag.position)
    }
}
