#!/usr/bin/env python3
"""Instructions per input event in three compositors with the same scene, clients and
event stream (issue 41): tinywl (wlroots 0.15 routing: wlr_scene_node_at and wlr_seat),
tinywl-ir (the same compositor routing through libinputrouter's C API) and
ir-compositor (the library's own Wayland server).

The scene: four real wev clients, each a 640 x 480 window, cascading from (40, 40) in
steps of 32 pixels (all three compositors place them so); tinywl and tinywl-ir draw a
24-pixel title bar above each and a desktop below; ir-compositor gives title bars only to
clients that ask (xdg-decoration), and wev does not. The events, from one `libinput
record` file per kind (benchmarks/tinywl-bench/recording.py):
  motion  the pointer over the top window, one pixel right then left (motion + frame)
  click   motion into the lower window's visible strip, press, release: it is raised and
          focused; the next click goes back to the other (as wayland-bench's click)
  key     KEY_A pressed or released, into the focused window
  touch   a frame of 10 fingers each moving one pixel in the top window (10 motions + frame)

Counted with callgrind inside the function each compositor runs for one input event,
from the event to the protocol events queued on the clients' sockets (--toggle-collect):
tinywl's and tinywl-ir's `replay_event`, ir-compositor's `replayEvent(_:description:seat:)`
(examples/compositor/main.swift: `WaylandServer.handle`, whose `sendDeliveries` writes
the deliveries). Each run checks that libwayland's marshalling (wl_resource_post_event
and below) is inside the count, so no compositor's count stops before the socket. Per
event: two recordings, N and 2N events of the kind after the same setup, and the
difference of their counts divided by N (the setup counts in neither). The clients run
natively, only the compositor under valgrind; the three compositors run side by side.

    benchmarks/tinywl-bench/bench.py [--build .build] [--profile KIND]

--profile KIND prints each compositor's top functions (inclusive, per event) for KIND.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recording  # noqa: E402
from recording import TOUCH_FRAME, button, key, motion, touch  # noqa: E402

WIDTH, HEIGHT = 1280, 720
WINDOWS = 4
# The top window's content: (40 + 32 * 3, ...) = (136, 136), 640 x 480.
TOP = 40 + 32 * (WINDOWS - 1)
UNITS = {"motion": 500, "click": 100, "key": 500, "touch": 200}
# ir-compositor's per-event function (examples/compositor/main.swift), found by this part
# of its mangled name: the module's name is the product's.
IR_REPLAY = "11replayEvent_11description4seatSb"
# What shows that a count reaches the clients' sockets: libwayland's marshalling of an
# event into the client's connection buffer, in every compositor's profile.
SOCKET_FUNCTIONS = ("wl_closure_marshal", "wl_connection_write", "wl_resource_post_event")


def ir_replay_symbol(binary):
    names = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout.split()
    found = [n for n in names if IR_REPLAY in n and n.startswith("$s") and n.endswith("F")]
    if len(found) != 1:
        raise RuntimeError(f"ir-compositor: {len(found)} symbols name replayEvent(_:description:seat:)")
    return found[0]


def events_for(kind, units):
    """The recording's events: the same setup for every length, then `units` events."""
    events, t = [], 0.0

    def at(device, text):
        nonlocal t
        t += 0.001
        events.append((t, device, text))

    # Setup: the pointer to (400, 400) in the top window, and a key and a click to make
    # sure every device is in use before the counted part starts.
    at("mouse", motion(400, 400))
    if kind == "motion":
        for i in range(units):
            at("mouse", motion(1 if i % 2 == 0 else -1, 0))
    elif kind == "click":
        # Window 2 (content x 104..744) shows left of window 3 (x 136..776) at x = 120,
        # and window 3 right of window 2 at x = 760.
        at("mouse", motion(760 - 400, -100))  # (760, 300): the top window
        for i in range(units):
            at("mouse", motion(-640 if i % 2 == 0 else 640, 0))  # (120, 300) / (760, 300)
            at("mouse", button(272, True))
            at("mouse", button(272, False))
    elif kind == "key":
        for i in range(units):
            at("keyboard", key(30, i % 2 == 0))
    elif kind == "touch":
        def fingers(step):
            return [((TOP + 40 + 50 * f + (step % 2)) * 100 / WIDTH, (TOP + 40 + 30 * f) * 100 / HEIGHT)
                    for f in range(10)]
        for f, (x, y) in enumerate(fingers(0)):
            at("touchscreen", touch("DOWN", f, x, y))
        at("touchscreen", TOUCH_FRAME)
        for step in range(1, units + 1):
            for f, (x, y) in enumerate(fingers(step)):
                at("touchscreen", touch("MOTION", f, x, y))
            at("touchscreen", TOUCH_FRAME)
        for f in range(10):
            at("touchscreen", touch("UP", f))
        at("touchscreen", TOUCH_FRAME)
    return events


def stripped(path, workdir):
    """Valgrind 3.19 gives up on the Swift toolchain's DWARF: a copy without it."""
    copy = os.path.join(workdir, os.path.basename(path))
    subprocess.run(["strip", "--strip-debug", "-o", copy, path], check=True)
    return copy


def command(name, build, recording_path, workdir):
    """The command line of compositor `name`, its toggle symbol and its environment."""
    clients = [f"exec wev > /dev/null 2>&1" for _ in range(WINDOWS)]
    env = dict(os.environ, XDG_RUNTIME_DIR=workdir)
    env.pop("WAYLAND_DISPLAY", None)
    if name == "ir-compositor":
        binary = stripped(os.path.join(build, "release", "ir-compositor"), workdir)
        args = [binary, "--size", f"{WIDTH}x{HEIGHT}", "--input", f"replay:{recording_path}", "--speed", "0",
                "--exit-after-replay"]
        for c in clients:
            args += ["--client", c]
        return args, ir_replay_symbol(binary), env
    binary = os.path.join(build, name)
    if name == "tinywl-ir":
        # The library without its DWARF too, found first through LD_LIBRARY_PATH (RUNPATH).
        libdir = os.path.join(workdir, "lib")
        os.makedirs(libdir, exist_ok=True)
        shutil.copy(stripped(os.path.join(build, "release", "libinputrouter.so"), workdir), libdir)
        env["LD_LIBRARY_PATH"] = libdir
    args = [binary, "-s", f"{WIDTH}x{HEIGHT}", "-r", recording_path, "-e", "200"]
    for c in clients:
        args += ["-c", c]
    return args, "replay_event", env


def callgrind(name, build, kind, units, workdir, annotate=False):
    path = os.path.join(workdir, f"{kind}-{units}.yml")
    recording.write(path, events_for(kind, units))
    args, symbol, env = command(name, build, path, workdir)
    out = os.path.join(workdir, f"callgrind-{name}-{kind}-{units}.out")
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
         f"--toggle-collect={symbol}"] + args, env=env, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"{name} {kind}: exit {result.returncode}\n{result.stderr[-2000:]}")
    with open(out) as f:
        text = f.read()
    m = re.search(r"^(?:totals|summary): (\d+)", text, re.M)
    if not m or int(m.group(1)) == 0:
        # A renamed function: --toggle-collect matched nothing.
        raise RuntimeError(f"{name} {kind}: callgrind counted nothing inside {symbol}")
    # Every function the count covers, inclusive: the same span in every compositor means
    # libwayland's marshalling into the client's buffer is inside it (a count that stops
    # before the deliveries are written would lack it).
    report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                            capture_output=True, text=True).stdout
    functions = {}
    for line in report.splitlines():
        fm = re.match(r"\s*([\d,]+) \([^)]*\)\s+(?:\S*:)?(.*?)(?: \[.*\])?$", line)
        if fm:
            functions[fm.group(2)] = int(fm.group(1).replace(",", ""))
    if not any(f in functions for f in SOCKET_FUNCTIONS):
        raise RuntimeError(f"{name} {kind}: none of {', '.join(SOCKET_FUNCTIONS)} inside {symbol}")
    return int(m.group(1)), functions if annotate else {}


def per_event(name, build, kind, profile=False):
    """Two runs, of UNITS[kind] and twice as many events: their difference divided by
    UNITS[kind], so the setup both share (the devices added, the first pointer motion, ten
    fingers down and up) counts in neither. ir-compositor's first device added alone was
    about 385,000 instructions (a dictionary's first growth, generic metadata)."""
    units = UNITS[kind]
    with tempfile.TemporaryDirectory(prefix="tinywl-bench-") as workdir:
        os.chmod(workdir, 0o700)
        short, short_functions = callgrind(name, build, kind, units, workdir, profile)
        long, long_functions = callgrind(name, build, kind, 2 * units, workdir, profile)
    functions = {f: (v - short_functions.get(f, 0)) / units for f, v in long_functions.items()}
    return (long - short) / units, functions


def demangle(names):
    tool = shutil.which("swift-demangle")
    if not tool:
        return names
    out = subprocess.run([tool, "--simplified", "--compact"], input="\n".join(names) + "\n",
                         capture_output=True, text=True).stdout.splitlines()
    return out if len(out) >= len(names) else names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=".build")
    parser.add_argument("--profile", choices=["motion", "click", "key", "touch"])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--only", help="one compositor (tinywl, tinywl-ir, ir-compositor) and one kind, e.g. tinywl:motion")
    args = parser.parse_args()
    compositors = ["tinywl", "tinywl-ir", "ir-compositor"]
    if args.only:
        name, kind = args.only.split(":")
        print(f"{name} {kind}: {per_event(name, args.build, kind)[0]:.0f} instructions per event")
        return 0
    for tool in ("valgrind", "callgrind_annotate", "wev"):
        if not shutil.which(tool):
            print(f"FAIL: {tool} is missing")
            return 1
    try:
        return run(args, compositors)
    except RuntimeError as error:
        print(f"FAIL: {error}")
        return 1


def run(args, compositors):
    if args.profile:
        for name in compositors:
            total, functions = per_event(name, args.build, args.profile, profile=True)
            rows = sorted(((v, f) for f, v in functions.items() if v >= 1), reverse=True)[: args.top]
            print(f"\n{name}, {args.profile}: {total:.0f} instructions per event; top functions (inclusive):")
            for (v, _), f in zip(rows, demangle([f for _, f in rows])):
                print(f"  {v:10.0f}  {f[:140]}")
        return 0
    rows = []
    for kind in ("motion", "click", "key", "touch"):
        print(f"callgrind: {kind}, the three compositors side by side...", file=sys.stderr)
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(compositors)) as pool:
            counts = list(pool.map(lambda name: per_event(name, args.build, kind)[0], compositors))
        rows.append((kind, counts))
    print("\nInstructions per input event (callgrind, inside each compositor's per-event function,")
    print(f"from the event to libwayland's marshalling onto the clients' sockets; {WINDOWS} wev windows;")
    print("per kind: (count of 2N events - count of N events) / N, after the same setup)\n")
    print("| event | tinywl | tinywl-ir | ir-compositor | tinywl-ir / tinywl | ir-compositor / tinywl |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind, (plain, ir, server) in rows:
        print(f"| {kind} | {plain:.0f} | {ir:.0f} | {server:.0f} | {ir / plain:.2f}x | {server / plain:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
