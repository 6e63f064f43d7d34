#include "CProbeShim.h"
#include <string.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
/* Input protocols: pointer gestures, keyboard shortcuts inhibit. */
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
/* Text input, activation, idle. */
#include "text-input-unstable-v3-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "ext-idle-notify-v1-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "tablet-unstable-v2-client-protocol.h"
/* Selections: wl_data_device_manager, primary selection (DataDevice.swift). */
#include "primary-selection-unstable-v1-client-protocol.h"
/* Outputs' logical place and size (XdgOutput.swift). */
#include "xdg-output-unstable-v1-client-protocol.h"
/* Virtual keyboards (VirtualKeyboard.swift). */
#include "virtual-keyboard-unstable-v1-client-protocol.h"
/* Cursors by name (CursorShape.swift). */
#include "cursor-shape-v1-client-protocol.h"
/* Virtual input devices (VirtualPointer.swift). */
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

#define PROBE_INTERFACE(n) { #n, &n##_interface }
static const struct { const char *name; const struct wl_interface *interface; } probe_interfaces[] = {
    PROBE_INTERFACE(wl_compositor), PROBE_INTERFACE(wl_subcompositor), PROBE_INTERFACE(wl_shm),
    PROBE_INTERFACE(wl_seat), PROBE_INTERFACE(wl_output), PROBE_INTERFACE(xdg_wm_base),
    PROBE_INTERFACE(zxdg_decoration_manager_v1),
    PROBE_INTERFACE(zwp_relative_pointer_manager_v1), PROBE_INTERFACE(zwp_pointer_constraints_v1),
    /* Input protocols: pointer gestures, keyboard shortcuts inhibit. */
    PROBE_INTERFACE(zwp_pointer_gestures_v1), PROBE_INTERFACE(zwp_keyboard_shortcuts_inhibit_manager_v1),
    /* Text input, activation, idle. */
    PROBE_INTERFACE(zwp_text_input_manager_v3), PROBE_INTERFACE(xdg_activation_v1),
    PROBE_INTERFACE(ext_idle_notifier_v1), PROBE_INTERFACE(zwp_idle_inhibit_manager_v1),
    PROBE_INTERFACE(zwp_tablet_manager_v2),
    /* Selections (DataDevice.swift). */
    PROBE_INTERFACE(wl_data_device_manager), PROBE_INTERFACE(zwp_primary_selection_device_manager_v1),
    /* Outputs' logical place and size (XdgOutput.swift). */
    PROBE_INTERFACE(zxdg_output_manager_v1),
    /* Virtual keyboards (VirtualKeyboard.swift). */
    PROBE_INTERFACE(zwp_virtual_keyboard_manager_v1),
    /* Cursors by name (CursorShape.swift). */
    PROBE_INTERFACE(wp_cursor_shape_manager_v1),
    /* Virtual input devices (VirtualPointer.swift). */
    PROBE_INTERFACE(zwlr_virtual_pointer_manager_v1),
};

const struct wl_interface *probe_interface(const char *name) {
    for (size_t i = 0; i < sizeof probe_interfaces / sizeof probe_interfaces[0]; i++)
        if (strcmp(probe_interfaces[i].name, name) == 0) return probe_interfaces[i].interface;
    return NULL;
}

void *probe_bind(struct wl_registry *registry, unsigned name, const char *interface, unsigned version) {
    const struct wl_interface *i = probe_interface(interface);
    return i ? wl_registry_bind(registry, name, i, version) : NULL;
}
