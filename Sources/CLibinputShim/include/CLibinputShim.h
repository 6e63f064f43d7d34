// libinput's and libseat's log handlers take a va_list, which Swift cannot format: these
// format each message in C and hand Swift a plain string.
#pragma once

struct libinput;

/// A log line, already formatted (vsnprintf), handed to Swift as a plain C string.
/// `priority` is libinput's (10 debug, 20 info, 30 error).
typedef void (*ir_libinput_log_sink)(struct libinput *libinput, int priority, const char *message);

/// Installs a handler on `libinput` (libinput_log_set_handler takes a va_list callback)
/// that formats each message and calls `sink`. The sink is process-wide: every context
/// uses the same one, and tells its own messages apart by the libinput pointer
/// (libinput_get_user_data). Call with the same sink every time.
void ir_libinput_set_log_sink(struct libinput *libinput, ir_libinput_log_sink sink);

/// The same for libseat, whose log handler (libseat_set_log_handler) is process-wide
/// and also takes a va_list. `level` is libseat's (0 silent, 1 error, 2 info, 3 debug);
/// a NULL sink restores libseat's default (stderr).
typedef void (*ir_libseat_log_sink)(int level, const char *message);
void ir_libseat_set_log_sink(ir_libseat_log_sink sink, int level);

/// The keys an evdev device has down now, one bit per key code (EVIOCGKEY, which Swift
/// cannot call: ioctl is variadic), into `bits` of `length` bytes. Returns the bytes
/// written, or -1 with errno set. Reading it takes no event from the device's queue.
int ir_evdev_keys_down(int fd, unsigned char *bits, unsigned long length);
