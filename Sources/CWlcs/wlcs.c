// The symbol WLCS loads (wlcs_server_integration) and the vtables of the display server,
// pointer and touch objects it creates. Each entry forwards to the Swift harness
// (CWlcs.h); the objects are heap blocks with the vtable first and the Swift object after.
#include "CWlcs.h"

#include <stdlib.h>
#include <wayland-client-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

struct ir_server {
    WlcsDisplayServer base;
    void *harness;
    WlcsIntegrationDescriptor descriptor;
    WlcsExtensionDescriptor *extensions;
};

struct ir_pointer {
    WlcsPointer base;
    void *device;
};

struct ir_touch {
    WlcsTouch base;
    void *device;
};

static void *harness_of(WlcsDisplayServer const *server) { return ((struct ir_server const *)server)->harness; }

// Pointer.

static void pointer_move_absolute(WlcsPointer *p, wl_fixed_t x, wl_fixed_t y) {
    ir_wlcs_pointer_move(((struct ir_pointer *)p)->device, wl_fixed_to_double(x), wl_fixed_to_double(y), 0);
}

static void pointer_move_relative(WlcsPointer *p, wl_fixed_t dx, wl_fixed_t dy) {
    ir_wlcs_pointer_move(((struct ir_pointer *)p)->device, wl_fixed_to_double(dx), wl_fixed_to_double(dy), 1);
}

static void pointer_button_up(WlcsPointer *p, int button) { ir_wlcs_pointer_button(((struct ir_pointer *)p)->device, button, 0); }
static void pointer_button_down(WlcsPointer *p, int button) { ir_wlcs_pointer_button(((struct ir_pointer *)p)->device, button, 1); }

static void pointer_destroy(WlcsPointer *p) {
    ir_wlcs_device_destroy(((struct ir_pointer *)p)->device);
    free(p);
}

static WlcsPointer *server_create_pointer(WlcsDisplayServer *server) {
    struct ir_pointer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->base.version = WLCS_POINTER_VERSION;
    p->base.move_absolute = pointer_move_absolute;
    p->base.move_relative = pointer_move_relative;
    p->base.button_up = pointer_button_up;
    p->base.button_down = pointer_button_down;
    p->base.destroy = pointer_destroy;
    p->device = ir_wlcs_pointer_create(harness_of(server));
    return &p->base;
}

// Touch. The header says wl_fixed_t, but WLCS's touch helper passes whole pixels through
// those arguments unconverted (Mir's integration reads them as int too).

static void touch_down(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) {
    ir_wlcs_touch(((struct ir_touch *)t)->device, 0, (double)x, (double)y);
}

static void touch_move(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) {
    ir_wlcs_touch(((struct ir_touch *)t)->device, 1, (double)x, (double)y);
}

static void touch_up(WlcsTouch *t) { ir_wlcs_touch(((struct ir_touch *)t)->device, 2, 0, 0); }

static void touch_destroy(WlcsTouch *t) {
    ir_wlcs_device_destroy(((struct ir_touch *)t)->device);
    free(t);
}

static WlcsTouch *server_create_touch(WlcsDisplayServer *server) {
    struct ir_touch *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->base.version = WLCS_TOUCH_VERSION;
    t->base.touch_down = touch_down;
    t->base.touch_move = touch_move;
    t->base.touch_up = touch_up;
    t->base.destroy = touch_destroy;
    t->device = ir_wlcs_touch_create(harness_of(server));
    return &t->base;
}

// The display server.

static void server_start_on_this_thread(WlcsDisplayServer *server, struct wl_event_loop *loop) {
    ir_wlcs_run(harness_of(server), loop);
}

static void server_stop(WlcsDisplayServer *server) { ir_wlcs_stop(harness_of(server)); }

static int server_create_client_socket(WlcsDisplayServer *server) { return ir_wlcs_client_socket(harness_of(server)); }

// WLCS hands over its own client-side objects: the client is known to the server by the
// socket it was given (the fd behind the wl_display), the surface by its object id.
static void server_position_window_absolute(WlcsDisplayServer *server, struct wl_display *client,
                                            struct wl_surface *surface, int x, int y) {
    ir_wlcs_position_window(harness_of(server), wl_display_get_fd(client),
                            wl_proxy_get_id((struct wl_proxy *)surface), x, y);
}

static WlcsIntegrationDescriptor const *server_get_descriptor(WlcsDisplayServer const *server) {
    return &((struct ir_server const *)server)->descriptor;
}

static WlcsDisplayServer *create_server(int argc, char const **argv) {
    struct ir_server *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->harness = ir_wlcs_create(argc, argv);
    size_t count = ir_wlcs_global_count(s->harness);
    s->extensions = calloc(count ? count : 1, sizeof *s->extensions);
    for (size_t i = 0; i < count; i++) {
        s->extensions[i].name = ir_wlcs_global_name(s->harness, i);
        s->extensions[i].version = ir_wlcs_global_version(s->harness, i);
    }
    s->descriptor.version = 1;
    s->descriptor.num_extensions = count;
    s->descriptor.supported_extensions = s->extensions;
    // Version 3 without `start`: WLCS runs start_on_this_thread on a thread of its own and
    // proxies every other call onto that thread, so the server is only ever touched there.
    s->base.version = 3;
    s->base.start = NULL;
    s->base.stop = server_stop;
    s->base.create_client_socket = server_create_client_socket;
    s->base.position_window_absolute = server_position_window_absolute;
    s->base.create_pointer = server_create_pointer;
    s->base.create_touch = server_create_touch;
    s->base.get_descriptor = server_get_descriptor;
    s->base.start_on_this_thread = server_start_on_this_thread;
    return &s->base;
}

static void destroy_server(WlcsDisplayServer *server) {
    struct ir_server *s = (struct ir_server *)server;
    ir_wlcs_destroy(s->harness);
    free(s->extensions);
    free(s);
}

__attribute__((visibility("default"))) WlcsServerIntegration const wlcs_server_integration = {
    .version = 1,
    .create_server = create_server,
    .destroy_server = destroy_server,
};
