#!/usr/bin/env python3
"""The DocC site in a real browser: Debian's chromium, headless, opens the site `make docs`
built (.build/docs-site) from a local HTTP server, lets DocC's JavaScript render each page,
and checks that the page's title and code blocks are in the rendered DOM: the landing
page, each module's page and one symbol page per module, and every tutorial step. Writes
docs/docc-landing.png and docs/docc-tutorial.png (shown in README). Fails, never skips,
when chromium is missing: `make deps` installs it."""
import html
import http.server
import re
import shutil
import socketserver
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / ".build" / "docs-site"
TUTORIAL = "InputRouter/tutorials/inputrouter/routeinputinyourowncompositor"

# (path, title the page must show, code the page must show; None: no code block asked)
PAGES = [
    ("InputRouter/documentation/inputrouter/", "InputRouter", "let router = Router()"),
    ("InputRouter/documentation/inputrouter/router", "Router", "class Router"),
    ("InputRouter/documentation/inputrouter/routing", "Routing rules and the decisions behind them", None),
    ("InputRouter/documentation/inputrouter/embedding", "Putting InputRouter into your compositor",
     "let display = try WaylandDisplay()"),
    ("InputRouterKeyboard/documentation/inputrouterkeyboard/", "InputRouterKeyboard", "KeyboardConfiguration(keymap:"),
    ("InputRouterKeyboard/documentation/inputrouterkeyboard/keyboardconfiguration", "KeyboardConfiguration",
     "struct KeyboardConfiguration"),
    ("InputRouterRecording/documentation/inputrouterrecording/", "InputRouterRecording", "RecordingReader.read"),
    ("InputRouterRecording/documentation/inputrouterrecording/recordingreader", "RecordingReader", "enum RecordingReader"),
    ("InputRouterWayland/documentation/inputrouterwayland/", "InputRouterWayland", "WaylandServer.Configuration.embedded"),
    ("InputRouterWayland/documentation/inputrouterwayland/waylandserver", "WaylandServer", "class WaylandServer"),
    ("InputRouterLibinput/documentation/inputrouterlibinput/libinputsource", "LibinputSource", "class LibinputSource"),
    ("InputRouterRendering/documentation/inputrouterrendering/outputrenderer", "OutputRenderer", "struct OutputRenderer"),
    ("InputRouterNested/documentation/inputrouternested/nestedbackend", "NestedBackend", "class NestedBackend"),
]


def fail(message):
    print(f"docs-browser-test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def text_of(dom):
    """The DOM's text: tags dropped, entities decoded, whitespace runs as one space."""
    dom = re.sub(r"<(script|style|noscript)\b.*?</\1>", " ", dom, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", dom)))


class Quiet(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(SITE), **kwargs)

    def log_message(self, *args):
        pass


def chromium(*args):
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--virtual-time-budget=10000", *args]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail(f"{' '.join(command)} exited {run.returncode}: {run.stderr[-2000:]}")
    return run.stdout


BROWSER = shutil.which("chromium")
if BROWSER is None:
    fail("chromium is not installed (Debian package chromium; `make deps` installs it)")
if not (SITE / "index.html").exists():
    fail(f"no site at {SITE}: run `make docs` first")

server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Quiet)
threading.Thread(target=server.serve_forever, daemon=True).start()
BASE = f"http://127.0.0.1:{server.server_address[1]}/"
failures = []


def check(path, title, code, size="1280,900"):
    dom = chromium(f"--window-size={size}", "--dump-dom", BASE + path)
    text = text_of(dom)
    # The page's own title: not the "requires JavaScript" one, which only a browser without
    # JavaScript shows (it is inside <noscript>).
    heading = re.search(r"<h1\b[^>]*>(.*?)</h1>", re.sub(r"<noscript\b.*?</noscript>", "", dom, flags=re.S), re.S)
    shown = text_of(heading.group(1)).strip() if heading else None
    if shown != title:
        failures.append(f"{path}: the page's title is {shown!r}, not {title!r}")
    if code is not None:
        blocks = [text_of(b) for b in re.findall(r"<pre\b.*?</pre>", dom, re.S)]
        if not any(code in b for b in blocks):
            failures.append(f"{path}: no code block shows {code!r} ({len(blocks)} code blocks)")
    return dom, text


# The front page links every module.
dom = chromium("--dump-dom", BASE)
for module in ["InputRouter", "InputRouterKeyboard", "InputRouterRecording", "InputRouterWayland",
               "InputRouterLibinput", "InputRouterRendering", "InputRouterNested"]:
    if f'href="{module}/documentation/{module.lower()}/"' not in dom:
        failures.append(f"index.html: no link to {module}")

for path, title, code in PAGES:
    check(path, title, code)

# The tutorial: its title, each section's, one "Step N" per step, and each step's code in
# full, all read from the .tutorial file. A narrow window gives DocC's small layout, where
# each step shows its code beside its text, so every listing is in the DOM at once.
catalogue = ROOT / "Sources/InputRouter/InputRouter.docc"
source = (catalogue / "RouteInputInYourOwnCompositor.tutorial").read_text()
sections = re.findall(r'@Section\(title: "([^"]+)"\)', source)
files = re.findall(r'@Code\(name: "[^"]+", file: "([^"]+)"\)', source)
dom, text = check(TUTORIAL, "Route input in your own compositor", None, size="600,4000")
shown_sections = [text_of(h).strip() for h in re.findall(r"<h2\b[^>]*>(.*?)</h2>", dom, re.S)]
for section in sections:
    if section not in shown_sections:
        failures.append(f"{TUTORIAL}: section {section!r} is not shown (h2: {shown_sections})")
labels = re.findall(r"Step \d+", text)
if len(labels) != len(files):
    failures.append(f"{TUTORIAL}: {len(labels)} steps shown, the tutorial has {len(files)}")
blocks = [" ".join(text_of(b).split()) for b in re.findall(r"<pre\b.*?</pre>", dom, re.S)]
for name in files:
    path = next(catalogue.glob(f"Resources/**/{name}"))
    code = " ".join(path.read_text().split())
    if not any(code in b for b in blocks):
        failures.append(f"{TUTORIAL}: no code block shows all of {name}")
steps = files

chromium("--window-size=1280,900", f"--screenshot={ROOT / 'docs/docc-landing.png'}",
         BASE + "InputRouter/documentation/inputrouter/")
chromium("--window-size=1280,900", f"--screenshot={ROOT / 'docs/docc-tutorial.png'}", BASE + TUTORIAL)
server.shutdown()

if failures:
    fail("\n  " + "\n  ".join(failures))
print(f"docs-browser-test: {len(PAGES) + 2} pages rendered in chromium, {len(steps)} tutorial steps; "
      "screenshots docs/docc-landing.png, docs/docc-tutorial.png")
