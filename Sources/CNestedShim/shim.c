#define _GNU_SOURCE
#include "CNestedShim.h"
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

static const struct wl_interface *interface_named(const char *name) {
    static const struct { const char *name; const struct wl_interface *interface; } known[] = {
        { "wl_compositor", &wl_compositor_interface },
        { "wl_shm", &wl_shm_interface },
        { "wl_seat", &wl_seat_interface },
        { "xdg_wm_base", &xdg_wm_base_interface },
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].name, name) == 0) return known[i].interface;
    return NULL;
}

void *nested_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    const struct wl_interface *i = interface_named(interface);
    return i ? wl_registry_bind(registry, name, i, version) : NULL;
}

int nested_shm_file(size_t size) {
    int fd = memfd_create("inputrouter-nested", MFD_CLOEXEC);
    if (fd < 0) return -1;
    while (ftruncate(fd, (off_t)size) < 0) {
        if (errno == EINTR) continue;
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
