#!/bin/sh
# Which lines of the core (Sources/InputRouter) and of the Wayland layer
# (Sources/InputRouterWayland) the fuzzers reach over their corpus (docs/fuzzing.md).
#   tools/fuzz-coverage.sh
# Builds the targets with source-based coverage (the flags OSS-Fuzz's precompile_swift
# uses for SANITIZER=coverage), runs each once over its corpus (the working corpus in
# .build/fuzz/corpus/<name> if `make fuzz` made one, else the committed seeds), merges the
# profiles and prints llvm-cov's summary: per target, then all four together.
# The per-file report lands in .build/fuzz/coverage/report.txt.
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
bindir=$(dirname "$(command -v "$SWIFT")")
scratch=fuzz/.build/coverage
out=.build/fuzz/coverage
rm -rf "$out"
mkdir -p "$out"
targets="RouterFuzzer RecordingFuzzer KeyboardFuzzer WireFuzzer"
flags="-Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping --sanitize=fuzzer"
for t in $targets; do (cd fuzz && $SWIFT build --scratch-path .build/coverage $flags --product "$t"); done

runtime=$(mktemp -d)
chmod 700 "$runtime"
objects=""
for t in $targets; do
    case $t in
        RouterFuzzer) name=router ;; RecordingFuzzer) name=recording ;;
        KeyboardFuzzer) name=keyboard ;; WireFuzzer) name=wire ;;
    esac
    corpus=.build/fuzz/corpus/$name
    [ -d "$corpus" ] && [ -n "$(ls "$corpus")" ] || corpus=fuzz/corpus/$name
    binary=$scratch/debug/$t
    # -runs=0: every corpus file once, then exit. A finding would stop the run early; the
    # profile written so far still counts.
    XDG_RUNTIME_DIR=$runtime LLVM_PROFILE_FILE=$out/$t.profraw SWIFT_BACKTRACE=enable=off \
        "$binary" -runs=0 -max_len=32768 "$corpus" >"$out/$t.log" 2>&1 || echo "$t: the corpus run stopped early (see $out/$t.log)"
    "$bindir/llvm-profdata" merge -sparse "$out/$t.profraw" -o "$out/$t.profdata"
    echo "$t over $(ls "$corpus" | wc -l) inputs of $corpus:"
    for dir in Sources/InputRouter Sources/InputRouterWayland; do
        "$bindir/llvm-cov" report "$binary" -instr-profile="$out/$t.profdata" "$dir" | tail -1 |
            awk -v d="$dir" '{ printf "    %-22s lines %s of %s (%s), functions %s\n", d, $8 - $9, $8, $10, $7 }'
    done
    [ "$t" = RouterFuzzer ] || objects="$objects -object $binary"
done
rm -rf "$runtime"
"$bindir/llvm-profdata" merge -sparse "$out"/*.profdata -o "$out/all.profdata"
first=$scratch/debug/RouterFuzzer
echo "all targets:"
for dir in Sources/InputRouter Sources/InputRouterWayland; do
    # shellcheck disable=SC2086
    "$bindir/llvm-cov" report "$first" $objects -instr-profile="$out/all.profdata" "$dir" | tail -1 |
        awk -v d="$dir" '{ printf "    %-22s lines %s of %s (%s), functions %s\n", d, $8 - $9, $8, $10, $7 }'
done
# shellcheck disable=SC2086
"$bindir/llvm-cov" report "$first" $objects -instr-profile="$out/all.profdata" Sources/InputRouter Sources/InputRouterWayland >"$out/report.txt"
echo "per file: $out/report.txt (llvm-cov show $first $objects -instr-profile=$out/all.profdata FILE for the lines)"
