/* A program outside the package, built only from the installed header and library
 * (`cc consumer.c $(pkg-config --cflags --libs inputrouter)`): the example of
 * docs/embedding.md, "From C". Its output is compared with expected-output.txt. */
#include <input_router.h>
#include <stdio.h>

static void deliver(void *user_data, const struct ir_delivery *d) {
    (void)user_data;
    switch (d->kind) {
    case IR_DELIVERY_POINTER_ENTER: /* wlr_seat_pointer_notify_enter(seat, surface_of(d->node), d->x, d->y) */
        printf("client %u: pointer enter at %.2f,%.2f\n", d->client, d->x, d->y);
        break;
    case IR_DELIVERY_POINTER_LEAVE: printf("client %u: pointer leave\n", d->client); break;
    case IR_DELIVERY_POINTER_BUTTON: /* wlr_seat_pointer_notify_button(seat, d->time_msec, d->button, d->state) */
        printf("client %u: button %#x %s at %u ms\n", d->client, d->button, d->state ? "pressed" : "released",
               d->time_msec);
        break;
    case IR_DELIVERY_KEY: printf("client %u: key %u %s\n", d->client, d->key, d->state ? "pressed" : "released"); break;
    default: break;
    }
}

int main(void) {
    if (ir_version() >> 16 != IR_API_VERSION_MAJOR) return 1;
    struct ir_router *router = ir_router_create();
    uint32_t seat, terminal, editor;
    uint64_t output, left, right;
    ir_router_add_seat(router, "seat0", &seat);
    ir_router_add_client(router, "terminal", &terminal);
    ir_router_add_client(router, "editor", &editor);
    ir_router_create_node(router, IR_NODE_OUTPUT, IR_CLIENT_COMPOSITOR, IR_NODE_NONE, IR_LAYER_ABOVE,
                          (struct ir_rect){0, 0, 1280, 720}, "HDMI-A-1", &output);
    ir_router_create_node(router, IR_NODE_TOPLEVEL, terminal, output, IR_LAYER_ABOVE,
                          (struct ir_rect){0, 0, 640, 720}, "terminal", &left);
    ir_router_create_node(router, IR_NODE_TOPLEVEL, editor, output, IR_LAYER_ABOVE,
                          (struct ir_rect){640, 0, 640, 720}, "editor", &right);
    ir_seat_set_bound(router, seat, terminal, IR_BOUND_POINTER | IR_BOUND_KEYBOARD);
    ir_seat_set_bound(router, seat, editor, IR_BOUND_POINTER | IR_BOUND_KEYBOARD);
    ir_seat_add_device(router, seat, 1, IR_DEVICE_POINTER | IR_DEVICE_KEYBOARD);
    ir_seat_set_keyboard_focus(router, seat, right);

    struct ir_event events[] = {
        {.type = IR_EVENT_POINTER_MOTION, .time_usec = 1000000, .device = 1, .dx = 100, .dy = 50},
        {.type = IR_EVENT_POINTER_MOTION, .time_usec = 1010000, .device = 1, .dx = 600, .dy = 0},
        {.type = IR_EVENT_POINTER_BUTTON, .time_usec = 1020000, .device = 1, .button = 0x110, .state = 1},
        {.type = IR_EVENT_POINTER_BUTTON, .time_usec = 1090000, .device = 1, .button = 0x110, .state = 0},
        {.type = IR_EVENT_KEYBOARD_KEY, .time_usec = 1200000, .device = 1, .key = 30, .state = 1},
        {.type = IR_EVENT_POINTER_MOTION, .time_usec = 1300000, .device = 2, .dx = 1, .dy = 1},
    };
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        enum ir_error error = ir_router_handle_event(router, seat, &events[i]);
        if (error != IR_OK) printf("event %zu: %s\n", i, ir_error_string(error));
        ir_router_drain(router, deliver, NULL, NULL);
    }
    size_t violations = 0;
    ir_router_check_invariants(router, &violations, NULL, 0, NULL);
    printf("%zu invariant violations\n", violations);
    ir_router_destroy(router);
    return 0;
}
