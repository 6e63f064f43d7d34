#!/bin/sh
# Real libinput, end to end, in a VM: plays recordings into kernel uinput devices with
# `libinput replay` while both `libinput debug-events` and the project's libinput-trace
# (LibinputSource on the udev seat, direct opening) run, and compares what they saw,
# event by event per device (times aside), with Recording's DebugEventsReader. Then
# unplugs devices with keys, a button and two fingers held (tools/vm-unplug.py) and
# checks that nothing stays stuck in the routing core. Prints PASS/FAIL per case. Each
# case also writes what LibinputSource saw with --record and reads it back.
#
#   tools/vm-libinput-test.sh [CASE...]   on the host: installs what it needs, builds
#                                         libinput-trace, boots the VM, prints the results
#                                         (cases: keyboard mouse touchscreen touchpad
#                                         mouse-libseat unplug; default all)
#   tools/vm-libinput-test.sh --guest DIR CASE...  inside the VM (called by the host part)
#
# The VM is the host's own root filesystem, read-only, booted by virtme-ng (vng) with
# /tmp writable: the host's Swift binary, libinput and Python run inside as they are.
# No KVM here (--disable-kvm, plain emulation): about 20 s to boot, a few minutes in all.
set -u

WORK=/tmp/inputrouter-vm
RECORDINGS="keyboard mouse touchscreen touchpad"

guest() {
    dir=$1
    shift
    cd "$dir" || exit 1
    modprobe uinput
    /lib/systemd/systemd-udevd --daemon
    udevadm trigger
    udevadm settle
    : > results.txt
    # The binary runs from the guest's RAM: paging it in from the host's /tmp (9p) while
    # events arrive would make it fall behind the kernel's event buffer.
    cp libinput-trace /dev/shm/libinput-trace
    trace=/dev/shm/libinput-trace
    for name in "$@"; do
        # mouse-libseat: the same recording, devices opened through libseat (its builtin
        # seatd backend, as root in the VM) instead of open(2).
        recording=${name%-libseat}.yml
        access=""
        [ "$name" = mouse-libseat ] && access=--libseat
        # Tapping on, as LibinputSource's default configuration has it.
        libinput debug-events --show-keycodes --enable-tap > "$name.expected" 2> "$name.libinput-log" &
        debug_pid=$!
        $trace $access --record "$name.live.yml" --expect-clean > "$name.actual" 2> "$name.trace-log" &
        trace_pid=$!
        sleep 3  # both have enumerated the seat
        if [ "$name" = unplug ]; then
            /usr/bin/python3 ./vm-unplug.py 8 > "$name.replay" 2>&1
        else
            # libinput-replay creates the device, then waits for Enter: Enter goes in 3 s
            # after the prompt, once both readers have opened the new device. It prompts
            # again after replaying; closing its stdin then ends it and its device goes
            # away (DEVICE_REMOVED).
            fifo=/dev/shm/$name.fifo  # the guest's tmpfs: 9p cannot hold a fifo
            rm -f "$fifo" && mkfifo "$fifo" || exit 1
            /usr/bin/python3 /usr/libexec/libinput/libinput-replay "$recording" < "$fifo" > "$name.replay" 2>&1 &
            replay_pid=$!
            exec 3> "$fifo"
            prompts() { grep -o 'Hit enter' "$name.replay" | wc -l; }
            i=0; while [ "$(prompts)" -lt 1 ] && [ $i -lt 240 ]; do sleep 0.5; i=$((i + 1)); done
            sleep 3
            echo >&3
            i=0; while [ "$(prompts)" -lt 2 ] && [ $i -lt 600 ]; do sleep 0.5; i=$((i + 1)); done
            exec 3>&-
            wait "$replay_pid"
        fi
        sleep 3  # the removal reaches both
        kill "$trace_pid" "$debug_pid"
        wait "$trace_pid"
        trace_status=$?
        wait "$debug_pid"
        if $trace --compare "$name.expected" "$name.actual" > "$name.compare" 2>&1 && [ "$trace_status" = 0 ]; then
            verdict=PASS
        else
            verdict=FAIL
        fi
        {
            echo "$verdict $name"
            sed 's/^/    /' "$name.compare"
            grep '^# core\|^# CLEAN\|^# STUCK\|^# recording' "$name.trace-log" | sed 's/^/    /'
        } >> results.txt
    done
    echo done >> results.txt
}

host() {
    here=$(cd "$(dirname "$0")/.." && pwd)
    exec 9> /tmp/inputrouter-vm.lock
    flock -n 9 || { echo "another vm-libinput-test.sh is running"; exit 1; }
    missing=""
    for p in qemu-system-x86 linux-image-amd64 python3-libevdev libinput-tools busybox-static; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        echo "installing:$missing"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing > /dev/null || exit 1
    fi
    command -v vng > /dev/null || pip install -q virtme-ng || exit 1
    kernel=$(ls /boot/vmlinuz-* 2> /dev/null | sort -V | tail -n 1)
    [ -n "$kernel" ] || { echo "no kernel in /boot (apt-get install linux-image-amd64)"; exit 1; }
    # Release: under emulation a debug build can fall behind the kernel's event buffer.
    (cd "$here" && swift build -c release --product libinput-trace) || exit 1
    rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
    cp "$here/.build/release/libinput-trace" "$here/tools/vm-unplug.py" "$here/tools/vm-libinput-test.sh" "$WORK/"
    for name in $RECORDINGS; do cp "$here/Tests/RecordingTests/Fixtures/$name.yml" "$WORK/" || exit 1; done
    echo "booting $kernel (no KVM: this takes a few minutes)"
    timeout 900 vng -r "$kernel" --disable-kvm --cpus 2 --rwdir /tmp --exec "$WORK/vm-libinput-test.sh --guest $WORK $cases" \
        > "$WORK/vm.log" 2>&1
    if ! grep -q '^done' "$WORK/results.txt" 2> /dev/null; then
        echo "FAIL: the VM run did not finish; see $WORK/vm.log"
        tail -n 20 "$WORK/vm.log"
        exit 1
    fi
    grep -v '^done' "$WORK/results.txt"
    echo "(outputs in $WORK: NAME.expected is libinput debug-events, NAME.actual libinput-trace)"
    ! grep -q '^FAIL' "$WORK/results.txt"
}

if [ "${1:-}" = "--guest" ]; then
    shift
    guest "$@"
else
    cases=${*:-$RECORDINGS mouse-libseat unplug}
    host
fi
