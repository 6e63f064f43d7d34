/* Normal routing through the C API. Each expectation is what a Wayland client must see
 * (wayland.xml: wl_pointer, wl_keyboard, wl_touch; xkbcommon's us keymap), for this scene:
 *
 *   output 1000x800 at 0,0
 *     toplevel A (client "a") at 100,100 200x200
 *     toplevel B (client "b") at 400,100 200x200
 *     compositor node "panel" at 0,700 1000x100 (a handler that takes clicks)
 *
 * The cursor starts at the layout's origin, 0,0.
 */
#include "harness.h"

#define BTN_LEFT 0x110
#define KEY_A 30
#define KEY_ENTER 28
#define KEY_LEFTMETA 125

enum { POINTER = 1, KEYBOARD = 2, TOUCH = 3 };

struct scene {
    struct ir_router *router;
    uint32_t seat, a, b;
    uint64_t output, window_a, window_b, panel;
};

struct panel_log {
    int enters, buttons, leaves;
    double last_x, last_y;
    uint32_t last_button, last_state;
};

static enum ir_disposition panel_handler(void *user_data, uint64_t node, const struct ir_node_event *event) {
    struct panel_log *log = user_data;
    (void)node;
    switch (event->kind) {
    case IR_NODE_EVENT_POINTER_ENTER: log->enters++; return IR_HANDLED;
    case IR_NODE_EVENT_POINTER_LEAVE: log->leaves++; return IR_HANDLED;
    case IR_NODE_EVENT_POINTER_BUTTON:
        log->buttons++;
        log->last_x = event->point_x;
        log->last_y = event->point_y;
        log->last_button = event->button;
        log->last_state = event->state;
        return IR_HANDLED;
    default: return IR_NOT_HANDLED;
    }
}

static struct panel_log panel_log;

/* The first pointer frame to `client` at or after `from`, or -1: each client's events are
 * its own stream, so another client's frame may come between. */
static int find_frame(const struct recorded *r, size_t from, uint32_t client) {
    for (size_t i = from; i < r->count; i++)
        if (r->d[i].kind == IR_DELIVERY_POINTER_FRAME && r->d[i].client == client) return (int)i;
    return -1;
}

static void build(struct scene *s) {
    memset(s, 0, sizeof *s);
    memset(&panel_log, 0, sizeof panel_log);
    s->router = ir_router_create();
    CHECK(s->router != NULL);
    CHECK_OK(ir_router_add_seat(s->router, "seat0", &s->seat));
    CHECK_OK(ir_router_add_client(s->router, "a", &s->a));
    CHECK_OK(ir_router_add_client(s->router, "b", &s->b));
    CHECK(s->a != s->b && s->a != IR_CLIENT_COMPOSITOR && s->b != IR_CLIENT_COMPOSITOR);
    CHECK_OK(ir_router_create_node(s->router, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 1000, 800}, "out", &s->output));
    CHECK_OK(ir_router_create_node(s->router, IR_NODE_TOPLEVEL, s->a, s->output, IR_LAYER_ABOVE,
                                   (struct ir_rect){100, 100, 200, 200}, "A", &s->window_a));
    CHECK_OK(ir_router_create_node(s->router, IR_NODE_TOPLEVEL, s->b, s->output, IR_LAYER_ABOVE,
                                   (struct ir_rect){400, 100, 200, 200}, "B", &s->window_b));
    CHECK_OK(ir_router_create_node(s->router, IR_NODE_COMPOSITOR, IR_CLIENT_COMPOSITOR, s->output, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 700, 1000, 100}, "panel", &s->panel));
    CHECK_OK(ir_router_set_node_handler(s->router, s->panel, panel_handler, &panel_log));
    uint32_t all = IR_BOUND_POINTER | IR_BOUND_KEYBOARD | IR_BOUND_TOUCH;
    CHECK_OK(ir_seat_set_bound(s->router, s->seat, s->a, all));
    CHECK_OK(ir_seat_set_bound(s->router, s->seat, s->b, all));
    CHECK_OK(ir_seat_add_device(s->router, s->seat, POINTER, IR_DEVICE_POINTER));
    CHECK_OK(ir_seat_add_device(s->router, s->seat, KEYBOARD, IR_DEVICE_KEYBOARD));
    CHECK_OK(ir_seat_add_device(s->router, s->seat, TOUCH, IR_DEVICE_TOUCH));
    struct recorded r;
    drain_into(s->router, &r); /* whatever the setup queued */
}

static void motion(struct scene *s, uint64_t time_usec, double dx, double dy) {
    struct ir_event e = {.type = IR_EVENT_POINTER_MOTION, .time_usec = time_usec, .device = POINTER,
                         .dx = dx, .dy = dy, .unaccel_dx = dx, .unaccel_dy = dy};
    CHECK_OK(ir_router_handle_event(s->router, s->seat, &e));
}

static void button(struct scene *s, uint64_t time_usec, uint32_t code, uint32_t state) {
    struct ir_event e = {.type = IR_EVENT_POINTER_BUTTON, .time_usec = time_usec, .device = POINTER,
                         .button = code, .state = state};
    CHECK_OK(ir_router_handle_event(s->router, s->seat, &e));
}

static void key(struct scene *s, uint64_t time_usec, uint32_t code, uint32_t state) {
    struct ir_event e = {.type = IR_EVENT_KEYBOARD_KEY, .time_usec = time_usec, .device = KEYBOARD,
                         .key = code, .state = state};
    CHECK_OK(ir_router_handle_event(s->router, s->seat, &e));
}

/* Enter A, move inside it, cross to B: enter/leave paired, surface-local coordinates,
 * each group closed by a frame to its client. */
static void test_pointer_crossing(void) {
    struct scene s;
    build(&s);
    struct recorded r;

    motion(&s, 1000000, 150, 150); /* 0,0 -> 150,150: A's 50,50 */
    drain_into(s.router, &r);
    int enter = find_kind(&r, 0, IR_DELIVERY_POINTER_ENTER);
    CHECK(enter >= 0);
    if (enter < 0) return;
    CHECK(r.d[enter].node == s.window_a);
    CHECK(r.d[enter].client == s.a);
    CHECK(r.d[enter].x == 50.0 && r.d[enter].y == 50.0);
    CHECK(r.d[enter].serial != 0);
    uint32_t enter_serial = r.d[enter].serial;
    /* A motion in the same frame, if any, is at the enter's point. */
    for (int i = enter; i < (int)r.count; i++)
        if (r.d[i].kind == IR_DELIVERY_POINTER_MOTION) CHECK(r.d[i].x == 50.0 && r.d[i].y == 50.0);
    CHECK(find_frame(&r, (size_t)enter, s.a) > enter);
    CHECK(count_kind(&r, IR_DELIVERY_POINTER_LEAVE) == 0);
    uint64_t focus = 0;
    CHECK_OK(ir_seat_pointer_focus(s.router, s.seat, &focus));
    CHECK(focus == s.window_a);

    motion(&s, 1016000, 10.5, -20.25); /* 160.5,129.75: A's 60.5,29.75 */
    drain_into(s.router, &r);
    CHECK(r.count == 2);
    CHECK(r.d[0].kind == IR_DELIVERY_POINTER_MOTION && r.d[0].node == s.window_a);
    CHECK(r.d[0].x == 60.5 && r.d[0].y == 29.75);
    CHECK(r.d[0].time_usec == 1016000 && r.d[0].time_msec == 1016);
    CHECK(r.d[1].kind == IR_DELIVERY_POINTER_FRAME && r.d[1].client == s.a);

    motion(&s, 1032000, 300, 0); /* 460.5,129.75: B's 60.5,29.75 */
    drain_into(s.router, &r);
    int leave = find_kind(&r, 0, IR_DELIVERY_POINTER_LEAVE);
    enter = find_kind(&r, 0, IR_DELIVERY_POINTER_ENTER);
    CHECK(leave >= 0 && enter > leave); /* leave the old surface before entering the new */
    if (leave < 0 || enter < 0) return;
    CHECK(r.d[leave].node == s.window_a && r.d[leave].client == s.a);
    CHECK(r.d[enter].node == s.window_b && r.d[enter].client == s.b);
    CHECK(r.d[enter].x == 60.5 && r.d[enter].y == 29.75);
    CHECK(r.d[leave].serial != 0 && r.d[enter].serial != 0 && r.d[leave].serial != r.d[enter].serial);
    CHECK(r.d[leave].serial > enter_serial && r.d[enter].serial > enter_serial);
    CHECK(find_frame(&r, (size_t)leave, s.a) > leave);
    CHECK(find_frame(&r, (size_t)enter, s.b) > enter);
    for (size_t i = 0; i < r.count; i++)
        if (r.d[i].kind == IR_DELIVERY_POINTER_MOTION) CHECK(r.d[i].node == s.window_b);

    size_t violations = 99;
    CHECK_OK(ir_router_check_invariants(s.router, &violations, NULL, 0, NULL));
    CHECK(violations == 0);
    ir_router_destroy(s.router);
}

/* A click on B: press and release to B with new serials, each in a frame; a click keeps
 * B as the pointer focus (implicit grab while held). */
static void test_click(void) {
    struct scene s;
    build(&s);
    struct recorded r;
    motion(&s, 1000, 450, 150); /* B's 50,50 */
    drain_into(s.router, &r);
    int enter = find_kind(&r, 0, IR_DELIVERY_POINTER_ENTER);
    CHECK(enter >= 0 && r.d[enter].node == s.window_b);
    uint32_t enter_serial = enter >= 0 ? r.d[enter].serial : 0;

    button(&s, 2000, BTN_LEFT, 1);
    drain_into(s.router, &r);
    CHECK(r.count == 2);
    CHECK(r.d[0].kind == IR_DELIVERY_POINTER_BUTTON && r.d[0].node == s.window_b && r.d[0].client == s.b);
    CHECK(r.d[0].button == BTN_LEFT && r.d[0].state == 1 && r.d[0].time_msec == 2);
    CHECK(r.d[0].serial > enter_serial);
    CHECK(r.d[1].kind == IR_DELIVERY_POINTER_FRAME && r.d[1].client == s.b);
    uint32_t press_serial = r.d[0].serial;

    /* Held: moving over A still goes to B (implicit grab), in B's coordinates. */
    motion(&s, 3000, -300, 0); /* 150,150: over A, B's -250,50 */
    drain_into(s.router, &r);
    CHECK(count_kind(&r, IR_DELIVERY_POINTER_ENTER) == 0 && count_kind(&r, IR_DELIVERY_POINTER_LEAVE) == 0);
    int m = find_kind(&r, 0, IR_DELIVERY_POINTER_MOTION);
    CHECK(m >= 0 && r.d[m].node == s.window_b && r.d[m].x == -250.0 && r.d[m].y == 50.0);

    button(&s, 4000, BTN_LEFT, 0);
    drain_into(s.router, &r);
    CHECK(r.count >= 2);
    CHECK(r.d[0].kind == IR_DELIVERY_POINTER_BUTTON && r.d[0].node == s.window_b && r.d[0].state == 0);
    CHECK(r.d[0].serial > press_serial);
    /* After the last release the pointer is re-picked: leave B, enter A at 50,50. */
    int leave = find_kind(&r, 1, IR_DELIVERY_POINTER_LEAVE);
    enter = find_kind(&r, 1, IR_DELIVERY_POINTER_ENTER);
    CHECK(leave > 0 && r.d[leave].node == s.window_b);
    CHECK(enter > leave && r.d[enter].node == s.window_a && r.d[enter].x == 50.0 && r.d[enter].y == 50.0);

    size_t violations = 99;
    CHECK_OK(ir_router_check_invariants(s.router, &violations, NULL, 0, NULL));
    CHECK(violations == 0);
    ir_router_destroy(s.router);
}

/* Keys go to the keyboard focus only: enter (no keys held), modifiers, then the key
 * with its evdev code and a serial; B gets nothing. */
static void test_key_to_focus(void) {
    struct scene s;
    build(&s);
    struct recorded r;
    CHECK_OK(ir_seat_set_keymap(s.router, s.seat, NULL)); /* evdev, pc105, us */
    CHECK_OK(ir_seat_set_keyboard_focus(s.router, s.seat, s.window_a));
    drain_into(s.router, &r);
    int enter = find_kind(&r, 0, IR_DELIVERY_KEYBOARD_ENTER);
    CHECK(enter >= 0);
    if (enter < 0) return;
    CHECK(r.d[enter].node == s.window_a && r.d[enter].client == s.a && r.d[enter].key_count == 0);
    CHECK(r.d[enter].serial != 0);
    uint32_t enter_serial = r.d[enter].serial;
    int mods = find_kind(&r, (size_t)enter, IR_DELIVERY_MODIFIERS);
    CHECK(mods > enter && r.d[mods].node == s.window_a);
    CHECK(r.d[mods].depressed == 0 && r.d[mods].latched == 0 && r.d[mods].locked == 0 && r.d[mods].group == 0);
    uint64_t focus = 0;
    CHECK_OK(ir_seat_keyboard_focus(s.router, s.seat, &focus));
    CHECK(focus == s.window_a);

    key(&s, 5000000, KEY_A, 1);
    drain_into(s.router, &r);
    CHECK(r.count == 1);
    CHECK(r.d[0].kind == IR_DELIVERY_KEY && r.d[0].node == s.window_a && r.d[0].client == s.a);
    CHECK(r.d[0].key == KEY_A && r.d[0].state == 1 && r.d[0].time_msec == 5000);
    CHECK(r.d[0].serial > enter_serial);
    key(&s, 5100000, KEY_A, 0);
    drain_into(s.router, &r);
    CHECK(r.count == 1 && r.d[0].kind == IR_DELIVERY_KEY && r.d[0].node == s.window_a && r.d[0].state == 0);

    /* Focus moves to B while A is held: B's enter lists no key it did not get the press of,
     * and the release goes nowhere (the press went to A, which has left). */
    key(&s, 5200000, KEY_A, 1);
    drain_into(s.router, &r);
    CHECK_OK(ir_seat_set_keyboard_focus(s.router, s.seat, s.window_b));
    drain_into(s.router, &r);
    int leave = find_kind(&r, 0, IR_DELIVERY_KEYBOARD_LEAVE);
    enter = find_kind(&r, 0, IR_DELIVERY_KEYBOARD_ENTER);
    CHECK(leave >= 0 && r.d[leave].node == s.window_a);
    CHECK(enter > leave && r.d[enter].node == s.window_b && r.d[enter].key_count == 0);
    key(&s, 5300000, KEY_A, 0);
    drain_into(s.router, &r);
    CHECK(count_kind(&r, IR_DELIVERY_KEY) == 0);

    size_t violations = 99;
    CHECK_OK(ir_router_check_invariants(s.router, &violations, NULL, 0, NULL));
    CHECK(violations == 0);
    ir_router_destroy(s.router);
}

/* Super+Return as a binding: Super reaches the focus (modifiers: Mod4, 0x40 in the us
 * keymap), the Return press runs the binding and neither it nor its release reaches A. */
static int binding_calls;
static int32_t binding_seen = -1;
static void on_binding(void *user_data, uint32_t seat, int32_t binding) {
    (void)seat;
    binding_calls++;
    binding_seen = binding;
    *(int *)user_data += 1;
}

static void test_binding(void) {
    struct scene s;
    build(&s);
    struct recorded r;
    int fired = 0;
    int32_t index = -1;
    CHECK_OK(ir_seat_set_keymap(s.router, s.seat, &(struct ir_rule_names){.layout = "us"}));
    CHECK_OK(ir_seat_add_binding(s.router, s.seat, "Super+Return", on_binding, &fired, &index));
    CHECK(index == 0);
    CHECK_OK(ir_seat_set_keyboard_focus(s.router, s.seat, s.window_a));
    drain_into(s.router, &r);

    key(&s, 1000, KEY_LEFTMETA, 1);
    drain_into(s.router, &r);
    int k = find_kind(&r, 0, IR_DELIVERY_KEY);
    CHECK(k >= 0 && r.d[k].key == KEY_LEFTMETA && r.d[k].node == s.window_a);
    int mods = find_kind(&r, 0, IR_DELIVERY_MODIFIERS);
    CHECK(mods >= 0 && r.d[mods].depressed == 0x40);

    key(&s, 2000, KEY_ENTER, 1);
    drain_into(s.router, &r);
    CHECK(fired == 1 && binding_calls == 1 && binding_seen == 0);
    CHECK(count_kind(&r, IR_DELIVERY_KEY) == 0);
    int b = find_kind(&r, 0, IR_DELIVERY_BINDING);
    CHECK(b >= 0 && r.d[b].binding == 0 && r.d[b].key == KEY_ENTER);
    key(&s, 3000, KEY_ENTER, 0);
    drain_into(s.router, &r);
    CHECK(count_kind(&r, IR_DELIVERY_KEY) == 0);
    CHECK(fired == 1);

    /* Without Super, Return is a key like any other. */
    key(&s, 4000, KEY_LEFTMETA, 0);
    drain_into(s.router, &r);
    key(&s, 5000, KEY_ENTER, 1);
    drain_into(s.router, &r);
    k = find_kind(&r, 0, IR_DELIVERY_KEY);
    CHECK(k >= 0 && r.d[k].key == KEY_ENTER && r.d[k].node == s.window_a);
    CHECK(fired == 1);

    /* The keymap clients are served is the us one, as xkbcomp text. */
    size_t length = 0;
    CHECK_OK(ir_seat_keymap_text(s.router, s.seat, NULL, 0, &length));
    CHECK(length > 1000);
    char *text = malloc(length + 1);
    CHECK_OK(ir_seat_keymap_text(s.router, s.seat, text, length + 1, &length));
    CHECK(strncmp(text, "xkb_keymap {", 12) == 0 && strstr(text, "xkb_symbols") != NULL);
    free(text);

    CHECK_OK(ir_seat_remove_bindings(s.router, s.seat));
    key(&s, 6000, KEY_ENTER, 0);
    key(&s, 7000, KEY_LEFTMETA, 1);
    key(&s, 8000, KEY_ENTER, 1);
    drain_into(s.router, &r);
    CHECK(fired == 1 && count_kind(&r, IR_DELIVERY_BINDING) == 0);
    ir_router_destroy(s.router);
}

/* A touch on A: down at A-local coordinates with a serial, frame, up with a later
 * serial, frame; motion outside A still goes to A (the point is owned from down to up). */
static void test_touch(void) {
    struct scene s;
    build(&s);
    struct recorded r;
    /* 0.25 x 1000 = 250, 0.25 x 800 = 200: A's 150,100. */
    struct ir_event down = {.type = IR_EVENT_TOUCH_DOWN, .time_usec = 9000, .device = TOUCH, .slot = 3,
                            .x = 0.25, .y = 0.25};
    struct ir_event frame = {.type = IR_EVENT_TOUCH_FRAME, .time_usec = 9000, .device = TOUCH};
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &down));
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &frame));
    drain_into(s.router, &r);
    CHECK(r.count == 2);
    CHECK(r.d[0].kind == IR_DELIVERY_TOUCH_DOWN && r.d[0].node == s.window_a && r.d[0].client == s.a);
    CHECK(r.d[0].touch_id == 3 && r.d[0].x == 150.0 && r.d[0].y == 100.0 && r.d[0].serial != 0);
    CHECK(r.d[0].time_msec == 9);
    CHECK(r.d[1].kind == IR_DELIVERY_TOUCH_FRAME && r.d[1].client == s.a);
    uint32_t down_serial = r.d[0].serial;

    /* 0.5 x 1000 = 500, 0.5 x 800 = 400: over B's column, below it; still A's: 400,300. */
    struct ir_event move = {.type = IR_EVENT_TOUCH_MOTION, .time_usec = 9500, .device = TOUCH, .slot = 3,
                            .x = 0.5, .y = 0.5};
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &move));
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &frame));
    drain_into(s.router, &r);
    CHECK(r.count == 2);
    CHECK(r.d[0].kind == IR_DELIVERY_TOUCH_MOTION && r.d[0].node == s.window_a && r.d[0].touch_id == 3);
    CHECK(r.d[0].x == 400.0 && r.d[0].y == 300.0);

    struct ir_event up = {.type = IR_EVENT_TOUCH_UP, .time_usec = 10000, .device = TOUCH, .slot = 3};
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &up));
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &frame));
    drain_into(s.router, &r);
    CHECK(r.count == 2);
    CHECK(r.d[0].kind == IR_DELIVERY_TOUCH_UP && r.d[0].node == s.window_a && r.d[0].touch_id == 3);
    CHECK(r.d[0].serial > down_serial && r.d[0].time_msec == 10);
    CHECK(r.d[1].kind == IR_DELIVERY_TOUCH_FRAME && r.d[1].client == s.a);

    /* A touch device removed mid-touch: the client is told the sequence is cancelled. */
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &down));
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &frame));
    drain_into(s.router, &r);
    CHECK_OK(ir_seat_remove_device(s.router, s.seat, TOUCH, 11000));
    drain_into(s.router, &r);
    int cancel = find_kind(&r, 0, IR_DELIVERY_TOUCH_CANCEL);
    CHECK(cancel >= 0 && r.d[cancel].client == s.a);

    size_t violations = 99;
    CHECK_OK(ir_router_check_invariants(s.router, &violations, NULL, 0, NULL));
    CHECK(violations == 0);
    ir_router_destroy(s.router);
}

/* The panel's handler takes the pointer and the click: no client hears of the click,
 * the handler gets it at panel-local 500,50, and the trace shows who took it. */
static void test_handler_consumes_click(void) {
    struct scene s;
    build(&s);
    struct recorded r;
    CHECK_OK(ir_router_set_trace(s.router, true));
    motion(&s, 1000, 150, 150); /* into A first */
    drain_into(s.router, &r);
    motion(&s, 2000, 350, 600); /* 500,750: the panel's 500,50 */
    drain_into(s.router, &r);
    int leave = find_kind(&r, 0, IR_DELIVERY_POINTER_LEAVE);
    CHECK(leave >= 0 && r.d[leave].node == s.window_a);
    CHECK(count_kind(&r, IR_DELIVERY_POINTER_ENTER) == 0); /* no client surface is entered */
    CHECK(panel_log.enters == 1);

    button(&s, 3000, BTN_LEFT, 1);
    button(&s, 4000, BTN_LEFT, 0);
    drain_into(s.router, &r);
    CHECK(count_kind(&r, IR_DELIVERY_POINTER_BUTTON) == 0);
    CHECK(panel_log.buttons == 2 && panel_log.last_button == BTN_LEFT && panel_log.last_state == 0);
    CHECK(panel_log.last_x == 500.0 && panel_log.last_y == 50.0);
    int handled = find_kind(&r, 0, IR_DELIVERY_HANDLED);
    CHECK(handled >= 0 && r.d[handled].node == s.panel && r.d[handled].client == IR_CLIENT_COMPOSITOR);

    size_t length = 0;
    CHECK_OK(ir_router_trace_text(s.router, NULL, 0, &length));
    char *trace = malloc(length + 1);
    CHECK_OK(ir_router_trace_text(s.router, trace, length + 1, &length));
    CHECK(strlen(trace) == length);
    CHECK(strstr(trace, "pointer.button") != NULL);
    /* A short buffer gets the start of the text, terminated, and the whole length. */
    char small[8];
    size_t again = 0;
    CHECK_OK(ir_router_trace_text(s.router, small, sizeof small, &again));
    CHECK(again == length && strlen(small) == 7 && strncmp(small, trace, 7) == 0);
    free(trace);
    CHECK_OK(ir_router_clear_trace(s.router));
    CHECK_OK(ir_router_trace_text(s.router, NULL, 0, &length));
    CHECK(length == 0);

    /* The handler passes what it does not take: a scroll on the panel is dropped. */
    struct ir_event axis = {.type = IR_EVENT_POINTER_AXIS, .time_usec = 5000, .device = POINTER,
                            .axis_source = IR_AXIS_SOURCE_WHEEL, .has_vertical = true, .vertical = 15,
                            .vertical_value120 = 120};
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &axis));
    drain_into(s.router, &r);
    CHECK(count_kind(&r, IR_DELIVERY_POINTER_AXIS) == 0 && count_kind(&r, IR_DELIVERY_DROPPED) >= 1);

    /* Over A again, the same scroll is A's: wl_pointer.axis with value and value120. */
    motion(&s, 6000, -350, -600);
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &axis));
    drain_into(s.router, &r);
    int a = find_kind(&r, 0, IR_DELIVERY_POINTER_AXIS);
    CHECK(a >= 0 && r.d[a].node == s.window_a && r.d[a].axis == IR_AXIS_VERTICAL && r.d[a].axis_value == 15.0);
    CHECK(a >= 0 && r.d[a].value120 == 120 && r.d[a].axis_source == IR_AXIS_SOURCE_WHEEL);

    size_t violations = 99;
    CHECK_OK(ir_router_check_invariants(s.router, &violations, NULL, 0, NULL));
    CHECK(violations == 0);
    ir_router_destroy(s.router);
}

/* The scene changes under a still cursor: unmapping A sends A a leave at once, and an
 * input region that excludes the cursor does the same. */
static void test_scene_changes(void) {
    struct scene s;
    build(&s);
    struct recorded r;
    motion(&s, 1000, 150, 150);
    drain_into(s.router, &r);
    CHECK_OK(ir_router_set_input_region(s.router, s.window_a, &(struct ir_rect){100, 0, 100, 200}, 1));
    drain_into(s.router, &r);
    int leave = find_kind(&r, 0, IR_DELIVERY_POINTER_LEAVE);
    CHECK(leave >= 0 && r.d[leave].node == s.window_a);
    CHECK_OK(ir_router_set_input_region(s.router, s.window_a, NULL, 0));
    drain_into(s.router, &r);
    int enter = find_kind(&r, 0, IR_DELIVERY_POINTER_ENTER);
    CHECK(enter >= 0 && r.d[enter].node == s.window_a && r.d[enter].x == 50.0);
    CHECK_OK(ir_router_set_mapped(s.router, s.window_a, false));
    drain_into(s.router, &r);
    CHECK(find_kind(&r, 0, IR_DELIVERY_POINTER_LEAVE) >= 0);
    /* Moving B under the cursor enters B at its new local point. */
    CHECK_OK(ir_router_move_node(s.router, s.window_b, 120, 120));
    drain_into(s.router, &r);
    enter = find_kind(&r, 0, IR_DELIVERY_POINTER_ENTER);
    CHECK(enter >= 0 && r.d[enter].node == s.window_b && r.d[enter].x == 30.0 && r.d[enter].y == 30.0);
    uint64_t hit = 0;
    double lx = 0, ly = 0;
    CHECK_OK(ir_router_hit_test(s.router, 150, 150, &hit, &lx, &ly));
    CHECK(hit == s.window_b && lx == 30.0 && ly == 30.0);
    CHECK_OK(ir_router_hit_test(s.router, 999, 10, &hit, &lx, &ly)); /* the output itself */
    CHECK(hit == s.output && lx == 999.0 && ly == 10.0);
    CHECK_OK(ir_router_hit_test(s.router, 1500, 10, &hit, &lx, &ly)); /* outside every output */
    CHECK(hit == IR_NODE_NONE);
    double cx = 0, cy = 0;
    CHECK_OK(ir_seat_cursor(s.router, s.seat, &cx, &cy));
    CHECK(cx == 150.0 && cy == 150.0);
    /* Destroying B (under the cursor) leaves nothing to deliver to it. */
    CHECK_OK(ir_router_destroy_node(s.router, s.window_b));
    drain_into(s.router, &r);
    for (size_t i = 0; i < r.count; i++) CHECK(r.d[i].node != s.window_b);
    size_t violations = 99;
    CHECK_OK(ir_router_check_invariants(s.router, &violations, NULL, 0, NULL));
    CHECK(violations == 0);
    ir_router_destroy(s.router);
}

/* A three-finger swipe over A (pointer-gestures): begin, update with its deltas, end, all
 * to the surface under the pointer. */
static void test_gesture(void) {
    struct scene s;
    build(&s);
    struct recorded r;
    CHECK_OK(ir_seat_add_device(s.router, s.seat, 4, IR_DEVICE_GESTURE | IR_DEVICE_POINTER));
    motion(&s, 1000, 150, 150);
    drain_into(s.router, &r);
    struct ir_event begin = {.type = IR_EVENT_GESTURE, .time_usec = 2000, .device = 4,
                             .gesture_kind = IR_GESTURE_SWIPE, .gesture_phase = IR_GESTURE_BEGIN, .fingers = 3,
                             .scale = 1};
    struct ir_event update = begin, end = begin;
    update.gesture_phase = IR_GESTURE_UPDATE;
    update.time_usec = 3000;
    update.dx = 12.5;
    update.dy = -4;
    end.gesture_phase = IR_GESTURE_END;
    end.time_usec = 4000;
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &begin));
    drain_into(s.router, &r);
    CHECK(r.count >= 1 && r.d[0].kind == IR_DELIVERY_GESTURE && r.d[0].node == s.window_a);
    CHECK(r.d[0].gesture_kind == IR_GESTURE_SWIPE && r.d[0].gesture_phase == IR_GESTURE_BEGIN);
    CHECK(r.d[0].fingers == 3 && r.d[0].time_msec == 2);
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &update));
    drain_into(s.router, &r);
    CHECK(r.count >= 1 && r.d[0].kind == IR_DELIVERY_GESTURE && r.d[0].node == s.window_a);
    CHECK(r.d[0].gesture_phase == IR_GESTURE_UPDATE && r.d[0].dx == 12.5 && r.d[0].dy == -4.0);
    CHECK_OK(ir_router_handle_event(s.router, s.seat, &end));
    drain_into(s.router, &r);
    CHECK(r.count >= 1 && r.d[0].kind == IR_DELIVERY_GESTURE && r.d[0].node == s.window_a);
    CHECK(r.d[0].gesture_phase == IR_GESTURE_END);
    ir_router_destroy(s.router);
}

int main(void) {
    CHECK(ir_version() == IR_API_VERSION && IR_API_VERSION == ((1 << 16) | 1));
    test_pointer_crossing();
    test_click();
    test_key_to_focus();
    test_binding();
    test_touch();
    test_handler_consumes_click();
    test_scene_changes();
    test_gesture();
    if (harness_failures) {
        fprintf(stderr, "routing_test: %d failed checks\n", harness_failures);
        return 1;
    }
    printf("routing_test: all checks passed\n");
    return 0;
}
