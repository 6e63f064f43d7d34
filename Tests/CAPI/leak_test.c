/* 1,000 routers created, used and destroyed, 1,000 nodes created and destroyed in one
 * router, and recordings opened and closed: LeakSanitizer (part of ASan) reports any
 * allocation no longer reachable when the process ends, and the run fails.
 *
 * Built with -DLEAK_ON_PURPOSE, one router is not destroyed: `make capi-test` checks that
 * LSan then fails the run and names ir_router_create, so this test can fail. */
#include "harness.h"

static void ignore(void *user_data, const struct ir_delivery *delivery) {
    (void)user_data;
    (void)delivery;
}

static enum ir_disposition take(void *user_data, uint64_t node, const struct ir_node_event *event) {
    (void)node;
    (void)event;
    ++*(int *)user_data;
    return IR_HANDLED;
}

static void on_binding(void *user_data, uint32_t seat, int32_t binding) {
    (void)seat;
    (void)binding;
    ++*(int *)user_data;
}

static void one_router(int round, int *handled) {
    struct ir_router *router = ir_router_create();
    uint32_t seat = 0, client = 0;
    uint64_t output = 0, window = 0, panel = 0;
    CHECK_OK(ir_router_add_seat(router, "seat0", &seat));
    CHECK_OK(ir_router_add_client(router, "c", &client));
    CHECK_OK(ir_router_create_node(router, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 640, 480}, "out", &output));
    CHECK_OK(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 320, 240}, "w", &window));
    CHECK_OK(ir_router_create_node(router, IR_NODE_COMPOSITOR, IR_CLIENT_COMPOSITOR, output, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 400, 640, 80}, "panel", &panel));
    CHECK_OK(ir_router_set_node_handler(router, panel, take, handled));
    CHECK_OK(ir_router_set_input_region(router, window, &(struct ir_rect){0, 0, 300, 200}, 1));
    CHECK_OK(ir_seat_set_bound(router, seat, client, IR_BOUND_POINTER | IR_BOUND_KEYBOARD | IR_BOUND_TOUCH));
    CHECK_OK(ir_seat_add_device(router, seat, 1, IR_DEVICE_POINTER | IR_DEVICE_KEYBOARD | IR_DEVICE_TOUCH));
    CHECK_OK(ir_router_set_trace(router, round % 2 == 0));
    if (round % 10 == 0) { /* a keymap is slow to build (xkbcommon): every tenth router */
        CHECK_OK(ir_seat_set_keymap(router, seat, NULL));
        CHECK_OK(ir_seat_add_binding(router, seat, "Super+Return", on_binding, handled, NULL));
    }
    CHECK_OK(ir_seat_set_keyboard_focus(router, seat, window));
    struct ir_event events[] = {
        {.type = IR_EVENT_POINTER_MOTION, .device = 1, .dx = 50, .dy = 50},
        {.type = IR_EVENT_POINTER_BUTTON, .device = 1, .button = 0x110, .state = 1},
        {.type = IR_EVENT_POINTER_BUTTON, .device = 1, .button = 0x110, .state = 0},
        {.type = IR_EVENT_KEYBOARD_KEY, .device = 1, .key = 30, .state = 1},
        {.type = IR_EVENT_TOUCH_DOWN, .device = 1, .slot = 0, .x = 0.1, .y = 0.1},
        {.type = IR_EVENT_TOUCH_FRAME, .device = 1},
        {.type = IR_EVENT_POINTER_MOTION_ABSOLUTE, .device = 1, .x = 0.5, .y = 0.9},
        {.type = IR_EVENT_POINTER_BUTTON, .device = 1, .button = 0x110, .state = 1},
    };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        CHECK_OK(ir_router_handle_event(router, seat, &events[i]));
        CHECK_OK(ir_router_drain(router, ignore, NULL, NULL));
    }
    CHECK_OK(ir_router_destroy_node(router, window)); /* with a key and a touch held on it */
    CHECK_OK(ir_seat_remove_device(router, seat, 1, 1000)); /* with a button held */
    CHECK_OK(ir_router_drain(router, ignore, NULL, NULL));
    size_t length = 0;
    CHECK_OK(ir_router_trace_text(router, NULL, 0, &length));
#ifdef LEAK_ON_PURPOSE
    if (round == 500) return;
#endif
    ir_router_destroy(router);
}

int main(int argc, char **argv) {
    const char *fixtures = argc > 1 ? argv[1] : "Tests/RecordingTests/Fixtures";
    int handled = 0;
    for (int round = 0; round < 1000; round++) one_router(round, &handled);
    CHECK(handled >= 1000); /* every router's panel took the click */

    /* 1,000 nodes in one router, each created and destroyed. */
    struct ir_router *router = ir_router_create();
    uint32_t client = 0;
    uint64_t output = 0;
    CHECK_OK(ir_router_add_client(router, "c", &client));
    CHECK_OK(ir_router_create_node(router, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 640, 480}, "out", &output));
    for (int i = 0; i < 1000; i++) {
        uint64_t node = 0, sub = 0;
        CHECK_OK(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE,
                                       (struct ir_rect){i % 100, 0, 10, 10}, "n", &node));
        CHECK_OK(ir_router_create_node(router, IR_NODE_SUBSURFACE, client, node, IR_LAYER_BELOW,
                                       (struct ir_rect){0, 0, 5, 5}, "s", &sub));
        CHECK_OK(ir_router_set_input_region(router, sub, &(struct ir_rect){0, 0, 2, 2}, 1));
        CHECK_OK(ir_router_destroy_node(router, node));
    }
    ir_router_destroy(router);

    /* Recordings opened, read and closed. */
    char path[1024];
    snprintf(path, sizeof path, "%s/mouse.yml", fixtures);
    for (int i = 0; i < 20; i++) {
        struct ir_recording *rec = ir_recording_open(path, NULL);
        CHECK(rec != NULL);
        struct ir_event event;
        while (rec && ir_recording_next(rec, &event) == IR_OK) {}
        ir_recording_close(rec);
    }
    if (harness_failures) {
        fprintf(stderr, "leak_test: %d failed checks\n", harness_failures);
        return 1;
    }
    printf("leak_test: 1000 routers, 1000 nodes, 20 recordings; LeakSanitizer reports at exit\n");
    return 0;
}
