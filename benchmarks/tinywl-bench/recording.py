"""Writes `libinput record` files (YAML, version 1) of a keyboard, a mouse and a
touchscreen, for tinywl, tinywl-ir and ir-compositor alike: the test fixtures of
Tests/TinywlIR and the event streams of benchmarks/tinywl-bench/bench.py.

Events are (time in seconds, device, text of the libinput entry without time), e.g.
(0.1, "mouse", "type: POINTER_MOTION, delta: [5.00, 3.00], unaccel: [5.00, 3.00]").
Touch positions are given as libinput record's `transformed` (percent of the screen);
the touchscreen has no absinfo, so every reader uses those.
"""

DEVICES = {
    "keyboard": """    name: "Fixture Keyboard"
    id: [3, 4617, 2, 273]
    codes:
      0: [0]
      1: [%s]
    properties: []
  udev:
    properties:
    - ID_INPUT=1
    - ID_INPUT_KEY=1
    - ID_INPUT_KEYBOARD=1
  quirks:
  libinput:
    capabilities: [keyboard]
""" % ", ".join(str(c) for c in range(1, 128)),
    "mouse": """    name: "Fixture Mouse"
    id: [3, 4617, 1, 273]
    codes:
      0: [0]
      1: [272, 273, 274]
      2: [0, 1, 8]
    properties: []
  udev:
    properties:
    - ID_INPUT=1
    - ID_INPUT_MOUSE=1
  quirks:
  libinput:
    capabilities: [pointer]
""",
    "touchscreen": """    name: "Fixture Touchscreen"
    id: [3, 4617, 3, 273]
    codes:
      0: [0]
      1: [330]
    properties: [1]
  udev:
    properties:
    - ID_INPUT=1
    - ID_INPUT_TOUCHSCREEN=1
  quirks:
  libinput:
    capabilities: [touch]
""",
}


def motion(dx, dy):
    return f"type: POINTER_MOTION, delta: [{dx:.2f}, {dy:.2f}], unaccel: [{dx:.2f}, {dy:.2f}]"


def button(code, pressed):
    return f"type: POINTER_BUTTON, button: {code}, state: {'pressed' if pressed else 'released'}"


def key(code, pressed):
    return f"type: KEYBOARD_KEY, key: {code}, state: {'pressed' if pressed else 'released'}"


def touch(kind, slot, x=None, y=None):
    """kind: DOWN, MOTION, UP; x, y in percent of the screen."""
    text = f"type: TOUCH_{kind}, slot: {slot}, seat_slot: {slot}"
    if x is not None:
        text += f", point: [{x:.2f}, {y:.2f}], transformed: [{x:.2f}, {y:.2f}]"
    return text


TOUCH_FRAME = "type: TOUCH_FRAME"


def write(path, events, devices=("keyboard", "mouse", "touchscreen")):
    """Each device's events in time order, under that device, as libinput record does."""
    lines = ["# libinput record", "version: 1", f"ndevices: {len(devices)}", "libinput:",
             '  version: "1.22.1"', '  git: "unknown"', "system:", '  os: "debian:12"', "devices:"]
    for i, name in enumerate(devices):
        lines += [f"- node: /dev/input/event{10 + i}", "  evdev:"]
        lines += DEVICES[name].rstrip("\n").split("\n")
        lines += ["  events:", "  - libinput:", "    - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}"]
        for time, device, text in events:
            if device == name:
                lines += ["  - evdev: []", "    libinput:", f"    - {{time: {time:.6f}, {text}}}"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
