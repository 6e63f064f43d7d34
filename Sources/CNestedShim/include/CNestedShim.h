// The nested backend's C seam: what Swift cannot do with libwayland-client's headers.
#pragma once
#include <stddef.h>
#include <stdint.h>

struct wl_registry;

/// wl_registry_bind by interface name: the header's inline helper makes a variadic marshal
/// call, and Swift sees the `*_interface` tables as values it copies, not as addresses.
/// Returns NULL for an interface this backend does not use.
void *nested_bind(struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version);

/// An anonymous shared-memory file of `size` bytes for wl_shm (memfd_create, which Swift's
/// Glibc module does not declare). Close-on-exec. Returns -1 with errno set on failure.
int nested_shm_file(size_t size);
