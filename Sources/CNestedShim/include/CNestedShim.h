// The nested backend's C seam: what Swift cannot do with libwayland-client's headers.
#pragma once
#include <stddef.h>
#include <stdint.h>

struct wl_registry;
struct wl_interface;

/// wl_registry_bind: the header's inline helper makes a variadic marshal call. `interface`
/// is a table's address (CWaylandInterfaces: Swift sees the tables as values it copies).
void *nested_bind(struct wl_registry *registry, uint32_t name, const struct wl_interface *interface,
                  uint32_t version);

/// An anonymous shared-memory file of `size` bytes for wl_shm (memfd_create, which Swift's
/// Glibc module does not declare). Close-on-exec. Returns -1 with errno set on failure.
int nested_shm_file(size_t size);
