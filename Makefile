# The project's commands. Each installs what it needs on a fresh Debian 12 first.
#   make demo   the compositor, headless, with bundled clients and recordings
#   make nested the compositor as a window of your session (CLIENT=foot by default)
#   make test   build and run every test
#   make bench  release-mode benchmarks
#   make vm-test  real libinput end to end in a VM (qemu, slow; not part of make test)

SWIFT ?= swift
APT_PACKAGES = pkg-config libpixman-1-dev libwayland-dev wayland-protocols libinput-dev \
	libudev-dev libseat-dev libxkbcommon-dev xkb-data libx11-data locales libyaml-dev \
	wev weston foot
# Rendering: PNG files (zlib).
APT_PACKAGES += zlib1g-dev
# The nested backend's tests: weston (x11 backend) on Xvfb, input typed in with xdotool.
APT_PACKAGES += xvfb xdotool x11-xkb-utils
# apt-get runs only when a package is missing, so repeated runs stay fast.
DEPS_STAMP = .build/.apt-ok

.PHONY: deps demo nested test bench bench-deps vm-test
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

test: deps
	# The committed protocol code is what wayland-scanner makes of protocols/*.xml.
	tools/generate-protocols.sh --check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	# The hot path must not allocate: the release benchmark fails if routing does.
	$(SWIFT) build -c release --product core-bench
	.build/release/core-bench --check-allocations

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

bench: bench-deps .build/wlr-bench
	$(SWIFT) build -c release --product core-bench
	.build/release/core-bench --wlr .build/wlr-bench --scaling-data .build/hit-test-scaling.dat
	gnuplot -e "data='.build/hit-test-scaling.dat'; out='docs/hit-test-scaling.png'" benchmarks/hit-test-scaling.gp
	$(SWIFT) build -c release --product wayland-bench && .build/release/wayland-bench

vm-test: deps
	tools/vm-libinput-test.sh

# Hostile clients against the server for SECONDS (docs/hostile-clients.md).
.PHONY: hostile
SECONDS ?= 600
hostile: deps
	$(SWIFT) build --build-tests
	HOSTILE_SECONDS=$(SECONDS) $(SWIFT) test --skip-build --filter HostileClientTests
