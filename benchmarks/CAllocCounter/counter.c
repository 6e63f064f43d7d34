#define _GNU_SOURCE
#include "CAllocCounter.h"
#include <stddef.h>
#include <stdatomic.h>

// glibc's real allocator entry points.
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static _Atomic uint64_t allocations;

uint64_t ir_allocation_count(void) { return atomic_load(&allocations); }

void *malloc(size_t size) { atomic_fetch_add(&allocations, 1); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { atomic_fetch_add(&allocations, 1); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { atomic_fetch_add(&allocations, 1); return __libc_realloc(p, size); }
void *aligned_alloc(size_t alignment, size_t size) {
    atomic_fetch_add(&allocations, 1);
    return __libc_memalign(alignment, size);
}
int posix_memalign(void **out, size_t alignment, size_t size) {
    atomic_fetch_add(&allocations, 1);
    void *p = __libc_memalign(alignment, size);
    if (!p) return 12; // ENOMEM
    *out = p;
    return 0;
}
