// The few C entry points Swift cannot call or express itself.
#pragma once
#include <stdint.h>

struct wl_resource;
struct wl_interface;

/// wl_resource_post_error is variadic; Swift cannot call it. Posts `message` verbatim.
void ir_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message);

/// The address of a protocol interface table (`wl_seat`, `xdg_toplevel`...), or NULL.
/// Swift sees these C globals as values it may copy; libwayland needs their real address.
const struct wl_interface *ir_interface(const char *name);

/// Bytes written to a socket that its peer has not read yet (SIOCOUTQ), or -1.
int ir_socket_unsent_bytes(int fd);
