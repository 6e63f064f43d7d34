#include "harness.h"

int harness_failures = 0;

void record_delivery(void *user_data, const struct ir_delivery *delivery) {
    struct recorded *r = user_data;
    if (r->count >= sizeof r->d / sizeof r->d[0]) {
        fprintf(stderr, "more than %zu deliveries in one drain\n", sizeof r->d / sizeof r->d[0]);
        harness_failures++;
        return;
    }
    r->d[r->count] = *delivery;
    if (delivery->kind == IR_DELIVERY_KEYBOARD_ENTER) {
        for (size_t i = 0; i < delivery->key_count && i < 8; i++) r->keys[r->count][i] = delivery->keys[i];
        r->d[r->count].keys = r->keys[r->count];
    }
    r->count++;
}

size_t drain_into(struct ir_router *router, struct recorded *out) {
    size_t count = 0;
    memset(out, 0, sizeof *out);
    enum ir_error e = ir_router_drain(router, record_delivery, out, &count);
    if (e != IR_OK) {
        fprintf(stderr, "ir_router_drain: %s\n", ir_error_string(e));
        harness_failures++;
    }
    if (count != out->count) {
        fprintf(stderr, "ir_router_drain counted %zu, the callback saw %zu\n", count, out->count);
        harness_failures++;
    }
    return count;
}

int find_kind(const struct recorded *r, size_t from, enum ir_delivery_kind kind) {
    for (size_t i = from; i < r->count; i++)
        if (r->d[i].kind == kind) return (int)i;
    return -1;
}

size_t count_kind(const struct recorded *r, enum ir_delivery_kind kind) {
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++)
        if (r->d[i].kind == kind) n++;
    return n;
}
