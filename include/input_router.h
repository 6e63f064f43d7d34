/*
 * input_router.h: the C face of InputRouter (libinputrouter, pkg-config "inputrouter").
 *
 * A compositor written in C (wlroots, for instance) mirrors its surfaces into a router's
 * tree, feeds it the input events of its devices, and drains the deliveries the router
 * decides: who gets a wl_pointer.enter, at which surface-local point, with which serial.
 * The rules are the library's (docs/routing.md); docs/embedding.md, "From C", walks
 * through every function with an example.
 *
 * Conventions:
 * - Every function but ir_version(), ir_error_string(), ir_router_create(),
 *   ir_router_destroy(), ir_recording_open() and ir_recording_close() returns an
 *   `enum ir_error`; results come back through pointer arguments, which are written only
 *   on IR_OK. A caller's mistake (a NULL handle or pointer, an unknown or destroyed node, an
 *   unknown seat or client, an event of a device that is not there) is an error code,
 *   never a crash.
 * - Text out (the trace, invariant violations, a keymap) uses snprintf's convention: the
 *   function writes at most `size` bytes including the terminating NUL into `buffer`
 *   (which may be NULL when `size` is 0) and stores the full length, without the NUL, in
 *   `*length`. Nothing is allocated for the caller to free.
 * - Nodes are named by uint64_t ids, not pointers. An id is the node's slot in the tree
 *   and the slot's generation, as the library's NodeID: it never dangles, costs nothing
 *   to copy or compare, can be stored in a wlroots surface's `data`, and a destroyed
 *   node's id stays distinguishable from one never issued (IR_ERROR_DESTROYED_NODE versus
 *   IR_ERROR_UNKNOWN_NODE), even after its slot is reused by a new node. IR_NODE_NONE
 *   (0) is "no node"; as a parent it means the tree's root.
 * - Seats and clients are small integers (uint32_t) handed out by the router; neither is
 *   ever reused within a router.
 * - Threads: a router reads and writes no global state; the library has none. Use one
 *   router from one thread at a time (several routers on several threads are fine).
 * - Callbacks (node handlers, key bindings, the drain callback) run inside the call that
 *   routes or drains. From inside one, every function of this router returns
 *   IR_ERROR_BUSY but the readers of the tree and seats: ir_router_node_client,
 *   ir_router_node_alive, ir_router_hit_test, ir_seat_keyboard_focus,
 *   ir_seat_pointer_focus and ir_seat_cursor.
 * - Times are microseconds (libinput's clock); deliveries also carry milliseconds, what
 *   the Wayland events take.
 */
#ifndef INPUT_ROUTER_H
#define INPUT_ROUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API's version. MAJOR changes when a program built against an older header may
 * break; MINOR when functions or enum values are added. ir_version() returns the version
 * of the library actually loaded, as (MAJOR << 16) | MINOR. */
#define IR_API_VERSION_MAJOR 1
#define IR_API_VERSION_MINOR 1
#define IR_API_VERSION ((IR_API_VERSION_MAJOR << 16) | IR_API_VERSION_MINOR)

uint32_t ir_version(void);

/* ---------------------------------------------------------------------------------------
 * Errors
 */
enum ir_error {
    IR_OK = 0,
    IR_ERROR_NULL_HANDLE = 1,      /* the router (or recording) handle is NULL */
    IR_ERROR_NULL_ARGUMENT = 2,    /* a required pointer argument is NULL */
    IR_ERROR_UNKNOWN_NODE = 3,     /* the id was never issued by this router */
    IR_ERROR_DESTROYED_NODE = 4,   /* the node was destroyed (itself, an ancestor, its client) */
    IR_ERROR_UNKNOWN_DEVICE = 5,   /* an event of a device not added, or already removed */
    IR_ERROR_UNKNOWN_SEAT = 6,     /* the seat was never added to this router */
    IR_ERROR_UNKNOWN_CLIENT = 7,   /* the client was never added, or was removed */
    IR_ERROR_INVALID_ARGUMENT = 8, /* an enum value out of range, a NaN coordinate, a root node */
    IR_ERROR_BUSY = 9,             /* called from inside a callback of the same router */
    IR_ERROR_KEYMAP = 10,          /* xkbcommon could not build the keymap from these names */
    IR_ERROR_NO_KEYMAP = 11,       /* a binding on a seat that has no keymap yet */
    IR_ERROR_INVALID_BINDING = 12, /* a binding's text does not parse ("Super+Nosuchkey") */
    IR_ERROR_RECORDING = 13,       /* the file is not a readable `libinput record` log */
    IR_ERROR_END_OF_RECORDING = 14 /* ir_recording_next: no events left */
};

/* A constant English sentence for the code ("the node was destroyed"); never NULL, also
 * for a value outside the enum. */
const char *ir_error_string(enum ir_error error);

/* ---------------------------------------------------------------------------------------
 * The router
 */
struct ir_router;

#define IR_NODE_NONE ((uint64_t)0)
#define IR_CLIENT_COMPOSITOR ((uint32_t)0) /* the owner of compositor nodes and outputs */
#define IR_CLIENT_NONE UINT32_MAX

/* An empty tree (a root only), no seat, no client but the compositor. NULL only when
 * memory runs out. */
struct ir_router *ir_router_create(void);
/* Frees the router, its tree, seats, handlers and trace. NULL is allowed. The handle is
 * dead afterwards (as a freed pointer is). */
void ir_router_destroy(struct ir_router *router);

/* ---------------------------------------------------------------------------------------
 * Clients: one per Wayland client (wl_client). A client's surfaces take pointer, keyboard
 * or touch events only once it has bound the device on the seat (ir_seat_set_bound).
 */
enum ir_error ir_router_add_client(struct ir_router *router, const char *name, uint32_t *client);
/* The client went away: its nodes are destroyed and nothing is delivered to it again. */
enum ir_error ir_router_remove_client(struct ir_router *router, uint32_t client);

/* ---------------------------------------------------------------------------------------
 * The tree
 */
enum ir_node_kind {
    IR_NODE_OUTPUT = 1,     /* a monitor's area of the layout; clips its children */
    IR_NODE_COMPOSITOR = 2, /* the compositor's own: panel, decoration, background; clips */
    IR_NODE_TOPLEVEL = 3,   /* xdg_toplevel's surface */
    IR_NODE_SUBSURFACE = 4, /* wl_subsurface: may stick out of its parent and take input there */
    IR_NODE_POPUP = 5,      /* xdg_popup's surface */
    IR_NODE_LAYER = 6,      /* zwlr_layer_surface_v1 */
    IR_NODE_LOCK = 7        /* ext_session_lock_surface_v1 */
};

enum ir_child_layer {
    IR_LAYER_ABOVE = 0, /* above the parent's own content (the usual place) */
    IR_LAYER_BELOW = 1  /* below it (a subsurface placed below its parent) */
};

struct ir_rect {
    int32_t x, y; /* relative to the parent node */
    int32_t width, height;
};

/* Creates a node as the topmost child of `parent` (IR_NODE_NONE: the root) on `layer`.
 * Client kinds need a client added with ir_router_add_client; OUTPUT and COMPOSITOR
 * nodes take IR_CLIENT_COMPOSITOR. A new node is mapped. `name` (may be NULL) shows in
 * the trace. */
enum ir_error ir_router_create_node(struct ir_router *router, enum ir_node_kind kind, uint32_t client,
                                    uint64_t parent, enum ir_child_layer layer, struct ir_rect frame,
                                    const char *name, uint64_t *node);
/* Destroys the node and its subtree; their ids become IR_ERROR_DESTROYED_NODE. Whatever
 * they held (pointer focus, keyboard focus, touch points) falls back as the design says. */
enum ir_error ir_router_destroy_node(struct ir_router *router, uint64_t node);

enum ir_error ir_router_set_frame(struct ir_router *router, uint64_t node, struct ir_rect frame);
enum ir_error ir_router_move_node(struct ir_router *router, uint64_t node, int32_t x, int32_t y);
enum ir_error ir_router_raise_node(struct ir_router *router, uint64_t node); /* top of its siblings */
enum ir_error ir_router_lower_node(struct ir_router *router, uint64_t node); /* bottom of them */
/* Reparents (IR_NODE_NONE: to the root); IR_ERROR_INVALID_ARGUMENT when `parent` is the
 * node itself or inside its subtree. */
enum ir_error ir_router_set_parent(struct ir_router *router, uint64_t node, uint64_t parent,
                                   enum ir_child_layer layer);
enum ir_error ir_router_set_mapped(struct ir_router *router, uint64_t node, bool mapped);
/* Input region in node-local coordinates, clipped to the node (the Wayland rule):
 * `count` rectangles, their union. rects NULL and count 0: no region set, the whole node
 * takes input (wl_surface.set_input_region(NULL)). A region with count 0 and rects not
 * NULL is empty: the node takes no input. */
enum ir_error ir_router_set_input_region(struct ir_router *router, uint64_t node, const struct ir_rect *rects,
                                         size_t count);
/* Whether a point outside the node also skips the node's children. */
enum ir_error ir_router_set_clips_children(struct ir_router *router, uint64_t node, bool clips);
enum ir_error ir_router_set_accepts_input(struct ir_router *router, uint64_t node, bool accepts);

/* Reading the tree. */
enum ir_error ir_router_node_client(const struct ir_router *router, uint64_t node, uint32_t *client);
enum ir_error ir_router_node_alive(const struct ir_router *router, uint64_t node, bool *alive);
/* The node under a layout point and the point in node-local coordinates; IR_NODE_NONE
 * when nothing takes input there. */
enum ir_error ir_router_hit_test(const struct ir_router *router, double x, double y, uint64_t *node,
                                 double *local_x, double *local_y);

/* ---------------------------------------------------------------------------------------
 * Compositor node handlers: what a COMPOSITOR node (a panel, a title bar) does with the
 * events that reach it. IR_HANDLED takes the event; IR_NOT_HANDLED passes it to the next
 * responder (the parent node, ..., the seat), then it is dropped. `point_x/point_y` are
 * node-local.
 */
enum ir_disposition { IR_NOT_HANDLED = 0, IR_HANDLED = 1 };

enum ir_node_event_kind {
    IR_NODE_EVENT_POINTER_ENTER = 1,
    IR_NODE_EVENT_POINTER_LEAVE = 2,
    IR_NODE_EVENT_POINTER_MOTION = 3,
    IR_NODE_EVENT_POINTER_BUTTON = 4,
    IR_NODE_EVENT_POINTER_AXIS = 5,
    IR_NODE_EVENT_KEYBOARD_ENTER = 6,
    IR_NODE_EVENT_KEYBOARD_LEAVE = 7,
    IR_NODE_EVENT_KEY = 8,
    IR_NODE_EVENT_TOUCH_DOWN = 9,
    IR_NODE_EVENT_TOUCH_MOTION = 10,
    IR_NODE_EVENT_TOUCH_UP = 11,
    IR_NODE_EVENT_TOUCH_CANCEL = 12,
    IR_NODE_EVENT_OTHER = 13 /* gestures, tablets, actions: not described further here */
};

struct ir_node_event {
    enum ir_node_event_kind kind;
    double point_x, point_y; /* node-local; enter, motion, button, touch down and motion */
    uint32_t button;         /* Linux code, BTN_LEFT = 0x110 */
    uint32_t key;            /* evdev code, KEY_A = 30 */
    uint32_t keysym;         /* the key's keysym when the seat has a keymap, else 0 */
    uint32_t state;          /* 1 pressed, 0 released (button, key) */
    int32_t touch_id;        /* libinput's seat slot */
    uint32_t axis;           /* enum ir_axis */
    double axis_value;
};

typedef enum ir_disposition (*ir_node_handler_fn)(void *user_data, uint64_t node, const struct ir_node_event *event);

/* Sets (or, with handler NULL, removes) the node's handler. The library keeps
 * `user_data` and never frees it; the handler goes with its node. */
enum ir_error ir_router_set_node_handler(struct ir_router *router, uint64_t node, ir_node_handler_fn handler,
                                         void *user_data);

/* ---------------------------------------------------------------------------------------
 * Seats and devices
 */
enum ir_device_capability {
    IR_DEVICE_KEYBOARD = 1 << 0,
    IR_DEVICE_POINTER = 1 << 1,
    IR_DEVICE_TOUCH = 1 << 2,
    IR_DEVICE_TABLET_TOOL = 1 << 3,
    IR_DEVICE_TABLET_PAD = 1 << 4,
    IR_DEVICE_GESTURE = 1 << 5,
    IR_DEVICE_SWITCH = 1 << 6
};

enum ir_bound_device {
    IR_BOUND_POINTER = 1, /* wl_seat.get_pointer */
    IR_BOUND_KEYBOARD = 2,
    IR_BOUND_TOUCH = 4
};

enum ir_error ir_router_add_seat(struct ir_router *router, const char *name, uint32_t *seat);
/* A device appeared (`capabilities`: enum ir_device_capability bits) or went away. Its
 * id is the caller's (libinput's device index, a counter). Removing releases what it
 * held: the release of a held button or key reaches whoever got the press, its touch
 * points are cancelled. */
enum ir_error ir_seat_add_device(struct ir_router *router, uint32_t seat, uint32_t device, uint32_t capabilities);
enum ir_error ir_seat_remove_device(struct ir_router *router, uint32_t seat, uint32_t device, uint64_t time_usec);
/* Which devices the client bound on this seat (enum ir_bound_device bits), replacing
 * what was set before. */
enum ir_error ir_seat_set_bound(struct ir_router *router, uint32_t seat, uint32_t client, uint32_t bound);
/* Gives the keyboard focus to a node that can take it (toplevel, popup, layer, lock;
 * IR_NODE_NONE clears it): leave, enter and modifiers are queued. */
enum ir_error ir_seat_set_keyboard_focus(struct ir_router *router, uint32_t seat, uint64_t node);
enum ir_error ir_seat_keyboard_focus(const struct ir_router *router, uint32_t seat, uint64_t *node);
enum ir_error ir_seat_pointer_focus(const struct ir_router *router, uint32_t seat, uint64_t *node);
/* The cursor in layout coordinates (draw it there). */
enum ir_error ir_seat_cursor(const struct ir_router *router, uint32_t seat, double *x, double *y);

/* ---------------------------------------------------------------------------------------
 * Input events: libinput's, one struct for all. ir_recording_next fills the same struct.
 */
enum ir_event_type {
    IR_EVENT_DEVICE_ADDED = 1,          /* capabilities */
    IR_EVENT_DEVICE_REMOVED = 2,
    IR_EVENT_POINTER_MOTION = 3,        /* dx, dy, unaccel_dx, unaccel_dy */
    IR_EVENT_POINTER_MOTION_ABSOLUTE = 4, /* x, y in 0...1 of the layout */
    IR_EVENT_POINTER_BUTTON = 5,        /* button, state */
    IR_EVENT_POINTER_AXIS = 6,          /* axis_source, has_vertical..., value120s */
    IR_EVENT_KEYBOARD_KEY = 7,          /* key, state */
    IR_EVENT_TOUCH_DOWN = 8,            /* slot, x, y in 0...1 of the layout */
    IR_EVENT_TOUCH_MOTION = 9,          /* slot, x, y */
    IR_EVENT_TOUCH_UP = 10,             /* slot */
    IR_EVENT_TOUCH_CANCEL = 11,         /* slot */
    IR_EVENT_TOUCH_FRAME = 12,
    IR_EVENT_GESTURE = 13,              /* gesture_kind, gesture_phase, fingers, dx, dy, scale, rotation, cancelled */
    IR_EVENT_SWITCH = 14                /* switch_kind, state (1 on) */
};

enum ir_axis { IR_AXIS_VERTICAL = 0, IR_AXIS_HORIZONTAL = 1 };
enum ir_axis_source { IR_AXIS_SOURCE_WHEEL = 0, IR_AXIS_SOURCE_FINGER = 1, IR_AXIS_SOURCE_CONTINUOUS = 2,
                      IR_AXIS_SOURCE_WHEEL_TILT = 3 };
enum ir_gesture_kind { IR_GESTURE_SWIPE = 0, IR_GESTURE_PINCH = 1, IR_GESTURE_HOLD = 2 };
enum ir_gesture_phase { IR_GESTURE_BEGIN = 0, IR_GESTURE_UPDATE = 1, IR_GESTURE_END = 2 };
enum ir_switch_kind { IR_SWITCH_LID = 0, IR_SWITCH_TABLET_MODE = 1, IR_SWITCH_KEYPAD_SLIDE = 2 };

struct ir_event {
    enum ir_event_type type;
    uint64_t time_usec;
    uint32_t device;
    uint32_t capabilities;         /* DEVICE_ADDED: enum ir_device_capability bits */
    double dx, dy;                 /* POINTER_MOTION (accelerated), GESTURE */
    double unaccel_dx, unaccel_dy; /* POINTER_MOTION */
    double x, y;                   /* absolute motion and touch: 0...1 of the layout's extent */
    uint32_t button;               /* Linux code */
    uint32_t key;                  /* evdev code */
    uint32_t state;                /* 1 pressed / on, 0 released / off */
    int32_t slot;                  /* touch: libinput's seat slot */
    uint32_t axis_source;          /* enum ir_axis_source */
    bool has_vertical, has_horizontal;
    double vertical, horizontal;              /* scroll in logical pixels */
    int32_t vertical_value120, horizontal_value120; /* wheel: 120 per detent */
    uint32_t gesture_kind, gesture_phase;     /* enum ir_gesture_kind, ir_gesture_phase */
    int32_t fingers;
    double scale, rotation;
    bool cancelled;
    uint32_t switch_kind;          /* enum ir_switch_kind */
};

/* Routes one event on the seat. Deliveries are queued: drain them after each event (or
 * each batch). IR_ERROR_UNKNOWN_DEVICE for any event but DEVICE_ADDED from a device the
 * seat does not have (never added, or removed): nothing is routed. */
enum ir_error ir_router_handle_event(struct ir_router *router, uint32_t seat, const struct ir_event *event);

/* ---------------------------------------------------------------------------------------
 * Deliveries: what each client is told (and what the compositor side took or dropped).
 * Each maps onto one wlroots call:
 *   POINTER_ENTER   wlr_seat_pointer_notify_enter(seat, surface, x, y)
 *   POINTER_LEAVE   wlr_seat_pointer_notify_clear_focus (or enter on the next surface)
 *   POINTER_MOTION  wlr_seat_pointer_notify_motion(seat, time_msec, x, y)
 *   POINTER_BUTTON  wlr_seat_pointer_notify_button(seat, time_msec, button, state)
 *   POINTER_AXIS    wlr_seat_pointer_notify_axis(seat, time_msec, axis, value, value120, source, ...)
 *   POINTER_FRAME   wlr_seat_pointer_notify_frame(seat)
 *   KEYBOARD_ENTER  wlr_seat_keyboard_notify_enter(seat, surface, keys, key_count, &modifiers)
 *   KEYBOARD_LEAVE  wlr_seat_keyboard_notify_clear_focus
 *   KEY             wlr_seat_keyboard_notify_key(seat, time_msec, key, state)
 *   MODIFIERS       wlr_seat_keyboard_notify_modifiers(seat, &{depressed, latched, locked, group})
 *   TOUCH_DOWN      wlr_seat_touch_notify_down(seat, surface, time_msec, touch_id, x, y)
 *   TOUCH_MOTION    wlr_seat_touch_notify_motion(seat, time_msec, touch_id, x, y)
 *   TOUCH_UP        wlr_seat_touch_notify_up(seat, time_msec, touch_id)
 *   TOUCH_FRAME     wlr_seat_touch_notify_frame(seat)
 *   TOUCH_CANCEL    wlr_seat_touch_notify_cancel(seat, client)
 * x and y are surface-local. A delivery to a node destroyed after it was queued is not
 * passed on (nothing may be sent to a destroyed surface).
 */
enum ir_delivery_kind {
    IR_DELIVERY_POINTER_ENTER = 1,
    IR_DELIVERY_POINTER_LEAVE = 2,
    IR_DELIVERY_POINTER_MOTION = 3,
    IR_DELIVERY_POINTER_BUTTON = 4,
    IR_DELIVERY_POINTER_AXIS = 5,
    IR_DELIVERY_POINTER_AXIS_STOP = 6,
    IR_DELIVERY_POINTER_FRAME = 7,
    IR_DELIVERY_KEYBOARD_ENTER = 8,
    IR_DELIVERY_KEYBOARD_LEAVE = 9,
    IR_DELIVERY_KEY = 10,
    IR_DELIVERY_MODIFIERS = 11,
    IR_DELIVERY_TOUCH_DOWN = 12,
    IR_DELIVERY_TOUCH_MOTION = 13,
    IR_DELIVERY_TOUCH_UP = 14,
    IR_DELIVERY_TOUCH_FRAME = 15,
    IR_DELIVERY_TOUCH_CANCEL = 16,
    IR_DELIVERY_GESTURE = 17,     /* gesture_kind, gesture_phase, fingers, dx, dy, scale, rotation */
    IR_DELIVERY_HANDLED = 18,     /* a compositor node's handler took an event (node: that node) */
    IR_DELIVERY_BINDING = 19,     /* a key binding consumed a press (key; binding: its index) */
    IR_DELIVERY_SWITCH = 20,      /* switch_kind, state */
    IR_DELIVERY_DROPPED = 21,     /* no responder took an event */
    IR_DELIVERY_OTHER = 22        /* tablets, pads, popups, constraints...: see the trace */
};

struct ir_delivery {
    enum ir_delivery_kind kind;
    uint32_t seat;
    uint32_t client;      /* the client the event goes to; IR_CLIENT_COMPOSITOR for compositor nodes */
    uint64_t node;        /* the surface's node; IR_NODE_NONE for frames and cancels */
    double x, y;          /* surface-local: enter, motion, touch down and motion */
    uint32_t serial;      /* enter, leave, button, key, modifiers, touch down and up */
    uint64_t time_usec;
    uint32_t time_msec;   /* time_usec / 1000, truncated to 32 bits as Wayland's timestamps */
    uint32_t button;      /* Linux code */
    uint32_t key;         /* evdev code (not +8) */
    uint32_t state;       /* 1 pressed, 0 released; SWITCH: 1 on */
    uint32_t axis;        /* enum ir_axis */
    uint32_t axis_source; /* enum ir_axis_source */
    double axis_value;
    int32_t value120;
    int32_t touch_id;     /* libinput's seat slot */
    uint32_t depressed, latched, locked, group; /* MODIFIERS */
    const uint32_t *keys; /* KEYBOARD_ENTER: the keys held that this client got the press of */
    size_t key_count;     /*   valid during the callback only */
    uint32_t gesture_kind, gesture_phase;
    int32_t fingers;
    double dx, dy, scale, rotation;
    int32_t binding;      /* BINDING: index in the order bindings were added on the seat */
    uint32_t switch_kind;
};

typedef void (*ir_delivery_fn)(void *user_data, const struct ir_delivery *delivery);

/* Hands every queued delivery to `callback` in order and empties the queue; `*count`
 * (may be NULL) is how many were handed over. Also feeds the trace (when on) and the
 * invariant checker. */
enum ir_error ir_router_drain(struct ir_router *router, ir_delivery_fn callback, void *user_data, size_t *count);

/* ---------------------------------------------------------------------------------------
 * Keyboard: keymaps by RMLVO names (as setxkbmap), and key bindings.
 */
struct ir_rule_names {
    const char *rules;   /* NULL or "": "evdev" */
    const char *model;   /* NULL or "": "pc105" */
    const char *layout;  /* NULL or "": "us"; comma-separated for several groups */
    const char *variant; /* NULL: "" */
    const char *options; /* NULL: "" ("ctrl:nocaps,grp:alt_shift_toggle") */
};

/* Builds the keymap (never from XKB_DEFAULT_* variables: names NULL is evdev/pc105/us)
 * and gives the seat a fresh keyboard state with it; modifiers follow the keys from
 * then on. IR_ERROR_KEYMAP when xkbcommon refuses the names (ir_router_last_error_text
 * says why). */
enum ir_error ir_seat_set_keymap(struct ir_router *router, uint32_t seat, const struct ir_rule_names *names);
/* The seat's keymap as xkbcomp text (what wl_keyboard.keymap serves). */
enum ir_error ir_seat_keymap_text(const struct ir_router *router, uint32_t seat, char *buffer, size_t size,
                                  size_t *length);

typedef void (*ir_binding_fn)(void *user_data, uint32_t seat, int32_t binding);

/* Adds a binding ("Super+Return", "Ctrl+Alt+F2", docs/keyboard.md) checked on every
 * press before the focus sees it; a press it takes, and that key's release, reach no
 * client. `*binding` (may be NULL) is its index. Needs a keymap on the seat. */
enum ir_error ir_seat_add_binding(struct ir_router *router, uint32_t seat, const char *spec, ir_binding_fn callback,
                                  void *user_data, int32_t *binding);
enum ir_error ir_seat_remove_bindings(struct ir_router *router, uint32_t seat);

/* The last error's detail for this router (a keymap's or a binding's reason), "" when
 * none. Same convention as the other text functions. */
enum ir_error ir_router_last_error_text(const struct ir_router *router, char *buffer, size_t size, size_t *length);

/* ---------------------------------------------------------------------------------------
 * `libinput record` files: the events a recording holds, one at a time, to feed with
 * ir_router_handle_event. Device ids are the recording's device numbers (0, 1, ...);
 * each device's DEVICE_ADDED comes first.
 */
struct ir_recording;

/* NULL on failure, with `*error` (may be NULL) IR_ERROR_NULL_ARGUMENT or
 * IR_ERROR_RECORDING; ir_recording_open_message gives the reason with the line. */
struct ir_recording *ir_recording_open(const char *path, enum ir_error *error);
/* As ir_recording_open; on failure the reason ("file:line:column: message") goes into
 * `message` (snprintf's convention). */
struct ir_recording *ir_recording_open_message(const char *path, enum ir_error *error, char *message,
                                               size_t size);
/* The next event, or IR_ERROR_END_OF_RECORDING. Tablet and pad events, which this header
 * does not describe, are skipped (ir_recording_counts says how many). */
enum ir_error ir_recording_next(struct ir_recording *recording, struct ir_event *event);
/* How many events ir_recording_next gives in all, and how many it skips. */
enum ir_error ir_recording_counts(const struct ir_recording *recording, size_t *events, size_t *skipped);
void ir_recording_close(struct ir_recording *recording);

/* ---------------------------------------------------------------------------------------
 * Trace and invariants (for tests and bug reports; docs/trace.md)
 */
/* Turns the text trace on or off; drained deliveries are written to it as lines while on. */
enum ir_error ir_router_set_trace(struct ir_router *router, bool enabled);
enum ir_error ir_router_trace_text(const struct ir_router *router, char *buffer, size_t size, size_t *length);
enum ir_error ir_router_clear_trace(struct ir_router *router);

/* The invariant checker watches every drained delivery (enter/leave pairing, nothing to
 * destroyed nodes, keys only to the focus...). `*count` is how many violations it saw
 * since the router was created, their text goes into `buffer`, one per line. */
enum ir_error ir_router_check_invariants(const struct ir_router *router, size_t *count, char *buffer, size_t size,
                                         size_t *length);
/* Checks are on from ir_router_create. They keep a model of every surface's state and
 * hash per delivery: a compositor that does not test may turn them off. Off is for good:
 * a checker that missed deliveries would report violations that are not there, so
 * `enabled` true after false is IR_ERROR_INVALID_ARGUMENT (since 1.1). */
enum ir_error ir_router_set_invariant_checks(struct ir_router *router, bool enabled);

#ifdef __cplusplus
}
#endif

#endif /* INPUT_ROUTER_H */
