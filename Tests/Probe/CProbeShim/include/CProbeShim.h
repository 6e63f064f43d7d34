// The test client's one C seam: the real addresses of client-side interface tables
// (Swift sees C globals as values it may copy).
#pragma once
struct wl_interface;
const struct wl_interface *probe_interface(const char *name);

struct wl_registry;
/// wl_registry_bind by interface name (the inline helper's marshal call is variadic).
void *probe_bind(struct wl_registry *registry, unsigned name, const char *interface, unsigned version);
