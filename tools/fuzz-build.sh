#!/bin/sh
# Builds the libFuzzer targets of fuzz/ and proves each linked binary is instrumented.
#   tools/fuzz-build.sh [TARGET...]      (default: every target; used by `make fuzz`)
#
# Every module gets its flags from -Xswiftc/-Xcc, passed to every compiler and linker
# invocation, as OSS-Fuzz's precompile_swift does: `--sanitize=fuzzer` alone once left
# the main package's modules uninstrumented on a fresh clone, and libFuzzer ran blind.
# Always from clean, so the binaries do not depend on what was built before.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
targets=${*:-"RouterFuzzer RecordingFuzzer KeyboardFuzzer WireFuzzer"}
scratch=fuzz/.build/fuzzer
# --sanitize=fuzzer as well: without it SwiftPM points `main` at the module's own entry
# (which a file with only @_cdecl does not have) instead of libFuzzer's.
flags="-Xswiftc -sanitize=fuzzer,address --sanitize=fuzzer --sanitize=address -Xcc -fsanitize=fuzzer-no-link"
rm -rf "$scratch"
for t in $targets; do
    (cd fuzz && $SWIFT build --scratch-path .build/fuzzer $flags --product "$t")
done
for t in $targets; do tools/fuzz-check-binary.sh "$scratch/debug/$t"; done
