#include "CShim.h"
#include <string.h>
#include <libinput.h>
#include <libseat.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include "xdg-shell-server-protocol.h"
#include "xdg-decoration-unstable-v1-server-protocol.h"
#include "relative-pointer-unstable-v1-server-protocol.h"
#include "pointer-constraints-unstable-v1-server-protocol.h"
/* Input protocols: pointer gestures, keyboard shortcuts inhibit. */
#include "pointer-gestures-unstable-v1-server-protocol.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-server-protocol.h"
/* Text input, activation, idle. */
#include "text-input-unstable-v3-server-protocol.h"
#include "xdg-activation-v1-server-protocol.h"
#include "ext-idle-notify-v1-server-protocol.h"
#include "idle-inhibit-unstable-v1-server-protocol.h"
#include "tablet-unstable-v2-server-protocol.h"
/* Primary selection. */
#include "primary-selection-unstable-v1-server-protocol.h"
/* Panels, launchers and lock screens. */
#include "wlr-layer-shell-unstable-v1-server-protocol.h"
#include "ext-session-lock-v1-server-protocol.h"
#include "xdg-output-unstable-v1-server-protocol.h"
/* Input methods. */
#include "input-method-unstable-v2-server-protocol.h"
/* Virtual keyboards. */
#include "virtual-keyboard-unstable-v1-server-protocol.h"
/* Cursor shapes. */
#include "cursor-shape-v1-server-protocol.h"
/* Virtual input devices. */
#include "wlr-virtual-pointer-unstable-v1-server-protocol.h"

void ir_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
    wl_resource_post_error(resource, code, "%s", message);
}

#define IR_INTERFACE(n) { #n, &n##_interface }
static const struct { const char *name; const struct wl_interface *interface; } ir_interfaces[] = {
    IR_INTERFACE(wl_display), IR_INTERFACE(wl_callback), IR_INTERFACE(wl_compositor),
    IR_INTERFACE(wl_surface), IR_INTERFACE(wl_region), IR_INTERFACE(wl_subcompositor),
    IR_INTERFACE(wl_subsurface), IR_INTERFACE(wl_output), IR_INTERFACE(wl_seat),
    IR_INTERFACE(wl_pointer), IR_INTERFACE(wl_keyboard), IR_INTERFACE(wl_touch),
    IR_INTERFACE(wl_buffer), IR_INTERFACE(wl_data_device_manager), IR_INTERFACE(wl_data_device),
    IR_INTERFACE(wl_data_source), IR_INTERFACE(wl_data_offer), IR_INTERFACE(xdg_wm_base),
    IR_INTERFACE(xdg_positioner), IR_INTERFACE(xdg_surface), IR_INTERFACE(xdg_toplevel),
    IR_INTERFACE(xdg_popup), IR_INTERFACE(wl_shm_pool),
    IR_INTERFACE(zxdg_decoration_manager_v1), IR_INTERFACE(zxdg_toplevel_decoration_v1),
    // Relative pointer and pointer constraints.
    IR_INTERFACE(zwp_relative_pointer_manager_v1), IR_INTERFACE(zwp_relative_pointer_v1),
    IR_INTERFACE(zwp_pointer_constraints_v1), IR_INTERFACE(zwp_locked_pointer_v1),
    IR_INTERFACE(zwp_confined_pointer_v1),
    /* Input protocols: pointer gestures, keyboard shortcuts inhibit. */
    IR_INTERFACE(zwp_pointer_gestures_v1), IR_INTERFACE(zwp_pointer_gesture_swipe_v1),
    IR_INTERFACE(zwp_pointer_gesture_pinch_v1), IR_INTERFACE(zwp_pointer_gesture_hold_v1),
    IR_INTERFACE(zwp_keyboard_shortcuts_inhibit_manager_v1), IR_INTERFACE(zwp_keyboard_shortcuts_inhibitor_v1),
    /* Text input, activation, idle. */
    IR_INTERFACE(zwp_text_input_manager_v3), IR_INTERFACE(zwp_text_input_v3),
    IR_INTERFACE(xdg_activation_v1), IR_INTERFACE(xdg_activation_token_v1),
    IR_INTERFACE(ext_idle_notifier_v1), IR_INTERFACE(ext_idle_notification_v1),
    IR_INTERFACE(zwp_idle_inhibit_manager_v1), IR_INTERFACE(zwp_idle_inhibitor_v1),
    /* Tablets (tablet-unstable-v2). */
    IR_INTERFACE(zwp_tablet_manager_v2), IR_INTERFACE(zwp_tablet_seat_v2), IR_INTERFACE(zwp_tablet_v2),
    IR_INTERFACE(zwp_tablet_tool_v2), IR_INTERFACE(zwp_tablet_pad_v2), IR_INTERFACE(zwp_tablet_pad_group_v2),
    IR_INTERFACE(zwp_tablet_pad_ring_v2), IR_INTERFACE(zwp_tablet_pad_strip_v2),
    /* Primary selection. */
    IR_INTERFACE(zwp_primary_selection_device_manager_v1), IR_INTERFACE(zwp_primary_selection_device_v1),
    IR_INTERFACE(zwp_primary_selection_source_v1), IR_INTERFACE(zwp_primary_selection_offer_v1),
    /* Panels, launchers and lock screens. */
    IR_INTERFACE(zwlr_layer_shell_v1), IR_INTERFACE(zwlr_layer_surface_v1),
    IR_INTERFACE(ext_session_lock_manager_v1), IR_INTERFACE(ext_session_lock_v1),
    IR_INTERFACE(ext_session_lock_surface_v1),
    IR_INTERFACE(zxdg_output_manager_v1), IR_INTERFACE(zxdg_output_v1),
    /* Input methods. */
    IR_INTERFACE(zwp_input_method_manager_v2), IR_INTERFACE(zwp_input_method_v2),
    IR_INTERFACE(zwp_input_popup_surface_v2), IR_INTERFACE(zwp_input_method_keyboard_grab_v2),
    /* Virtual keyboards. */
    IR_INTERFACE(zwp_virtual_keyboard_manager_v1), IR_INTERFACE(zwp_virtual_keyboard_v1),
    /* Cursor shapes. */
    IR_INTERFACE(wp_cursor_shape_manager_v1), IR_INTERFACE(wp_cursor_shape_device_v1),
    /* Virtual input devices. */
    IR_INTERFACE(zwlr_virtual_pointer_manager_v1), IR_INTERFACE(zwlr_virtual_pointer_v1),
};

const struct wl_interface *ir_interface(const char *name) {
    for (size_t i = 0; i < sizeof ir_interfaces / sizeof ir_interfaces[0]; i++)
        if (strcmp(ir_interfaces[i].name, name) == 0) return ir_interfaces[i].interface;
    return NULL;
}

#include <sys/ioctl.h>
#include <linux/sockios.h>

int ir_socket_unsent_bytes(int fd) {
    int pending = 0;
    return ioctl(fd, SIOCOUTQ, &pending) == 0 ? pending : -1;
}

/* Formats `format` with `args` into a heap string when it does not fit the caller's
 * buffer. Returns the buffer to use; the caller frees it when it is not `stack`. */
static char *format_message(char *stack, size_t size, const char *format, va_list args) {
    va_list again;
    va_copy(again, args);
    int needed = vsnprintf(stack, size, format, args);
    if (needed < 0) {
        va_end(again);
        snprintf(stack, size, "(unformattable log message: %s)", format);
        return stack;
    }
    if ((size_t)needed < size) {
        va_end(again);
        return stack;
    }
    char *heap = malloc((size_t)needed + 1);
    if (heap == NULL) {
        va_end(again);
        return stack; /* truncated is better than nothing */
    }
    vsnprintf(heap, (size_t)needed + 1, format, again);
    va_end(again);
    return heap;
}

static _Atomic(ir_libinput_log_sink) libinput_sink;

static void libinput_handler(struct libinput *libinput, enum libinput_log_priority priority,
                             const char *format, va_list args) {
    ir_libinput_log_sink sink = atomic_load(&libinput_sink);
    if (sink == NULL)
        return;
    char stack[512];
    char *message = format_message(stack, sizeof stack, format, args);
    sink(libinput, (int)priority, message);
    if (message != stack)
        free(message);
}

void ir_libinput_set_log_sink(struct libinput *libinput, ir_libinput_log_sink sink) {
    atomic_store(&libinput_sink, sink);
    libinput_log_set_handler(libinput, libinput_handler);
}

static _Atomic(ir_libseat_log_sink) libseat_sink;

static void libseat_handler(enum libseat_log_level level, const char *format, va_list args) {
    ir_libseat_log_sink sink = atomic_load(&libseat_sink);
    if (sink == NULL)
        return;
    char stack[512];
    char *message = format_message(stack, sizeof stack, format, args);
    sink((int)level, message);
    if (message != stack)
        free(message);
}

void ir_libseat_set_log_sink(ir_libseat_log_sink sink, int level) {
    atomic_store(&libseat_sink, sink);
    libseat_set_log_handler(sink ? libseat_handler : NULL);
    libseat_set_log_level((enum libseat_log_level)level);
}
