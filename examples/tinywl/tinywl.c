// tinywl: a small wlroots 0.15 compositor that routes input the way wlroots' own tinywl
// does: wlr_scene_node_at finds the surface under the cursor, and wlr_seat is told to
// enter, move, press and release there. It is the baseline tinywl-ir (the same compositor
// routing through InputRouter's C API) and ir-compositor are measured against
// (benchmarks/tinywl-bench.py), and the scene both test against real clients.
//
// Read it top to bottom, in the order an input event travels:
//   1. the server's state and the scene: a desktop background at the bottom, then one tree
//      per toplevel window: a server-side title bar above the client's xdg surface tree;
//   2. windows: xdg-shell toplevels, placed in a cascade, raised and focused on click,
//      moved by dragging their title bar (or when the client asks);
//   3. input: the cursor, the keyboard and touch, each turned into wlr_seat calls;
//   4. the replay: input events read from a `libinput record` file (by libinputrouter's
//      reader, the one tinywl-ir uses) and fed through the headless backend's own
//      devices, one `replay_event` call each;
//   5. main: the headless backend, clients started one at a time, the replay, the exit.
//
// It runs headless (WLR_BACKENDS=headless is the only backend it creates) with the pixman
// renderer, so it needs neither a GPU nor a seat. Usage:
//   tinywl [-s WxH] [-r RECORDING] [-c COMMAND]... [-e MS]
// -c starts COMMAND with sh -c once the previous one mapped a window; the replay starts
// when every command mapped one, and plays as fast as the clients read.
// The compositor exits -e milliseconds (default 1000) after the replay's last event.
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <input_router.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>


// MARK: 1. State and scene

#define TITLE_HEIGHT 24
#define MAX_TOUCH_POINTS 16

enum cursor_mode { CURSOR_PASSTHROUGH, CURSOR_MOVE };

struct server {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_output_layout *output_layout;
	struct wlr_scene *scene;
	// The desktop background: a rect at the bottom of the scene, which takes clicks and
	// does nothing with them (a click there changes no focus).
	struct wlr_scene_rect *desktop;
	struct wl_listener new_output;

	struct wlr_xdg_shell *xdg_shell;
	struct wl_listener new_xdg_surface;
	struct wl_list windows; // window.link, topmost first
	int windows_ever_mapped;

	struct wlr_cursor *cursor;
	struct wl_listener cursor_motion, cursor_button, cursor_frame;
	enum cursor_mode cursor_mode;
	struct window *grabbed;
	double grab_x, grab_y; // the cursor's offset from the grabbed window's tree

	struct wlr_seat *seat;
	struct wl_listener new_input, request_cursor;
	struct wl_list keyboards;

	// Which surface each touch point went down on, and where that surface's origin is in
	// layout coordinates: wlr_seat_touch_notify_motion wants surface-local coordinates.
	struct touch_point {
		bool down;
		int32_t id;
		double origin_x, origin_y;
	} touch[MAX_TOUCH_POINTS];

	// The headless backend's devices that the replay feeds.
	struct wlr_input_device *pointer_device, *keyboard_device, *touch_device;
	struct ir_event *events;
	size_t nevents, next;
	bool replay_started;
	struct wl_event_source *replay_timer;
	int exit_delay_ms;
	bool quitting;
	char **commands;
	int ncommands, started;
	pid_t pids[32]; // the clients started, stopped at exit (wev 1.0 outlives its display)
};

struct window {
	struct wl_list link;
	struct server *server;
	struct wlr_xdg_surface *xdg_surface;
	// tree holds the title bar (at 0, 0) and the client's surfaces (at 0, TITLE_HEIGHT).
	struct wlr_scene_tree *tree;
	struct wlr_scene_rect *title_bar;
	struct wlr_scene_node *surfaces;
	struct wl_listener map, unmap, destroy, commit, request_move;
};

static const float desktop_color[4] = {0.2f, 0.25f, 0.3f, 1};
static const float title_color[4] = {0.23f, 0.43f, 0.65f, 1};

// What is under a layout point: a client surface (with surface-local coordinates), a
// title bar, the desktop, or nothing. The scene's nodes carry what they belong to in
// `data`: a window tree its window, a title bar its window too.
enum hit_kind { HIT_NONE, HIT_SURFACE, HIT_TITLE_BAR, HIT_DESKTOP };
struct hit {
	enum hit_kind kind;
	struct window *window;
	struct wlr_surface *surface;
	double sx, sy;
};

static struct hit hit_test(struct server *server, double lx, double ly) {
	struct hit hit = {0};
	struct wlr_scene_node *node = wlr_scene_node_at(&server->scene->node, lx, ly, &hit.sx, &hit.sy);
	if (!node) return hit;
	if (node == &server->desktop->node) {
		hit.kind = HIT_DESKTOP;
		return hit;
	}
	if (node->type == WLR_SCENE_NODE_RECT) {
		hit.kind = HIT_TITLE_BAR;
		hit.window = node->data;
		return hit;
	}
	if (node->type != WLR_SCENE_NODE_SURFACE) return hit;
	hit.kind = HIT_SURFACE;
	hit.surface = wlr_scene_surface_from_node(node)->surface;
	// Up the tree to the window's own tree, the one node of it whose data is set.
	while (node && !node->data) node = node->parent;
	hit.window = node ? node->data : NULL;
	return hit;
}

// MARK: 2. Windows

// Raises `window` to the top and gives it the keyboard; the one it takes it from is
// deactivated, so its client draws it as inactive.
static void focus_window(struct window *window, struct wlr_surface *surface) {
	struct server *server = window->server;
	struct wlr_seat *seat = server->seat;
	struct wlr_surface *previous = seat->keyboard_state.focused_surface;
	if (previous == surface) return;
	if (previous && wlr_surface_is_xdg_surface(previous)) {
		struct wlr_xdg_surface *old = wlr_xdg_surface_from_wlr_surface(previous);
		if (old->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL) wlr_xdg_toplevel_set_activated(old, false);
	}
	wlr_scene_node_raise_to_top(&window->tree->node);
	wl_list_remove(&window->link);
	wl_list_insert(&server->windows, &window->link);
	wlr_xdg_toplevel_set_activated(window->xdg_surface, true);
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat);
	if (keyboard) {
		wlr_seat_keyboard_notify_enter(seat, window->xdg_surface->surface, keyboard->keycodes,
			keyboard->num_keycodes, &keyboard->modifiers);
	}
}

static void begin_move(struct window *window) {
	struct server *server = window->server;
	server->cursor_mode = CURSOR_MOVE;
	server->grabbed = window;
	server->grab_x = server->cursor->x - window->tree->node.state.x;
	server->grab_y = server->cursor->y - window->tree->node.state.y;
	// While moving, no client has the pointer (the title bar is the compositor's).
	wlr_seat_pointer_notify_clear_focus(server->seat);
}

static void start_next_command(struct server *server);

static void window_map(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, map);
	struct server *server = window->server;
	// The cascade ir-compositor places windows in: content at (40, 40), then 32 pixels
	// down and right for each window mapped since, wrapping every ten.
	int step = (server->windows_ever_mapped++ % 10) * 32;
	wlr_scene_node_set_position(&window->tree->node, 40 + step, 40 + step - TITLE_HEIGHT);
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(window->xdg_surface, &geometry);
	wlr_scene_rect_set_size(window->title_bar, geometry.width, TITLE_HEIGHT);
	wlr_scene_node_set_enabled(&window->tree->node, true);
	wl_list_insert(&server->windows, &window->link);
	focus_window(window, window->xdg_surface->surface);
	start_next_command(server);
}

static void window_unmap(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, unmap);
	if (window->server->grabbed == window) {
		window->server->cursor_mode = CURSOR_PASSTHROUGH;
		window->server->grabbed = NULL;
	}
	wlr_scene_node_set_enabled(&window->tree->node, false);
	wl_list_remove(&window->link);
	wl_list_init(&window->link);
}

// The title bar follows the window's width.
static void window_commit(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, commit);
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(window->xdg_surface, &geometry);
	if (geometry.width != window->title_bar->width) wlr_scene_rect_set_size(window->title_bar, geometry.width, TITLE_HEIGHT);
}

static void window_destroy(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, destroy);
	wl_list_remove(&window->map.link);
	wl_list_remove(&window->unmap.link);
	wl_list_remove(&window->destroy.link);
	wl_list_remove(&window->commit.link);
	wl_list_remove(&window->request_move.link);
	wl_list_remove(&window->link);
	wlr_scene_node_destroy(&window->tree->node);
	free(window);
}

// A client asks to be moved (its own title bar): granted as tinywl does, without checking
// the serial.
static void window_request_move(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, request_move);
	begin_move(window);
}

static void new_xdg_surface(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_xdg_surface);
	struct wlr_xdg_surface *xdg_surface = data;
	// A popup goes into its parent's scene tree, which wlr_scene_xdg_surface_create gave
	// the parent's xdg surface as `data`.
	if (xdg_surface->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(xdg_surface->popup->parent);
		struct wlr_scene_node *parent_node = parent->data;
		xdg_surface->data = wlr_scene_xdg_surface_create(parent_node, xdg_surface);
		return;
	}
	assert(xdg_surface->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL);
	struct window *window = calloc(1, sizeof(*window));
	window->server = server;
	window->xdg_surface = xdg_surface;
	window->tree = wlr_scene_tree_create(&server->scene->node);
	window->tree->node.data = window;
	wlr_scene_node_set_enabled(&window->tree->node, false);
	window->title_bar = wlr_scene_rect_create(&window->tree->node, 0, TITLE_HEIGHT, title_color);
	window->title_bar->node.data = window;
	window->surfaces = wlr_scene_xdg_surface_create(&window->tree->node, xdg_surface);
	wlr_scene_node_set_position(window->surfaces, 0, TITLE_HEIGHT);
	xdg_surface->data = window->surfaces;
	wl_list_init(&window->link);
	window->map.notify = window_map;
	wl_signal_add(&xdg_surface->events.map, &window->map);
	window->unmap.notify = window_unmap;
	wl_signal_add(&xdg_surface->events.unmap, &window->unmap);
	window->destroy.notify = window_destroy;
	wl_signal_add(&xdg_surface->events.destroy, &window->destroy);
	window->commit.notify = window_commit;
	wl_signal_add(&xdg_surface->surface->events.commit, &window->commit);
	window->request_move.notify = window_request_move;
	wl_signal_add(&xdg_surface->toplevel->events.request_move, &window->request_move);
}

// MARK: 3. Input

// The pointer moved (the cursor is already there): a move follows it; otherwise the
// surface under it gets enter (when it changes) and motion, as tinywl does.
static void process_cursor_motion(struct server *server, uint32_t time) {
	if (server->cursor_mode == CURSOR_MOVE) {
		wlr_scene_node_set_position(&server->grabbed->tree->node, server->cursor->x - server->grab_x,
			server->cursor->y - server->grab_y);
		return;
	}
	struct hit hit = hit_test(server, server->cursor->x, server->cursor->y);
	if (hit.kind == HIT_SURFACE) {
		wlr_seat_pointer_notify_enter(server->seat, hit.surface, hit.sx, hit.sy);
		wlr_seat_pointer_notify_motion(server->seat, time, hit.sx, hit.sy);
	} else {
		wlr_seat_pointer_clear_focus(server->seat);
	}
}

static void cursor_motion(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_motion);
	struct wlr_event_pointer_motion *event = data;
	wlr_cursor_move(server->cursor, event->device, event->delta_x, event->delta_y);
	process_cursor_motion(server, event->time_msec);
}

// A press focuses and raises the window under the cursor; on a title bar it also starts
// a move, on the desktop it does nothing. The release that ends a move ends it.
static void cursor_button(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_button);
	struct wlr_event_pointer_button *event = data;
	if (event->state == WLR_BUTTON_RELEASED && server->cursor_mode == CURSOR_MOVE) {
		server->cursor_mode = CURSOR_PASSTHROUGH;
		server->grabbed = NULL;
		process_cursor_motion(server, event->time_msec);
		return;
	}
	struct hit hit = hit_test(server, server->cursor->x, server->cursor->y);
	if (event->state == WLR_BUTTON_PRESSED && hit.kind == HIT_TITLE_BAR) {
		focus_window(hit.window, hit.window->xdg_surface->surface);
		begin_move(hit.window);
		return;
	}
	if (event->state == WLR_BUTTON_PRESSED && hit.kind == HIT_SURFACE && hit.window) {
		focus_window(hit.window, hit.window->xdg_surface->surface);
	}
	wlr_seat_pointer_notify_button(server->seat, event->time_msec, event->button, event->state);
}

static void cursor_frame(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, cursor_frame);
	wlr_seat_pointer_notify_frame(server->seat);
}

// Touch: the surface under a new point owns it until it goes up (wlr_seat keeps the
// owner); motion is made surface-local with that surface's origin, kept from the down.
static struct touch_point *touch_point(struct server *server, int32_t id, bool create) {
	for (int i = 0; i < MAX_TOUCH_POINTS; i++) {
		if (server->touch[i].down && server->touch[i].id == id) return &server->touch[i];
	}
	for (int i = 0; create && i < MAX_TOUCH_POINTS; i++) {
		if (!server->touch[i].down) return &server->touch[i];
	}
	return NULL;
}

static struct wl_listener touch_down_listener, touch_motion_listener, touch_up_listener, touch_frame_listener;
static struct server *touch_server;

static void touch_down(struct wl_listener *listener, void *data) {
	struct server *server = touch_server;
	struct wlr_event_touch_down *event = data;
	double lx, ly;
	wlr_cursor_absolute_to_layout_coords(server->cursor, event->device, event->x, event->y, &lx, &ly);
	struct hit hit = hit_test(server, lx, ly);
	struct touch_point *point = touch_point(server, event->touch_id, true);
	if (hit.kind != HIT_SURFACE || !point) return;
	*point = (struct touch_point){.down = true, .id = event->touch_id, .origin_x = lx - hit.sx, .origin_y = ly - hit.sy};
	wlr_seat_touch_notify_down(server->seat, hit.surface, event->time_msec, event->touch_id, hit.sx, hit.sy);
}

static void touch_motion(struct wl_listener *listener, void *data) {
	struct server *server = touch_server;
	struct wlr_event_touch_motion *event = data;
	struct touch_point *point = touch_point(server, event->touch_id, false);
	if (!point) return;
	double lx, ly;
	wlr_cursor_absolute_to_layout_coords(server->cursor, event->device, event->x, event->y, &lx, &ly);
	wlr_seat_touch_notify_motion(server->seat, event->time_msec, event->touch_id, lx - point->origin_x,
		ly - point->origin_y);
}

static void touch_up(struct wl_listener *listener, void *data) {
	struct wlr_event_touch_up *event = data;
	struct touch_point *point = touch_point(touch_server, event->touch_id, false);
	if (!point) return;
	point->down = false;
	wlr_seat_touch_notify_up(touch_server->seat, event->time_msec, event->touch_id);
}

static void touch_frame(struct wl_listener *listener, void *data) {
	wlr_seat_touch_notify_frame(touch_server->seat);
}

struct keyboard {
	struct wl_list link;
	struct server *server;
	struct wlr_input_device *device;
	struct wl_listener key, modifiers;
};

// Keys go to the focused surface, as the seat says; tinywl's compositor bindings are left
// out, so that every key reaches the client.
static void keyboard_key(struct wl_listener *listener, void *data) {
	struct keyboard *keyboard = wl_container_of(listener, keyboard, key);
	struct wlr_event_keyboard_key *event = data;
	wlr_seat_set_keyboard(keyboard->server->seat, keyboard->device);
	wlr_seat_keyboard_notify_key(keyboard->server->seat, event->time_msec, event->keycode, event->state);
}

static void keyboard_modifiers(struct wl_listener *listener, void *data) {
	struct keyboard *keyboard = wl_container_of(listener, keyboard, modifiers);
	wlr_seat_set_keyboard(keyboard->server->seat, keyboard->device);
	wlr_seat_keyboard_notify_modifiers(keyboard->server->seat, &keyboard->device->keyboard->modifiers);
}

static void new_input(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_input);
	struct wlr_input_device *device = data;
	if (device->type == WLR_INPUT_DEVICE_KEYBOARD) {
		struct keyboard *keyboard = calloc(1, sizeof(*keyboard));
		keyboard->server = server;
		keyboard->device = device;
		// The keymap from XKB_DEFAULT_* (us when unset), as clients will be told.
		struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
		struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS);
		wlr_keyboard_set_keymap(device->keyboard, keymap);
		xkb_keymap_unref(keymap);
		xkb_context_unref(context);
		wlr_keyboard_set_repeat_info(device->keyboard, 25, 600);
		keyboard->key.notify = keyboard_key;
		wl_signal_add(&device->keyboard->events.key, &keyboard->key);
		keyboard->modifiers.notify = keyboard_modifiers;
		wl_signal_add(&device->keyboard->events.modifiers, &keyboard->modifiers);
		wl_list_insert(&server->keyboards, &keyboard->link);
		wlr_seat_set_keyboard(server->seat, device);
	} else if (device->type == WLR_INPUT_DEVICE_POINTER) {
		wlr_cursor_attach_input_device(server->cursor, device);
	} else if (device->type == WLR_INPUT_DEVICE_TOUCH) {
		touch_server = server;
		touch_down_listener.notify = touch_down;
		wl_signal_add(&device->touch->events.down, &touch_down_listener);
		touch_motion_listener.notify = touch_motion;
		wl_signal_add(&device->touch->events.motion, &touch_motion_listener);
		touch_up_listener.notify = touch_up;
		wl_signal_add(&device->touch->events.up, &touch_up_listener);
		touch_frame_listener.notify = touch_frame;
		wl_signal_add(&device->touch->events.frame, &touch_frame_listener);
	}
	wlr_seat_set_capabilities(server->seat,
		WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_TOUCH);
}

// A client's cursor image is shown only while that client has the pointer.
static void request_cursor(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, request_cursor);
	struct wlr_seat_pointer_request_set_cursor_event *event = data;
	if (server->seat->pointer_state.focused_client == event->seat_client) {
		wlr_cursor_set_surface(server->cursor, event->surface, event->hotspot_x, event->hotspot_y);
	}
}

// MARK: 4. The replay

// One recorded event, fed to the headless device of its kind exactly as a backend feeds
// it: the device's signal, which the listeners above handle. This is the function
// benchmarks/tinywl-bench/bench.py counts instructions in (callgrind --toggle-collect).
// The recording is read by libinputrouter's reader (ir_recording_*), so that tinywl and
// tinywl-ir play the very same events; nothing else of the library is used here.
__attribute__((noinline)) void replay_event(struct server *server, const struct ir_event *e) {
	uint32_t time_msec = (uint32_t)(e->time_usec / 1000);
	switch (e->type) {
	case IR_EVENT_POINTER_MOTION: {
		struct wlr_event_pointer_motion event = {.device = server->pointer_device, .time_msec = time_msec,
			.delta_x = e->dx, .delta_y = e->dy, .unaccel_dx = e->unaccel_dx, .unaccel_dy = e->unaccel_dy};
		wl_signal_emit(&server->pointer_device->pointer->events.motion, &event);
		wl_signal_emit(&server->pointer_device->pointer->events.frame, NULL);
		break;
	}
	case IR_EVENT_POINTER_BUTTON: {
		struct wlr_event_pointer_button event = {.device = server->pointer_device, .time_msec = time_msec,
			.button = e->button, .state = e->state ? WLR_BUTTON_PRESSED : WLR_BUTTON_RELEASED};
		wl_signal_emit(&server->pointer_device->pointer->events.button, &event);
		wl_signal_emit(&server->pointer_device->pointer->events.frame, NULL);
		break;
	}
	case IR_EVENT_KEYBOARD_KEY: {
		struct wlr_event_keyboard_key event = {.time_msec = time_msec, .keycode = e->key, .update_state = true,
			.state = e->state ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED};
		wlr_keyboard_notify_key(server->keyboard_device->keyboard, &event);
		break;
	}
	case IR_EVENT_TOUCH_DOWN: {
		struct wlr_event_touch_down event = {.device = server->touch_device, .time_msec = time_msec,
			.touch_id = e->slot, .x = e->x, .y = e->y};
		wl_signal_emit(&server->touch_device->touch->events.down, &event);
		break;
	}
	case IR_EVENT_TOUCH_MOTION: {
		struct wlr_event_touch_motion event = {.device = server->touch_device, .time_msec = time_msec,
			.touch_id = e->slot, .x = e->x, .y = e->y};
		wl_signal_emit(&server->touch_device->touch->events.motion, &event);
		break;
	}
	case IR_EVENT_TOUCH_UP: {
		struct wlr_event_touch_up event = {.device = server->touch_device, .time_msec = time_msec, .touch_id = e->slot};
		wl_signal_emit(&server->touch_device->touch->events.up, &event);
		break;
	}
	case IR_EVENT_TOUCH_FRAME:
		wl_signal_emit(&server->touch_device->touch->events.frame, NULL);
		break;
	default: // devices added (the headless ones stand for them), kinds tinywl does not take
		break;
	}
}

// Plays a few events per tick and flushes, so that a client reading slower than the
// replay never finds its socket buffer full (libwayland would drop it).
static int replay_tick(void *data) {
	struct server *server = data;
	if (server->quitting) {
		wl_display_terminate(server->display);
		return 0;
	}
	for (int i = 0; i < 16 && server->next < server->nevents; i++) replay_event(server, &server->events[server->next++]);
	wl_display_flush_clients(server->display);
	if (server->next >= server->nevents) {
		server->quitting = true;
		wl_event_source_timer_update(server->replay_timer, server->exit_delay_ms > 0 ? server->exit_delay_ms : 1);
		return 0;
	}
	wl_event_source_timer_update(server->replay_timer, 1);
	return 0;
}

static bool read_recording(struct server *server, const char *path) {
	enum ir_error error;
	char message[512];
	struct ir_recording *recording = ir_recording_open_message(path, &error, message, sizeof(message));
	if (!recording) {
		fprintf(stderr, "tinywl: %s\n", message);
		return false;
	}
	size_t count, skipped;
	ir_recording_counts(recording, &count, &skipped);
	server->events = calloc(count ? count : 1, sizeof(*server->events));
	while (server->nevents < count && ir_recording_next(recording, &server->events[server->nevents]) == IR_OK) {
		server->nevents++;
	}
	ir_recording_close(recording);
	return true;
}

// MARK: 5. Main

// Starts the next -c command once the one before mapped a window; after the last, the replay.
static void start_next_command(struct server *server) {
	if (server->started < server->ncommands) {
		pid_t pid = fork();
		if (pid == 0) {
			execl("/bin/sh", "/bin/sh", "-c", server->commands[server->started], (char *)NULL);
			_exit(127);
		}
		server->pids[server->started++] = pid;
		return;
	}
	if (server->replay_timer && !server->replay_started) {
		server->replay_started = true;
		wl_event_source_timer_update(server->replay_timer, 50);
	}
}

struct output {
	struct server *server;
	struct wlr_output *wlr_output;
	struct wl_listener frame;
};

// Each frame: draw the scene and tell the clients their frame is done.
static void output_on_frame(struct wl_listener *listener, void *data) {
	struct output *output = wl_container_of(listener, output, frame);
	struct wlr_scene_output *scene_output = wlr_scene_get_scene_output(output->server->scene, output->wlr_output);
	wlr_scene_output_commit(scene_output);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(scene_output, &now);
}

static void new_output(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_output);
	struct wlr_output *wlr_output = data;
	wlr_output_init_render(wlr_output, server->allocator, server->renderer);
	wlr_output_enable(wlr_output, true);
	if (!wlr_output_commit(wlr_output)) return;
	struct output *output = calloc(1, sizeof(*output));
	output->server = server;
	output->wlr_output = wlr_output;
	output->frame.notify = output_on_frame;
	wl_signal_add(&wlr_output->events.frame, &output->frame);
	wlr_output_layout_add_auto(server->output_layout, wlr_output);
}

int main(int argc, char *argv[]) {
	wlr_log_init(WLR_ERROR, NULL);
	struct server server = {.exit_delay_ms = 1000};
	const char *recording = NULL;
	int width = 1280, height = 720;
	char *commands[32];
	int c;
	while ((c = getopt(argc, argv, "s:r:c:e:")) != -1) {
		switch (c) {
		case 's': sscanf(optarg, "%dx%d", &width, &height); break;
		case 'r': recording = optarg; break;
		case 'c': if (server.ncommands < 32) commands[server.ncommands++] = optarg; break;
		case 'e': server.exit_delay_ms = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-s WxH] [-r RECORDING] [-c COMMAND]... [-e MS]\n", argv[0]);
			return 2;
		}
	}
	server.commands = commands;
	if (recording && !read_recording(&server, recording)) return 1;
	signal(SIGCHLD, SIG_IGN);
	setenv("WLR_RENDERER", "pixman", 0);

	// The display, a headless backend with one output, the renderer and the scene.
	server.display = wl_display_create();
	server.backend = wlr_headless_backend_create(server.display);
	server.renderer = wlr_renderer_autocreate(server.backend);
	if (!server.backend || !server.renderer) return 1;
	wlr_renderer_init_wl_display(server.renderer, server.display);
	server.allocator = wlr_allocator_autocreate(server.backend, server.renderer);
	wlr_compositor_create(server.display, server.renderer);
	wlr_data_device_manager_create(server.display);
	server.output_layout = wlr_output_layout_create();
	server.new_output.notify = new_output;
	wl_signal_add(&server.backend->events.new_output, &server.new_output);
	server.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(server.scene, server.output_layout);
	server.desktop = wlr_scene_rect_create(&server.scene->node, width, height, desktop_color);

	wl_list_init(&server.windows);
	server.xdg_shell = wlr_xdg_shell_create(server.display);
	server.new_xdg_surface.notify = new_xdg_surface;
	wl_signal_add(&server.xdg_shell->events.new_surface, &server.new_xdg_surface);

	server.cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(server.cursor, server.output_layout);
	server.cursor_motion.notify = cursor_motion;
	wl_signal_add(&server.cursor->events.motion, &server.cursor_motion);
	server.cursor_button.notify = cursor_button;
	wl_signal_add(&server.cursor->events.button, &server.cursor_button);
	server.cursor_frame.notify = cursor_frame;
	wl_signal_add(&server.cursor->events.frame, &server.cursor_frame);

	wl_list_init(&server.keyboards);
	server.seat = wlr_seat_create(server.display, "seat0");
	server.new_input.notify = new_input;
	wl_signal_add(&server.backend->events.new_input, &server.new_input);
	server.request_cursor.notify = request_cursor;
	wl_signal_add(&server.seat->events.request_set_cursor, &server.request_cursor);

	// The devices the replay feeds: the headless backend announces them when it starts.
	wlr_headless_add_output(server.backend, width, height);
	server.pointer_device = wlr_headless_add_input_device(server.backend, WLR_INPUT_DEVICE_POINTER);
	server.keyboard_device = wlr_headless_add_input_device(server.backend, WLR_INPUT_DEVICE_KEYBOARD);
	server.touch_device = wlr_headless_add_input_device(server.backend, WLR_INPUT_DEVICE_TOUCH);

	const char *socket = wl_display_add_socket_auto(server.display);
	if (!socket || !wlr_backend_start(server.backend)) return 1;
	setenv("WAYLAND_DISPLAY", socket, true);
	// The cursor starts at the output's top-left corner, as on a fresh session.
	wlr_cursor_warp(server.cursor, NULL, 0, 0);
	fprintf(stderr, "tinywl: listening on %s, output %dx%d\n", socket, width, height);
	if (recording) server.replay_timer = wl_event_loop_add_timer(wl_display_get_event_loop(server.display), replay_tick, &server);
	start_next_command(&server);
	wl_display_run(server.display);

	// The clients read what is left on their sockets, then go.
	wl_display_destroy_clients(server.display);
	nanosleep(&(struct timespec){.tv_nsec = 300 * 1000 * 1000}, NULL);
	for (int i = 0; i < server.started; i++) kill(server.pids[i], SIGTERM);
	wl_display_destroy(server.display);
	return 0;
}
