/* What the C tests share: checks that report file and line, and a recorder of deliveries. */
#ifndef CAPI_HARNESS_H
#define CAPI_HARNESS_H

#include <input_router.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int harness_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            harness_failures++;                                                      \
        }                                                                            \
    } while (0)

/* An error code compared with the expected one, both printed by name when they differ. */
#define CHECK_ERR(call, expected)                                                                  \
    do {                                                                                           \
        enum ir_error got_ = (call);                                                               \
        if (got_ != (expected)) {                                                                  \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d (%s)\n", __FILE__, __LINE__, \
                    #call, got_, ir_error_string(got_), (expected), ir_error_string(expected));    \
            harness_failures++;                                                                    \
        }                                                                                          \
    } while (0)

#define CHECK_OK(call) CHECK_ERR(call, IR_OK)

/* Deliveries copied out of the drain callback (keys of an enter copied too). */
struct recorded {
    struct ir_delivery d[256];
    uint32_t keys[256][8];
    size_t count;
};

void record_delivery(void *user_data, const struct ir_delivery *delivery);
/* Drains `router` into `out` (emptied first) and returns how many deliveries came. */
size_t drain_into(struct ir_router *router, struct recorded *out);
/* The index of the first delivery of `kind` at or after `from`, or -1. */
int find_kind(const struct recorded *r, size_t from, enum ir_delivery_kind kind);
/* How many deliveries of `kind` there are. */
size_t count_kind(const struct recorded *r, enum ir_delivery_kind kind);

#endif
