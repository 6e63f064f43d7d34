// A reader of the `libinput:` event lines of a `libinput record` file (YAML), for the
// event kinds tinywl feeds: pointer motion and buttons, keys, touch down, motion, up and
// frame. It reads one flow-mapping line per event, e.g.
//   - {time: 0.017009, type: POINTER_MOTION, delta: [ 2.00, 1.00], unaccel: [ 2.00, 1.00]}
//   - {time: 0.5, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [75.6, 50.3], transformed: [29.5, 34.9]}
// Touch positions are libinput record's "transformed" ones, on a 100 x 100 screen, turned
// into the 0..1 range wlroots' touch events carry. Events of all devices are merged in
// time order (each device's list is in order already). Header-only: `static` functions.
#ifndef TINYWL_REPLAY_H
#define TINYWL_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// How many events one replay tick plays before the clients get to read them.
#define REPLAY_BATCH 16

enum replay_kind {
	REPLAY_POINTER_MOTION,
	REPLAY_POINTER_BUTTON,
	REPLAY_KEYBOARD_KEY,
	REPLAY_TOUCH_DOWN,
	REPLAY_TOUCH_MOTION,
	REPLAY_TOUCH_UP,
	REPLAY_TOUCH_FRAME,
};

struct replay_event {
	enum replay_kind kind;
	double time; // seconds, as recorded
	size_t order; // its place in the file, which breaks ties in time
	uint32_t time_msec;
	uint32_t code; // button or key
	bool pressed;
	int32_t slot; // the seat slot of a touch point
	double dx, dy; // pointer motion
	double x, y; // touch position, 0..1
};

struct replay {
	struct replay_event *events;
	size_t count, next;
	bool started;
};

// The numbers after `key: [` in `line`, or after `key: ` for one; false when absent.
static bool replay_field(const char *line, const char *key, double *a, double *b) {
	char pattern[32];
	snprintf(pattern, sizeof(pattern), " %s: ", key);
	const char *p = strstr(line, pattern);
	if (!p) return false;
	p += strlen(pattern);
	if (*p == '[') {
		char *end;
		*a = strtod(p + 1, &end);
		if (*end != ',') return false;
		*b = strtod(end + 1, NULL);
		return true;
	}
	*a = strtod(p, NULL);
	return true;
}

static int replay_by_time(const void *a, const void *b) {
	const struct replay_event *x = a, *y = b;
	if (x->time != y->time) return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool replay_read(struct replay *replay, const char *path) {
	FILE *file = fopen(path, "r");
	if (!file) {
		perror(path);
		return false;
	}
	static const struct {
		const char *name;
		enum replay_kind kind;
	} kinds[] = {
		{"POINTER_MOTION,", REPLAY_POINTER_MOTION}, {"POINTER_BUTTON,", REPLAY_POINTER_BUTTON},
		{"KEYBOARD_KEY,", REPLAY_KEYBOARD_KEY}, {"TOUCH_DOWN,", REPLAY_TOUCH_DOWN},
		{"TOUCH_MOTION,", REPLAY_TOUCH_MOTION}, {"TOUCH_UP,", REPLAY_TOUCH_UP}, {"TOUCH_FRAME}", REPLAY_TOUCH_FRAME},
	};
	size_t capacity = 0;
	char line[1024];
	while (fgets(line, sizeof(line), file)) {
		const char *type = strstr(line, "{time: ");
		if (!type || !(type = strstr(type, " type: "))) continue;
		type += 7;
		struct replay_event e = {0};
		size_t k = 0;
		for (; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			if (strncmp(type, kinds[k].name, strlen(kinds[k].name)) == 0) break;
		}
		if (k == sizeof(kinds) / sizeof(kinds[0])) continue; // a kind tinywl does not feed
		e.kind = kinds[k].kind;
		double a = 0, b = 0;
		e.order = replay->count;
		e.time = strtod(strstr(line, "{time: ") + 7, NULL);
		e.time_msec = (uint32_t)(e.time * 1000);
		e.pressed = strstr(line, "state: pressed") != NULL;
		if (replay_field(line, "button", &a, &b) || replay_field(line, "key", &a, &b)) e.code = (uint32_t)a;
		if (replay_field(line, "seat_slot", &a, &b)) e.slot = (int32_t)a;
		replay_field(line, "delta", &e.dx, &e.dy);
		if (replay_field(line, "transformed", &a, &b)) {
			e.x = a / 100;
			e.y = b / 100;
		}
		if (replay->count == capacity) {
			capacity = capacity ? capacity * 2 : 256;
			replay->events = realloc(replay->events, capacity * sizeof(*replay->events));
		}
		replay->events[replay->count++] = e;
	}
	fclose(file);
	qsort(replay->events, replay->count, sizeof(*replay->events), replay_by_time);
	return true;
}

static const struct replay_event *replay_next(struct replay *replay) {
	return replay->next < replay->count ? &replay->events[replay->next++] : NULL;
}

static bool replay_done(const struct replay *replay) { return replay->next >= replay->count; }

#endif
