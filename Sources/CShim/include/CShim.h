// The few libwayland-server entry points Swift cannot call (variadics) or reach (ioctl).
#pragma once
#include <stdint.h>

struct wl_resource;

/// wl_resource_post_error is variadic; Swift cannot call it. Posts `message` verbatim.
void ir_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message);

/// Bytes written to a socket that its peer has not read yet (SIOCOUTQ), or -1.
int ir_socket_unsent_bytes(int fd);
