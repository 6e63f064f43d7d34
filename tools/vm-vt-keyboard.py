#!/usr/bin/python3
# The keyboard of the compositor-vt case of tools/vm-libinput-test.sh (inside the VM): a
# uinput keyboard whose keys are pressed step by step, so that Shift can stay held across
# a VT switch and be let go after it. It prompts as `libinput replay` does ("Hit enter"),
# one step per line read on stdin, and removes the device at EOF:
#   step 1: Shift pressed (and held)
#   step 2: A pressed and released (Shift still held: the client must see it shifted)
#   step 3: Shift released, then B pressed and released
import sys
import time

import libevdev
from libevdev import EV_KEY, EV_SYN, InputEvent

device = libevdev.Device()
device.name = "VT Keyboard"
device.id = {"bustype": 0x03, "vendor": 0x1209, "product": 0x0003, "version": 1}
for code in (EV_KEY.KEY_A, EV_KEY.KEY_B, EV_KEY.KEY_LEFTSHIFT, EV_KEY.KEY_ENTER):
    device.enable(code)
uinput = device.create_uinput_device()
print("created", uinput.devnode, flush=True)


def key(code, value):
    uinput.send_events([InputEvent(code, value), InputEvent(EV_SYN.SYN_REPORT, 0)])
    time.sleep(0.05)


steps = [
    lambda: key(EV_KEY.KEY_LEFTSHIFT, 1),
    lambda: (key(EV_KEY.KEY_A, 1), key(EV_KEY.KEY_A, 0)),
    lambda: (key(EV_KEY.KEY_LEFTSHIFT, 0), key(EV_KEY.KEY_B, 1), key(EV_KEY.KEY_B, 0)),
]
for step in steps:
    print("Hit enter to start replaying", flush=True)
    if not sys.stdin.readline():
        sys.exit(0)
    step()
    print("played", flush=True)
print("Hit enter to start replaying", flush=True)
sys.stdin.read()  # EOF: the device goes
