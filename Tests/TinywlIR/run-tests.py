#!/usr/bin/env python3
"""tinywl-ir with real clients (issue 41): the compositor runs headless, starts real
clients (wev, foot, a GTK 3 entry), replays a `libinput record` file written here, and the
test compares what each client printed or wrote with what the Wayland protocol and the
scene say it must be.

The scene (examples/tinywl-ir/tinywl-ir.c): windows cascade from (40, 40), 32 pixels per
window; each has a 24-pixel title bar above its content, as wide as the window; below all,
the desktop. wev draws a 640 x 480 window when the compositor leaves the size to it (an
xdg_toplevel.configure of 0 x 0), which tinywl-ir does. The router's cursor starts at
(0, 0). So a wev window mapped first has content at x 40..680, y 40..520, and a layout
point (X, Y) over it is at surface-local (X - 40, Y - 40). Keys: the us layout, KEY_A (30)
is xkb keycode 38, keysym a (97), or A (65) with Shift held (KEY_LEFTSHIFT, 42: keycode
50, modifier mask 1 in depressed).

Pointer and keyboard events are compared exactly and in order, serials aside (checked to
increase, as the protocol's serials do); xdg_toplevel configures are compared as the list
of their `activated` states: wlroots sends them when its loop is idle, so their place
among the input events is wlroots' scheduling, not routing.

Fails, never skips, when wev, foot, GTK 3 (python3-gi) or the compositor is missing.

    Tests/TinywlIR/run-tests.py [--compositor .build/tinywl-ir] [NAME...]
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks", "tinywl-bench"))
import recording  # noqa: E402
from recording import button, key, motion  # noqa: E402

BTN_LEFT, KEY_A, KEY_LEFTSHIFT = 272, 30, 42
KEY_E, KEY_R, KEY_T, KEY_I, KEY_ENTER, KEY_H, KEY_SPACE = 18, 19, 20, 23, 28, 35, 57
HERE = os.path.dirname(os.path.abspath(__file__))


def typing(start, codes):
    """Key presses and releases from `start`, 10 ms apart; a code in a tuple is typed with
    Shift held."""
    events, t = [], start
    for code in codes:
        keys = [KEY_LEFTSHIFT, code[0]] if isinstance(code, tuple) else [code]
        for k, pressed in [(k, True) for k in keys] + [(k, False) for k in reversed(keys)]:
            events.append((t, "keyboard", key(k, pressed)))
            t += 0.010
    return events


def wev_events(text):
    """wev's output as (interface, event text) pairs, continuation lines joined, serials
    checked to increase and then written as 'serial: S'."""
    events = []
    for line in text.splitlines():
        m = re.match(r"\[\s*\d+:\s*(\w+)\] (.*)", line)
        if m:
            events.append([m.group(1), m.group(2).strip()])
        elif line.startswith(" " * 10) and events:
            events[-1][1] += " | " + " ".join(line.split())
    # The input events' serials (wlroots numbers a focus change's modifiers 0).
    serials = [int(s) for i, t in events if i in ("wl_pointer", "wl_keyboard") and not t.startswith("modifiers")
               for s in re.findall(r"serial: (\d+)", t)]
    for interface, t in events:
        if interface == "wl_keyboard" and t.startswith("keymap:"):
            events[events.index([interface, t])][1] = re.sub(r"size: \d+", "size: N", t)
    return [(i, re.sub(r"serial: \d+", "serial: S", t)) for i, t in events], serials


def input_events(events):
    return [f"{i} {t}" for i, t in events if i in ("wl_pointer", "wl_keyboard")]


def configures(events):
    return ["activated" if "activated" in t else "inactive" for i, t in events if i == "xdg_toplevel"]


def run(compositor, events, clients, workdir):
    """Runs the compositor with `clients` wev processes and the recording; returns each
    wev's output."""
    outputs = [os.path.join(workdir, f"wev{n}.txt") for n in range(clients)]
    run_clients(compositor, events, [f"exec stdbuf -oL wev > {out} 2>&1" for out in outputs], workdir)
    texts = []
    for out in outputs:
        with open(out) as f:
            texts.append(f.read())
    return texts


def run_clients(compositor, events, commands, workdir, exit_delay_ms=500):
    """Runs the compositor with the client `commands` (started one after another, each
    once the one before mapped; default configuration: XDG_CONFIG_HOME is the fresh
    `workdir`) and the recording, replayed once the last one mapped."""
    path = os.path.join(workdir, "input.yml")
    recording.write(path, events, devices=("keyboard", "mouse"))
    command = [compositor, "-s", "1280x720", "-r", path, "-e", str(exit_delay_ms),
               "-t", os.path.join(workdir, "trace.txt")]
    for client in commands:
        command += ["-c", client]
    env = dict(os.environ, XDG_RUNTIME_DIR=workdir, XDG_CONFIG_HOME=workdir)
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("DISPLAY", None)
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"{compositor} exited with {result.returncode}: {result.stderr}")


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


def expect(name, got, want):
    if got == want:
        return True
    print(f"FAIL {name}")
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else "(nothing)"
        w = want[i] if i < len(want) else "(nothing)"
        print(f"  {'  ' if g == w else '!='} got:  {g}\n  {'  ' if g == w else '!='} want: {w}")
    return False


KEYBOARD_SETUP = [
    "wl_keyboard keymap: format: 1 (xkb v1), size: N",
    "wl_keyboard repeat_info: rate: 25 keys/sec; delay: 600 ms",
]


def enter_keys(surface):
    return [f"wl_keyboard enter: serial: S; surface: {surface}",
            "wl_keyboard modifiers: serial: S; group: 0 | depressed: 00000000 | latched: 00000000 | locked: 00000000"]


def test_pointer_and_keyboard(compositor, workdir):
    """One wev: enter, motion, click, typing with and without Shift, leave to the desktop."""
    events = [
        (0.100, "mouse", motion(100, 100)),  # (100, 100): in the window, at (60, 60)
        (0.200, "mouse", motion(5, 3)),  # (105, 103): (65, 63)
        (0.300, "mouse", button(BTN_LEFT, True)),
        (0.400, "mouse", button(BTN_LEFT, False)),
        (0.500, "keyboard", key(KEY_A, True)),
        (0.600, "keyboard", key(KEY_A, False)),
        (0.700, "keyboard", key(KEY_LEFTSHIFT, True)),
        (0.800, "keyboard", key(KEY_A, True)),
        (0.900, "keyboard", key(KEY_A, False)),
        (1.000, "keyboard", key(KEY_LEFTSHIFT, False)),
        (1.100, "mouse", motion(-100, -100)),  # (5, 3): the desktop
    ]
    [text] = run(compositor, events, 1, workdir)
    parsed, serials = wev_events(text)
    surface = next((re.search(r"surface: (\d+)", t).group(1) for i, t in parsed if "enter" in t), "?")
    want = KEYBOARD_SETUP + enter_keys(surface) + [
        f"wl_pointer enter: serial: S; surface: {surface}, x, y: 60.000000, 60.000000",
        "wl_pointer frame",
        "wl_pointer motion: time: 200; x, y: 65.000000, 63.000000",
        "wl_pointer frame",
        "wl_pointer button: serial: S; time: 300; button: 272 (left), state: 1 (pressed)",
        "wl_pointer frame",
        "wl_pointer button: serial: S; time: 400; button: 272 (left), state: 0 (released)",
        "wl_pointer frame",
        "wl_keyboard key: serial: S; time: 500; key: 38; state: 1 (pressed) | sym: a (97), utf8: 'a'",
        "wl_keyboard key: serial: S; time: 600; key: 38; state: 0 (released) | sym: a (97), utf8: ''",
        "wl_keyboard key: serial: S; time: 700; key: 50; state: 1 (pressed) | sym: Shift_L (65505), utf8: ''",
        "wl_keyboard modifiers: serial: S; group: 0 | depressed: 00000001: Shift | latched: 00000000 | locked: 00000000",
        "wl_keyboard key: serial: S; time: 800; key: 38; state: 1 (pressed) | sym: A (65), utf8: 'A'",
        "wl_keyboard key: serial: S; time: 900; key: 38; state: 0 (released) | sym: A (65), utf8: ''",
        "wl_keyboard key: serial: S; time: 1000; key: 50; state: 0 (released) | sym: Shift_L (65505), utf8: ''",
        "wl_keyboard modifiers: serial: S; group: 0 | depressed: 00000000 | latched: 00000000 | locked: 00000000",
        f"wl_pointer leave: surface: {surface}",
        "wl_pointer frame",
    ]
    ok = expect("pointer and keyboard: wev's input events", input_events(parsed), want)
    ok &= expect("pointer and keyboard: serials increase", serials, sorted(set(serials)))
    # Focused when it mapped: one configure before (not activated), one after.
    ok &= expect("pointer and keyboard: configures", configures(parsed), ["inactive", "activated"])
    return ok


def test_title_bar_raises_focuses_and_moves(compositor, workdir):
    """Two wev windows: the second (content at 72, 72) on top and focused. A press on the
    first one's title bar raises and focuses it and starts a move; the drag moves it by
    (10, 10); a later motion enters it at its new place."""
    events = [
        (0.100, "mouse", motion(300, 200)),  # (300, 200): window 2, at (228, 128)
        (0.200, "mouse", motion(0, -170)),  # (300, 30): window 1's title bar (y 16..40)
        (0.300, "mouse", button(BTN_LEFT, True)),
        (0.400, "mouse", motion(10, 10)),  # (310, 40): window 1 follows, content at (50, 50)
        (0.500, "mouse", button(BTN_LEFT, False)),  # still over its title bar (y 26..50)
        (0.600, "mouse", motion(0, 60)),  # (310, 100): window 1 on top, at (260, 50)
        (0.700, "keyboard", key(KEY_A, True)),
        (0.800, "keyboard", key(KEY_A, False)),
    ]
    first, second = run(compositor, events, 2, workdir)
    p1, s1 = wev_events(first)
    p2, s2 = wev_events(second)
    surface1 = next((re.search(r"surface: (\d+)", t).group(1) for i, t in p1 if "enter" in t), "?")
    surface2 = next((re.search(r"surface: (\d+)", t).group(1) for i, t in p2 if "enter" in t), "?")
    want1 = KEYBOARD_SETUP + enter_keys(surface1) + [
        f"wl_keyboard leave: serial: S; surface: {surface1}",  # window 2 mapped and took it
    ] + enter_keys(surface1) + [  # the press on the title bar
        f"wl_pointer enter: serial: S; surface: {surface1}, x, y: 260.000000, 50.000000",
        "wl_pointer frame",
        "wl_keyboard key: serial: S; time: 700; key: 38; state: 1 (pressed) | sym: a (97), utf8: 'a'",
        "wl_keyboard key: serial: S; time: 800; key: 38; state: 0 (released) | sym: a (97), utf8: ''",
    ]
    want2 = KEYBOARD_SETUP + enter_keys(surface2) + [
        f"wl_pointer enter: serial: S; surface: {surface2}, x, y: 228.000000, 128.000000",
        "wl_pointer frame",
        f"wl_pointer leave: surface: {surface2}",
        "wl_pointer frame",
        f"wl_keyboard leave: serial: S; surface: {surface2}",
    ]
    ok = expect("title bar: first wev's input events", input_events(p1), want1)
    ok &= expect("title bar: second wev's input events", input_events(p2), want2)
    ok &= expect("title bar: first wev's serials increase", s1, sorted(set(s1)))
    ok &= expect("title bar: second wev's serials increase", s2, sorted(set(s2)))
    ok &= expect("title bar: first wev's configures", configures(p1), ["inactive", "activated", "inactive", "activated"])
    ok &= expect("title bar: second wev's configures", configures(p2), ["inactive", "activated", "inactive"])
    return ok


def test_foot_focused_by_a_click_runs_what_is_typed(compositor, workdir):
    """foot (default configuration, its shell waiting in `read`) mapped first, then wev,
    which takes the keyboard. foot's default window geometry is 700 x 500 pixels, from (40,
    40), its own 26-pixel title bar included (no xdg-decoration here; foot declares
    set_window_geometry(0, -26, 700, 500)); wev's 640 x 480 from (72, 72).
    A click at (726, 300), foot's and not wev's, raises and focuses foot; the keys typed
    then are foot's: its shell writes the line to a file, and exits; foot closes its
    window, and the keyboard falls back to wev, the window left. wev is told it lost the
    keyboard, gets no key, and gets it back."""
    written = os.path.join(workdir, "typed.txt")
    shell = f'read line; printf "%s\\n" "$line" > {shlex.quote(written)}'
    foot = f"exec foot -- /bin/sh -c {shlex.quote(shell)} > {workdir}/foot.log 2>&1"
    wev = f"exec stdbuf -oL wev > {workdir}/wev.txt 2>&1"
    events = [
        (0.100, "mouse", motion(726, 300)),
        (0.200, "mouse", button(BTN_LEFT, True)),
        (0.300, "mouse", button(BTN_LEFT, False)),
    ] + typing(0.400, [(KEY_H,), KEY_I, KEY_SPACE, KEY_T, KEY_H, KEY_E, KEY_R, KEY_E, KEY_ENTER])
    run_clients(compositor, events, [foot, wev], workdir, exit_delay_ms=1500)
    ok = expect("foot: the file its shell wrote", [read(written)], ["Hi there\n"])
    parsed, _ = wev_events(read(os.path.join(workdir, "wev.txt")) or "")
    surface = next((re.search(r"surface: (\d+)", t).group(1) for i, t in parsed if "enter" in t), "?")
    ok &= expect("foot: wev's input events", input_events(parsed),
                 KEYBOARD_SETUP + enter_keys(surface) + [f"wl_keyboard leave: serial: S; surface: {surface}"]
                 + enter_keys(surface))
    if not ok:
        print("  foot said: " + (read(os.path.join(workdir, "foot.log")) or "(nothing)"))
    return ok


def test_gtk_entry_clicked_and_typed_into(compositor, workdir):
    """A GTK 3 window with an entry (Tests/TinywlIR/gtk-entry.py), 400 x 200 by default,
    mapped first. GTK draws its own decorations, shadow included, so its wl_surface
    extends beyond its window geometry: xdg_surface.set_window_geometry(x, y, w, h) says
    where the window starts in the surface, and the scene puts that point at (40, 40).
    A layout point (X, Y) is then at surface-local (X - 40 + x, Y - 40 + y): the geometry
    is read from the client's own requests (WAYLAND_DEBUG), the last one before the
    press. A click at (240, 200), below GTK's title bar and on the entry, then "Hi" and
    Return: GTK reports the press and release at that point, the text as it changes
    and the activation."""
    out, log = os.path.join(workdir, "gtk.txt"), os.path.join(workdir, "gtk-wayland.txt")
    app = (f"WAYLAND_DEBUG=client GDK_BACKEND=wayland NO_AT_BRIDGE=1 exec /usr/bin/python3 -u "
           f"{shlex.quote(os.path.join(HERE, 'gtk-entry.py'))} > {out} 2> {log}")
    events = [
        (0.100, "mouse", motion(240, 200)),
        (0.200, "mouse", button(BTN_LEFT, True)),
        (0.300, "mouse", button(BTN_LEFT, False)),
    ] + typing(0.400, [(KEY_H,), KEY_I, KEY_ENTER])
    run_clients(compositor, events, [app], workdir, exit_delay_ms=1000)
    wayland = read(log) or ""
    before_press = wayland[:wayland.find(".button(")] if ".button(" in wayland else wayland
    geometries = re.findall(r"set_window_geometry\((-?\d+), (-?\d+), \d+, \d+\)", before_press)
    x, y = (int(v) for v in geometries[-1]) if geometries else (0, 0)
    at = f"{240 - 40 + x:.2f}, {200 - 40 + y:.2f}"
    want = [f"press button 1 at {at}", f"release button 1 at {at}", "text H", "text Hi", "activate Hi"]
    ok = expect("GTK: window geometry declared before the press", [bool(geometries)], [True])
    ok &= expect("GTK: what the entry reported", (read(out) or "").splitlines(), want)
    if not ok:
        print("  GTK said: " + (read(out) or "") + "\n" + "\n".join(l for l in wayland.splitlines() if "@" not in l)[-2000:])
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compositor", default=".build/tinywl-ir")
    parser.add_argument("only", nargs="*", help="run only the tests whose names contain one of these")
    args = parser.parse_args()
    missing = [what for what, there in [
        ("wev (apt install wev)", shutil.which("wev")),
        ("stdbuf (coreutils)", shutil.which("stdbuf")),
        ("foot (apt install foot)", shutil.which("foot")),
        ("GTK 3 for python3 (apt install python3-gi gir1.2-gtk-3.0)", subprocess.run(
            ["/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0')"],
            capture_output=True).returncode == 0 if os.access("/usr/bin/python3", os.X_OK) else False),
        (f"{args.compositor} (make {args.compositor})", os.access(args.compositor, os.X_OK)),
    ] if not there]
    if missing:
        print("FAIL: missing " + ", ".join(missing))
        return 1
    ok = True
    tests = [test_pointer_and_keyboard, test_title_bar_raises_focuses_and_moves,
             test_foot_focused_by_a_click_runs_what_is_typed, test_gtk_entry_clicked_and_typed_into]
    chosen = [t for t in tests if not args.only or any(name in t.__name__ for name in args.only)]
    for test in chosen:
        with tempfile.TemporaryDirectory(prefix="tinywl-ir-test-") as workdir:
            os.chmod(workdir, 0o700)
            try:
                passed = test(os.path.abspath(args.compositor), workdir)
            except (AssertionError, subprocess.TimeoutExpired) as error:
                print(f"FAIL {test.__name__}: {error}")
                passed = False
        print(f"{'ok  ' if passed else 'FAIL'} {test.__name__}")
        ok &= passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
