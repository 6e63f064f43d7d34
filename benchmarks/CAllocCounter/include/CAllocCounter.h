// Counts heap allocations of the whole process by interposing malloc and friends: the
// benchmark reads the count around a batch of routed events (as swift-nio's tests do).
#pragma once
#include <stdint.h>

/// Number of malloc, calloc, realloc, posix_memalign and aligned_alloc calls so far.
uint64_t ir_allocation_count(void);
