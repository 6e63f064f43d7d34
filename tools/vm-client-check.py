#!/usr/bin/python3
# What a real client under `ir-compositor --input libinput` must have received, derived
# from `libinput debug-events` run in the same VM on the same devices (an independent
# reader of the same kernel events), compared with what the client printed. For
# tools/vm-libinput-test.sh (its compositor-* cases); run in the case's directory:
#
#   vm-client-check.py NAME WxH [OUTPUTS]   WxH: the client's surface; OUTPUTS: the
#                                 outputs' sizes, side by side (800x600,640x480; default
#                                 640x480). Reads NAME.expected
#                                 (debug-events), NAME.client (the compositor's output,
#                                 client lines "client 1 | ..."), NAME.phases ("PHASE
#                                 LINES /dev/input/eventN" per phase) and, for wev,
#                                 NAME.wire (its WAYLAND_DEBUG log: the wl_seat version)
#
# Prints PASS/FAIL per phase: "start" (wl_seat.capabilities before any input: the
# devices present when the compositor started), then one per replayed device.
#
# The model: one client, one toplevel of size WxH on a 640x480 output (or the OUTPUTS),
# with the keyboard focus from its map on; the pointer starts at (0, 0) and moves by
# libinput's accelerated deltas, kept to the nearest point on an output; pointer events
# go to the surface while the cursor is inside it; touch points to the surface under them at down (the touchscreen
# spans the output). The surface's position is the one fact taken from the client: its
# first pointer.enter must be the first motion whose cursor lies inside the surface
# placed at cursor - enter (whole pixels); of the places that allows, the one under which
# the whole mouse phase agrees is kept. Everything else must then agree.
#
# Exactness: keys, buttons, modifiers, wheel values, touch ids, frames and the order of
# every line must be identical; positions agree within what debug-events prints (two
# decimals: 0.005 px per accumulated motion delta, 0.005 % of the output per touch
# coordinate) plus the client's own rounding (wl_fixed, two decimals).
import re
import sys

OUTPUT_W, OUTPUT_H = 640, 480
# The outputs' frames (x, y, w, h) in layout space: side by side, left to right, top edges
# at 0, as repeated --output options place them (the third argument; 640x480 alone
# otherwise). Touch is checked on the one 640x480 output only.
LAYOUT = [(0, 0, OUTPUT_W, OUTPUT_H)]


def layout_of(spec):
    frames, x = [], 0
    for part in spec.split(","):
        w, h = (int(v) for v in part.split("x"))
        frames.append((x, 0, w, h))
        x += w
    return frames


def clamp(x, y):
    """The nearest point on some output (right and bottom edges exclusive: 1/256 inside);
    the first output wins a tie. What wlroots' closest-point rule does, too."""
    best, distance = (x, y), None
    for ox, oy, w, h in LAYOUT:
        cx = min(max(x, float(ox)), ox + w - 1 / 256)
        cy = min(max(y, float(oy)), oy + h - 1 / 256)
        d = (cx - x) ** 2 + (cy - y) ** 2
        if distance is None or d < distance:
            best, distance = (cx, cy), d
        if d == 0:
            break
    return best
SHIFT, LOCK, CONTROL, MOD1, MOD4 = 1, 2, 4, 8, 64
# evdev codes of the us layout's modifier keys (xkeyboard-config), depressed while held.
MODIFIER_KEYS = {42: SHIFT, 54: SHIFT, 29: CONTROL, 97: CONTROL, 56: MOD1, 100: MOD1, 125: MOD4, 126: MOD4}
LOCKING_KEYS = {58}  # Caps Lock: not modelled; a recording pressing it fails the check

CAP_BITS = {"p": 1, "k": 2, "t": 4}


def caps_of(letters):
    return sum(bit for letter, bit in CAP_BITS.items() if letter in letters)


# MARK: libinput debug-events

def read_debug_events(path):
    """[(sysname, type, fields)] in order; fields is the rest of the line."""
    events = []
    for line in open(path, errors="replace"):
        m = re.match(r"^[- ](event\d+)\s+(\S+)\s+(.*)$", line.rstrip("\n"))
        if m:
            events.append((m.group(1), m.group(2), m.group(3)))
    return events


# MARK: what the client printed, in one vocabulary

def client_lines(path, number=1):
    out = []
    for line in open(path, errors="replace"):
        m = re.match(r"^client %d \| (.*)$" % number, line.rstrip("\n"))
        out.append(m.group(1) if m else None)  # None keeps the line numbering of the file
    return out


def parse_probe(lines):
    """wl-probe's lines are already the vocabulary; names of surfaces are dropped."""
    events = []
    for line in lines:
        if line is None:
            continue
        w = line.split()
        if not w:
            continue
        kind = w[0]
        if kind == "seat.capabilities":
            events.append((kind, int(w[1])))
        elif kind in ("keyboard.enter", "keyboard.leave", "pointer.leave", "pointer.frame", "touch.frame",
                      "touch.cancel"):
            events.append((kind,))
        elif kind == "keyboard.key":
            events.append((kind, int(w[1]), w[2]))
        elif kind == "keyboard.modifiers":
            events.append((kind,) + tuple(int(v) for v in w[1:5]))
        elif kind == "pointer.enter":
            events.append((kind, float(w[2]), float(w[3])))
        elif kind == "pointer.motion":
            events.append((kind, float(w[1]), float(w[2])))
        elif kind == "pointer.button":
            events.append((kind, int(w[1]), w[2]))
        elif kind in ("pointer.axis_source", "pointer.axis_stop"):
            events.append((kind,) + tuple(int(v) for v in w[1:]))
        elif kind in ("pointer.axis_value120", "pointer.axis_discrete"):
            events.append((kind, int(w[1]), int(w[2])))
        elif kind == "pointer.axis":
            events.append((kind, int(w[1]), float(w[2])))
        elif kind == "touch.down":
            events.append((kind, int(w[2]), float(w[3]), float(w[4])))
        elif kind == "touch.motion":
            events.append((kind, int(w[1]), float(w[2]), float(w[3])))
        elif kind == "touch.up":
            events.append((kind, int(w[1])))
    return events


def parse_wev(lines):
    """wev prints one event per line, some continued on indented lines. A line that does
    not parse is kept as such: it then differs from what was expected."""
    events, state = [], {"modifiers": None}
    # wev asks for a new wl_keyboard (pointer, touch) on every capabilities event, and the
    # server sends each event to all of them: one event, printed once per object in a
    # row. Those copies count once (the same object printing it twice still counts twice).
    group, ids = None, set()
    for line in lines:
        if line is None:
            continue
        o = re.match(r"^\[\s*(\d+):", line)
        if o:
            state["object"] = o.group(1)
        before = len(events)
        try:
            parse_wev_line(line, events, state)
        except (AttributeError, ValueError, KeyError):
            events.append(("unreadable", line))
        if len(events) > before:
            event = events[-1]
            if event == group and state.get("object") not in ids:
                ids.add(state.get("object"))
                events.pop()
            else:
                group, ids = event, {state.get("object")}
    return events


def parse_wev_line(line, events, state):
    m = re.match(r"^\[\s*\d+:\s*(\w+)\] (\w+)(?:: ?(.*))?$", line)  # "frame" has no colon
    if not m:
        c = re.match(r"^\s+(depressed|latched|locked): ([0-9a-f]{8})", line)
        if c and state["modifiers"] is not None:
            state["modifiers"][c.group(1)] = int(c.group(2), 16)
            if c.group(1) == "locked":
                events.append(("keyboard.modifiers", state["modifiers"]["depressed"], state["modifiers"]["latched"],
                               state["modifiers"]["locked"], state["modifiers"]["group"]))
                state["modifiers"] = None
        return
    interface, event, rest = m.group(1), m.group(2), m.group(3) or ""
    if interface == "wl_seat" and event == "capabilities":
        events.append(("seat.capabilities", caps_of("".join(
            {"pointer": "p", "keyboard": "k", "touch": "t"}.get(w, "") for w in rest.split()))))
    elif interface == "wl_keyboard":
        if event == "enter":
            events.append(("keyboard.enter",))
        elif event == "leave":
            events.append(("keyboard.leave",))
        elif event == "key":
            k = re.search(r"key: (\d+); state: (\d)", rest)
            # wev prints the xkb keycode: the protocol's evdev code + 8.
            events.append(("keyboard.key", int(k.group(1)) - 8, "pressed" if k.group(2) == "1" else "released"))
        elif event == "modifiers":
            g = re.search(r"group: (\d+)", rest)
            state["modifiers"] = {"group": int(g.group(1)) if g else 0}
    elif interface == "wl_pointer":
        xy = re.search(r"x, y: (-?[\d.]+), (-?[\d.]+)", rest)
        if event == "enter":
            events.append(("pointer.enter", float(xy.group(1)), float(xy.group(2))))
        elif event == "leave":
            events.append(("pointer.leave",))
        elif event == "motion":
            events.append(("pointer.motion", float(xy.group(1)), float(xy.group(2))))
        elif event == "button":
            b = re.search(r"button: (\d+)[^,]*, state: (\d)", rest)
            events.append(("pointer.button", int(b.group(1)), "pressed" if b.group(2) == "1" else "released"))
        elif event == "frame":
            events.append(("pointer.frame",))
        elif event == "axis_source":
            events.append(("pointer.axis_source", int(re.search(r"(\d+)", rest).group(1))))
        elif event == "axis_stop" and "discrete:" in rest:
            # wev 1.0 prints axis_discrete under the name axis_stop.
            d = re.search(r"axis: (\d+).*discrete: (-?\d+)", rest)
            events.append(("pointer.axis_discrete", int(d.group(1)), int(d.group(2))))
        elif event == "axis_stop":
            events.append(("pointer.axis_stop", int(re.search(r"axis: (\d+)", rest).group(1))))
        elif event in ("axis", "axis_discrete", "axis_value120"):
            a = re.search(r"axis: (\d+)", rest)
            v = re.search(r"(?:value|discrete|value120): (-?[\d.]+)", rest)
            value = float(v.group(1)) if event == "axis" else int(float(v.group(1)))
            events.append(("pointer." + event, int(a.group(1)), value))
    elif interface == "wl_touch":
        xy = re.search(r"x, y: (-?[\d.]+), (-?[\d.]+)", rest)
        i = re.search(r"id: (\d+)", rest)
        if event == "down":
            events.append(("touch.down", int(i.group(1)), float(xy.group(1)), float(xy.group(2))))
        elif event == "motion":
            events.append(("touch.motion", int(i.group(1)), float(xy.group(1)), float(xy.group(2))))
        elif event == "up":
            events.append(("touch.up", int(i.group(1))))
        elif event == "frame":
            events.append(("touch.frame",))
        elif event == "cancel":
            events.append(("touch.cancel",))


# MARK: the model

class OutsideModel(Exception):
    """The replay did something this checker does not model: a FAIL, never a guess."""


class Model:
    def __init__(self, size, seat_version):
        self.size = size
        self.v = seat_version
        self.origin = None
        self.cursor = [0.0, 0.0]
        self.cursor_error = 0.0   # bound on debug-events' rounding, accumulated
        self.focused = False      # pointer focus on the surface
        self.held = set()         # buttons held (implicit grab)
        self.touches = {}         # seat_slot -> owned by the surface
        self.touch_frame = False
        self.depressed = 0
        self.caps = None
        self.devices = {}
        self.acc120 = [0, 0]      # v5-7: value120 not yet sent as whole discrete steps
        self.accv = [0.0, 0.0]    # v5-7: the scroll value summed with it
        self.keyboard_focus = True  # from the map on; False: given by a click (a seat after the first)
        self.focus_on_click = False
        self.above = None         # (dx, dy, w, h) from the origin: another client's window on top, until a click raises ours
        self.held_at = []         # cursor positions the layout's edges held

    def inside(self, x, y):
        ox, oy = self.origin
        if self.above:
            dx, dy, w, h = self.above
            if ox + dx <= x < ox + dx + w and oy + dy <= y < oy + dy + h:
                return False
        return ox <= x < ox + self.size[0] and oy <= y < oy + self.size[1]

    def local(self, x, y):
        return x - self.origin[0], y - self.origin[1]

    def capabilities(self):
        caps = 0
        for letters in self.devices.values():
            caps |= caps_of(letters)
        if caps != self.caps:
            self.caps = caps
            return [("seat.capabilities", caps)]
        return []

    def step(self, sysname, type, fields):
        """The client lines one libinput event must cause, with position tolerances."""
        out = []
        if type == "DEVICE_ADDED":
            self.devices[sysname] = re.search(r"cap:(\S*)", fields).group(1)
            before = self.caps or 0
            out = self.capabilities()
            if out and self.keyboard_focus and not before & 2 and self.caps & 2:
                # The client binds the new wl_keyboard; it has the focus, so it is entered.
                out += [("keyboard.enter",), ("keyboard.modifiers", self.depressed, 0, 0, 0)]
            return out
        if type == "DEVICE_REMOVED":
            self.devices.pop(sysname, None)
            return self.capabilities()
        if type == "KEYBOARD_KEY":
            m = re.search(r"\((\d+)\) (pressed|released)", fields)
            code, state = int(m.group(1)), m.group(2)
            if code in LOCKING_KEYS:
                raise OutsideModel("a locking key (%d)" % code)
            if self.keyboard_focus:
                out.append(("keyboard.key", code, state))
            if code in MODIFIER_KEYS:
                # Left and right keys of one modifier are not held together in these recordings.
                mask = self.depressed | MODIFIER_KEYS[code] if state == "pressed" else self.depressed & ~MODIFIER_KEYS[code]
                if mask != self.depressed:
                    self.depressed = mask
                    if self.keyboard_focus:
                        out.append(("keyboard.modifiers", mask, 0, 0, 0))
            return out
        if type == "POINTER_MOTION":
            m = re.match(r"\S+\s+(-?[\d.]+)/\s*(-?[\d.]+)", fields)
            moved = (self.cursor[0] + float(m.group(1)), self.cursor[1] + float(m.group(2)))
            self.cursor = list(clamp(*moved))
            if tuple(self.cursor) != moved:
                self.held_at.append(tuple(self.cursor))  # where the layout's edges held it
            self.cursor_error += 0.005
            x, y = self.local(*self.cursor)
            if self.held:
                if not self.focused:
                    raise OutsideModel("a button held outside the surface")
                return [("pointer.motion", x, y), ("pointer.frame",)]
            inside = self.inside(*self.cursor)
            if inside and not self.focused:
                # The motion that enters: enter, then the motion itself, in one frame
                # (the core's rule; sway does the same, weston sends the enter alone).
                self.focused = True
                self.acc120, self.accv = [0, 0], [0.0, 0.0]  # the sums restart on enter
                return [("pointer.enter", x, y), ("pointer.motion", x, y), ("pointer.frame",)]
            if inside:
                return [("pointer.motion", x, y), ("pointer.frame",)]
            if self.focused:
                self.focused = False
                return [("pointer.leave",), ("pointer.frame",)]
            return []
        if type == "POINTER_BUTTON":
            m = re.search(r"\((\d+)\) (pressed|released)", fields)
            button, state = int(m.group(1)), m.group(2)
            if not self.focused:
                raise OutsideModel("a button %s outside the surface" % state)
            (self.held.add if state == "pressed" else self.held.discard)(button)
            out = [("pointer.button", button, state), ("pointer.frame",)]
            if self.focus_on_click and state == "pressed":
                self.above = None  # the click raises the window
                if not self.keyboard_focus:
                    # Once the click's events are out, the keyboard (when the seat has one).
                    self.keyboard_focus = True
                    if self.caps & 2:
                        out += [("keyboard.enter",), ("keyboard.modifiers", self.depressed, 0, 0, 0)]
            return out
        if type == "POINTER_SCROLL_WHEEL":
            if not self.focused:
                raise OutsideModel("a wheel event outside the surface")
            out = []
            for axis, name in ((0, "vert"), (1, "horiz")):
                m = re.search(name + r" (-?[\d.]+)/(-?[\d.]+)(\*?)", fields)
                if not m.group(3):
                    continue  # libinput has no value on this axis
                value, v120 = float(m.group(1)), int(float(m.group(2)))
                if self.v >= 8:
                    out += [("pointer.axis_value120", axis, v120), ("pointer.axis", axis, value)]
                else:
                    # Versions 5-7: whole clicks only, from the value120 and the scroll value
                    # summed per axis, restarted when the direction changes (as wlroots
                    # does): nothing at all for a partial click, then discrete + the sum.
                    if self.acc120[axis] * v120 < 0:
                        self.acc120[axis], self.accv[axis] = 0, 0.0
                    self.acc120[axis] += v120
                    self.accv[axis] += value
                    steps = int(self.acc120[axis] / 120)
                    if steps:
                        self.acc120[axis] -= steps * 120
                        out += [("pointer.axis_discrete", axis, steps), ("pointer.axis", axis, self.accv[axis])]
                        self.accv[axis] = 0.0
            if out:
                out.insert(0, ("pointer.axis_source", 0))
            return out + [("pointer.frame",)]
        if type in ("TOUCH_DOWN", "TOUCH_MOTION"):
            m = re.match(r"\S+\s+\d+ \((\d+)\) ([\d.]+)/([\d.]+)", fields)
            slot = int(m.group(1))
            x, y = float(m.group(2)) / 100 * OUTPUT_W, float(m.group(3)) / 100 * OUTPUT_H
            lx, ly = self.local(x, y)
            if type == "TOUCH_DOWN":
                if not self.inside(x, y):
                    raise OutsideModel("a touch down outside the surface")
                self.touches[slot] = True
                self.touch_frame = True
                return [("touch.down", slot, lx, ly)]
            if slot in self.touches:
                self.touch_frame = True
                return [("touch.motion", slot, lx, ly)]
            return []
        if type == "TOUCH_UP":
            slot = int(re.match(r"\S+\s+\d+ \((\d+)\)", fields).group(1))
            if self.touches.pop(slot, None):
                self.touch_frame = True
                return [("touch.up", slot)]
            return []
        if type == "TOUCH_FRAME":
            sent, self.touch_frame = self.touch_frame, False
            return [("touch.frame",)] if sent else []
        if type == "TOUCH_CANCEL":
            raise OutsideModel("a touch cancel")
        raise OutsideModel("a %s event" % type)

    def tolerance(self, kind):
        """How far a position may be off: what debug-events rounded away, and the client's rounding."""
        client = 1 / 256 + 0.005
        if kind.startswith("pointer."):
            return self.cursor_error + client + 0.005
        return 0.005 / 100 * max(OUTPUT_W, OUTPUT_H) + client  # touch: two decimals of a percentage


def same(expected, actual, tolerance):
    """Equal, positions within `tolerance`, other decimals (axis values) within the client's rounding."""
    if expected[0] != actual[0] or len(expected) != len(actual):
        return False
    for e, a in zip(expected[1:], actual[1:]):
        if isinstance(e, float):
            if abs(e - a) > (tolerance if kind_has_position(expected[0]) else 0.005 + 1 / 256):
                return False
        elif e != a:
            return False
    return True


def kind_has_position(kind):
    return kind in ("pointer.enter", "pointer.motion", "touch.down", "touch.motion")


def show(event):
    return " ".join("%.2f" % v if isinstance(v, float) else str(v) for v in event)


# MARK: the check

def main():
    if sys.argv[1] == "--seats":
        return check_seats(sys.argv[2])
    if sys.argv[1] == "--gtk":
        return check_gtk(sys.argv[2])
    if len(sys.argv) > 3:
        LAYOUT[:] = layout_of(sys.argv[3])
    name = sys.argv[1]
    return check(name, tuple(int(v) for v in sys.argv[2].split("x")), name + ".expected")


def check_seats(name):
    """compositor-seats: ir-compositor --input libinput --seat seat-b --input libinput.
    Client 1 binds seat-b (wl-probe --seat-index 1, a 560x400 window, mapped first, at the
    placement's first place); client 2 binds seat0 (a 10x10 window, mapped second, 32 px
    further along the placement's cascade, on top, with seat0's keyboard). Seat0 has the
    keyboard recording's device (phase keyboard) and the VM's own; seat-b the mouse
    recording's (phase mouse), then a keyboard plugged in (phase hotplug-keyboard). Each
    client must get exactly its own seat's events: the other seat's phases print nothing
    there. seat-b's keyboard reaches client 1 only after seat-b's click focused its window."""
    seat0 = check(name, (10, 10), name + ".expected", client=2, label=name + " seat0 client",
                  own_phases={"keyboard"})
    seat_b = check(name, (560, 400), name + "-b.expected", client=1, label=name + " seat-b client",
                   own_phases={"mouse", "hotplug-keyboard"}, focus_on_click=True, above=(32, 32, 10, 10))
    return seat0 or seat_b


# The us layout's characters for the keys the recordings type: plain, and with Shift.
US_CHARACTERS = {2: "1!", 3: "2@", 4: "3#", 5: "4$", 6: "5%", 7: "6^", 8: "7&", 9: "8*", 10: "9(", 11: "0)",
                 12: "-_", 13: "=+", 26: "[{", 27: "]}", 39: ";:", 40: "'\"", 41: "`~", 43: "\\|", 51: ",<",
                 52: ".>", 53: "/?", 57: "  "}
for row, first in (("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)):
    for i, letter in enumerate(row):
        US_CHARACTERS[first + i] = letter + letter.upper()


# What wl_keyboard.repeat_info tells clients (Keyboard's RepeatInfo.default): GTK repeats a
# held key itself, by its own clock, after the delay and then at the rate.
REPEAT_DELAY_MS, REPEAT_RATE = 600, 25
# How far the hold the client sees may differ from the kernel's (press and release reach
# it each with its own delay in the VM): the repeat count is checked within that.
HOLD_JITTER_MS = 50


def repeats(hold_ms):
    """How many repeats GTK sends for a key held hold_ms: one at the delay, then one per
    1000 / rate ms, while the key is still down."""
    if hold_ms <= REPEAT_DELAY_MS:
        return 0
    interval = 1000 / REPEAT_RATE
    return int((hold_ms - REPEAT_DELAY_MS + interval - 1e-9) // interval)


def check_gtk(name):
    """compositor-gtk: a GTK 3 entry (vm-gtk-entry.py) typed into with the keyboard
    recording. What it must print follows from libinput's keys and the us layout: one
    "text" line per character typed (Shift for the second character of a key) and per
    repeat of a held key (GTK repeats it; the count within HOLD_JITTER_MS of the hold),
    nothing for a key with Ctrl held, "activate" on Enter."""
    shift, ctrl, steps, failure, pressed_at = set(), set(), [], None, {}
    for _, type, fields in read_debug_events(name + ".expected"):
        if type != "KEYBOARD_KEY":
            continue
        m = re.search(r"\+([\d.]+)s\s+\S+ \((\d+)\) (pressed|released)", fields)
        time_ms, code, pressed = float(m.group(1)) * 1000, int(m.group(2)), m.group(3) == "pressed"
        if code in (42, 54):
            (shift.add if pressed else shift.discard)(code)
        elif code in (29, 97):
            (ctrl.add if pressed else ctrl.discard)(code)
        elif not pressed:
            if code in pressed_at:
                step = pressed_at.pop(code)
                hold = time_ms - step[3]
                step[1], step[2] = repeats(max(hold - HOLD_JITTER_MS, 0)), repeats(hold + HOLD_JITTER_MS)
        elif ctrl:
            continue  # Ctrl+C with nothing selected copies nothing; the entry is unchanged
        elif code == 28:
            steps.append(["activate", 0, 0, time_ms])
        elif code in US_CHARACTERS:
            steps.append([US_CHARACTERS[code][1 if shift else 0], 0, 0, time_ms])
            pressed_at[code] = steps[-1]
        else:
            failure = failure or "a key this check does not model (%d)" % code
    printed = [l for l in client_lines(name + ".client") if l and (l.startswith("text ") or l.startswith("activate "))]
    label = "%s keyboard" % name
    if failure:
        print("FAIL %s: %s" % (label, failure))
        return 1
    # Each step must appear in order: the character once, then between its fewest and most
    # repeats; Enter once.
    text, i, repeated = "", 0, []
    for what, fewest, most, _ in steps:
        if what == "activate":
            want = ["activate " + text]
        else:
            text += what
            want = ["text " + text]
        if printed[i:i + 1] != want:
            got = printed[i] if i < len(printed) else "nothing more"
            print("FAIL %s: line %d: expected %r, got %r" % (label, i + 1, want[0], got))
            return 1
        i += 1
        n = 0
        while what != "activate" and n < most and printed[i:i + 1] == ["text " + text + what]:
            text, i, n = text + what, i + 1, n + 1
        if n < fewest:
            print("FAIL %s: %r repeated %d times, at least %d expected for its hold" % (label, what, n, fewest))
            return 1
        if most:
            repeated.append("%r %d times (%d to %d for its hold)" % (what, n, fewest, most))
    if i != len(printed):
        print("FAIL %s: unexpected %r after the %d lines expected" % (label, printed[i], i))
        return 1
    print("PASS %s: the GTK entry printed the %d lines libinput's keys spell, repeats included (%s): %s"
          % (label, i, "; ".join(repeated) or "none", printed[-1]))
    return 0


def check(name, size, debug_path, client=1, label=None, own_phases=None, focus_on_click=False, above=None):
    """Checks one client's lines against the model fed by one debug-events log. own_phases:
    the phases whose devices are in that log (the others' devices are another seat's)."""
    wev = name.endswith("wev")
    label = label or name
    debug = read_debug_events(debug_path)
    lines = client_lines(name + ".client", client)
    phases = [l.split() for l in open(name + ".phases")]
    parse = parse_wev if wev else parse_probe

    # Which phase each libinput event belongs to. The kernel reuses event nodes, so a
    # device is its node from its DEVICE_ADDED on, matched to the phases in their order.
    pending = [(p[0], p[2].rsplit("/", 1)[1]) for p in phases
               if len(p) > 2 and (own_phases is None or p[0] in own_phases)]
    live, tagged = {}, []
    for s, t, f in debug:
        if t == "DEVICE_ADDED":
            match = next((i for i, (_, node) in enumerate(pending) if node == s), None)
            live[s] = pending.pop(match)[0] if match is not None else None
        tagged.append((live.get(s), s, t, f))
        if t == "DEVICE_REMOVED":
            live.pop(s, None)
    bounds, previous = {}, 0
    for p in phases:
        bounds[p[0]] = (previous, int(p[1]))
        previous = int(p[1])
    actual = {p: parse(lines[a:b]) for p, (a, b) in bounds.items()}

    # Start: the devices added before the first input event of a replayed device are the
    # ones present when the compositor started; the client must see them at once.
    first_input = next((i for i, (p, _, t, _) in enumerate(tagged) if p and t != "DEVICE_ADDED"), len(tagged))
    version = seat_version(name + ".wire") if wev else 8

    def expect(origin):
        """Every phase's expected lines, and the phases the model cannot follow."""
        model = Model(size, version)
        model.origin = origin
        model.focus_on_click, model.keyboard_focus, model.above = focus_on_click, not focus_on_click, above
        expected = {p[0]: [] for p in phases}
        for _, s, t, f in tagged[:first_input]:
            if t == "DEVICE_ADDED":
                model.devices[s] = re.search(r"cap:(\S*)", f).group(1)
        model.caps = caps_of("".join(model.devices.values()))
        expected["start"] = [("seat.capabilities", model.caps)]
        if model.keyboard_focus and model.caps & 2:
            expected["start"] += [("keyboard.enter",), ("keyboard.modifiers", 0, 0, 0, 0)]
        failures, current = {}, "start"
        for phase, s, t, f in tagged[first_input:]:
            if phase is None:
                # The VM's own devices (PS/2 keyboard and mouse) count for the capabilities.
                if t in ("DEVICE_ADDED", "DEVICE_REMOVED"):
                    expected[current].extend(model.step(s, t, f))
                continue
            current = phase
            if phase in failures:
                continue
            try:
                expected[phase].extend((e, model.tolerance(e[0])) if kind_has_position(e[0]) else (e, 0)
                                       for e in model.step(s, t, f))
            except OutsideModel as e:
                failures[phase] = "the replay left what this check models: %s" % e
        models[origin] = model
        return expected, failures

    # Where the surface is: of the places the client's first pointer.enter allows, the
    # one under which the longest start of the mouse phase matches (deltas of whole
    # pixels can allow several).
    # The phase whose mouse first enters the surface: "mouse" (a recording) or "path"
    # (vm-mouse-path.py, across two outputs).
    pointer_phase = "path" if "path" in actual else "mouse"
    candidates = origins(size, tagged[first_input:], actual.get(pointer_phase, []), pointer_phase)
    models = {}
    expected, failures = expect(candidates[0] if candidates else (1e9, 1e9))
    chosen = candidates[0] if candidates else (1e9, 1e9)
    best = -1
    for origin in candidates:
        e, f = expect(origin)
        matching = agreeing(normalise(e.get(pointer_phase, [])), actual.get(pointer_phase, []))
        if matching > best:
            expected, failures, best, chosen = e, f, matching, origin
    if not candidates and any(e[0] == "pointer.enter" for e in actual.get(pointer_phase, [])):
        failures[pointer_phase] = "no motion explains the client's first pointer.enter"
    results = []
    for p in phases:
        results.append(report(label, p[0], normalise(expected[p[0]]), actual[p[0]], failures.get(p[0])))
    if len(LAYOUT) > 1:
        # What the client printed is checked above; this says the path did what it is for.
        results.append(edges_report(label, models[chosen].held_at) if results[-1].startswith("PASS")
                       else "FAIL %s edges: not checked, the phase before failed\n" % label)
    sys.stdout.write("".join(results))
    return 1 if any(r.startswith("FAIL") for r in results) else 0


def edges_report(label, held_at):
    """Two outputs side by side, the second less tall: the path must have been held at the
    layout's right edge, at the second output's bottom edge, and at the first output's right
    edge below the second (the nearest point of the layout there is on the first output)."""
    (x1, _, w1, h1), (x2, _, w2, h2) = LAYOUT[0], LAYOUT[1]
    inside = 1 / 256
    wanted = {
        "the layout's right edge": lambda x, y: x == x2 + w2 - inside,
        "the second output's bottom edge": lambda x, y: x >= x2 and y == h2 - inside,
        "the first output's right edge below the second": lambda x, y: x == x1 + w1 - inside and y >= h2,
    }
    missing = [what for what, test in wanted.items() if not any(test(x, y) for x, y in held_at)]
    if missing:
        return "FAIL %s edges: the path was never held at %s\n" % (label, ", ".join(missing))
    return "PASS %s edges: held at %s (%d motions held), the client's lines as above\n" % (
        label, ", ".join(wanted), len(held_at))


def agreeing(expected, actual):
    """How many lines from the start agree."""
    n = 0
    for (e, tol), a in zip(expected, actual):
        if not same(e, a, tol if tol else 0.005 + 1 / 256):
            break
        n += 1
    return n


def normalise(expected):
    """Expected entries as (event, tolerance)."""
    out = []
    for e in expected:
        if len(e) == 2 and isinstance(e[0], tuple):
            out.append(e)
        else:
            out.append((e, 0))
    return out


def origins(size, tagged, actual_mouse, pointer_phase):
    """The surface positions that explain the client's first pointer.enter: for a motion k
    of the mouse phase, cursor(k) - enter at whole pixels, with cursor(k) inside the
    surface placed there and no earlier motion inside it."""
    enter = next((e for e in actual_mouse if e[0] == "pointer.enter"), None)
    if enter is None:
        return []
    cursor, positions = [0.0, 0.0], []
    for phase, _, t, f in tagged:
        if phase == pointer_phase and t == "POINTER_MOTION":
            m = re.match(r"\S+\s+(-?[\d.]+)/\s*(-?[\d.]+)", f)
            cursor = list(clamp(cursor[0] + float(m.group(1)), cursor[1] + float(m.group(2))))
            positions.append(tuple(cursor))
    w, h = size
    found = []
    for k, (cx, cy) in enumerate(positions):
        ox, oy = round(cx - enter[1]), round(cy - enter[2])  # a surface sits at whole pixels
        tolerance = 0.005 * (k + 1) + 0.005 + 1 / 256
        if abs(cx - ox - enter[1]) > tolerance or abs(cy - oy - enter[2]) > tolerance:
            continue
        if not (ox <= cx < ox + w and oy <= cy < oy + h):
            continue
        if all(not (ox <= px < ox + w and oy <= py < oy + h) for px, py in positions[:k]):
            found.append((ox, oy))
    return found


def seat_version(path):
    """The wl_seat version the client bound, from libwayland-client's own log of its
    requests (WAYLAND_DEBUG=client): `wl_registry@2.bind(7, "wl_seat", 7, new id ...)`."""
    for line in open(path, errors="replace"):
        m = re.search(r'\.bind\(\d+, "wl_seat", (\d+)', line)
        if m:
            return int(m.group(1))
    raise SystemExit("FAIL %s: no wl_seat bind in the client's wire log" % path)


def report(name, phase, expected, actual, failure):
    label = "%s %s" % (name, phase)
    if failure:
        return "FAIL %s: %s\n" % (label, failure)
    n = min(len(expected), len(actual))
    for i in range(n):
        (e, tol), a = expected[i], actual[i]
        if not same(e, a, tol if tol else 0.005 + 1 / 256):
            return ("FAIL %s: line %d of %d: expected %s, got %s\n" % (label, i + 1, len(expected), show(e), show(a))
                    + context(expected, actual, i))
    if len(expected) != len(actual):
        extra = ("missing %s" % show(expected[n][0])) if len(expected) > n else ("unexpected %s" % show(actual[n]))
        return "FAIL %s: %d lines expected, %d received; first %s\n" % (label, len(expected), len(actual), extra)
    if not expected:
        return "PASS %s: nothing, as libinput says (none of this client's seat's devices did anything)\n" % label
    kinds = sorted(set(e[0] for e, _ in expected))
    worst = max([abs(x - y) for (e, _), a in zip(expected, actual) if kind_has_position(e[0])
                 for x, y in zip(e[-2:], a[-2:])] or [0])
    margin = (", positions within %.3f px of libinput's" % worst) if worst else ""
    return "PASS %s: %d lines as libinput says (%s)%s\n" % (label, len(expected), ", ".join(kinds), margin)


def context(expected, actual, i):
    rows = []
    for j in range(max(0, i - 2), min(max(len(expected), len(actual)), i + 3)):
        e = show(expected[j][0]) if j < len(expected) else "(none)"
        a = show(actual[j]) if j < len(actual) else "(none)"
        rows.append("    %s %-40s | %s\n" % (">" if j == i else " ", e, a))
    return "".join(rows)


if __name__ == "__main__":
    sys.exit(main())
