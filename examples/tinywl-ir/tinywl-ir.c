// tinywl-ir: examples/tinywl/tinywl.c with InputRouter deciding where input goes. The
// wlroots scene still draws the windows; a mirror of it in the router's tree (through the
// C API, include/input_router.h) is what input is hit-tested against, and the router's
// deliveries become wlr_seat_*_notify_* calls. Hit-testing, the responder chain, pointer,
// keyboard and touch focus and the implicit grab are the router's; wlr_seat only writes
// the protocol.
//
// Read it top to bottom, in the order an input event travels:
//   1. state: the wlroots scene (as tinywl's) and the router's tree beside it: an output
//      node; the desktop, a COMPOSITOR node that takes clicks and does nothing with them;
//      per window a container holding its title bar (a COMPOSITOR node whose handler
//      raises, focuses and starts a move) and the client's surfaces (toplevel,
//      subsurfaces, popups), kept in step with the scene after every commit;
//   2. windows: xdg-shell toplevels, placed in tinywl's cascade;
//   3. deliveries: what the router decided, turned into wlr_seat calls;
//   4. the replay: a `libinput record` file read by the C API's reader, each event routed
//      by `replay_event` (the function benchmarks/tinywl-bench.py counts);
//   5. main: as tinywl's.
//
// Usage as tinywl: tinywl-ir [-s WxH] [-r RECORDING] [-c COMMAND]... [-e MS] [-t TRACE]
// -t writes the router's trace (docs/trace.md) to TRACE at exit and keeps the invariant
// checker on (exit status 1 on a violation); without it the checker is off.
#define _POSIX_C_SOURCE 200809L
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
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

// MARK: 1. State: the scene and its mirror

#define TITLE_HEIGHT 24

struct server {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_output_layout *output_layout;
	struct wlr_scene *scene;
	struct wl_listener new_output, new_xdg_surface, new_surface;
	struct wlr_xdg_shell *xdg_shell;
	struct wl_list windows, mirrors, clients;
	int windows_ever_mapped;
	struct wlr_cursor *cursor;
	struct wlr_seat *seat;
	// The headless keyboard gives wlr_seat the keymap it serves clients; its keys are never
	// fed through wlroots: the router keeps the xkb state.
	struct wlr_input_device *keyboard_device;

	struct ir_router *router;
	uint32_t ir_seat;
	uint64_t output_node, desktop_node;

	// What a title bar's handler asked for, done once the router returns (a handler may
	// not change the tree): a window to move with the cursor, from this offset.
	struct window *moving;
	double grab_x, grab_y;
	bool move_started, move_ended;

	// wlroots frames enter and leave itself: a router frame is passed on only when a
	// motion, button or axis went out since the last one.
	bool pointer_frame_due;
	struct wlr_keyboard_modifiers modifiers;
	// The last node a delivery named, and its surface: most deliveries name the one before.
	uint64_t last_node;
	struct mirror *last_mirror;

	struct ir_event *events;
	size_t nevents, next;
	bool replay_started, quitting, exiting;
	struct wl_event_source *replay_timer;
	int exit_delay_ms;
	char **commands;
	int ncommands, started;
	pid_t pids[32]; // the clients started, stopped at exit (wev 1.0 outlives its display)
};

struct window {
	struct wl_list link;
	struct server *server;
	struct wlr_xdg_surface *xdg_surface;
	struct wlr_scene_tree *tree; // title bar at (0, 0), the client's surfaces at (0, TITLE_HEIGHT)
	struct wlr_scene_rect *title_bar;
	struct wlr_scene_node *surfaces;
	uint64_t container, title_node;
	unsigned generation; // of the last sync
	struct wl_listener map, unmap, destroy, request_move;
};

// One client surface in the router's tree.
struct mirror {
	struct wl_list link;
	struct window *window;
	struct wlr_surface *surface;
	uint64_t node;
	int x, y; // in the window's surface tree, as the last sync found it
	unsigned generation;
	struct wl_listener destroy;
};

// One Wayland client as the router knows it.
struct client {
	struct wl_list link;
	struct wl_client *wl_client;
	uint32_t id;
	struct wl_listener destroy;
};

static const float desktop_color[4] = {0.2f, 0.25f, 0.3f, 1};
static const float title_color[4] = {0.23f, 0.43f, 0.65f, 1};

static void check(enum ir_error error, const char *what) {
	if (error != IR_OK) fprintf(stderr, "tinywl-ir: %s: %s\n", what, ir_error_string(error));
}

// What the router queued, turned into protocol events (part 3). Called after every input
// event, and after a change to the scene or the focus: a scene change under a still
// cursor re-picks (leave and enter) without waiting for motion.
static void deliver(void *data, const struct ir_delivery *delivery);
static void send_deliveries(struct server *server) {
	if (server->exiting) return; // clients going away at exit are told nothing more
	check(ir_router_drain(server->router, deliver, server, NULL), "drain");
}

static struct mirror *mirror_of_surface(struct server *server, struct wlr_surface *surface) {
	struct mirror *m;
	wl_list_for_each(m, &server->mirrors, link) if (m->surface == surface) return m;
	return NULL;
}

static struct mirror *mirror_of_node(struct server *server, uint64_t node) {
	if (node == server->last_node) return server->last_mirror;
	struct mirror *m;
	wl_list_for_each(m, &server->mirrors, link) {
		if (m->node == node) {
			server->last_node = node;
			server->last_mirror = m;
			return m;
		}
	}
	return NULL;
}

static void forget_mirror(struct server *server, struct mirror *m) {
	check(ir_router_destroy_node(server->router, m->node), "destroy node");
	if (server->last_mirror == m) server->last_node = IR_NODE_NONE;
	wl_list_remove(&m->destroy.link);
	wl_list_remove(&m->link);
	free(m);
}

static void mirror_surface_destroyed(struct wl_listener *listener, void *data) {
	struct mirror *m = wl_container_of(listener, m, destroy);
	forget_mirror(m->window->server, m);
}

// The router's id for a surface's client, registered on first sight.
static void client_destroyed(struct wl_listener *listener, void *data) {
	struct client *c = wl_container_of(listener, c, destroy);
	wl_list_remove(&c->link);
	wl_list_remove(&c->destroy.link);
	free(c);
}

static uint32_t client_id(struct server *server, struct wl_client *wl_client) {
	struct client *c;
	wl_list_for_each(c, &server->clients, link) if (c->wl_client == wl_client) return c->id;
	c = calloc(1, sizeof(*c));
	c->wl_client = wl_client;
	check(ir_router_add_client(server->router, "client", &c->id), "add client");
	c->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(wl_client, &c->destroy);
	wl_list_insert(&server->clients, &c->link);
	return c->id;
}

// The scene's surfaces of one window, as wlroots lists them bottom to top.
struct scene_surface {
	struct wlr_surface *surface, *parent;
	int x, y, depth;
};
struct sync_list {
	struct scene_surface items[64];
	int count;
};

static void collect_surface(struct wlr_surface *surface, int sx, int sy, void *data) {
	struct sync_list *list = data;
	if (list->count == 64) return;
	struct wlr_surface *parent = NULL;
	if (wlr_surface_is_subsurface(surface)) {
		parent = wlr_subsurface_from_wlr_surface(surface)->parent;
	} else if (wlr_surface_is_xdg_surface(surface)) {
		struct wlr_xdg_surface *xdg = wlr_xdg_surface_from_wlr_surface(surface);
		if (xdg->role == WLR_XDG_SURFACE_ROLE_POPUP) parent = xdg->popup->parent;
	}
	list->items[list->count++] = (struct scene_surface){surface, parent, sx, sy, 0};
}

// Brings the window's nodes in the router in step with the scene: a node per surface,
// under its parent surface's node (a popup under its parent, a subsurface under its
// parent, below it when the scene draws it first), at the same place and size, with the
// surface's input region, stacked as drawn; nodes of surfaces gone from the scene go.
static void sync_window(struct window *window) {
	struct server *server = window->server;
	struct ir_router *router = server->router;
	struct sync_list list = {.count = 0};
	wlr_scene_node_for_each_surface(window->surfaces, collect_surface, &list);
	// Parents before children: a node's parent must exist when it is created.
	for (int i = 0; i < list.count; i++) {
		for (struct wlr_surface *p = list.items[i].parent; p;) {
			list.items[i].depth++;
			int j = 0;
			while (j < list.count && list.items[j].surface != p) j++;
			p = j < list.count ? list.items[j].parent : NULL;
		}
	}
	window->generation++;
	uint32_t client = client_id(server, wl_resource_get_client(window->xdg_surface->resource));
	for (int depth = 0; depth < 8; depth++) {
		for (int i = 0; i < list.count; i++) {
			struct scene_surface *s = &list.items[i];
			if (s->depth != depth) continue;
			int j = 0;
			while (s->parent && j < list.count && list.items[j].surface != s->parent) j++;
			struct mirror *parent = s->parent ? mirror_of_surface(server, s->parent) : NULL;
			// The iteration counts from the container (the surfaces' tree is at (0, TITLE_HEIGHT)).
			struct ir_rect frame = {s->x, s->y, s->surface->current.width, s->surface->current.height};
			if (parent && j < list.count) frame = (struct ir_rect){s->x - list.items[j].x, s->y - list.items[j].y, frame.width, frame.height};
			struct mirror *m = mirror_of_surface(server, s->surface);
			if (!m) {
				enum ir_node_kind kind = !s->parent ? IR_NODE_TOPLEVEL
					: wlr_surface_is_subsurface(s->surface) ? IR_NODE_SUBSURFACE : IR_NODE_POPUP;
				m = calloc(1, sizeof(*m));
				m->window = window;
				m->surface = s->surface;
				check(ir_router_create_node(router, kind, client, parent ? parent->node : window->container,
					j > i ? IR_LAYER_BELOW : IR_LAYER_ABOVE, frame, NULL, &m->node), "create node");
				m->destroy.notify = mirror_surface_destroyed;
				wl_signal_add(&s->surface->events.destroy, &m->destroy);
				wl_list_insert(&server->mirrors, &m->link);
			} else {
				check(ir_router_set_frame(router, m->node, frame), "set frame");
				check(ir_router_raise_node(router, m->node), "restack");
			}
			m->generation = window->generation;
			int n;
			pixman_box32_t *boxes = pixman_region32_rectangles(&s->surface->input_region, &n);
			struct ir_rect rects[16];
			int count = 0;
			for (; count < n && count < 16; count++) {
				rects[count] = (struct ir_rect){boxes[count].x1, boxes[count].y1, boxes[count].x2 - boxes[count].x1,
					boxes[count].y2 - boxes[count].y1};
			}
			check(ir_router_set_input_region(router, m->node, rects, (size_t)count), "input region");
		}
	}
	struct mirror *m, *tmp;
	wl_list_for_each_safe(m, tmp, &server->mirrors, link) {
		if (m->window == window && m->generation != window->generation) forget_mirror(server, m);
	}
	// What the client bound on the seat: its surfaces take only those devices' events.
	struct wlr_seat_client *seat_client =
		wlr_seat_client_for_wl_client(server->seat, wl_resource_get_client(window->xdg_surface->resource));
	uint32_t bound = 0;
	if (seat_client && !wl_list_empty(&seat_client->pointers)) bound |= IR_BOUND_POINTER;
	if (seat_client && !wl_list_empty(&seat_client->keyboards)) bound |= IR_BOUND_KEYBOARD;
	if (seat_client && !wl_list_empty(&seat_client->touches)) bound |= IR_BOUND_TOUCH;
	check(ir_seat_set_bound(router, server->ir_seat, client, bound), "set bound");
	send_deliveries(server);
}

// Every commit of a surface of a mapped window re-syncs that window (never during input).
static struct window *window_of_surface(struct wlr_surface *surface) {
	struct wlr_surface *root = wlr_surface_get_root_surface(surface);
	while (root && wlr_surface_is_xdg_surface(root)) {
		struct wlr_xdg_surface *xdg = wlr_xdg_surface_from_wlr_surface(root);
		if (xdg->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
			struct wlr_scene_node *surfaces = xdg->data;
			return surfaces && xdg->mapped ? surfaces->parent->data : NULL;
		}
		if (xdg->role != WLR_XDG_SURFACE_ROLE_POPUP || !xdg->popup->parent) return NULL;
		root = wlr_surface_get_root_surface(xdg->popup->parent);
	}
	return NULL;
}

static void surface_commit(struct wl_listener *listener, void *data) {
	struct window *window = window_of_surface(data);
	if (window) sync_window(window);
}

struct surface_watch {
	struct wl_listener commit, destroy;
};

static void surface_gone(struct wl_listener *listener, void *data) {
	struct surface_watch *watch = wl_container_of(listener, watch, destroy);
	wl_list_remove(&watch->commit.link);
	wl_list_remove(&watch->destroy.link);
	free(watch);
}

static void new_surface(struct wl_listener *listener, void *data) {
	struct wlr_surface *surface = data;
	struct surface_watch *watch = calloc(1, sizeof(*watch));
	watch->commit.notify = surface_commit;
	wl_signal_add(&surface->events.commit, &watch->commit);
	watch->destroy.notify = surface_gone;
	wl_signal_add(&surface->events.destroy, &watch->destroy);
}

// MARK: 2. Windows

// Raises `window` (in the scene and in the router) and gives it the keyboard: the router
// queues leave, enter and modifiers, and the deliveries (part 3) activate it.
static void focus_window(struct window *window) {
	struct server *server = window->server;
	wlr_scene_node_raise_to_top(&window->tree->node);
	check(ir_router_raise_node(server->router, window->container), "raise");
	struct mirror *toplevel = mirror_of_surface(server, window->xdg_surface->surface);
	if (toplevel) check(ir_seat_set_keyboard_focus(server->router, server->ir_seat, toplevel->node), "focus");
	send_deliveries(server);
}

static void begin_move(struct window *window) {
	struct server *server = window->server;
	server->moving = window;
	server->grab_x = server->cursor->x - window->tree->node.state.x;
	server->grab_y = server->cursor->y - window->tree->node.state.y;
}

// The title bar's handler: it takes the pointer (so the client below gets a leave), a
// press raises, focuses and starts a move, which follows the cursor until the release.
// The implicit grab keeps every motion and the release coming here while the button is
// held. Changes wait until the router returns (part 4).
static enum ir_disposition title_bar_handler(void *data, uint64_t node, const struct ir_node_event *event) {
	struct window *window = data;
	if (event->kind == IR_NODE_EVENT_POINTER_BUTTON && event->button == 0x110) {
		if (event->state == 1) window->server->move_started = true;
		else window->server->move_ended = true;
	}
	return IR_HANDLED;
}

// The desktop takes the pointer and every click, and does nothing with them.
static enum ir_disposition desktop_handler(void *data, uint64_t node, const struct ir_node_event *event) {
	return event->kind == IR_NODE_EVENT_POINTER_ENTER || event->kind == IR_NODE_EVENT_POINTER_MOTION
			|| event->kind == IR_NODE_EVENT_POINTER_BUTTON || event->kind == IR_NODE_EVENT_POINTER_AXIS
		? IR_HANDLED : IR_NOT_HANDLED;
}

static void start_next_command(struct server *server);

static void window_map(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, map);
	struct server *server = window->server;
	// tinywl's cascade: content at (40, 40), 32 pixels further for each window since.
	int step = (server->windows_ever_mapped++ % 10) * 32;
	int x = 40 + step, y = 40 + step - TITLE_HEIGHT;
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(window->xdg_surface, &geometry);
	wlr_scene_node_set_position(&window->tree->node, x, y);
	wlr_scene_rect_set_size(window->title_bar, geometry.width, TITLE_HEIGHT);
	wlr_scene_node_set_enabled(&window->tree->node, true);
	struct ir_router *router = server->router;
	// The container groups and takes no input itself (an empty input region).
	struct ir_rect none;
	check(ir_router_create_node(router, IR_NODE_COMPOSITOR, IR_CLIENT_COMPOSITOR, server->output_node,
		IR_LAYER_ABOVE, (struct ir_rect){x, y, geometry.width, geometry.height + TITLE_HEIGHT}, "window",
		&window->container), "container");
	check(ir_router_set_clips_children(router, window->container, false), "clips");
	check(ir_router_set_input_region(router, window->container, &none, 0), "container region");
	check(ir_router_create_node(router, IR_NODE_COMPOSITOR, IR_CLIENT_COMPOSITOR, window->container, IR_LAYER_ABOVE,
		(struct ir_rect){0, 0, geometry.width, TITLE_HEIGHT}, "title bar", &window->title_node), "title bar");
	check(ir_router_set_node_handler(router, window->title_node, title_bar_handler, window), "handler");
	sync_window(window);
	wl_list_insert(&server->windows, &window->link);
	focus_window(window);
	start_next_command(server);
}

static void window_unmap(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, unmap);
	if (window->server->moving == window) window->server->moving = NULL;
	wlr_scene_node_set_enabled(&window->tree->node, false);
	// Its surfaces' nodes go with the container; focus falls back as the router decides.
	struct mirror *m, *tmp;
	wl_list_for_each_safe(m, tmp, &window->server->mirrors, link) if (m->window == window) forget_mirror(window->server, m);
	check(ir_router_destroy_node(window->server->router, window->container), "destroy container");
	send_deliveries(window->server);
	wl_list_remove(&window->link);
	wl_list_init(&window->link);
}

static void window_destroy(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, destroy);
	wl_list_remove(&window->map.link);
	wl_list_remove(&window->unmap.link);
	wl_list_remove(&window->destroy.link);
	wl_list_remove(&window->request_move.link);
	wl_list_remove(&window->link);
	wlr_scene_node_destroy(&window->tree->node);
	free(window);
}

// A client asks to be moved (its own title bar): granted as tinywl does.
static void window_request_move(struct wl_listener *listener, void *data) {
	struct window *window = wl_container_of(listener, window, request_move);
	begin_move(window);
}

static void new_xdg_surface(struct wl_listener *listener, void *data) {
	struct server *server = wl_container_of(listener, server, new_xdg_surface);
	struct wlr_xdg_surface *xdg_surface = data;
	if (xdg_surface->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		struct wlr_xdg_surface *parent = wlr_xdg_surface_from_wlr_surface(xdg_surface->popup->parent);
		xdg_surface->data = wlr_scene_xdg_surface_create(parent->data, xdg_surface);
		return;
	}
	struct window *window = calloc(1, sizeof(*window));
	window->server = server;
	window->xdg_surface = xdg_surface;
	window->tree = wlr_scene_tree_create(&server->scene->node);
	window->tree->node.data = window;
	wlr_scene_node_set_enabled(&window->tree->node, false);
	window->title_bar = wlr_scene_rect_create(&window->tree->node, 0, TITLE_HEIGHT, title_color);
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
	window->request_move.notify = window_request_move;
	wl_signal_add(&xdg_surface->toplevel->events.request_move, &window->request_move);
}

// MARK: 3. Deliveries

static void activate(struct mirror *m, bool activated) {
	if (m && wlr_surface_is_xdg_surface(m->surface)) {
		struct wlr_xdg_surface *xdg = wlr_xdg_surface_from_wlr_surface(m->surface);
		if (xdg->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL) wlr_xdg_toplevel_set_activated(xdg, activated);
	}
}

// One delivery, one wlr_seat call (the table in input_router.h). Deliveries to the
// compositor's own nodes were its handlers' business and send nothing.
static void deliver(void *data, const struct ir_delivery *d) {
	struct server *server = data;
	struct wlr_seat *seat = server->seat;
	if (d->client == IR_CLIENT_COMPOSITOR) return;
	struct mirror *m = d->node != IR_NODE_NONE ? mirror_of_node(server, d->node) : NULL;
	struct wlr_surface *surface = m ? m->surface : NULL;
	switch (d->kind) {
	case IR_DELIVERY_POINTER_ENTER:
		if (surface) wlr_seat_pointer_notify_enter(seat, surface, d->x, d->y);
		break;
	case IR_DELIVERY_POINTER_LEAVE:
		if (!surface || seat->pointer_state.focused_surface == surface) wlr_seat_pointer_notify_clear_focus(seat);
		break;
	case IR_DELIVERY_POINTER_MOTION:
		// wlroots drops a motion to where the enter already put the pointer (in wl_fixed).
		if (wl_fixed_from_double(d->x) != wl_fixed_from_double(seat->pointer_state.sx)
			|| wl_fixed_from_double(d->y) != wl_fixed_from_double(seat->pointer_state.sy)) {
			server->pointer_frame_due = true;
		}
		wlr_seat_pointer_notify_motion(seat, d->time_msec, d->x, d->y);
		break;
	case IR_DELIVERY_POINTER_BUTTON:
		wlr_seat_pointer_notify_button(seat, d->time_msec, d->button, d->state);
		server->pointer_frame_due = true;
		break;
	case IR_DELIVERY_POINTER_AXIS:
		wlr_seat_pointer_notify_axis(seat, d->time_msec,
			d->axis == IR_AXIS_VERTICAL ? WLR_AXIS_ORIENTATION_VERTICAL : WLR_AXIS_ORIENTATION_HORIZONTAL,
			d->axis_value, d->value120 / 120, (enum wlr_axis_source)d->axis_source);
		server->pointer_frame_due = true;
		break;
	case IR_DELIVERY_POINTER_FRAME:
		if (server->pointer_frame_due) wlr_seat_pointer_notify_frame(seat);
		server->pointer_frame_due = false;
		break;
	case IR_DELIVERY_KEYBOARD_ENTER:
		// wlroots sends the modifiers with the enter: the router's MODIFIERS that follow
		// repeat them and are skipped below.
		if (!surface) break;
		// wlroots 0.15 takes the keys as non-const and only reads them.
		wlr_seat_keyboard_notify_enter(seat, surface, (uint32_t *)d->keys, d->key_count, &server->modifiers);
		activate(m, true);
		break;
	case IR_DELIVERY_KEYBOARD_LEAVE:
		activate(m, false);
		if (!surface || seat->keyboard_state.focused_surface == surface) wlr_seat_keyboard_notify_clear_focus(seat);
		break;
	case IR_DELIVERY_KEY:
		wlr_seat_keyboard_notify_key(seat, d->time_msec, d->key, d->state);
		break;
	case IR_DELIVERY_MODIFIERS: {
		struct wlr_keyboard_modifiers mods = {d->depressed, d->latched, d->locked, d->group};
		if (memcmp(&mods, &server->modifiers, sizeof(mods)) == 0) break;
		server->modifiers = mods;
		wlr_seat_keyboard_notify_modifiers(seat, &mods);
		break;
	}
	case IR_DELIVERY_TOUCH_DOWN:
		if (surface) wlr_seat_touch_notify_down(seat, surface, d->time_msec, d->touch_id, d->x, d->y);
		break;
	case IR_DELIVERY_TOUCH_MOTION:
		wlr_seat_touch_notify_motion(seat, d->time_msec, d->touch_id, d->x, d->y);
		break;
	case IR_DELIVERY_TOUCH_UP:
		wlr_seat_touch_notify_up(seat, d->time_msec, d->touch_id);
		break;
	case IR_DELIVERY_TOUCH_FRAME:
		wlr_seat_touch_notify_frame(seat);
		break;
	case IR_DELIVERY_TOUCH_CANCEL:
		if (surface) wlr_seat_touch_notify_cancel(seat, surface);
		break;
	default: // handled by a node, dropped, gestures and the rest: nothing for wlr_seat
		break;
	}
}

// MARK: 4. The replay

// Which window the node under the pointer belongs to: a client surface's or a title bar's.
static struct window *window_of_node(struct server *server, uint64_t node) {
	struct mirror *m = mirror_of_node(server, node);
	if (m) return m->window;
	struct window *w;
	wl_list_for_each(w, &server->windows, link) if (w->title_node == node) return w;
	return NULL;
}

// One recorded event through the router, from the event to the protocol events queued on
// the clients' sockets: focus on press first (so the press's serial is the newest a
// client cites), then routing, then the deliveries, then what a handler asked for.
__attribute__((noinline)) void replay_event(struct server *server, const struct ir_event *event) {
	struct ir_router *router = server->router;
	if (event->type == IR_EVENT_POINTER_BUTTON && event->state == 1) {
		uint64_t focus;
		if (ir_seat_pointer_focus(router, server->ir_seat, &focus) == IR_OK && focus != IR_NODE_NONE) {
			struct window *window = window_of_node(server, focus);
			if (window && server->windows.next != &window->link) {
				wl_list_remove(&window->link);
				wl_list_insert(&server->windows, &window->link);
				focus_window(window);
			}
		}
	}
	check(ir_router_handle_event(router, server->ir_seat, event), "handle event");
	send_deliveries(server);
	// Whether a move changed the tree since: only then is there more to drain (an empty
	// drain was 2 of every motion's 7 C API calls).
	bool moved = server->move_started;
	if (event->type == IR_EVENT_POINTER_MOTION || event->type == IR_EVENT_POINTER_MOTION_ABSOLUTE) {
		double x, y;
		ir_seat_cursor(router, server->ir_seat, &x, &y);
		wlr_cursor_warp_closest(server->cursor, NULL, x, y);
		if (server->moving) {
			moved = true;
			int wx = (int)(x - server->grab_x), wy = (int)(y - server->grab_y);
			wlr_scene_node_set_position(&server->moving->tree->node, wx, wy);
			check(ir_router_move_node(router, server->moving->container, wx, wy), "move");
		}
	}
	if (server->move_started) {
		uint64_t focus;
		ir_seat_pointer_focus(router, server->ir_seat, &focus);
		struct window *window = window_of_node(server, focus);
		if (window) begin_move(window);
	}
	if (server->move_ended) server->moving = NULL;
	server->move_started = server->move_ended = false;
	// What a move queued (a re-pick's leave and enter).
	if (moved) send_deliveries(server);
}

// A few events per tick, then a flush, so that a slow client's socket never fills.
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
		fprintf(stderr, "tinywl-ir: %s\n", message);
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

// Keys reach wlr_seat only from the router, but wlr_seat serves clients the keymap of
// its keyboard: the headless keyboard gets the router's (evdev, pc105, us).
static void new_input(struct wl_listener *listener, void *data) {
	struct wlr_input_device *device = data;
	if (device->type != WLR_INPUT_DEVICE_KEYBOARD) return;
	struct server *server = device->data;
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	struct xkb_rule_names names = {.rules = "evdev", .model = "pc105", .layout = "us"};
	struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
	wlr_keyboard_set_keymap(device->keyboard, keymap);
	xkb_keymap_unref(keymap);
	xkb_context_unref(context);
	wlr_keyboard_set_repeat_info(device->keyboard, 25, 600);
	wlr_seat_set_keyboard(server->seat, device);
}

int main(int argc, char *argv[]) {
	wlr_log_init(WLR_ERROR, NULL);
	struct server server = {.exit_delay_ms = 1000};
	const char *recording = NULL, *trace = NULL;
	int width = 1280, height = 720;
	char *commands[32];
	int c;
	while ((c = getopt(argc, argv, "s:r:c:e:t:")) != -1) {
		switch (c) {
		case 's': sscanf(optarg, "%dx%d", &width, &height); break;
		case 'r': recording = optarg; break;
		case 'c': if (server.ncommands < 32) commands[server.ncommands++] = optarg; break;
		case 'e': server.exit_delay_ms = atoi(optarg); break;
		case 't': trace = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-s WxH] [-r RECORDING] [-c COMMAND]... [-e MS] [-t TRACE]\n", argv[0]);
			return 2;
		}
	}
	server.commands = commands;
	if (recording && !read_recording(&server, recording)) return 1;
	signal(SIGCHLD, SIG_IGN);
	setenv("WLR_RENDERER", "pixman", 0);

	// The router: one seat with the us keymap, an output node, the desktop at its bottom.
	server.router = ir_router_create();
	check(ir_router_add_seat(server.router, "seat0", &server.ir_seat), "add seat");
	check(ir_seat_set_keymap(server.router, server.ir_seat, NULL), "keymap");
	check(ir_router_create_node(server.router, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
		(struct ir_rect){0, 0, width, height}, "output", &server.output_node), "output");
	check(ir_router_create_node(server.router, IR_NODE_COMPOSITOR, IR_CLIENT_COMPOSITOR, server.output_node,
		IR_LAYER_ABOVE, (struct ir_rect){0, 0, width, height}, "desktop", &server.desktop_node), "desktop");
	check(ir_router_set_node_handler(server.router, server.desktop_node, desktop_handler, &server), "desktop handler");
	// The trace and the invariant checker are for tests (-t); the checker costs about 31,000
	// instructions a motion (README, "Three compositors"), so it is off otherwise.
	check(trace ? ir_router_set_trace(server.router, true) : ir_router_set_invariant_checks(server.router, false),
		"trace or checks");

	// The wlroots side, as tinywl's.
	server.display = wl_display_create();
	server.backend = wlr_headless_backend_create(server.display);
	server.renderer = wlr_renderer_autocreate(server.backend);
	if (!server.backend || !server.renderer) return 1;
	wlr_renderer_init_wl_display(server.renderer, server.display);
	server.allocator = wlr_allocator_autocreate(server.backend, server.renderer);
	struct wlr_compositor *compositor = wlr_compositor_create(server.display, server.renderer);
	server.new_surface.notify = new_surface;
	wl_signal_add(&compositor->events.new_surface, &server.new_surface);
	wlr_data_device_manager_create(server.display);
	server.output_layout = wlr_output_layout_create();
	server.new_output.notify = new_output;
	wl_signal_add(&server.backend->events.new_output, &server.new_output);
	server.scene = wlr_scene_create();
	wlr_scene_attach_output_layout(server.scene, server.output_layout);
	wlr_scene_rect_create(&server.scene->node, width, height, desktop_color);
	wl_list_init(&server.windows);
	wl_list_init(&server.mirrors);
	wl_list_init(&server.clients);
	server.xdg_shell = wlr_xdg_shell_create(server.display);
	server.new_xdg_surface.notify = new_xdg_surface;
	wl_signal_add(&server.xdg_shell->events.new_surface, &server.new_xdg_surface);
	server.cursor = wlr_cursor_create();
	wlr_cursor_attach_output_layout(server.cursor, server.output_layout);
	server.seat = wlr_seat_create(server.display, "seat0");
	wlr_seat_set_capabilities(server.seat,
		WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_TOUCH);
	struct wl_listener input_listener = {.notify = new_input};
	wl_signal_add(&server.backend->events.new_input, &input_listener);
	wlr_headless_add_output(server.backend, width, height);
	server.keyboard_device = wlr_headless_add_input_device(server.backend, WLR_INPUT_DEVICE_KEYBOARD);
	server.keyboard_device->data = &server;

	const char *socket = wl_display_add_socket_auto(server.display);
	if (!socket || !wlr_backend_start(server.backend)) return 1;
	setenv("WAYLAND_DISPLAY", socket, true);
	fprintf(stderr, "tinywl-ir: listening on %s, output %dx%d\n", socket, width, height);
	if (recording) server.replay_timer = wl_event_loop_add_timer(wl_display_get_event_loop(server.display), replay_tick, &server);
	start_next_command(&server);
	wl_display_run(server.display);
	server.exiting = true;

	int status = 0;
	if (trace) { // the trace, and the invariant checker's verdict on every delivery drained
		size_t length, violations;
		static char text[1 << 20], report[4096];
		ir_router_trace_text(server.router, text, sizeof(text), &length);
		FILE *out = fopen(trace, "w");
		if (out) fputs(text, out), fclose(out);
		ir_router_check_invariants(server.router, &violations, report, sizeof(report), &length);
		if (violations) fprintf(stderr, "tinywl-ir: %zu invariant violations:\n%s", violations, report), status = 1;
	}
	// The clients read what is left on their sockets, then go.
	wl_display_destroy_clients(server.display);
	nanosleep(&(struct timespec){.tv_nsec = 300 * 1000 * 1000}, NULL);
	for (int i = 0; i < server.started; i++) kill(server.pids[i], SIGTERM);
	wl_display_destroy(server.display);
	ir_router_destroy(server.router);
	return status;
}
