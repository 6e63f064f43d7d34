#!/bin/sh
# Runs one libFuzzer target for a while and prints what it did. Used by `make fuzz`.
#   fuzz/run.sh RouterFuzzer|RecordingFuzzer|KeyboardFuzzer|WireFuzzer SECONDS
# The working corpus (.build/fuzz/corpus/<target>) starts from the committed seeds
# (fuzz/corpus/<target>) and keeps growing between runs; findings land in
# .build/fuzz/findings/<target>/. Exit status 1 when the run found something.
set -u
target=$1
seconds=$2
case $target in
    RouterFuzzer) name=router; options="-max_len=8192" ;;
    RecordingFuzzer) name=recording; options="-max_len=32768 -dict=fuzz/recording.dict" ;;
    KeyboardFuzzer) name=keyboard; options="-max_len=4096" ;;
    WireFuzzer) name=wire; options="-max_len=4096" ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
esac
binary=${FUZZ_BINARY_DIR:-fuzz/.build/fuzzer/debug}/$target
corpus=.build/fuzz/corpus/$name
findings=.build/fuzz/findings/$name
log=.build/fuzz/$name.log
mkdir -p "$corpus" "$findings"
cp fuzz/corpus/$name/* "$corpus"/
before=$(ls "$findings" | wc -l)
start=$(date +%s)

# Swift's own backtracer would fight libFuzzer's crash handler; hashing must be
# deterministic for libFuzzer to reproduce an input.
runtime=$(mktemp -d)
chmod 700 "$runtime"
XDG_RUNTIME_DIR=$runtime SWIFT_BACKTRACE=enable=off SWIFT_DETERMINISTIC_HASHING=1 nice -n 10 "$binary" "$corpus" $options \
    -max_total_time="$seconds" -timeout=30 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
status=$?
rm -rf "$runtime"
elapsed=$(($(date +%s) - start))

counters=$(sed -n 's/.*Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -1)
if [ -z "$counters" ] || [ "$counters" -eq 0 ]; then
    echo "$target: the binary has no coverage instrumentation (rebuild with tools/fuzz-build.sh)" >&2
    exit 2
fi
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
after=$(ls "$findings" | wc -l)
echo "$target: ${elapsed}s of ${seconds}s, ${execs:-?} execs (${rate:-?}/s), ${coverage:-no coverage line}, corpus $(ls "$corpus" | wc -l) files, findings: $((after - before))"
if [ "$status" -ne 0 ] || [ "$after" -ne "$before" ]; then
    grep -m1 -E "Fatal error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)" "$log"
    ls -t "$findings" | head -n $((after - before)) | sed "s|^|    $findings/|"
    echo "    log: $log (reproduce: $binary <file>; explain: see docs/fuzzing.md)"
    exit 1
fi
