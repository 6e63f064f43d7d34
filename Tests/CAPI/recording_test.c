/* A `libinput record` file read through the C API and fed back in, as tinywl-ir does.
 * Expected values are the file's: mouse.yml lists 1 DEVICE_ADDED, 67 POINTER_MOTION,
 * 8 POINTER_BUTTON (272 pressed, released, twice; 273 and 274 once each) and 9
 * POINTER_AXIS entries of 15 logical pixels: +15 in all vertically, 0 horizontally. The
 * reader takes wheel motion from the high-resolution evdev events (docs/recordings.md),
 * so the axis events are more and smaller, and their sums are what libinput reported.
 * tablet.yml: 2 DEVICE_ADDED and 33 tablet entries the header does not describe. */
#include "harness.h"

static void test_mouse(const char *fixtures) {
    char path[1024];
    snprintf(path, sizeof path, "%s/mouse.yml", fixtures);
    enum ir_error error = IR_ERROR_BUSY;
    struct ir_recording *rec = ir_recording_open(path, &error);
    CHECK(rec != NULL && error == IR_OK);
    if (!rec) return;
    size_t events = 0, skipped = 99;
    CHECK_OK(ir_recording_counts(rec, &events, &skipped));
    CHECK(skipped == 0);
    static const uint32_t expected_buttons[8] = {272, 272, 272, 272, 273, 273, 274, 274};
    double vertical = 0, horizontal = 0;

    struct ir_router *router = ir_router_create();
    uint32_t seat = 0, client = 0;
    uint64_t output = 0, window = 0;
    CHECK_OK(ir_router_add_seat(router, "seat0", &seat));
    CHECK_OK(ir_router_add_client(router, "app", &client));
    CHECK_OK(ir_router_create_node(router, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 1920, 1080}, "out", &output));
    CHECK_OK(ir_router_create_node(router, IR_NODE_TOPLEVEL, client, output, IR_LAYER_ABOVE,
                                   (struct ir_rect){0, 0, 1920, 1080}, "app", &window));
    CHECK_OK(ir_seat_set_bound(router, seat, client, IR_BOUND_POINTER));

    size_t by_type[16] = {0};
    size_t enters = 0, leaves = 0, buttons = 0, presses = 0;
    uint32_t last_state = 0;
    struct ir_event event;
    struct recorded r;
    size_t n = 0;
    enum ir_error e;
    while ((e = ir_recording_next(rec, &event)) == IR_OK) {
        if (n == 0) CHECK(event.type == IR_EVENT_DEVICE_ADDED && (event.capabilities & IR_DEVICE_POINTER));
        if ((unsigned)event.type < 16) by_type[event.type]++;
        if (event.type == IR_EVENT_POINTER_AXIS) {
            if (event.has_vertical) vertical += event.vertical;
            if (event.has_horizontal) horizontal += event.horizontal;
        }
        CHECK_OK(ir_router_handle_event(router, seat, &event));
        drain_into(router, &r);
        for (size_t i = 0; i < r.count; i++) {
            const struct ir_delivery *d = &r.d[i];
            if (d->kind == IR_DELIVERY_POINTER_ENTER) enters++;
            if (d->kind == IR_DELIVERY_POINTER_LEAVE) leaves++;
            if (d->kind == IR_DELIVERY_POINTER_BUTTON) {
                CHECK(d->node == window && buttons < 8 && d->button == expected_buttons[buttons]);
                /* pressed, released, pressed...: the client sees the file's order */
                CHECK(d->state == (buttons % 2 == 0 ? 1u : 0u));
                buttons++;
                presses += d->state;
                last_state = d->state;
            }
        }
        n++;
    }
    CHECK(e == IR_ERROR_END_OF_RECORDING);
    CHECK_ERR(ir_recording_next(rec, &event), IR_ERROR_END_OF_RECORDING); /* and stays at the end */
    CHECK(n == events);
    CHECK(by_type[IR_EVENT_DEVICE_ADDED] == 1 && by_type[IR_EVENT_POINTER_MOTION] == 67);
    CHECK(by_type[IR_EVENT_POINTER_BUTTON] == 8 && by_type[IR_EVENT_POINTER_AXIS] >= 9);
    CHECK(vertical == 15.0 && horizontal == 0.0);
    /* One window covers the output: one enter, no leave; every button reached it. */
    CHECK(enters == 1 && leaves == 0);
    CHECK(buttons == 8 && presses == 4 && last_state == 0);
    size_t violations = 99;
    CHECK_OK(ir_router_check_invariants(router, &violations, NULL, 0, NULL));
    CHECK(violations == 0);
    ir_recording_close(rec);
    ir_router_destroy(router);
}

static void test_tablet(const char *fixtures) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tablet.yml", fixtures);
    struct ir_recording *rec = ir_recording_open(path, NULL);
    CHECK(rec != NULL);
    if (!rec) return;
    size_t events = 0, skipped = 0;
    CHECK_OK(ir_recording_counts(rec, &events, &skipped));
    /* The two devices come; the 33 tablet and pad entries are skipped. */
    CHECK(events == 2 && skipped >= 33);
    struct ir_event event;
    CHECK_OK(ir_recording_next(rec, &event));
    CHECK(event.type == IR_EVENT_DEVICE_ADDED);
    CHECK_OK(ir_recording_next(rec, &event));
    CHECK(event.type == IR_EVENT_DEVICE_ADDED);
    CHECK_ERR(ir_recording_next(rec, &event), IR_ERROR_END_OF_RECORDING);
    CHECK_ERR(ir_recording_next(rec, NULL), IR_ERROR_NULL_ARGUMENT);
    ir_recording_close(rec);
}

int main(int argc, char **argv) {
    const char *fixtures = argc > 1 ? argv[1] : "Tests/RecordingTests/Fixtures";
    test_mouse(fixtures);
    test_tablet(fixtures);
    if (harness_failures) {
        fprintf(stderr, "recording_test: %d failed checks\n", harness_failures);
        return 1;
    }
    printf("recording_test: all checks passed\n");
    return 0;
}
