// The core's pad deliveries as zwp_tablet_pad_v2 events, on every pad object the surface's
// client holds for that pad (one per tablet seat) on the delivery's seat. Ring angles are degrees as libinput
// gives them; strip positions 0...1 are sent as the protocol's 0...65535. A ring or strip
// let go (libinput's -1) is a `stop`; every ring and strip event is closed by its `frame`.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

extension WaylandServer {
    func sendPad(_ delivery: Delivery) {
        switch delivery {
        case .padEnter(let sid, let node, let device, let serial):
            let index = Int(sid.index)
            guard let s = surface(for: node), s.owner.alive, let tablet = router.seats[index].padLayout(device)?.tablet
            else { return }
            let mine = s.owner.onSeat(index)
            for i in mine.tablet.pads.indices where mine.tablet.pads[i].device == device {
                let pad = mine.tablet.pads[i]
                // The enter names the pad's tablet on the same tablet seat; without it there is no enter.
                guard let t = mine.tablet.tablets.first(where: { $0.device == tablet && $0.seat == pad.seat }) else {
                    continue
                }
                zwp_tablet_pad_v2_send_enter(pad.resource, serial, t.resource, s.resource)
                mine.tablet.pads[i].entered = s.resource
            }
        case .padLeave(let sid, let node, let device, let serial):
            guard let s = surface(for: node), s.owner.alive else { return }
            let mine = s.owner.onSeat(Int(sid.index))
            for i in mine.tablet.pads.indices
            where mine.tablet.pads[i].device == device && mine.tablet.pads[i].entered == s.resource {
                zwp_tablet_pad_v2_send_leave(mine.tablet.pads[i].resource, serial, s.resource)
                mine.tablet.pads[i].entered = nil
            }
        case .padModeSwitch(let sid, let node, let device, let time, let group, let mode, let serial):
            forEachEnteredPad(sid, node, device) { pad in
                if Int(group) < pad.groups.count, let g = pad.groups[Int(group)] {
                    zwp_tablet_pad_group_v2_send_mode_switch(g, Self.ms(time), serial, mode)
                }
            }
        case .padButton(let sid, let node, let device, let time, let button, let state):
            let value =
                state == .pressed ? ZWP_TABLET_PAD_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_PAD_V2_BUTTON_STATE_RELEASED
            forEachEnteredPad(sid, node, device) {
                zwp_tablet_pad_v2_send_button($0.resource, Self.ms(time), button, value.rawValue)
            }
        case .padRing(let sid, let node, let device, let time, let ring, let position, let source):
            forEachEnteredPad(sid, node, device) { pad in
                guard Int(ring) < pad.rings.count, let r = pad.rings[Int(ring)] else { return }
                if source == .finger {
                    zwp_tablet_pad_ring_v2_send_source(r, ZWP_TABLET_PAD_RING_V2_SOURCE_FINGER.rawValue)
                }
                if position < 0 {
                    zwp_tablet_pad_ring_v2_send_stop(r)
                } else {
                    zwp_tablet_pad_ring_v2_send_angle(r, wl_fixed_from_double(position))
                }
                zwp_tablet_pad_ring_v2_send_frame(r, Self.ms(time))
            }
        case .padStrip(let sid, let node, let device, let time, let strip, let position, let source):
            forEachEnteredPad(sid, node, device) { pad in
                guard Int(strip) < pad.strips.count, let r = pad.strips[Int(strip)] else { return }
                if source == .finger {
                    zwp_tablet_pad_strip_v2_send_source(r, ZWP_TABLET_PAD_STRIP_V2_SOURCE_FINGER.rawValue)
                }
                if position < 0 {
                    zwp_tablet_pad_strip_v2_send_stop(r)
                } else {
                    zwp_tablet_pad_strip_v2_send_position(r, Self.unit16(position))
                }
                zwp_tablet_pad_strip_v2_send_frame(r, Self.ms(time))
            }
        default:
            break
        }
    }

    /// The pad objects of `device` on seat `sid` held by `node`'s client that were sent an
    /// enter for it.
    private func forEachEnteredPad(_ sid: SeatID, _ node: NodeID, _ device: DeviceID, _ body: (ClientPad) -> Void) {
        guard let s = surface(for: node), s.owner.alive else { return }
        for pad in s.owner.onSeat(Int(sid.index)).tablet.pads where pad.device == device && pad.entered == s.resource {
            body(pad)
        }
    }

    static func ms(_ time: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: time / 1000) }
}
