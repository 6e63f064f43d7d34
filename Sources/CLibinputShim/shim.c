#include "CLibinputShim.h"
#include <libinput.h>
#include <libseat.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/input.h>
#include <sys/ioctl.h>

/* Formats `format` with `args` into a heap string when it does not fit the caller's
 * buffer. Returns the buffer to use; the caller frees it when it is not `stack`. */
static char *format_message(char *stack, size_t size, const char *format, va_list args) {
    va_list again;
    va_copy(again, args);
    int needed = vsnprintf(stack, size, format, args);
    if (needed < 0) {
        va_end(again);
        snprintf(stack, size, "(unformattable log message: %s)", format);
        return stack;
    }
    if ((size_t)needed < size) {
        va_end(again);
        return stack;
    }
    char *heap = malloc((size_t)needed + 1);
    if (heap == NULL) {
        va_end(again);
        return stack; /* truncated is better than nothing */
    }
    vsnprintf(heap, (size_t)needed + 1, format, again);
    va_end(again);
    return heap;
}

static _Atomic(ir_libinput_log_sink) libinput_sink;

static void libinput_handler(struct libinput *libinput, enum libinput_log_priority priority,
                             const char *format, va_list args) {
    ir_libinput_log_sink sink = atomic_load(&libinput_sink);
    if (sink == NULL)
        return;
    char stack[512];
    char *message = format_message(stack, sizeof stack, format, args);
    sink(libinput, (int)priority, message);
    if (message != stack)
        free(message);
}

void ir_libinput_set_log_sink(struct libinput *libinput, ir_libinput_log_sink sink) {
    atomic_store(&libinput_sink, sink);
    libinput_log_set_handler(libinput, libinput_handler);
}

static _Atomic(ir_libseat_log_sink) libseat_sink;

static void libseat_handler(enum libseat_log_level level, const char *format, va_list args) {
    ir_libseat_log_sink sink = atomic_load(&libseat_sink);
    if (sink == NULL)
        return;
    char stack[512];
    char *message = format_message(stack, sizeof stack, format, args);
    sink((int)level, message);
    if (message != stack)
        free(message);
}

void ir_libseat_set_log_sink(ir_libseat_log_sink sink, int level) {
    atomic_store(&libseat_sink, sink);
    libseat_set_log_handler(sink ? libseat_handler : NULL);
    libseat_set_log_level((enum libseat_log_level)level);
}

int ir_evdev_keys_down(int fd, unsigned char *bits, unsigned long length) {
    return ioctl(fd, EVIOCGKEY(length), bits);
}
