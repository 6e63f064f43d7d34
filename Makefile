# The project's commands. Each installs what it needs on a fresh Debian 12 first.
#   make demo   the compositor, headless, with bundled clients and recordings
#   make nested the compositor as a window of your session (CLIENT=foot by default)
#   make test   build and run every test
#   make format rewrite the Swift code as .swift-format says (make test lints it)
#   make docs   the DocC site of the public modules, in .build/docs-site (README, "Documentation")
#   make bench  release-mode benchmarks
#   make vm-test  real libinput end to end in a VM (qemu, slow; not part of make test)
#   make fuzz SECONDS=600   each libFuzzer target for that long (docs/fuzzing.md)
#   make fuzz-oss  the OSS-Fuzz/ClusterFuzzLite build script, run locally, and its targets
#   make test-sanitizers    the fuzz, chaos and stream tests under ASan and TSan
#   make conformance  Mir's Wayland Conformance Suite (WLCS) against the server
#   make conformance-tsan  the same with the integration built under ThreadSanitizer
#   make install PREFIX=/usr/local  libinputrouter.so, include/input_router.h, inputrouter.pc
#   make capi-test  the C API's C tests under ASan+UBSan, and a program built from the install
#   make soak MINUTES=60    the compositor under client churn and 1 kHz input (docs/soak.md)

SWIFT ?= swift
APT_PACKAGES = pkg-config libpixman-1-dev libwayland-dev wayland-protocols libinput-dev \
	libudev-dev libseat-dev libxkbcommon-dev xkb-data libx11-data locales libyaml-dev \
	wev weston foot
# Rendering: PNG files (zlib).
APT_PACKAGES += zlib1g-dev
# The build itself: the WaylandProtocols plugin runs wayland-scanner and python3 over protocols/.
APT_PACKAGES += libwayland-bin python3-minimal
# The nested backend's tests: weston (x11 backend) on Xvfb, input typed in with xdotool.
APT_PACKAGES += xvfb xdotool x11-xkb-utils
# Relative pointer and pointer constraints: an SDL2 game in relative mouse mode (pygame).
APT_PACKAGES += python3-pygame
# SDL2 games as users run them (ConstraintRealClientTests, DecorationRealClientTests):
# libdecor and its default cairo plugin, which SDL loads when told to draw its own frame.
# The tests run SDL with libdecor allowed, as it is by default, not hidden by a variable.
APT_PACKAGES += libdecor-0-0 libdecor-0-plugin-1-cairo
# The conformance run: WLCS (runner and integration header) and its report script.
APT_PACKAGES += wlcs python3
# wayland-info (the registry test in WaylandServerTests).
APT_PACKAGES += wayland-utils
# text-input-v3: a GTK 3 entry typed into through the compositor's compose (python3-gi).
APT_PACKAGES += python3-gi gir1.2-gtk-3.0
# Tablets and pads in a real toolkit: a GTK 4 app's GestureStylus and PadController (TabletGtkTests);
# GTK 4 menus opened from the keyboard and window activation (GtkMenuKeyboardTests, GtkActivationTests).
APT_PACKAGES += gir1.2-gtk-4.0
# Copy and paste between real clients: wl-copy/wl-paste and two GTK 3 processes (SelectionRealClientTests).
APT_PACKAGES += wl-clipboard
# Panels and launchers on the layer shell: fuzzel and waybar (LayerShellRealClientTests).
APT_PACKAGES += fuzzel waybar
# A lock screen on ext-session-lock-v1: swaylock run as a test user, unlocked with its
# password through PAM (SwaylockRealClientTests).
APT_PACKAGES += swaylock
# Virtual keyboards: wtype 0.4 typing into foot and a GTK 3 entry (VirtualKeyboardRealClientTests).
APT_PACKAGES += wtype
# An input method program: fcitx5 with pinyin, under dbus-run-session (FcitxRealClientTests).
APT_PACKAGES += fcitx5 fcitx5-chinese-addons dbus-daemon
# Cursors by name (cursor-shape-v1): the system's Xcursor theme the renderer draws them
# from, Adwaita, which /usr/share/icons/default inherits (CursorShapeRenderingTests).
APT_PACKAGES += adwaita-icon-theme
# The documentation site rendered in a real browser (tools/docs-browser-test.py): Debian's
# chromium, headless, dumps each page's DOM after DocC's JavaScript ran, and takes the
# screenshots README shows.
APT_PACKAGES += chromium
# The soak's plot of memory, fds and objects over time (make soak, and its 2 minutes in make test).
APT_PACKAGES += gnuplot-nox
# tinywl-ir (examples/tinywl-ir), the C API in a wlroots 0.15 compositor, tested with real
# wev, foot and GTK 3 clients (make tinywl-test; foot, python3-gi, gir1.2-gtk-3.0 are above): wlroots.
APT_PACKAGES += libwlroots-dev
# apt-get runs only when a package is missing, so repeated runs stay fast.
DEPS_STAMP = .build/.apt-ok

.PHONY: soak deps demo nested format test docs docs-test consumer capi-test install bench bench-deps vm-test fuzz fuzz-seeds test-sanitizers conformance conformance-tsan

deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

demo: deps
	$(SWIFT) build -c release --product ir-compositor
	$(SWIFT) build -c release --product wl-probe
	examples/compositor/demo.sh

# The compositor as a window of your own Wayland session, running CLIENT inside it.
CLIENT ?= foot
nested: deps
	$(SWIFT) build -c release --product ir-compositor
	.build/release/ir-compositor --backend nested -- $(CLIENT)

# Where the Swift code lives; `make format` rewrites it as .swift-format says (120 columns).
SWIFT_CODE = Sources Tests examples tools benchmarks fuzz Plugins Package.swift
format:
	$(SWIFT) format format -i -r -p $(SWIFT_CODE)

test: deps
	# The code is formatted as .swift-format says; `make format` fixes what it can.
	$(SWIFT) format lint --strict -r -p $(SWIFT_CODE)
	$(SWIFT) build --build-tests
	# Every suite in one parallel run, the hostile one among them (its long loop in a
	# process of its own, so its memory bound reads its server alone: docs/hostile-clients.md).
	$(SWIFT) test --skip-build --parallel
	# WLCS, each suite in its own process: about half a minute (Tests/Conformance/README.md).
	$(MAKE) --no-print-directory conformance
	# Two minutes of the soak: client churn, looping synthetic input, leak bounds (docs/soak.md).
	$(MAKE) --no-print-directory soak MINUTES=2
	# The hot path must not allocate: the release benchmark fails if routing does.
	$(SWIFT) build -c release --product core-bench
	.build/release/core-bench --check-allocations
	# The Wayland layer in release too (make demo and make bench build it so), and its events
	# allocate no more than the bare protocol's: a release build compiles each module whole,
	# and once failed on a C constant that the debug build found.
	$(SWIFT) build -c release --product wayland-bench
	.build/release/wayland-bench --check-allocations
	# The DocC site, rendered in chromium (about 30 s and 60 s), and the package as another
	# package's dependency (its own build of three products: about 2 minutes).
	$(MAKE) --no-print-directory docs-test
	$(MAKE) --no-print-directory consumer
	# The C API: C tests under ASan and UBSan, a leak run, and a program built with pkg-config
	# against `make install` in a temporary prefix (about 40 s after the debug build).
	$(MAKE) --no-print-directory capi-test
	# tinywl-ir, the C API in a wlroots compositor, with real wev, foot and GTK 3 clients (under a minute).
	$(MAKE) --no-print-directory tinywl-test
	# Hostile-input suites under ASan and TSan: about 6 of the ~9 minutes (docs/fuzzing.md).
	$(MAKE) --no-print-directory test-sanitizers

# The DocC catalogues (Sources/*/*.docc) over the symbol graphs of the debug build, as a
# static site: .build/docs-site/<module>/ and an index.html. docc warnings are errors.
docs: deps
	SWIFT=$(SWIFT) tools/build-docs.sh

# The site in headless chromium from a local HTTP server: titles, code blocks, every
# tutorial step; writes docs/docc-landing.png and docs/docc-tutorial.png.
docs-test: docs
	tools/docs-browser-test.py

# examples/consumer depends on the library by path, as a user's package does by URL: a
# renamed product, a module that does not build as a dependency or a lost `public` fails
# here. Its output is compared with what the Wayland and xkb specifications say it prints.
consumer: deps
	cd examples/consumer && $(SWIFT) build
	cd examples/consumer && $$($(SWIFT) build --show-bin-path)/consumer | diff -u expected-output.txt -

# The C API (include/input_router.h; docs/embedding.md, "From C"). `make install` copies
# the header, libinputrouter.so and inputrouter.pc under PREFIX. The library keeps the
# RUNPATH swiftc gives it (the toolchain's lib/swift/linux, where libswiftCore.so and
# Foundation are), and the .pc file gives programs an rpath to PREFIX/lib: a C program
# runs without LD_LIBRARY_PATH on a machine with the toolchain where it was built.
PREFIX ?= /usr/local
CAPI_CONFIG ?= release
CAPI_VERSION = $$(sed -n 's/^\#define IR_API_VERSION_MAJOR \([0-9]*\)/\1/p' include/input_router.h).$$(sed -n 's/^\#define IR_API_VERSION_MINOR \([0-9]*\)/\1/p' include/input_router.h)
install:
	$(SWIFT) build -c $(CAPI_CONFIG) --product inputrouter
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/input_router.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $$($(SWIFT) build -c $(CAPI_CONFIG) --show-bin-path)/libinputrouter.so $(DESTDIR)$(PREFIX)/lib/
	sed -e "s|@PREFIX@|$(PREFIX)|" -e "s|@VERSION@|$(CAPI_VERSION)|" inputrouter.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/inputrouter.pc

# The C tests (Tests/CAPI) against the debug library, compiled as C11 with ASan and UBSan
# (UBSan findings fail the run). leak_test ends with LeakSanitizer's check (no suppression
# needed: the Swift runtime's caches stay reachable); the same test built to leak one
# router must fail and name ir_router_create, or the check is not watching. Then the
# install in a temporary prefix and Tests/CAPI/consumer built by pkg-config alone.
CAPI_CC = cc -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=undefined
CAPI_TESTS = routing_test errors_test recording_test leak_test
CAPI_OUT = .build/capi
capi-test: deps
	$(SWIFT) build --product inputrouter
	@mkdir -p $(CAPI_OUT)
	cc -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -Iinclude -x c include/input_router.h
	c++ -Wall -Wextra -Werror -fsyntax-only -Iinclude -x c++ include/input_router.h
	lib=$$($(SWIFT) build --show-bin-path); for t in $(CAPI_TESTS); do \
		$(CAPI_CC) -Iinclude Tests/CAPI/$$t.c Tests/CAPI/harness.c -L$$lib -Wl,-rpath,$$lib -linputrouter -lm \
			-o $(CAPI_OUT)/$$t || exit 1; done; \
	$(CAPI_CC) -DLEAK_ON_PURPOSE -Iinclude Tests/CAPI/leak_test.c Tests/CAPI/harness.c -L$$lib -Wl,-rpath,$$lib \
		-linputrouter -o $(CAPI_OUT)/leak_test_control
	for t in $(CAPI_TESTS); do ASAN_OPTIONS=detect_leaks=1 $(CAPI_OUT)/$$t Tests/RecordingTests/Fixtures || exit 1; done
	@if ASAN_OPTIONS=detect_leaks=1 $(CAPI_OUT)/leak_test_control Tests/RecordingTests/Fixtures > $(CAPI_OUT)/control.log 2>&1; then \
		echo "leak_test_control leaked a router and LeakSanitizer did not fail it"; exit 1; fi; \
	grep -q "in ir_router_create" $(CAPI_OUT)/control.log || { echo "LeakSanitizer did not name ir_router_create:"; cat $(CAPI_OUT)/control.log; exit 1; }; \
	echo "leak_test_control: LeakSanitizer caught the router leaked on purpose"
	prefix=$$(mktemp -d) && $(MAKE) --no-print-directory install PREFIX=$$prefix CAPI_CONFIG=debug && \
	PKG_CONFIG_PATH=$$prefix/lib/pkgconfig cc -std=c11 -Wall -Werror Tests/CAPI/consumer/consumer.c \
		$$(PKG_CONFIG_PATH=$$prefix/lib/pkgconfig pkg-config --cflags --libs inputrouter) -o $$prefix/consumer && \
	env -u LD_LIBRARY_PATH $$prefix/consumer | diff -u Tests/CAPI/consumer/expected-output.txt - && \
	echo "consumer: built with pkg-config against $$prefix, output as expected" && rm -rf $$prefix
	# docs/embedding.md's C example, compiled from the page as it stands.
	( printf '#include <input_router.h>\n#include <stdio.h>\n'; \
		awk '/^## 8. From C/{f=1} f&&/^```c$$/{c=1;next} c&&/^```$$/{exit} c' docs/embedding.md ) > $(CAPI_OUT)/doc_example.c
	lib=$$($(SWIFT) build --show-bin-path); cc -std=c11 -Wall -Wextra -Werror -Iinclude $(CAPI_OUT)/doc_example.c \
		-L$$lib -Wl,-rpath,$$lib -linputrouter -o $(CAPI_OUT)/doc_example
	$(CAPI_OUT)/doc_example | diff -u Tests/CAPI/consumer/doc-example-output.txt -

# Mir's Wayland Conformance Suite: fails on a failure not in the expected list, and on a
# listed test that passes (Tests/Conformance/README.md). WLCS_TSAN=1: under wlcs.tsan.
WLCS_RUNNER = /usr/lib/x86_64-linux-gnu/wlcs/wlcs$(if $(WLCS_TSAN),.tsan)
conformance: deps
	$(SWIFT) build --product InputRouterWLCS
	Tests/Conformance/run-wlcs.py --runner $(WLCS_RUNNER) \
		$$($(SWIFT) build --show-bin-path)/libInputRouterWLCS.so --expected Tests/Conformance/expected-failures.txt

# The module built with ThreadSanitizer (the Swift toolchain's runtime, preloaded into the
# plain runner: wlcs.tsan carries GCC's, which cannot share a process with it). Fails on any
# report (Tests/Conformance/README.md). Not part of make test: about 4 minutes.
SWIFT_TOOLCHAIN = $(dir $(shell which $(SWIFT)))..
conformance-tsan: deps
	$(SWIFT) build --sanitize=thread --product InputRouterWLCS --scratch-path .build/tsan
	LD_PRELOAD="$(wildcard $(SWIFT_TOOLCHAIN)/lib/clang/*/lib/linux/libclang_rt.tsan-x86_64.so) $(SWIFT_TOOLCHAIN)/lib/swift/linux/libdispatch.so" \
		Tests/Conformance/run-wlcs.py .build/tsan/debug/libInputRouterWLCS.so --logs .build/wlcs-tsan-logs \
		--sanitizer-reports --expected Tests/Conformance/expected-failures.txt

# The benchmark alone needs wlroots (for the side-by-side C harness, never the library),
# gnuplot (the scaling plot) and valgrind (instruction counts).
BENCH_PACKAGES = libwlroots-dev gnuplot-nox valgrind

bench-deps: deps
	@missing=$$(for p in $(BENCH_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# The wlr_scene harness: plain cc, so the Swift package never depends on wlroots.
.build/wlr-bench: benchmarks/wlr-bench/wlr_bench.c
	@mkdir -p .build
	cc -O2 -Wall -DWLR_USE_UNSTABLE $$(pkg-config --cflags wlroots) $< -o $@ $$(pkg-config --libs wlroots)

# tinywl (plain wlroots routing) and tinywl-ir (the same compositor routing through
# libinputrouter): plain cc against Debian's wlroots 0.15, never part of the Swift package.
# Both read recordings with libinputrouter's reader; wlroots' xdg-shell header wants the
# protocol's server header, made here by wayland-scanner.
.PHONY: libinputrouter tinywl-test
libinputrouter:
	$(SWIFT) build -c release --product inputrouter
IR_LIB_DIR = $(CURDIR)/.build/release
WLR_CFLAGS = -O2 -g -Wall -DWLR_USE_UNSTABLE -Iinclude -I.build/tinywl-protocols \
	$$(pkg-config --cflags wlroots wayland-server xkbcommon pixman-1)
WLR_LIBS = $$(pkg-config --libs wlroots wayland-server xkbcommon pixman-1) -L$(IR_LIB_DIR) -linputrouter -Wl,-rpath,$(IR_LIB_DIR)
.build/tinywl-protocols/xdg-shell-protocol.h:
	@mkdir -p .build/tinywl-protocols
	wayland-scanner server-header $$(pkg-config --variable=pkgdatadir wayland-protocols)/stable/xdg-shell/xdg-shell.xml $@
.build/tinywl: examples/tinywl/tinywl.c include/input_router.h .build/tinywl-protocols/xdg-shell-protocol.h libinputrouter
	cc $(WLR_CFLAGS) $< -o $@ $(WLR_LIBS)
.build/tinywl-ir: examples/tinywl-ir/tinywl-ir.c include/input_router.h .build/tinywl-protocols/xdg-shell-protocol.h libinputrouter
	cc $(WLR_CFLAGS) $< -o $@ $(WLR_LIBS)

# tinywl-ir with real wev, foot and GTK 3 clients, driven by recordings (Tests/TinywlIR/run-tests.py).
tinywl-test: deps .build/tinywl-ir
	Tests/TinywlIR/run-tests.py --compositor .build/tinywl-ir

bench: bench-deps .build/wlr-bench
	$(SWIFT) build -c release --product core-bench
	.build/release/core-bench --wlr .build/wlr-bench --scaling-data .build/hit-test-scaling.dat
	gnuplot -e "data='.build/hit-test-scaling.dat'; out='docs/hit-test-scaling.png'" benchmarks/hit-test-scaling.gp
	$(SWIFT) build -c release --product wayland-bench && .build/release/wayland-bench
	# The whole path in three compositors: tinywl, tinywl-ir and ir-compositor (callgrind).
	$(MAKE) --no-print-directory tinywl-bench

# Instructions per event from input event to the client's socket: tinywl (wlroots
# routing), tinywl-ir (through libinputrouter) and ir-compositor, same scene and events.
.PHONY: tinywl-bench
tinywl-bench: bench-deps .build/tinywl .build/tinywl-ir
	$(SWIFT) build -c release --product ir-compositor
	benchmarks/tinywl-bench/bench.py --build .build

vm-test: deps
	tools/vm-libinput-test.sh

# Hostile clients against the server for SECONDS (docs/hostile-clients.md).
.PHONY: hostile
SECONDS ?= 600
hostile: deps
	$(SWIFT) build --build-tests
	HOSTILE_SECONDS=$(SECONDS) $(SWIFT) test --skip-build --filter HostileClientTests

# Fuzzing (docs/fuzzing.md). The targets live in their own package, fuzz/, so a plain
# build never links an executable whose main is libFuzzer's. One target runs at a time.
FUZZ_TARGETS = RouterFuzzer RecordingFuzzer KeyboardFuzzer WireFuzzer
# tools/fuzz-build.sh builds from clean with the flags on every compiler and linker call
# (as OSS-Fuzz does) and refuses any linked binary libFuzzer would run blind.
fuzz: deps
	tools/fuzz-build.sh $(FUZZ_TARGETS)
	status=0; for t in $(FUZZ_TARGETS); do fuzz/run.sh $$t $(SECONDS) || status=1; done; exit $$status

# The OSS-Fuzz / ClusterFuzzLite build (.clusterfuzzlite/build.sh) run here, as the
# builder image runs it, then every target it produced for 20 s from its seed zip.
.PHONY: fuzz-oss
fuzz-oss: deps
	tools/oss-fuzz-local.sh

# Rewrites the committed seed corpus from the generators.
fuzz-seeds:
	cd fuzz && $(SWIFT) run --scratch-path .build/plain make-seeds corpus

# The suites that drive hostile input, under AddressSanitizer and ThreadSanitizer, each in
# its own build directory so the normal build stays as it is.
# Anchored to their modules: a bare "ErrorTests" would also pick the Wayland suites.
SANITIZER_TESTS = FuzzTests\.|InputRouterTests\.RandomStreamTests|IntegrationTests\.|RecordingTests\.ErrorTests|RealWorldBreakageTests|ToleranceTests|ReleaseAllTests
# IR_SANITIZER_SUBSET makes the manifest declare only the targets these suites need
# (Package.swift, at its end); no manifest cache, so the full build never sees the subset.
SANITIZER_SWIFT = IR_SANITIZER_SUBSET=1 $(SWIFT)
SANITIZER_FLAGS = --manifest-cache none
test-sanitizers: deps
	$(SANITIZER_SWIFT) build $(SANITIZER_FLAGS) --build-tests --sanitize=address --scratch-path .build/asan
	$(SANITIZER_SWIFT) test $(SANITIZER_FLAGS) --skip-build --parallel --sanitize=address --scratch-path .build/asan --filter '$(SANITIZER_TESTS)'
	$(SANITIZER_SWIFT) build $(SANITIZER_FLAGS) --build-tests --sanitize=thread --scratch-path .build/tsan
	$(SANITIZER_SWIFT) test $(SANITIZER_FLAGS) --skip-build --parallel --sanitize=thread --scratch-path .build/tsan --filter '$(SANITIZER_TESTS)'

# The soak (docs/soak.md): ir-compositor headless, 100 client processes connecting, mapping,
# copying, dragging, locking, typing and being killed, under looping synthetic input at
# about 1 kHz with devices unplugged and replugged each loop; a sample a second, the plot in
# .build/soak/soak.png (SOAK_PNG to put it elsewhere). Fails on growth past its bounds, an
# object outliving its client, an invariant violation or anything held after an unplug.
MINUTES ?= 60
SOAK_CLIENTS ?= 100
SOAK_PNG ?= .build/soak/soak.png
soak: deps
	$(SWIFT) build --product ir-compositor
	$(SWIFT) build --product wl-probe
	$(SWIFT) build --product wl-hostile
	tools/soak.py --bin-path $$($(SWIFT) build --show-bin-path) --minutes $(MINUTES) \
		--clients $(SOAK_CLIENTS) --png $(SOAK_PNG)
