#include "CShim.h"
#include <string.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include "xdg-shell-server-protocol.h"

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
    IR_INTERFACE(xdg_popup),
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
