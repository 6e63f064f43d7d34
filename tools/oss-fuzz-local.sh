#!/bin/sh
# Runs .clusterfuzzlite/build.sh here as OSS-Fuzz's Swift builder image runs it (ASan),
# then every target it put in $OUT for 20 s from its seed zip, with its options file:
# the integration is tested although neither ClusterFuzzLite nor OSS-Fuzz is reachable.
#   tools/oss-fuzz-local.sh [SECONDS]          (`make fuzz-oss`)
# $SRC, $WORK, $OUT live under .build/oss-fuzz/. Exit status 1 when a target did not
# build, is not instrumented, or failed its run.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-20}
base=$repo/.build/oss-fuzz
export SRC=$base/src WORK=$base/work OUT=$base/out
rm -rf "$SRC" "$OUT"
mkdir -p "$SRC" "$WORK" "$OUT"
ln -s "$repo" "$SRC/inputrouter"

# What the image sets for SANITIZER=address (infra/base-images/base-builder), and what
# precompile_swift then makes of it: every C flag passed on to clang through -Xcc=.
export SANITIZER=address FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=swift ARCHITECTURE=x86_64
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS"
SWIFTFLAGS="-Xswiftc -parse-as-library -Xswiftc -static-stdlib --static-swift-stdlib"
SWIFTFLAGS="$SWIFTFLAGS -Xswiftc -sanitize=fuzzer,$SANITIZER --sanitize=$SANITIZER"
for f in $CFLAGS; do SWIFTFLAGS="$SWIFTFLAGS -Xcc=$f"; done
export SWIFTFLAGS
export PATH=${SWIFT_BIN:-/opt/swift/usr/bin}:$PATH

(cd "$SRC/inputrouter" && bash -eu .clusterfuzzlite/build.sh)

status=0
runtime=$(mktemp -d)
chmod 700 "$runtime"
for binary in "$OUT"/*Fuzzer; do
    t=$(basename "$binary")
    "$repo/tools/fuzz-check-binary.sh" "$binary" || { status=1; continue; }
    corpus=$WORK/corpus/$t
    rm -rf "$corpus"
    mkdir -p "$corpus"
    unzip -q "$OUT/${t}_seed_corpus.zip" -d "$corpus"
    seeds=$(ls "$corpus" | wc -l)
    # The options file's [libfuzzer] lines, as the runner passes them.
    options=$(sed -n 's/^\([a-z_]*\) = \(.*\)$/-\1=\2/p' "$OUT/$t.options" | sed "s|-dict=|-dict=$OUT/|")
    log=$WORK/$t.log
    # shellcheck disable=SC2086
    if (cd "$OUT" && XDG_RUNTIME_DIR=$runtime SWIFT_BACKTRACE=enable=off nice -n 10 "$binary" "$corpus" $options \
        -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$WORK/$t-" >"$log" 2>&1); then
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "$t: ran ${seconds}s from $seeds seeds, $execs execs, $(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)"
    else
        echo "$t: FAILED (log: $log)"
        grep -m3 -E "ERROR|Fatal error|finding" "$log" || true
        status=1
    fi
done
rm -rf "$runtime"
ls -l "$OUT"
exit $status
