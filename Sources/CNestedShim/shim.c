#define _GNU_SOURCE
#include "CNestedShim.h"
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

void *nested_bind(struct wl_registry *registry, uint32_t name, const struct wl_interface *interface,
                  uint32_t version) {
    return wl_registry_bind(registry, name, interface, version);
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
