#!/bin/bash -eu
# Builds every libFuzzer target of fuzz/ the way OSS-Fuzz's Swift builder image expects:
# with the flags its precompile_swift exports ($SWIFTFLAGS: -sanitize=fuzzer,$SANITIZER
# on every swiftc call, --sanitize=$SANITIZER; the static standard library is dropped,
# see below), then copies into $OUT each target, its seed corpus as
# <target>_seed_corpus.zip and its dictionary as <target>.dict.
# tools/oss-fuzz-local.sh runs this same script on a machine without the image.
#
# $SRC/inputrouter is the checkout; the build stays in $WORK.

# In the image precompile_swift exports SWIFTFLAGS; tools/oss-fuzz-local.sh sets it itself.
if [ -z "${SWIFTFLAGS:-}" ]; then . precompile_swift; fi

cd "$SRC/inputrouter/fuzz"
# SwiftPM links libFuzzer's main only when it is told about the fuzzer itself
# (--sanitize=fuzzer); -Xswiftc alone leaves `main` pointing at the module's own entry,
# which a file holding only @_cdecl("LLVMFuzzerTestOneInput") does not have.
flags="$SWIFTFLAGS --sanitize=fuzzer"
# The Swift runtime stays dynamic, copied beside the targets (SwiftPM links them with an
# rpath of $ORIGIN): linked statically, its link hides AddressSanitizer's malloc and free
# from the shared libraries (ld: "cannot export local symbol"), so memory xkbcommon
# allocates and Swift frees (the keymap text the server serves) is reported as "free
# on address which was not malloc()-ed" the first time a server starts.
flags=$(printf '%s' "$flags" | sed 's/-Xswiftc -static-stdlib//; s/--static-swift-stdlib//')
# Only the targets named in the package manifest: make-seeds has a main of its own.
targets="RouterFuzzer RecordingFuzzer KeyboardFuzzer WireFuzzer"
for t in $targets; do
    # shellcheck disable=SC2086  # the flags are words
    swift build -c debug --scratch-path "$WORK/swift-build" $flags --product "$t"
done

bin="$WORK/swift-build/debug"
for t in $targets; do
    cp "$bin/$t" "$OUT/$t"
    # The Swift runtime libraries the target loads (the runner image has none).
    ldd "$bin/$t" | awk '$3 ~ /\/swift\// { print $3 }' | while read -r lib; do cp -L "$lib" "$OUT/"; done
    case $t in
        RouterFuzzer) corpus=router ;;
        RecordingFuzzer) corpus=recording; cp recording.dict "$OUT/$t.dict" ;;
        KeyboardFuzzer) corpus=keyboard ;;
        WireFuzzer) corpus=wire ;;
    esac
    rm -f "$OUT/${t}_seed_corpus.zip"
    (cd "corpus/$corpus" && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*)
    # libFuzzer options for each target, as OSS-Fuzz reads them from <target>.options.
    case $t in
        RecordingFuzzer) printf '[libfuzzer]\nmax_len = 32768\ndict = %s.dict\n' "$t" >"$OUT/$t.options" ;;
        RouterFuzzer) printf '[libfuzzer]\nmax_len = 8192\n' >"$OUT/$t.options" ;;
        *) printf '[libfuzzer]\nmax_len = 4096\n' >"$OUT/$t.options" ;;
    esac
done
