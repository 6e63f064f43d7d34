#!/usr/bin/python3
# Checks the compositor-vt case of tools/vm-libinput-test.sh (inside the VM): what wl-probe
# printed across a session switch, phase by phase (NAME.phases: phase, the client's line
# count at its end, the active VT then). The expectations are the protocol's and the
# devices': a client whose session loses the seat must be left holding nothing (every key
# and button it was told of released, its touch points cancelled, the pointer and the
# keyboard gone from its surface), and once the seat is back the keyboard's modifiers must
# be what is physically held (Shift, held across the switch) and keys must type.
#
#   vm-vt-check.py NAME      prints PASS or FAIL lines for NAME.client
import re
import sys

name = sys.argv[1]
lines = [l.rstrip("\n") for l in open(f"{name}.client")]
phases = []
start = 0
for row in open(f"{name}.phases"):
    phase, count, vt = row.split()[:3] if len(row.split()) >= 3 else (row.split() + ["?"])[:3]
    phases.append((phase, start, int(count), vt))
    start = int(count)

SHIFT = 1  # depressed modifier bit of Shift in the us keymap (xkb's first modifier)
KEY_LEFTSHIFT, KEY_A, KEY_B, BTN_LEFT = 42, 30, 48, 272


class Client:
    """What the client was told it holds, from its own lines."""

    def __init__(self):
        self.keys, self.buttons, self.touches = set(), set(), set()
        self.depressed = 0
        self.keyboard_focus = self.pointer_focus = None
        self.capabilities = 0

    def feed(self, line):
        words = line.split()
        what = words[0] if words else ""
        if what == "keyboard.enter":
            self.keyboard_focus = words[1]
            listed = re.search(r"keys=\[?([0-9, ]*)\]?", line)
            self.keys = {int(k) for k in re.findall(r"\d+", listed.group(1))} if listed else set()
        elif what == "keyboard.leave":
            self.keyboard_focus = None
            self.keys = set()
        elif what == "keyboard.key":
            (self.keys.add if words[2] == "pressed" else self.keys.discard)(int(words[1]))
        elif what == "keyboard.modifiers":
            self.depressed = int(words[1])
        elif what == "pointer.enter":
            self.pointer_focus = words[1]
        elif what == "pointer.leave":
            self.pointer_focus = None
            self.buttons = set()
        elif what == "pointer.button":
            (self.buttons.add if words[2] == "pressed" else self.buttons.discard)(int(words[1]))
        elif what == "touch.down":
            self.touches.add(int(words[2]))
        elif what == "touch.up":
            self.touches.discard(int(words[1]))
        elif what == "touch.cancel":
            self.touches = set()
        elif what == "seat.capabilities":
            self.capabilities = int(words[1])

    def held(self):
        parts = []
        if self.keys:
            parts.append(f"keys {sorted(self.keys)}")
        if self.depressed:
            parts.append(f"modifiers {self.depressed}")
        if self.buttons:
            parts.append(f"buttons {sorted(self.buttons)}")
        if self.touches:
            parts.append(f"touch points {sorted(self.touches)}")
        return ", ".join(parts) or "nothing"


client = Client()
failures = []
results = []


def check(phase, ok, what):
    if not ok:
        failures.append(f"{phase}: {what}")


for phase, first, last, vt in phases:
    said = [l.split(" | ", 1)[1] for l in lines[first:last] if l.startswith("client 1 | ")]
    # The modifiers in force when each key line came (for the typing phases).
    keyed = []
    for line in said:
        client.feed(line)
        if line.startswith("keyboard.key "):
            keyed.append((line, client.depressed))
    words = [l.split()[0] for l in said if l.split()]
    summary = ", ".join(dict.fromkeys(words)) or "nothing"
    results.append(f"    {phase} (on {vt}): {len(said)} lines ({summary}); the client holds {client.held()}")
    if phase == "start":
        check(phase, vt == "tty1", f"the compositor started on {vt}, not tty1")
        check(phase, client.keyboard_focus == "win", "the window never had the keyboard focus")
    elif phase == "held":
        check(phase, KEY_LEFTSHIFT in client.keys and client.depressed & SHIFT, "Shift is not held")
        check(phase, BTN_LEFT in client.buttons, "the left button is not held")
        check(phase, len(client.touches) == 1, f"not one finger down ({sorted(client.touches)})")
    elif phase == "away":
        check(phase, vt == "tty2", f"chvt 2 left {vt} active")
        check(phase, client.held() == "nothing", f"the client still holds {client.held()}")
        check(phase, f"keyboard.key {KEY_LEFTSHIFT} released" in said, "no key release of Shift")
        check(phase, f"pointer.button {BTN_LEFT} released" in said, "no button release")
        check(phase, "touch.cancel" in said, "no touch.cancel")
        check(phase, "touch.up" not in words, "a touch.up (the finger was not lifted: cancel)")
        check(phase, client.pointer_focus is None, "the pointer did not leave")
        check(phase, client.keyboard_focus is None, "the keyboard did not leave")
        report = [l for l in lines[first:last] if l.startswith("ir-compositor: session away")]
        check(phase, report and report[-1].endswith("clients hold nothing"),
              f"the invariant checker's report: {report[-1] if report else 'none (ir-compositor --check-invariants)'}")
    elif phase == "back":
        check(phase, vt == "tty1", f"chvt 1 left {vt} active")
        check(phase, client.capabilities & 7 == 7, f"capabilities {client.capabilities}, not pointer+keyboard+touch")
        check(phase, client.keyboard_focus == "win", "the keyboard did not come back to the window")
        check(phase, client.depressed & SHIFT, f"modifiers {client.depressed}: Shift is physically held")
    elif phase == "typing":
        check(phase, (f"keyboard.key {KEY_A} pressed", SHIFT) in [(l, d & SHIFT) for l, d in keyed],
              f"A was not typed with Shift in the modifiers ({keyed})")
        check(phase, f"keyboard.key {KEY_A} released" in said, "A was not released")
    elif phase == "release":
        check(phase, (f"keyboard.key {KEY_B} pressed", 0) in [(l, d & SHIFT) for l, d in keyed],
              f"B was not typed without Shift after Shift was let go ({keyed})")
        check(phase, client.held() == "nothing", f"the client still holds {client.held()}")
    elif phase == "end":
        check(phase, client.held() == "nothing", f"the client still holds {client.held()}")

for line in lines:
    if line.startswith("ir-compositor: invariant violated"):
        check("invariants", False, line)
expected = ["start", "held", "away", "back", "typing", "release", "end"]
check("phases", [p[0] for p in phases] == expected, f"phases {[p[0] for p in phases]}, not {expected}")
print(("PASS" if not failures else "FAIL") + f" {name}: session switch (chvt 2, chvt 1) with Shift, a button and a finger held")
for f in failures:
    print(f"    {f}")
for r in results:
    print(r)
