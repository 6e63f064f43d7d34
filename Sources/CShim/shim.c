#include "CShim.h"
#include <wayland-server-core.h>

void ir_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
    wl_resource_post_error(resource, code, "%s", message);
}
