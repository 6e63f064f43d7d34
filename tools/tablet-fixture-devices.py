#!/usr/bin/python3
# The uinput devices and the scripted input behind Tests/RecordingTests/Fixtures/tablet.yml
# (tools/vm-tablet-fixture.sh runs this inside a VM, with `libinput record` watching).
#
# Two devices as the kernel's wacom driver presents a Wacom Intuos5 M (USB 056a:002a):
# "... Pen" (BTN_TOOL_PEN, BTN_TOUCH, BTN_STYLUS; x, y, pressure, tilt) and "... Pad"
# (BTN_0..BTN_8, the touch ring on ABS_WHEEL, ABS_MISC, and a strip on ABS_RX). The ids
# matter: libwacom's hwdb tags the "Pad" ID_INPUT_TABLET_PAD (libinput ignores a pad
# without it) and gives libinput the Intuos5's layout (one mode group: nine buttons and
# the ring, four modes, the first button switching them).
#
#   tablet-fixture-devices.py FIFO   creates both devices, prints their nodes, waits for a
#                                    line on FIFO, plays the script, waits for another line,
#                                    then removes the devices.
import sys
import time

import libevdev
from libevdev import InputEvent as E, InputAbsInfo as A

C = libevdev.evbit
# One phys for both, as one USB device's interfaces have. It does not reach the kernel
# (libevdev's uinput devices have an empty phys), so udev's libinput-device-group, which
# groups devices by it, never runs for them: vm-libinput-test.sh's compositor-tablet gives
# both one libinput device group (how a pad finds its tablet) with a udev rule instead.
PHYS = "usb-0000:00:14.0-1"


def pen():
    d = libevdev.Device()
    d.name = "Wacom Intuos5 M Pen"
    d.id = {"bustype": 0x3, "vendor": 0x56A, "product": 0x2A, "version": 0x110}
    d.phys = PHYS + "/input0"
    for k in ("BTN_TOOL_PEN", "BTN_TOUCH", "BTN_STYLUS"):
        d.enable(C("EV_KEY", k))
    d.enable(C("EV_ABS", "ABS_X"), A(minimum=0, maximum=44704, resolution=200))
    d.enable(C("EV_ABS", "ABS_Y"), A(minimum=0, maximum=27940, resolution=200))
    d.enable(C("EV_ABS", "ABS_PRESSURE"), A(minimum=0, maximum=2047))
    d.enable(C("EV_ABS", "ABS_TILT_X"), A(minimum=-64, maximum=63, resolution=57))
    d.enable(C("EV_ABS", "ABS_TILT_Y"), A(minimum=-64, maximum=63, resolution=57))
    d.enable(libevdev.INPUT_PROP_POINTER)
    return d


def pad():
    d = libevdev.Device()
    d.name = "Wacom Intuos5 M Pad"
    d.id = {"bustype": 0x3, "vendor": 0x56A, "product": 0x2A, "version": 0x110}
    d.phys = PHYS + "/input1"
    for i in range(9):
        d.enable(C("EV_KEY", "BTN_%d" % i))
    d.enable(C("EV_KEY", "BTN_STYLUS"))  # the kernel's pads have it (xf86-input-wacom's doing)
    d.enable(C("EV_ABS", "ABS_X"), A(minimum=0, maximum=1))
    d.enable(C("EV_ABS", "ABS_Y"), A(minimum=0, maximum=1))
    d.enable(C("EV_ABS", "ABS_WHEEL"), A(minimum=0, maximum=71))
    d.enable(C("EV_ABS", "ABS_RX"), A(minimum=0, maximum=4096))
    d.enable(C("EV_ABS", "ABS_MISC"), A(minimum=0, maximum=0xFFFF))
    return d


def syn(ev):
    return ev + [E(C("EV_SYN", "SYN_REPORT"), 0)]


def abs_(name, v):
    return E(C("EV_ABS", name), v)


def key(name, v):
    return E(C("EV_KEY", name), v)


def play(p, q):
    def send(dev, events):
        dev.send_events(syn(events))
        time.sleep(0.1)  # an emulated VM's libinput reads slowly: no SYN_DROPPED

    # libinput forces a proximity out 50 ms after the last event of a tablet that has not
    # yet sent one itself; in an emulated VM events are read seconds late, so that timer
    # would fire mid-stroke. One proximity in and out at once shows libinput this tablet
    # sends its own, which turns the timer off.
    p.send_events(syn([key("BTN_TOOL_PEN", 1), abs_("ABS_X", 100), abs_("ABS_Y", 100)])
                  + syn([key("BTN_TOOL_PEN", 0)]))
    time.sleep(3)
    # A stroke: the pen comes into proximity over the left of the tablet, touches down,
    # draws right with pressure and tilt, presses its side button, lifts, leaves.
    send(p, [key("BTN_TOOL_PEN", 1), abs_("ABS_X", 8000), abs_("ABS_Y", 9000), abs_("ABS_TILT_X", 10), abs_("ABS_TILT_Y", -5)])
    for i in range(1, 4):
        send(p, [abs_("ABS_X", 8000 + 600 * i), abs_("ABS_Y", 9000 + 300 * i)])
    send(p, [key("BTN_TOUCH", 1), abs_("ABS_PRESSURE", 600)])
    for i in range(1, 6):
        send(p, [abs_("ABS_X", 10000 + 2000 * i), abs_("ABS_PRESSURE", 600 + 150 * i), abs_("ABS_TILT_X", 10 + i)])
    send(p, [key("BTN_STYLUS", 1)])
    send(p, [key("BTN_STYLUS", 0)])
    send(p, [key("BTN_TOUCH", 0), abs_("ABS_PRESSURE", 0)])
    send(p, [abs_("ABS_X", 21000), abs_("ABS_Y", 10500)])
    send(p, [key("BTN_TOOL_PEN", 0), abs_("ABS_X", 0), abs_("ABS_Y", 0), abs_("ABS_TILT_X", 0), abs_("ABS_TILT_Y", 0)])
    time.sleep(0.2)
    # The pad: ABS_MISC is the driver's "pad active" id while anything on it is touched.
    send(q, [key("BTN_1", 1), abs_("ABS_MISC", 15)])
    send(q, [key("BTN_1", 0), abs_("ABS_MISC", 0)])
    # The ring turned clockwise by a finger, then let go (0: no finger on it).
    for v in (10, 12, 15):
        send(q, [abs_("ABS_WHEEL", v), abs_("ABS_MISC", 15)])
    send(q, [abs_("ABS_WHEEL", 0), abs_("ABS_MISC", 0)])
    # The strip: the driver reports the finger's position as one bit of ABS_RX.
    for v in (4, 8, 16):
        send(q, [abs_("ABS_RX", v), abs_("ABS_MISC", 15)])
    send(q, [abs_("ABS_RX", 0), abs_("ABS_MISC", 0)])
    # BTN_0, the Intuos5's ring button: the next mode; then BTN_2 in that mode.
    send(q, [key("BTN_0", 1), abs_("ABS_MISC", 15)])
    send(q, [key("BTN_0", 0), abs_("ABS_MISC", 0)])
    send(q, [key("BTN_2", 1), abs_("ABS_MISC", 15)])
    send(q, [key("BTN_2", 0), abs_("ABS_MISC", 0)])
    send(q, [abs_("ABS_WHEEL", 40), abs_("ABS_MISC", 15)])
    send(q, [abs_("ABS_WHEEL", 0), abs_("ABS_MISC", 0)])


def main():
    fifo = sys.argv[1]
    p = pen().create_uinput_device()
    q = pad().create_uinput_device()
    print(p.devnode, q.devnode, flush=True)
    with open(fifo) as f:
        f.readline()
        play(p, q)
        print("played", flush=True)
        f.readline()


main()
