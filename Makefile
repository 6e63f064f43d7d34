# The project's commands. Each installs what it needs on a fresh Debian 12 first.
#   make demo   route a bundled event script through a bundled scene, print the trace
#   make test   build and run every test
#   make bench  release-mode benchmarks
#   make fuzz SECONDS=600   each libFuzzer target for that long (docs/fuzzing.md)
#   make test-sanitizers    the fuzz, chaos and stream tests under ASan and TSan

SWIFT ?= swift
APT_PACKAGES = pkg-config libpixman-1-dev libwayland-dev wayland-protocols libinput-dev \
	libudev-dev libseat-dev libxkbcommon-dev xkb-data libx11-data locales libyaml-dev
# apt-get runs only when a package is missing, so repeated runs stay fast.
DEPS_STAMP = .build/.apt-ok

.PHONY: deps demo test bench fuzz fuzz-seeds test-sanitizers
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

demo: deps
	$(SWIFT) run -c release route-demo examples/route-demo/scene.txt

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	# The hot path must not allocate: the release benchmark fails if routing does.
	$(SWIFT) build -c release --product core-bench
	.build/release/core-bench --check-allocations
	# Hostile-input suites under ASan and TSan: about 6 of the ~9 minutes (docs/fuzzing.md).
	$(MAKE) --no-print-directory test-sanitizers

bench: deps
	$(SWIFT) run -c release core-bench

# Fuzzing (docs/fuzzing.md). The targets live in their own package, fuzz/, so a plain
# build never links an executable whose main is libFuzzer's. One target runs at a time.
SECONDS ?= 60
FUZZ_TARGETS = RouterFuzzer RecordingFuzzer KeyboardFuzzer
# Always a clean build, checked: builds here have now and then compiled the main
# package's modules without -sanitize=fuzzer, which leaves libFuzzer blind.
FUZZ_BUILD = cd fuzz && $(SWIFT) build --sanitize=fuzzer --sanitize=address --scratch-path .build/fuzzer
FUZZ_INSTRUMENTED = for o in InputRouter.build/Seat.swift.o Keyboard.build/KeyboardState.swift.o \
	Recording.build/YAMLParser.swift.o FuzzSupport.build/RouterFuzz.swift.o; do \
	nm fuzz/.build/fuzzer/debug/$$o | grep -q __sancov || exit 1; done
fuzz: deps
	for attempt in 1 2 3; do \
		rm -rf fuzz/.build/fuzzer; \
		for t in $(FUZZ_TARGETS); do ($(FUZZ_BUILD) --product $$t) || exit 1; done; \
		if ($(FUZZ_INSTRUMENTED)); then break; fi; \
		echo "the fuzz build lost its coverage instrumentation; building again"; \
	done; ($(FUZZ_INSTRUMENTED))
	status=0; for t in $(FUZZ_TARGETS); do fuzz/run.sh $$t $(SECONDS) || status=1; done; exit $$status

# Rewrites the committed seed corpus from the generators.
fuzz-seeds:
	cd fuzz && $(SWIFT) run --scratch-path .build/plain make-seeds corpus

# The suites that drive hostile input, under AddressSanitizer and ThreadSanitizer, each in
# its own build directory so the normal build stays as it is.
SANITIZER_TESTS = FuzzTests|RandomStreamTests|IntegrationTests|ErrorTests|RealWorldBreakageTests|ToleranceTests|ReleaseAllTests
test-sanitizers: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	$(SWIFT) test --skip-build --parallel --sanitize=address --scratch-path .build/asan --filter '$(SANITIZER_TESTS)'
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	$(SWIFT) test --skip-build --parallel --sanitize=thread --scratch-path .build/tsan --filter '$(SANITIZER_TESTS)'
