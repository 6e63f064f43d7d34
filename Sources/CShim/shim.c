#include "CShim.h"
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

void ir_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
    wl_resource_post_error(resource, code, "%s", message);
}

#include <sys/ioctl.h>
#include <linux/sockios.h>

int ir_socket_unsent_bytes(int fd) {
    int pending = 0;
    return ioctl(fd, SIOCOUTQ, &pending) == 0 ? pending : -1;
}
