#!/usr/bin/python3
# A mouse that travels a planned path, for tools/vm-libinput-test.sh (inside the VM): the
# compositor-outputs case, two outputs side by side (800x600, then 640x480, top edges at
# 0). It crosses from the first output to the second, is held at the layout's right edge
# and at the second output's bottom edge, goes back, down to the first output's bottom
# (lower than the second's), pushes right there (held at the first output's right edge:
# the nearest point of the layout), then up and across, and clicks on the second output.
#
#   vm-mouse-path.py   creates the device and prints its node; waits for a line on stdin
#                      (as libinput replay does: "Hit enter"), moves, prompts again, and
#                      removes the device at EOF on stdin.
import sys
import time

import libevdev
from libevdev import EV_KEY, EV_REL, EV_SYN, InputEvent

device = libevdev.Device()
device.name = "Path Mouse"
device.id = {"bustype": 0x03, "vendor": 0x1209, "product": 0x0002, "version": 1}
for code in (EV_REL.REL_X, EV_REL.REL_Y, EV_REL.REL_WHEEL, EV_KEY.BTN_LEFT, EV_KEY.BTN_RIGHT, EV_KEY.BTN_MIDDLE):
    device.enable(code)
uinput = device.create_uinput_device()
print("created", uinput.devnode, flush=True)
print("Hit enter to start replaying", flush=True)
sys.stdin.readline()


def move(dx, dy, count):
    # 12 ms apart: a steady hand, so libinput's acceleration stays near 1 (and the
    # emulated VM keeps up with it).
    for _ in range(count):
        events = []
        if dx:
            events.append(InputEvent(EV_REL.REL_X, dx))
        if dy:
            events.append(InputEvent(EV_REL.REL_Y, dy))
        uinput.send_events(events + [InputEvent(EV_SYN.SYN_REPORT, 0)])
        time.sleep(0.012)


def click(button):
    uinput.send_events([InputEvent(button, 1), InputEvent(EV_SYN.SYN_REPORT, 0)])
    time.sleep(0.05)
    uinput.send_events([InputEvent(button, 0), InputEvent(EV_SYN.SYN_REPORT, 0)])
    time.sleep(0.05)


# About 10 px per event: 1440 px across, 600 down on the first output, 480 on the second.
move(0, 6, 25)      # down, into the window
move(10, 0, 200)    # right: across to the second output, then held at the layout's right edge
move(0, 10, 80)     # down: held at the second output's bottom edge
move(-10, 0, 90)    # left, back onto the first output
move(0, 10, 40)     # down to the first output's bottom edge, below the second output
move(10, 0, 40)     # right: held at the first output's right edge (nearest on the layout)
move(0, -10, 40)    # up, above the second output's bottom
move(10, 0, 40)     # right, across again
click(EV_KEY.BTN_LEFT)
time.sleep(0.5)
print("Hit enter to replay again", flush=True)
sys.stdin.read()  # EOF: the device goes away
