// The core's tablet tool deliveries as zwp_tablet_tool_v2 events, on every tool object the
// surface's client holds for that tool (one per tablet seat) on the delivery's seat, each
// group closed by `frame`. The seat's records are found by its index (no hashing).
// Axes are sent as the protocol scales them: pressure and distance 0...65535, slider
// -65535...65535, tilt, rotation and wheel in degrees (wheel clicks: 15° each, libinput's
// usual step, as the core carries degrees only).
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

extension WaylandServer {
    func sendTablet(_ delivery: Delivery, from queue: DeliveryQueue) {
        switch delivery {
        case .tabletProximityIn(let sid, let node, let device, let tool, let serial):
            let index = Int(sid.index)
            let services = services(index)
            // A tool before its tablet's device event.
            if !services.tablets.tablets.contains(device) { tabletDeviceAdded(device, seat: index) }
            let i = tabletToolIndex(tool, device: device, seat: index)
            if let k = services.tablets.current.firstIndex(where: { $0.device == device }) {
                services.tablets.current[k].tool = i
            } else {
                services.tablets.current.append((device, i))
            }
            guard let s = surface(for: node), s.owner.alive else { return }
            let mine = s.owner.onSeat(index)
            for t in mine.tablet.tools where t.index == i {
                guard let tablet = mine.tablet.tablets.first(where: { $0.device == device && $0.seat == t.seat }) else {
                    continue
                }
                zwp_tablet_tool_v2_send_proximity_in(t.resource, serial, tablet.resource, s.resource)
                pendFrame(t.resource, mine)
            }
        case .tabletProximityOut(let sid, let node, let device):
            forEachTool(sid, node, device) { r in zwp_tablet_tool_v2_send_proximity_out(r) }
        case .tabletDown(let sid, let node, let device, _, let serial):
            forEachTool(sid, node, device) { r in zwp_tablet_tool_v2_send_down(r, serial) }
        case .tabletUp(let sid, let node, let device, _):
            forEachTool(sid, node, device) { r in zwp_tablet_tool_v2_send_up(r) }
        case .tabletMotion(let sid, let node, let device, _, let p, let axesIndex):
            let axes = queue.axes(axesIndex)
            forEachTool(sid, node, device) { r in
                // The axes before the motion: GTK makes its motion event at `motion`, with
                // the axes it has then (a later pressure went to the next event), as sway
                // sends them.
                if let v = axes.pressure { zwp_tablet_tool_v2_send_pressure(r, Self.unit16(v)) }
                if let v = axes.distance { zwp_tablet_tool_v2_send_distance(r, Self.unit16(v)) }
                if axes.tiltX != nil || axes.tiltY != nil {
                    zwp_tablet_tool_v2_send_tilt(
                        r, wl_fixed_from_double(axes.tiltX ?? 0), wl_fixed_from_double(axes.tiltY ?? 0))
                }
                if let v = axes.rotation { zwp_tablet_tool_v2_send_rotation(r, wl_fixed_from_double(v)) }
                if let v = axes.slider {
                    zwp_tablet_tool_v2_send_slider(r, Int32((min(max(v, -1), 1) * 65535).rounded()))
                }
                if let v = axes.wheel, v != 0 {
                    zwp_tablet_tool_v2_send_wheel(r, wl_fixed_from_double(v), Int32((v / 15).rounded()))
                }
                zwp_tablet_tool_v2_send_motion(r, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
            }
        case .tabletButton(let sid, let node, let device, _, let button, let state, let serial):
            let pressed =
                state == .pressed ? ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_TOOL_V2_BUTTON_STATE_RELEASED
            forEachTool(sid, node, device) { r in zwp_tablet_tool_v2_send_button(r, serial, button, pressed.rawValue) }
        case .tabletFrame(let sid, let client, let time):
            guard let c = self.client(client), c.alive else { return }
            let mine = c.onSeat(Int(sid.index))
            let ms = UInt32(truncatingIfNeeded: time / 1000)
            for r in mine.tablet.framePending { zwp_tablet_tool_v2_send_frame(r, ms) }
            mine.tablet.framePending.removeAll(keepingCapacity: true)
        default:
            sendPad(delivery) // Pad+Delivery.swift
        }
    }

    /// The tool objects of the tool now in proximity of `device` on seat `sid`, held by
    /// `node`'s client.
    private func forEachTool(_ sid: SeatID, _ node: NodeID, _ device: DeviceID, _ body: (ResourcePointer) -> Void) {
        let index = Int(sid.index)
        guard let i = services(index).tablets.currentTool(device), let s = surface(for: node), s.owner.alive else {
            return
        }
        let mine = s.owner.onSeat(index)
        for t in mine.tablet.tools where t.index == i {
            body(t.resource)
            pendFrame(t.resource, mine)
        }
    }

    private func pendFrame(_ r: ResourcePointer, _ mine: ClientSeatState) {
        if !mine.tablet.framePending.contains(r) { mine.tablet.framePending.append(r) }
    }

    static func unit16(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 65535).rounded()) }
}
