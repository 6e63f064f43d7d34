#!/bin/sh
# Refuses a fuzz target that libFuzzer would run blind. The check is on the linked
# binary, by its own startup lines: "INFO: Loaded 1 modules (N inline 8-bit counters)"
# must be there and N must reach the floor below, which only a build with every Swift
# module of the target instrumented reaches (a target whose library modules lost
# -sanitize=fuzzer still loads the few counters of its own entry point).
#   tools/fuzz-check-binary.sh PATH/TO/TARGET
set -u
binary=$1
target=$(basename "$binary")
case $target in
    RouterFuzzer) floor=20000 ;;
    RecordingFuzzer) floor=20000 ;;
    KeyboardFuzzer) floor=20000 ;;
    WireFuzzer) floor=40000 ;;
    *) floor=1000 ;;
esac
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
log=$(SWIFT_BACKTRACE=enable=off "$binary" -runs=0 -artifact_prefix="$empty/" "$empty" 2>&1)
counters=$(printf '%s\n' "$log" | sed -n 's/.*Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' | head -1)
if [ -z "$counters" ] || [ "$counters" -eq 0 ]; then
    echo "$target: no coverage counters in the linked binary: libFuzzer would run blind" >&2
    printf '%s\n' "$log" | head -5 >&2
    exit 1
fi
if [ "$counters" -lt "$floor" ]; then
    echo "$target: only $counters coverage counters (at least $floor with every module instrumented)" >&2
    exit 1
fi
echo "$target: instrumented, $counters inline 8-bit counters"
