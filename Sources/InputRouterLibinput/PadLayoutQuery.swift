// A tablet pad's layout as libinput describes it: its buttons, rings and strips, and its
// mode groups (libwacom's layout when libwacom knows the pad, else one group in one mode).
import CLibinput
import InputRouter

enum PadLayoutQuery {
    /// The layout of a device with the tablet-pad capability, bound to `tablet`.
    static func layout(of handle: OpaquePointer, tablet: DeviceID?) -> TabletPadLayout {
        let buttons = max(0, Int(libinput_device_tablet_pad_get_num_buttons(handle)))
        let rings = max(0, Int(libinput_device_tablet_pad_get_num_rings(handle)))
        let strips = max(0, Int(libinput_device_tablet_pad_get_num_strips(handle)))
        var groups: [TabletPadGroup] = []
        for g in 0..<max(0, libinput_device_tablet_pad_get_num_mode_groups(handle)) {
            guard let group = libinput_device_tablet_pad_get_mode_group(handle, UInt32(g)) else { continue }
            let inButtons = (0..<UInt32(buttons)).filter { libinput_tablet_pad_mode_group_has_button(group, $0) != 0 }
            groups.append(
                TabletPadGroup(
                    buttons: inButtons,
                    rings: (0..<UInt32(rings)).filter { libinput_tablet_pad_mode_group_has_ring(group, $0) != 0 },
                    strips: (0..<UInt32(strips)).filter { libinput_tablet_pad_mode_group_has_strip(group, $0) != 0 },
                    modes: libinput_tablet_pad_mode_group_get_num_modes(group),
                    mode: libinput_tablet_pad_mode_group_get_mode(group),
                    toggles: inButtons.filter { libinput_tablet_pad_mode_group_button_is_toggle(group, $0) != 0 }))
        }
        return TabletPadLayout(buttons: buttons, rings: rings, strips: strips, groups: groups, tablet: tablet)
    }
}
