#!/usr/bin/python3
# What wl-probe must have been told of a live tablet under `ir-compositor --input libinput`
# (tools/vm-libinput-test.sh's compositor-tablet case), from libinput's own tools on the
# same devices, never from the project's code. Run in the case's directory:
#
#   vm-tablet-check.py NAME   reads NAME.list-devices (`libinput list-devices`: name,
#                             node, device group), NAME.pen.yml (`libinput record` of the
#                             pen: its `id: [bus, vendor, product, version]`),
#                             NAME.expected (`libinput debug-events` during the case) and
#                             NAME.client (the compositor's output, "client 1 | ...")
#
# Checks: the pen and the pad are one libinput device group (as a real tablet's are; the
# fixture's udev rule); the tablet is announced with the pen's name, vendor and product id
# and node; the pad with its node; the pad enters the surface the pen came into proximity
# over, naming that tablet; and the client gets the pad's buttons, ring and strip as
# libinput saw them, in order. Prints "PASS NAME" or "FAIL NAME" and what differs.
import re
import sys

PEN, PAD = "Wacom Intuos5 M Pen", "Wacom Intuos5 M Pad"


def devices(text):
    """list-devices' blocks by device name: {field: value}."""
    found = {}
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                fields[key.strip()] = value.strip()
        if "Device" in fields:
            found[fields["Device"]] = fields
    return found


def main():
    name = sys.argv[1]
    problems = []
    listed = devices(open(name + ".list-devices").read())
    pen, pad = listed.get(PEN), listed.get(PAD)
    ids = re.search(r"^\s*id: \[(\d+), (\d+), (\d+), (\d+)\]", open(name + ".pen.yml").read(), re.M)
    client = [line.rstrip("\n").split(" | ", 1)[1] for line in open(name + ".client") if line.startswith("client 1 | ")]
    expected = open(name + ".expected").read()
    if not pen or not pad or not ids:
        print(f"FAIL {name}\n    libinput lists no {PEN} and {PAD}, or record gave no ids")
        return 1
    if pen.get("Group") != pad.get("Group"):
        problems.append(f"libinput puts the pen in group {pen.get('Group')} and the pad in {pad.get('Group')}")

    def first(prefix):
        return next((line.split() for line in client if line.startswith(prefix)), None)

    added = first("tablet.added ")
    tablet = added[1] if added else "T?"
    told = [line for line in client if re.match(rf"tablet\.(name|id|path) {tablet}( |$)", line)]
    want = [f"tablet.name {tablet} {pen['Device']}", f"tablet.id {tablet} {ids.group(2)} {ids.group(3)}",
            f"tablet.path {tablet} {pen['Kernel']}"]
    if told != want:
        problems.append(f"the tablet was announced with {told}, libinput says {want}")
    if f"pad.path P0 {pad['Kernel']}" not in client:
        problems.append(f"no 'pad.path P0 {pad['Kernel']}': {[l for l in client if l.startswith('pad.path')]}")
    proximity = first("tool.proximity_in ")
    enter = first("pad.enter P0 ")
    if not proximity:
        problems.append("the pen never came into proximity over a surface")
    if not enter:
        problems.append("the pad never entered a surface (zwp_tablet_pad_v2.enter)")
    if proximity and enter and (enter[2], enter[3]) != (proximity[2], tablet):
        problems.append(f"the pad entered {enter[2]} with tablet {enter[3]}; the pen is over {proximity[2]} of {tablet}")
    # The pad's buttons, ring and strip as libinput saw them (debug-events) and as the client
    # got them, in order: positions within what debug-events prints (two decimals).
    seen, got = [], []
    for m in re.finditer(r"TABLET_PAD_(BUTTON|RING|STRIP)\s+\S+\s+(?:(\d+) (pressed|released)|(?:ring|strip) 0 position (\S+))", expected):
        kind, button, state, position = m.groups()
        if kind == "BUTTON":
            seen.append(("button", button, state))
        else:
            seen.append((kind.lower(), "stop" if float(position) < 0 else float(position)))
    for line in client:
        w = line.split()
        if w[0] == "pad.button":
            got.append(("button", w[2], w[3]))
        elif w[0] == "ring.angle":
            got.append(("ring", float(w[2])))
        elif w[0] == "strip.position":
            got.append(("strip", int(w[2]) / 65535))
        elif w[0] in ("ring.stop", "strip.stop"):
            got.append((w[0].split(".")[0], "stop"))

    def same(a, b):
        if a[0] != b[0] or len(a) != len(b):
            return False
        if a[0] == "button" or "stop" in (a[1], b[1]):
            return a == b
        # debug-events' two decimals, and the client's: wl_fixed degrees, 1/65535 of the strip.
        return abs(a[1] - b[1]) <= (0.005 + 1 / 65535 if a[0] == "strip" else 0.011)

    if not seen or len(seen) != len(got) or not all(same(a, b) for a, b in zip(seen, got)):
        problems.append(f"the pad's events differ: libinput saw {seen}, the client got {got}")
    print(f"{'FAIL' if problems else 'PASS'} {name}")
    for p in problems:
        print("    " + p)
    print(f"    pen {pen['Kernel']} group {pen.get('Group')}, pad {pad['Kernel']} group {pad.get('Group')}; "
          f"ids {ids.group(2)}:{ids.group(3)}; {enter and ' '.join(enter)}")
    return 1 if problems else 0


sys.exit(main())
