#!/usr/bin/python3
# Unplugs devices mid-sequence, for tools/vm-libinput-test.sh (inside the VM): creates a
# uinput keyboard, mouse and touchscreen, presses keys and a button and puts two fingers
# down, then exits without releasing anything; the kernel destroys the devices. libinput
# must send the neutral-state events (releases, touch ends) before DEVICE_REMOVED.
import sys
import time

import libevdev
from libevdev import EV_ABS, EV_KEY, EV_REL, EV_SYN, INPUT_PROP_DIRECT, InputAbsInfo, InputEvent


def create(name, codes, props=()):
    device = libevdev.Device()
    device.name = name
    device.id = {"bustype": 0x03, "vendor": 0x1209, "product": 0x0001, "version": 1}
    for code, absinfo in codes:
        device.enable(code, absinfo) if absinfo else device.enable(code)
    for prop in props:
        device.enable(prop)
    return device.create_uinput_device()


def syn():
    return InputEvent(EV_SYN.SYN_REPORT, 0)


keyboard = create("Unplug Keyboard", [(EV_KEY.KEY_A, None), (EV_KEY.KEY_B, None), (EV_KEY.KEY_LEFTSHIFT, None)])
mouse = create("Unplug Mouse", [(EV_REL.REL_X, None), (EV_REL.REL_Y, None), (EV_REL.REL_WHEEL, None),
                                (EV_KEY.BTN_LEFT, None), (EV_KEY.BTN_RIGHT, None), (EV_KEY.BTN_MIDDLE, None)])
axis = InputAbsInfo(minimum=0, maximum=4095, resolution=16)
touch = create("Unplug Touchscreen", [
    (EV_KEY.BTN_TOUCH, None), (EV_ABS.ABS_X, axis), (EV_ABS.ABS_Y, axis),
    (EV_ABS.ABS_MT_SLOT, InputAbsInfo(minimum=0, maximum=9)),
    (EV_ABS.ABS_MT_TRACKING_ID, InputAbsInfo(minimum=0, maximum=65535)),
    (EV_ABS.ABS_MT_POSITION_X, axis), (EV_ABS.ABS_MT_POSITION_Y, axis)], props=[INPUT_PROP_DIRECT])
print("created", keyboard.devnode, mouse.devnode, touch.devnode, flush=True)
time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 3)  # let libinput open them

keyboard.send_events([InputEvent(EV_KEY.KEY_LEFTSHIFT, 1), syn()])
keyboard.send_events([InputEvent(EV_KEY.KEY_A, 1), syn()])
mouse.send_events([InputEvent(EV_REL.REL_X, 5), InputEvent(EV_REL.REL_Y, 3), syn()])
mouse.send_events([InputEvent(EV_KEY.BTN_LEFT, 1), syn()])
touch.send_events([InputEvent(EV_ABS.ABS_MT_SLOT, 0), InputEvent(EV_ABS.ABS_MT_TRACKING_ID, 1),
                   InputEvent(EV_ABS.ABS_MT_POSITION_X, 1024), InputEvent(EV_ABS.ABS_MT_POSITION_Y, 2048),
                   InputEvent(EV_ABS.ABS_X, 1024), InputEvent(EV_ABS.ABS_Y, 2048), InputEvent(EV_KEY.BTN_TOUCH, 1), syn()])
touch.send_events([InputEvent(EV_ABS.ABS_MT_SLOT, 1), InputEvent(EV_ABS.ABS_MT_TRACKING_ID, 2),
                   InputEvent(EV_ABS.ABS_MT_POSITION_X, 3072), InputEvent(EV_ABS.ABS_MT_POSITION_Y, 1024), syn()])
touch.send_events([InputEvent(EV_ABS.ABS_MT_SLOT, 0), InputEvent(EV_ABS.ABS_MT_POSITION_X, 1100),
                   InputEvent(EV_ABS.ABS_X, 1100), syn()])
time.sleep(1)
print("unplugging with Shift, A, the left button and two fingers held", flush=True)
# Exiting closes the uinput fds: the kernel removes the devices.
