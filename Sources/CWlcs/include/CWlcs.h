// The WLCS integration's C side: the vtables WLCS calls (wlcs/display_server.h,
// pointer.h, touch.h) forward to these functions, which the Swift module
// InputRouterWLCS defines (@_cdecl). Arguments are plain C values: the client-side
// wl_display and wl_surface are turned into the fd and object id the server knows.
#pragma once
#include <stddef.h>
#include <stdint.h>

struct wl_event_loop;

/// A new harness for one test (no server yet: it is made on the server's thread).
void *ir_wlcs_create(int argc, char const **argv);
void ir_wlcs_destroy(void *harness);
/// Runs the server on the calling thread until ir_wlcs_stop, dispatching WLCS's own loop.
void ir_wlcs_run(void *harness, struct wl_event_loop *wlcs_loop);
void ir_wlcs_stop(void *harness);
int ir_wlcs_client_socket(void *harness);
void ir_wlcs_position_window(void *harness, int client_fd, uint32_t surface_id, int x, int y);
/// The globals to describe: count, then each one's interface name and version.
size_t ir_wlcs_global_count(void *harness);
char const *ir_wlcs_global_name(void *harness, size_t index);
uint32_t ir_wlcs_global_version(void *harness, size_t index);

void *ir_wlcs_pointer_create(void *harness);
void ir_wlcs_pointer_move(void *pointer, double x, double y, int relative);
void ir_wlcs_pointer_button(void *pointer, int button, int pressed);
void *ir_wlcs_touch_create(void *harness);
/// phase: 0 down, 1 motion, 2 up.
void ir_wlcs_touch(void *touch, int phase, double x, double y);
void ir_wlcs_device_destroy(void *device);
