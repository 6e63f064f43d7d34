// The few C entry points Swift cannot call or express itself.
#pragma once
#include <stdint.h>

struct wl_resource;

/// wl_resource_post_error is variadic; Swift cannot call it. Posts `message` verbatim.
void ir_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message);
