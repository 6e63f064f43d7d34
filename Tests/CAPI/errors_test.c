/* Every caller's mistake the header names comes back as its error code: the process
 * neither traps nor changes state. The test runs under ASan and UBSan, so a crash or an
 * out-of-bounds access in the library's handling of a mistake fails it too. */
#include "harness.h"

#include <math.h>

static struct ir_router *router;
static uint32_t seat, client;
static uint64_t output, window, panel;

static void setup(void) {
    router = ir_router_create();
    CHECK(router != NULL);
    CHECK_OK(ir_router_add_seat(router, "seat0", &seat));
    CHECK_OK(ir_router_add_client(router, "c", &client));
    CHECK_OK(ir_router_create_node(router, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 800, 600}, "out", &output));
    CHECK_OK(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 400, 300}, "w", &window));
    CHECK_OK(ir_router_create_node(router, IR_NODE_COMPOSITOR, IR_CLIENT_COMPOSITOR, output, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 500, 800, 100}, "panel", &panel));
    CHECK_OK(ir_seat_set_bound(router, seat, client, IR_BOUND_POINTER | IR_BOUND_KEYBOARD));
}

static void ignore_delivery(void *user_data, const struct ir_delivery *delivery) {
    (void)user_data;
    (void)delivery;
}
static void ignore_binding(void *user_data, uint32_t s, int32_t b) {
    (void)user_data;
    (void)s;
    (void)b;
}
static enum ir_disposition take_all(void *user_data, uint64_t node, const struct ir_node_event *event) {
    (void)user_data;
    (void)node;
    (void)event;
    return IR_HANDLED;
}

static void test_null_handle(void) {
    uint32_t u = 0;
    uint64_t n = 0;
    size_t z = 0;
    bool flag = false;
    double x = 0, y = 0;
    int32_t i = 0;
    struct ir_event e = {.type = IR_EVENT_POINTER_MOTION};
    struct ir_rect rect = {0, 0, 1, 1};
    char buffer[4];
    CHECK_ERR(ir_router_add_client(NULL, "x", &u), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_remove_client(NULL, 1), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_create_node(NULL, IR_NODE_OUTPUT, 0, 0, IR_LAYER_ABOVE, rect, "x", &n), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_destroy_node(NULL, 1), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_frame(NULL, 1, rect), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_move_node(NULL, 1, 0, 0), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_raise_node(NULL, 1), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_lower_node(NULL, 1), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_parent(NULL, 1, 0, IR_LAYER_ABOVE), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_mapped(NULL, 1, true), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_input_region(NULL, 1, NULL, 0), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_clips_children(NULL, 1, true), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_accepts_input(NULL, 1, true), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_node_client(NULL, 1, &u), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_node_alive(NULL, 1, &flag), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_hit_test(NULL, 0, 0, &n, &x, &y), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_node_handler(NULL, 1, take_all, NULL), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_add_seat(NULL, "s", &u), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_add_device(NULL, 0, 1, IR_DEVICE_POINTER), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_remove_device(NULL, 0, 1, 0), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_set_bound(NULL, 0, 1, IR_BOUND_POINTER), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_set_keyboard_focus(NULL, 0, 1), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_keyboard_focus(NULL, 0, &n), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_pointer_focus(NULL, 0, &n), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_cursor(NULL, 0, &x, &y), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_handle_event(NULL, 0, &e), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_drain(NULL, ignore_delivery, NULL, &z), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_set_keymap(NULL, 0, NULL), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_keymap_text(NULL, 0, buffer, sizeof buffer, &z), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_add_binding(NULL, 0, "Super+a", ignore_binding, NULL, &i), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_seat_remove_bindings(NULL, 0), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_last_error_text(NULL, buffer, sizeof buffer, &z), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_trace(NULL, true), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_trace_text(NULL, buffer, sizeof buffer, &z), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_clear_trace(NULL), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_check_invariants(NULL, &z, buffer, sizeof buffer, &z), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_router_set_invariant_checks(NULL, false), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_recording_next(NULL, &e), IR_ERROR_NULL_HANDLE);
    CHECK_ERR(ir_recording_counts(NULL, &z, &z), IR_ERROR_NULL_HANDLE);
    ir_router_destroy(NULL);  /* allowed, does nothing */
    ir_recording_close(NULL); /* the same */
}

static void test_null_arguments(void) {
    struct ir_rect rect = {0, 0, 10, 10};
    double x = 0;
    CHECK_ERR(ir_router_add_client(router, "x", NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_add_seat(router, "x", NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE, rect, "x", NULL),
              IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_set_input_region(router, window, NULL, 2), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_node_client(router, window, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_node_alive(router, window, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_hit_test(router, 1, 1, NULL, &x, &x), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_seat_keyboard_focus(router, seat, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_seat_pointer_focus(router, seat, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_seat_cursor(router, seat, NULL, &x), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_handle_event(router, seat, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_drain(router, NULL, NULL, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_trace_text(router, NULL, 10, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_router_check_invariants(router, NULL, NULL, 0, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_OK(ir_seat_set_keymap(router, seat, NULL));
    CHECK_ERR(ir_seat_add_binding(router, seat, NULL, ignore_binding, NULL, NULL), IR_ERROR_NULL_ARGUMENT);
    CHECK_ERR(ir_seat_add_binding(router, seat, "Super+a", NULL, NULL, NULL), IR_ERROR_NULL_ARGUMENT);
}

static void test_unknown_and_destroyed_nodes(void) {
    struct ir_rect rect = {0, 0, 10, 10};
    uint64_t never = ((uint64_t)0 << 32) | 4096;        /* a slot never used */
    uint64_t future = ((uint64_t)7 << 32) | (window & 0xffffffff); /* a generation not yet reached */
    uint32_t u = 0;
    bool alive = true;
    uint64_t n = 0;
    CHECK_ERR(ir_router_destroy_node(router, never), IR_ERROR_UNKNOWN_NODE);
    CHECK_ERR(ir_router_move_node(router, future, 1, 1), IR_ERROR_UNKNOWN_NODE);
    CHECK_ERR(ir_router_node_client(router, never, &u), IR_ERROR_UNKNOWN_NODE);
    CHECK_ERR(ir_router_node_alive(router, never, &alive), IR_ERROR_UNKNOWN_NODE);
    CHECK_ERR(ir_router_set_node_handler(router, never, take_all, NULL), IR_ERROR_UNKNOWN_NODE);
    CHECK_ERR(ir_seat_set_keyboard_focus(router, seat, never), IR_ERROR_UNKNOWN_NODE);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, never, IR_LAYER_ABOVE, rect, "x", &n),
              IR_ERROR_UNKNOWN_NODE);
    /* The root is only a parent. */
    CHECK_ERR(ir_router_destroy_node(router, IR_NODE_NONE), IR_ERROR_INVALID_ARGUMENT);

    /* A destroyed node, its subsurface with it, and the slot reused by a new node. */
    uint64_t doomed = 0, child = 0, reused = 0;
    CHECK_OK(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE, rect, "d", &doomed));
    CHECK_OK(ir_router_create_node(router, IR_NODE_SUBSURFACE, client, doomed, IR_LAYER_BELOW, rect, "s", &child));
    CHECK_OK(ir_router_destroy_node(router, doomed));
    CHECK_ERR(ir_router_destroy_node(router, doomed), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_set_frame(router, child, rect), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_raise_node(router, doomed), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_lower_node(router, doomed), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_set_mapped(router, doomed, true), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_set_input_region(router, doomed, &rect, 1), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_set_clips_children(router, doomed, true), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_set_accepts_input(router, doomed, true), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_set_parent(router, doomed, output, IR_LAYER_ABOVE), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_set_parent(router, window, doomed, IR_LAYER_ABOVE), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_node_client(router, doomed, &u), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_seat_set_keyboard_focus(router, seat, doomed), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_POPUP, client, doomed, IR_LAYER_ABOVE, rect, "p", &n),
              IR_ERROR_DESTROYED_NODE);
    CHECK_OK(ir_router_node_alive(router, doomed, &alive));
    CHECK(alive == false);
    CHECK_OK(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE, rect, "r", &reused));
    CHECK(reused != doomed && reused != child);
    CHECK_ERR(ir_router_move_node(router, doomed, 1, 1), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_move_node(router, child, 1, 1), IR_ERROR_DESTROYED_NODE);
    CHECK_OK(ir_router_move_node(router, reused, 1, 1));
    CHECK_OK(ir_router_node_alive(router, reused, &alive));
    CHECK(alive == true);

    /* A removed client's nodes are destroyed with it; the client is unknown afterwards. */
    uint32_t gone = 0;
    uint64_t its_window = 0;
    CHECK_OK(ir_router_add_client(router, "gone", &gone));
    CHECK_OK(ir_router_create_node(router, IR_NODE_TOPLEVEL, gone, output, IR_LAYER_ABOVE, rect, "g", &its_window));
    CHECK_OK(ir_router_remove_client(router, gone));
    CHECK_ERR(ir_router_move_node(router, its_window, 1, 1), IR_ERROR_DESTROYED_NODE);
    CHECK_ERR(ir_router_remove_client(router, gone), IR_ERROR_UNKNOWN_CLIENT);
    CHECK_ERR(ir_seat_set_bound(router, seat, gone, IR_BOUND_POINTER), IR_ERROR_UNKNOWN_CLIENT);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_TOPLEVEL, gone, output, IR_LAYER_ABOVE, rect, "g", &n),
              IR_ERROR_UNKNOWN_CLIENT);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_TOPLEVEL, 999, output, IR_LAYER_ABOVE, rect, "g", &n),
              IR_ERROR_UNKNOWN_CLIENT);
    CHECK_ERR(ir_router_remove_client(router, IR_CLIENT_COMPOSITOR), IR_ERROR_UNKNOWN_CLIENT);
}

static void test_unknown_devices_and_seats(void) {
    struct ir_event motion = {.type = IR_EVENT_POINTER_MOTION, .device = 5, .dx = 1, .dy = 1};
    struct ir_event key = {.type = IR_EVENT_KEYBOARD_KEY, .device = 6, .key = 30, .state = 1};
    /* Never added. */
    CHECK_ERR(ir_router_handle_event(router, seat, &motion), IR_ERROR_UNKNOWN_DEVICE);
    CHECK_ERR(ir_seat_remove_device(router, seat, 5, 0), IR_ERROR_UNKNOWN_DEVICE);
    /* Added, then removed: its events are refused, and nothing was routed. */
    CHECK_OK(ir_seat_add_device(router, seat, 5, IR_DEVICE_POINTER));
    CHECK_OK(ir_router_handle_event(router, seat, &motion));
    CHECK_OK(ir_seat_remove_device(router, seat, 5, 10));
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    CHECK_OK(ir_seat_cursor(router, seat, &x0, &y0));
    CHECK_ERR(ir_router_handle_event(router, seat, &motion), IR_ERROR_UNKNOWN_DEVICE);
    CHECK_OK(ir_seat_cursor(router, seat, &x1, &y1));
    CHECK(x0 == x1 && y0 == y1);
    CHECK_ERR(ir_seat_remove_device(router, seat, 5, 20), IR_ERROR_UNKNOWN_DEVICE);
    CHECK_ERR(ir_router_handle_event(router, seat, &key), IR_ERROR_UNKNOWN_DEVICE);
    /* A device is per seat. */
    uint32_t second = 0;
    CHECK_OK(ir_router_add_seat(router, "seat1", &second));
    CHECK_OK(ir_seat_add_device(router, second, 6, IR_DEVICE_KEYBOARD));
    CHECK_ERR(ir_router_handle_event(router, seat, &key), IR_ERROR_UNKNOWN_DEVICE);
    CHECK_OK(ir_router_handle_event(router, second, &key));

    uint64_t n = 0;
    double x = 0;
    CHECK_ERR(ir_router_handle_event(router, 77, &motion), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_add_device(router, 77, 1, IR_DEVICE_POINTER), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_remove_device(router, 77, 1, 0), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_set_bound(router, 77, client, IR_BOUND_POINTER), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_set_keyboard_focus(router, 77, window), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_keyboard_focus(router, 77, &n), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_pointer_focus(router, 77, &n), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_cursor(router, 77, &x, &x), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_set_keymap(router, 77, NULL), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_keymap_text(router, 77, NULL, 0, NULL), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_add_binding(router, 77, "Super+a", ignore_binding, NULL, NULL), IR_ERROR_UNKNOWN_SEAT);
    CHECK_ERR(ir_seat_remove_bindings(router, 77), IR_ERROR_UNKNOWN_SEAT);
    struct recorded r;
    drain_into(router, &r);
}

static void test_invalid_arguments(void) {
    struct ir_rect rect = {0, 0, 10, 10};
    uint64_t n = 0;
    CHECK_ERR(ir_router_create_node(router, (enum ir_node_kind)99, client, output, IR_LAYER_ABOVE, rect, "x", &n),
              IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, (enum ir_child_layer)5, rect, "x", &n),
              IR_ERROR_INVALID_ARGUMENT);
    /* A client surface needs a client; a compositor node is the compositor's. */
    CHECK_ERR(ir_router_create_node(router, IR_NODE_TOPLEVEL, IR_CLIENT_COMPOSITOR, output, IR_LAYER_ABOVE, rect,
                                    "x", &n),
              IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_COMPOSITOR, client, output, IR_LAYER_ABOVE, rect, "x", &n),
              IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE,
                                    (struct ir_rect){0, 0, -1, 10}, "x", &n),
              IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_router_set_frame(router, window, (struct ir_rect){0, 0, 10, -5}), IR_ERROR_INVALID_ARGUMENT);
    /* A node cannot go under itself or its own subtree. */
    uint64_t sub = 0;
    CHECK_OK(ir_router_create_node(router, IR_NODE_SUBSURFACE, client, window, IR_LAYER_ABOVE, rect, "s", &sub));
    CHECK_ERR(ir_router_set_parent(router, window, sub, IR_LAYER_ABOVE), IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_router_set_parent(router, window, window, IR_LAYER_ABOVE), IR_ERROR_INVALID_ARGUMENT);
    /* The keyboard focus only on what can take it; handlers only on compositor nodes. */
    CHECK_ERR(ir_seat_set_keyboard_focus(router, seat, sub), IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_seat_set_keyboard_focus(router, seat, panel), IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_router_set_node_handler(router, window, take_all, NULL), IR_ERROR_INVALID_ARGUMENT);
    CHECK_ERR(ir_seat_set_bound(router, seat, client, 0x100), IR_ERROR_INVALID_ARGUMENT);
    uint64_t hit = 0;
    double x = 0;
    CHECK_ERR(ir_router_hit_test(router, NAN, 0, &hit, &x, &x), IR_ERROR_INVALID_ARGUMENT);

    CHECK_OK(ir_seat_add_device(router, seat, 1, IR_DEVICE_POINTER | IR_DEVICE_KEYBOARD));
    struct ir_event bad[] = {
        {.type = 0, .device = 1},
        {.type = (enum ir_event_type)99, .device = 1},
        {.type = IR_EVENT_POINTER_MOTION, .device = 1, .dx = NAN},
        {.type = IR_EVENT_POINTER_MOTION, .device = 1, .dy = INFINITY},
        {.type = IR_EVENT_POINTER_MOTION_ABSOLUTE, .device = 1, .x = NAN},
        {.type = IR_EVENT_POINTER_BUTTON, .device = 1, .button = 0x110, .state = 2},
        {.type = IR_EVENT_KEYBOARD_KEY, .device = 1, .key = 30, .state = 7},
        {.type = IR_EVENT_POINTER_AXIS, .device = 1, .axis_source = 9, .has_vertical = true},
        {.type = IR_EVENT_POINTER_AXIS, .device = 1, .has_vertical = true, .vertical = NAN},
        {.type = IR_EVENT_TOUCH_DOWN, .device = 1, .x = NAN},
        {.type = IR_EVENT_GESTURE, .device = 1, .gesture_kind = 3},
        {.type = IR_EVENT_SWITCH, .device = 1, .switch_kind = 3},
        {.type = IR_EVENT_DEVICE_ADDED, .device = 2, .capabilities = 1u << 9},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_ERR(ir_router_handle_event(router, seat, &bad[i]), IR_ERROR_INVALID_ARGUMENT);
    struct recorded r;
    drain_into(router, &r);
    CHECK(r.count == 0); /* nothing was routed */
}

/* Callbacks may read but not change the router that called them. */
struct reentry {
    struct ir_router *router;
    enum ir_error destroy, handle, drain, read, trace, checks;
    uint32_t client_seen;
    int calls;
};

static enum ir_disposition reentering_handler(void *user_data, uint64_t node, const struct ir_node_event *event) {
    struct reentry *re = user_data;
    struct ir_event motion = {.type = IR_EVENT_POINTER_MOTION, .device = 1, .dx = 1};
    size_t length = 0;
    (void)event;
    re->calls++;
    re->destroy = ir_router_destroy_node(re->router, node);
    re->handle = ir_router_handle_event(re->router, 0, &motion);
    re->drain = ir_router_drain(re->router, ignore_delivery, NULL, NULL);
    re->read = ir_router_node_client(re->router, node, &re->client_seen);
    re->trace = ir_router_trace_text(re->router, NULL, 0, &length);
    re->checks = ir_router_set_invariant_checks(re->router, false);
    return IR_HANDLED;
}

static void reentering_drain(void *user_data, const struct ir_delivery *delivery) {
    struct reentry *re = user_data;
    struct ir_event motion = {.type = IR_EVENT_POINTER_MOTION, .device = 1, .dx = 1};
    (void)delivery;
    re->calls++;
    re->handle = ir_router_handle_event(re->router, 0, &motion);
    re->destroy = ir_router_destroy_node(re->router, window);
    re->read = ir_router_node_client(re->router, window, &re->client_seen);
}

static void test_busy(void) {
    struct reentry re = {.router = router, .client_seen = 12345};
    CHECK_OK(ir_router_set_node_handler(router, panel, reentering_handler, &re));
    struct ir_event to_panel = {.type = IR_EVENT_POINTER_MOTION_ABSOLUTE, .device = 1, .x = 0.5, .y = 0.9};
    CHECK_OK(ir_router_handle_event(router, seat, &to_panel));
    CHECK(re.calls >= 1);
    CHECK(re.destroy == IR_ERROR_BUSY && re.handle == IR_ERROR_BUSY && re.drain == IR_ERROR_BUSY);
    CHECK(re.trace == IR_ERROR_BUSY && re.checks == IR_ERROR_BUSY);
    CHECK(re.read == IR_OK && re.client_seen == IR_CLIENT_COMPOSITOR);
    bool alive = false;
    CHECK_OK(ir_router_node_alive(router, panel, &alive));
    CHECK(alive);
    CHECK_OK(ir_router_set_node_handler(router, panel, NULL, NULL));

    struct reentry in_drain = {.router = router, .client_seen = 12345};
    struct ir_event to_window = {.type = IR_EVENT_POINTER_MOTION_ABSOLUTE, .device = 1, .x = 0.1, .y = 0.1};
    CHECK_OK(ir_router_handle_event(router, seat, &to_window));
    CHECK_OK(ir_router_drain(router, reentering_drain, &in_drain, NULL));
    CHECK(in_drain.calls >= 1);
    CHECK(in_drain.handle == IR_ERROR_BUSY && in_drain.destroy == IR_ERROR_BUSY);
    CHECK(in_drain.read == IR_OK && in_drain.client_seen == client);
    CHECK_OK(ir_router_node_alive(router, window, &alive));
    CHECK(alive);
}

static void test_keyboard_errors(void) {
    struct ir_router *fresh = ir_router_create();
    uint32_t s = 0;
    int32_t b = 0;
    size_t length = 0;
    CHECK_OK(ir_router_add_seat(fresh, "seat0", &s));
    CHECK_ERR(ir_seat_add_binding(fresh, s, "Super+Return", ignore_binding, NULL, &b), IR_ERROR_NO_KEYMAP);
    CHECK_ERR(ir_seat_keymap_text(fresh, s, NULL, 0, &length), IR_ERROR_NO_KEYMAP);
    struct ir_rule_names names = {.layout = "no-such-layout-anywhere"};
    CHECK_ERR(ir_seat_set_keymap(fresh, s, &names), IR_ERROR_KEYMAP);
    char text[512];
    CHECK_OK(ir_router_last_error_text(fresh, text, sizeof text, &length));
    CHECK(length > 0 && strstr(text, "no-such-layout-anywhere") != NULL);
    CHECK_ERR(ir_seat_keymap_text(fresh, s, NULL, 0, &length), IR_ERROR_NO_KEYMAP); /* still none */
    CHECK_OK(ir_seat_set_keymap(fresh, s, &(struct ir_rule_names){.layout = "de", .options = "ctrl:nocaps"}));
    CHECK_OK(ir_router_last_error_text(fresh, text, sizeof text, &length));
    CHECK(length == 0 && text[0] == 0);
    CHECK_ERR(ir_seat_add_binding(fresh, s, "Super+Nosuchkeysym", ignore_binding, NULL, &b), IR_ERROR_INVALID_BINDING);
    CHECK_OK(ir_router_last_error_text(fresh, text, sizeof text, &length));
    CHECK(strstr(text, "Nosuchkeysym") != NULL);
    CHECK_ERR(ir_seat_add_binding(fresh, s, "Hyperdrive+a", ignore_binding, NULL, &b), IR_ERROR_INVALID_BINDING);
    CHECK_ERR(ir_seat_add_binding(fresh, s, "", ignore_binding, NULL, &b), IR_ERROR_INVALID_BINDING);
    CHECK_OK(ir_seat_add_binding(fresh, s, "Ctrl+Alt+F2", ignore_binding, NULL, &b));
    CHECK(b == 0);
    ir_router_destroy(fresh);
}

static void test_recording_errors(void) {
    enum ir_error e = IR_OK;
    CHECK(ir_recording_open("/nonexistent/recording.yml", &e) == NULL);
    CHECK(e == IR_ERROR_RECORDING);
    CHECK(ir_recording_open(NULL, &e) == NULL);
    CHECK(e == IR_ERROR_NULL_ARGUMENT);
    CHECK(ir_recording_open("/nonexistent/recording.yml", NULL) == NULL); /* error pointer may be NULL */
    char message[256];
    CHECK(ir_recording_open_message(__FILE__, &e, message, sizeof message) == NULL); /* C is not YAML */
    CHECK(e == IR_ERROR_RECORDING);
    CHECK(strncmp(message, __FILE__ ":", strlen(__FILE__) + 1) == 0); /* "file:line:column: message" */
}

/* Checks off: deliveries still come; on again is refused (the checker missed them). */
static void test_invariant_checks_off(void) {
    struct ir_router *r = ir_router_create();
    uint32_t s = 0, c = 0;
    uint64_t out = 0, w = 0;
    CHECK_OK(ir_router_add_seat(r, "seat0", &s));
    CHECK_OK(ir_router_add_client(r, "c", &c));
    CHECK_OK(ir_router_create_node(r, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 100, 100}, "out", &out));
    CHECK_OK(ir_router_create_node(r, IR_NODE_TOPLEVEL, c, out, IR_LAYER_ABOVE, (struct ir_rect){0, 0, 50, 50}, "w",
                                   &w));
    CHECK_OK(ir_seat_set_bound(r, s, c, IR_BOUND_POINTER));
    CHECK_OK(ir_seat_add_device(r, s, 1, IR_DEVICE_POINTER));
    CHECK_OK(ir_router_set_invariant_checks(r, true)); /* on already: nothing changes */
    CHECK_OK(ir_router_set_invariant_checks(r, false));
    struct ir_event motion = {.type = IR_EVENT_POINTER_MOTION, .device = 1, .dx = 10, .dy = 10};
    CHECK_OK(ir_router_handle_event(r, s, &motion));
    struct recorded rec;
    drain_into(r, &rec);
    int m = find_kind(&rec, 0, IR_DELIVERY_POINTER_MOTION);
    CHECK(m >= 0 && rec.d[m].node == w && rec.d[m].x == 10.0);
    CHECK_ERR(ir_router_set_invariant_checks(r, true), IR_ERROR_INVALID_ARGUMENT);
    size_t count = 99;
    CHECK_OK(ir_router_check_invariants(r, &count, NULL, 0, NULL));
    CHECK(count == 0);
    ir_router_destroy(r);
}

static void test_error_strings(void) {
    const char *seen[IR_ERROR_END_OF_RECORDING + 1];
    for (int code = IR_OK; code <= IR_ERROR_END_OF_RECORDING; code++) {
        const char *text = ir_error_string((enum ir_error)code);
        CHECK(text != NULL && text[0] != 0);
        seen[code] = text;
        for (int other = IR_OK; other < code; other++) CHECK(strcmp(seen[other], text) != 0);
    }
    CHECK(strcmp(ir_error_string(IR_ERROR_DESTROYED_NODE), "the node was destroyed") == 0);
    CHECK(strcmp(ir_error_string((enum ir_error)999), "unknown error code") == 0);
}

int main(void) {
    test_null_handle();
    setup();
    test_null_arguments();
    test_unknown_and_destroyed_nodes();
    test_unknown_devices_and_seats();
    test_invalid_arguments();
    test_busy();
    ir_router_destroy(router);
    test_keyboard_errors();
    test_recording_errors();
    test_invariant_checks_off();
    test_error_strings();
    if (harness_failures) {
        fprintf(stderr, "errors_test: %d failed checks\n", harness_failures);
        return 1;
    }
    printf("errors_test: all checks passed\n");
    return 0;
}
