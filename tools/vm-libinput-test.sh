#!/bin/sh
# Real libinput, end to end, in a VM: plays recordings into kernel uinput devices with
# `libinput replay` while both `libinput debug-events` and the project's libinput-trace
# (LibinputSource on the udev seat, direct opening) run, and compares what they saw,
# event by event per device (times aside), with Recording's DebugEventsReader. Then
# unplugs devices with keys, a button and two fingers held (tools/vm-unplug.py) and
# checks that nothing stays stuck in the routing core. Each of those cases also writes
# what LibinputSource saw with --record and reads it back. Then runs ir-compositor
# --input libinput itself with a real client (wl-probe, wev), devices present at its
# start and plugged in later, and checks every line the client printed against what
# libinput debug-events saw (tools/vm-client-check.py). Last, a VT switch with seatd:
# chvt 2 and back with keys, a button and a finger held (tools/vm-vt-check.py). Prints
# PASS/FAIL per case.
#
#   tools/vm-libinput-test.sh [CASE...]   on the host: installs what it needs, builds,
#                                         boots the VM, prints the results (cases:
#                                         keyboard mouse touchscreen touchpad
#                                         mouse-libseat unplug compositor-probe
#                                         compositor-wev compositor-outputs
#                                         compositor-seats compositor-gtk
#                                         compositor-tablet compositor-vt;
#                                         default all)
#   IR_COMPOSITOR=PATH tools/vm-libinput-test.sh compositor-probe   the same with another
#                                         ir-compositor build (e.g. one from before a fix)
#   IR_TABLET_GROUP=0 tools/vm-libinput-test.sh compositor-tablet   the tablet's pen and pad
#                                         in two libinput device groups (must FAIL)
#   tools/vm-libinput-test.sh --guest DIR CASE...  inside the VM (called by the host part)
#
# The VM is the host's own root filesystem, read-only, booted by virtme-ng (vng) with
# /tmp writable: the host's Swift binary, libinput and Python run inside as they are.
# No KVM here (--disable-kvm, plain emulation): about 20 s to boot, 30 to 45 minutes in all.
set -u

WORK=/tmp/inputrouter-vm
RECORDINGS="keyboard mouse touchscreen touchpad"

# libinput-replay creates its device at once, then waits for Enter on stdin; after
# replaying it asks again, and EOF on stdin ends it (its device goes away). Each replay
# reads a fifo on the guest's tmpfs (9p cannot hold one) held open on fd 3 or 4.
# READERS: the output files of the libinput readers that must have opened a new device
# before it plays (debug-events, line-buffered through stdbuf, and libinput-trace): each
# prints a DEVICE_ADDED line for it. A fixed wait was not enough on a loaded host: both
# readers opened a touchscreen after its events and saw none.
READERS=""
added() { n=$(grep -c 'DEVICE_ADDED' "$1" 2> /dev/null); echo "${n:-0}"; }
# replay_start FD NAME RECORDING: starts it and waits until its device exists.
replay_start() {
    counts=""
    for f in $READERS; do counts="$counts $f:$(added "$f")"; done
    eval "replay_counts_$1=\"\$counts\""
    fifo=/dev/shm/$2.fifo
    rm -f "$fifo" && mkfifo "$fifo" || exit 1
    # Nothing else may hold a fifo's writing end, or closing ours would not end its replay.
    # A .py is one of ours (vm-mouse-path.py), which prompts and ends as libinput replay does.
    case $3 in
    *.py) /usr/bin/python3 "$3" < "$fifo" > "$2.replay" 2>&1 3>&- 4>&- 5>&- & ;;
    *) /usr/bin/python3 /usr/libexec/libinput/libinput-replay "$3" < "$fifo" > "$2.replay" 2>&1 3>&- 4>&- 5>&- & ;;
    esac
    eval "replay_pid_$1=$!"
    eval "exec $1> $fifo"
    replay_wait "$2" 1
}
# replay_wait NAME N: until the replay has prompted N times (at most 5 min).
replay_wait() {
    i=0
    while [ "$(grep -o 'Hit enter' "$1.replay" | wc -l)" -lt "$2" ] && [ $i -lt 600 ]; do sleep 0.5; i=$((i + 1)); done
}
# replay_play FD NAME: plays it (once every reader has announced the device, and 1 s
# later), waits until it is done, removes the device and lets the removal settle.
replay_play() {
    eval "counts=\$replay_counts_$1"
    for entry in $counts; do
        i=0
        while [ "$(added "${entry%:*}")" -le "${entry##*:}" ] && [ $i -lt 240 ]; do sleep 0.5; i=$((i + 1)); done
    done
    sleep 1
    eval "echo >&$1"
    replay_wait "$2" 2
    eval "exec $1>&-"
    eval "pid=\$replay_pid_$1"
    i=0; while kill -0 "$pid" 2> /dev/null && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
    kill "$pid" 2> /dev/null
    wait "$pid"
    sleep 3
}

# ir-compositor --input libinput with one real client (wl-probe or wev): the keyboard and
# mouse recordings' devices exist before it starts, a touchscreen and a second keyboard
# are plugged in later. `libinput debug-events`, started first, sees the same devices:
# vm-client-check.py derives from it what the client must receive and compares.
compositor_case() {
    name=$1
    case $name in
    compositor-probe) client="/dev/shm/wl-probe --toplevel win 560x400" size=560x400 ;;
    # wev writes to a pipe: line-buffered (stdbuf), or its lines come in 4 KB blocks.
    compositor-wev) client="stdbuf -oL wev" size=640x480 ;;  # wev's own size
    # Two outputs side by side; the window (at the placement's 40,40) spans both, so every
    # place the cursor reaches, and where the layout's edges hold it, shows in its events.
    compositor-outputs) client="/dev/shm/wl-probe --toplevel win 1440x600" size=1440x600 ;;
    # Two seats: seat-b has the devices the udev rule (guest, below) gives it. Client 1 binds
    # seat-b's wl_seat, client 2 seat0's (vm-client-check.py --seats says what each must see).
    compositor-seats) client="/dev/shm/wl-probe --seat-index 1 --toplevel b 560x400" ;;
    # A GTK 3 entry typed into with the keyboard recording (vm-client-check.py --gtk).
    compositor-gtk) client="GDK_BACKEND=wayland NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory /usr/bin/python3 $PWD/vm-gtk-entry.py" ;;
    esac
    outputs="--size 640x480" layout="" inputs="--input libinput" second=""
    if [ "$name" = compositor-seats ]; then
        inputs="--input libinput --seat seat-b --input libinput"
        second="/dev/shm/wl-probe --toplevel a 10x10"
        sed 's/name: "Synthetic Fixture/name: "Seat B Fixture/' mouse.yml > seat-b-mouse.yml
        sed 's/name: "Synthetic Fixture/name: "Seat B Fixture/' keyboard.yml > seat-b-keyboard.yml
        stdbuf -oL libinput debug-events --udev seat-b --show-keycodes > "$name-b.expected" 2> "$name-b.libinput-log" &
        debug_b_pid=$!
    fi
    [ "$name" = compositor-outputs ] && outputs="--output 800x600 --output 640x480" layout=800x600,640x480
    export XDG_RUNTIME_DIR=/dev/shm/xdg-$name
    mkdir -m 0700 "$XDG_RUNTIME_DIR" || exit 1
    if [ "$name" = compositor-wev ]; then
        # Which wl_seat version wev binds, in libwayland's own words, from a short run
        # of its own (logging every message would slow the real run down).
        /dev/shm/ir-compositor --client "WAYLAND_DEBUG=client wev 2> $PWD/$name.wire" > /dev/null 2>&1 &
        pid=$!
        i=0; while ! grep -q '"wl_seat", [0-9]' "$name.wire" 2> /dev/null && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
        kill "$pid"; wait "$pid"
    fi
    stdbuf -oL libinput debug-events --show-keycodes > "$name.expected" 2> "$name.libinput-log" &
    debug_pid=$!
    sleep 2
    READERS="$name.expected"
    if [ "$name" = compositor-outputs ]; then
        replay_start 3 "$name-path" vm-mouse-path.py
    elif [ "$name" = compositor-seats ]; then
        replay_start 3 "$name-keyboard" keyboard.yml
        READERS="$name-b.expected"  # seat-b's devices: only its own debug-events sees them
        replay_start 4 "$name-mouse" seat-b-mouse.yml
    elif [ "$name" = compositor-gtk ]; then
        replay_start 3 "$name-keyboard" keyboard.yml
    else
        replay_start 3 "$name-keyboard" keyboard.yml
        replay_start 4 "$name-mouse" mouse.yml
    fi
    : > "$name.phases"
    /dev/shm/ir-compositor $inputs $outputs --trace "$name.trace" --client "$client" ${second:+--client "$second"} \
        > "$name.client" 2>&1 3>&- 4>&- &
    compositor_pid=$!
    # Started when it has the keyboard focus (keyboard.enter, in either client's words;
    # the GTK entry says ready once shown).
    i=0
    while ! grep -q 'keyboard.enter\|wl_keyboard\] enter\|^client 1 | ready' "$name.client" && [ $i -lt 120 ]; do
        sleep 0.5; i=$((i + 1))
    done
    # A phase ends once the client's output has stopped growing (for 2 s): a client that
    # prints much (wev) may still be writing what the last events made it say.
    settle() {
        before=-1; i=0
        while [ "$(wc -l < "$name.client")" != "$before" ] && [ $i -lt 60 ]; do
            before=$(wc -l < "$name.client"); sleep 2; i=$((i + 1))
        done
    }
    mark() {
        settle
        echo "$1 $(wc -l < "$name.client") $(grep -o '/dev/input/event[0-9]*' "$name-$1.replay" | head -n 1)" >> "$name.phases"
    }
    settle
    echo "start $(wc -l < "$name.client")" >> "$name.phases"
    if [ "$name" = compositor-outputs ]; then
        replay_play 3 "$name-path"; mark path
        kill "$compositor_pid" "$debug_pid"
        wait
        /usr/bin/python3 ./vm-client-check.py "$name" "$size" "$layout" >> results.txt 2>&1
        return
    fi
    replay_play 3 "$name-keyboard"; mark keyboard
    if [ "$name" = compositor-gtk ]; then
        kill "$compositor_pid" "$debug_pid"
        wait
        /usr/bin/python3 ./vm-client-check.py --gtk "$name" >> results.txt 2>&1
        return
    fi
    replay_play 4 "$name-mouse"; mark mouse
    # A device plugged in now is played once the compositor's libinput has added it
    # (its log says so), and 3 s later: the client has bound what the new capability
    # offers. A client that binds late misses events rightly; that is not under test.
    plug() {
        added=$(grep -c ': device is a' "$name.client")
        replay_start 3 "$name-$1" "$2"
        i=0
        while [ "$(grep -c ': device is a' "$name.client")" -le "$added" ] && [ $i -lt 120 ]; do sleep 0.5; i=$((i + 1)); done
        replay_play 3 "$name-$1"; mark "$1"
    }
    if [ "$name" = compositor-seats ]; then
        plug hotplug-keyboard seat-b-keyboard.yml
        kill "$compositor_pid" "$debug_pid" "$debug_b_pid"
        wait
        /usr/bin/python3 ./vm-client-check.py --seats "$name" >> results.txt 2>&1
        return
    fi
    plug touchscreen touchscreen.yml
    plug hotplug-keyboard keyboard.yml
    kill "$compositor_pid" "$debug_pid"
    wait
    /usr/bin/python3 ./vm-client-check.py "$name" "$size" >> results.txt 2>&1
}

# ir-compositor --input libinput with wl-probe bound to tablets, on two uinput devices made
# as the kernel's wacom driver makes an Intuos5's pen and pad (tablet-fixture-devices.py),
# present before it starts, in one libinput device group as a real tablet's are (the
# guest's udev rule, below). The pen strokes over the window, then the pad's buttons, ring
# and strip are used. vm-tablet-check.py compares what the client was told with what
# libinput's own tools report of the devices (list-devices: name, node, group; record:
# the ids) and saw of them (debug-events).
tablet_case() {
    name=$1
    export XDG_RUNTIME_DIR=/dev/shm/xdg-$name
    mkdir -m 0700 "$XDG_RUNTIME_DIR" || exit 1
    # The client's output has stopped growing (for 2 s).
    tablet_settle() {
        before=-1; i=0
        while [ "$(wc -l < "$name.client")" != "$before" ] && [ $i -lt 60 ]; do
            before=$(wc -l < "$name.client"); sleep 2; i=$((i + 1))
        done
    }
    stdbuf -oL libinput debug-events > "$name.expected" 2> "$name.libinput-log" &
    debug_pid=$!
    sleep 2
    fifo=/dev/shm/$name.fifo
    rm -f "$fifo" && mkfifo "$fifo" || exit 1
    /usr/bin/python3 ./tablet-fixture-devices.py "$fifo" > "$name.devices" 2>&1 &
    devices_pid=$!
    exec 3<> "$fifo"  # read-write: opening does not wait for the reader
    i=0
    while [ "$(grep -c 'DEVICE_ADDED.*Intuos5 M P' "$name.expected")" -lt 2 ] && [ $i -lt 240 ]; do sleep 0.5; i=$((i + 1)); done
    libinput list-devices > "$name.list-devices" 2>&1
    pen=$(head -n 1 "$name.devices" | cut -d' ' -f1)
    # record's header is libinput's word on the device's ids (`id: [bus, vendor, product,
    # version]`); it keeps the file only if it recorded events: it runs through the stroke.
    libinput record -o "/dev/shm/$name.pen.yml" "$pen" > "$name.record-log" 2>&1 &
    record_pid=$!
    i=0; while ! grep -q 'Recording to' "$name.record-log" && [ $i -lt 240 ]; do sleep 0.5; i=$((i + 1)); done
    for n in $(head -n 1 "$name.devices"); do echo "$n"; udevadm info --query=property "$n" | grep LIBINPUT_DEVICE_GROUP; done > "$name.udev"
    /dev/shm/ir-compositor --input libinput --size 640x480 --trace "$name.trace" \
        --client "/dev/shm/wl-probe --toplevel win 560x400 --tablet" > "$name.client" 2>&1 3>&- &
    compositor_pid=$!
    i=0; while ! grep -q 'pad.done' "$name.client" && [ $i -lt 240 ]; do sleep 0.5; i=$((i + 1)); done
    tablet_settle
    echo go >&3
    i=0; while ! grep -q played "$name.devices" && [ $i -lt 240 ]; do sleep 0.5; i=$((i + 1)); done
    # Emulated, the readers are seconds behind: until debug-events has seen the script's 16
    # pad events, and the client has said all it will.
    i=0; while [ "$(grep -c TABLET_PAD "$name.expected")" -lt 16 ] && [ $i -lt 600 ]; do sleep 0.5; i=$((i + 1)); done
    tablet_settle
    kill -INT "$record_pid"
    wait "$record_pid"
    cp "/dev/shm/$name.pen.yml" "$name.pen.yml"
    echo done >&3  # the devices go
    exec 3>&-
    wait "$devices_pid"
    tablet_settle
    kill "$compositor_pid" "$debug_pid"
    wait
    /usr/bin/python3 ./vm-tablet-check.py "$name" >> results.txt 2>&1
}

# compositor-vt: a session switch. seatd runs the seat (VT-bound seat0), ir-compositor
# --input libinput opens its devices through it (LIBSEAT_BACKEND=seatd) on VT 1 with
# wl-probe. Shift is held on a keyboard (vm-vt-keyboard.py), the left button on a mouse
# and a finger on a touchscreen (libinput replay of recordings that end held); then `chvt
# 2` takes the seat away and `chvt 1` gives it back; then A is typed with Shift still
# held, and Shift is let go and B typed. vm-vt-check.py says what the client must see in
# each phase (held, away, back, typing, release, end).
vt_case() {
    name=$1
    export XDG_RUNTIME_DIR=/dev/shm/xdg-$name
    mkdir -m 0700 "$XDG_RUNTIME_DIR" || exit 1
    timeout 120 chvt 1 || echo "chvt 1 did not return" >> "$name.phases"
    seatd -u root -g root -l debug > "$name.seatd-log" 2>&1 &
    seatd_pid=$!
    i=0; while [ ! -S /run/seatd.sock ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
    # The recordings: each device's description from the fixtures, and events that end
    # with the button held (after moving into the window) and with a finger down.
    sed '/^  events:/q' mouse.yml > vt-mouse.yml
    for k in 1 2 3 4 5 6 7 8 9 10; do
        printf '  - evdev:\n    - [  0, %6d,   2,   0,      10]\n    - [  0, %6d,   2,   1,      10]\n    - [  0, %6d,   0,   0,       0]\n' \
            $((k * 20000)) $((k * 20000)) $((k * 20000)) >> vt-mouse.yml
    done
    printf '  - evdev:\n    - [  0, 300000,   1, 272,       1]\n    - [  0, 300000,   0,   0,       0]\n' >> vt-mouse.yml
    sed '/^  events:/q' touchscreen.yml > vt-touchscreen.yml
    printf '  - evdev:\n    - [  0,      0,   3,  57,     100]\n    - [  0,      0,   3,  53,    1210]\n    - [  0,      0,   3,  54,     805]\n    - [  0,      0,   1, 330,       1]\n    - [  0,      0,   3,   0,    1210]\n    - [  0,      0,   3,   1,     805]\n    - [  0,      0,   0,   0,       0]\n' >> vt-touchscreen.yml
    READERS=""
    replay_start 3 "$name-keyboard" vm-vt-keyboard.py
    replay_start 4 "$name-mouse" vt-mouse.yml
    replay_start 5 "$name-touchscreen" vt-touchscreen.yml
    # The core's invariant checker on every delivery; an older build (IR_COMPOSITOR, to see
    # the case fail on it) may not have the option, and then fails for want of its report.
    invariants=""
    /dev/shm/ir-compositor --help | grep -q -- --check-invariants && invariants=--check-invariants
    LIBSEAT_BACKEND=seatd /dev/shm/ir-compositor --input libinput $invariants --size 640x480 --trace "$name.trace" \
        --client "/dev/shm/wl-probe --toplevel win 560x400" > "$name.client" 2>&1 3>&- 4>&- 5>&- &
    compositor_pid=$!
    i=0; while ! grep -q 'keyboard.enter' "$name.client" && [ $i -lt 120 ]; do sleep 0.5; i=$((i + 1)); done
    settle() {
        before=-1; i=0
        while [ "$(wc -l < "$name.client")" != "$before" ] && [ $i -lt 60 ]; do
            before=$(wc -l < "$name.client"); sleep 2; i=$((i + 1))
        done
    }
    mark() { settle; echo "$1 $(wc -l < "$name.client") $(cat /sys/class/tty/tty0/active)" >> "$name.phases"; }
    : > "$name.phases"
    mark start
    # play FD NAME N: plays the next step (the N-th prompt follows it), the device stays.
    play() { eval "echo >&$1"; replay_wait "$2" "$3"; }
    play 3 "$name-keyboard" 2
    play 4 "$name-mouse" 2
    play 5 "$name-touchscreen" 2
    mark held
    timeout 120 chvt 2 || echo "chvt 2 did not return" >> "$name.phases"
    mark away
    timeout 120 chvt 1 || echo "chvt 1 did not return" >> "$name.phases"
    mark back
    play 3 "$name-keyboard" 3; mark typing
    play 3 "$name-keyboard" 4; mark release
    exec 3>&- 4>&- 5>&-
    sleep 3
    mark end
    kill "$compositor_pid"
    wait "$compositor_pid"
    kill "$replay_pid_3" "$replay_pid_4" "$replay_pid_5" "$seatd_pid" 2> /dev/null
    wait
    /usr/bin/python3 ./vm-vt-check.py "$name" >> results.txt 2>&1
}

guest() {
    dir=$1
    shift
    cd "$dir" || exit 1
    modprobe uinput
    # compositor-seats: devices named "Seat B ..." belong to udev seat seat-b (what
    # `loginctl attach` writes for a real second seat, as a rule of its own): libinput's
    # udev backend takes a device for the seat its ID_SEAT names (seat0 when unset).
    mkdir -p /run/udev/rules.d
    echo 'SUBSYSTEM=="input", ATTRS{name}=="Seat B *", ENV{ID_SEAT}="seat-b"' > /run/udev/rules.d/72-inputrouter-seat-b.rules
    # compositor-tablet: the uinput pen and pad are one tablet, so one libinput device group,
    # as libinput-device-group (80-libinput-device-groups.rules) makes it of a real tablet's
    # USB interfaces from their shared phys. libevdev's uinput devices have no phys (the
    # kernel's is empty whatever python-libevdev was told), so the helper never runs for
    # them: this rule gives the value it gives an Intuos5 (bus/vendor/product:phys, the
    # interface's /inputN cut), after it (libinput's doc: LIBINPUT_DEVICE_GROUP).
    [ -f "$dir/no-tablet-group" ] ||
        echo 'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Wacom Intuos5 M Pen|Wacom Intuos5 M Pad", ENV{LIBINPUT_DEVICE_GROUP}="3/56a/2a:usb-0000:00:14.0-1"' \
            > /run/udev/rules.d/81-inputrouter-tablet-group.rules
    /lib/systemd/systemd-udevd --daemon
    udevadm trigger
    udevadm settle
    # The binaries run from the guest's RAM: paging them in from the host's /tmp (9p)
    # while events arrive would make them fall behind the kernel's event buffer.
    cp libinput-trace ir-compositor wl-probe /dev/shm/
    trace=/dev/shm/libinput-trace
    # So do the cases, in a directory there: a compositor writing its trace and its
    # client's lines to 9p fell behind a 100 Hz mouse (SYN_DROPPED). Each case's outputs
    # are copied to DIR once it is done.
    mkdir -p /dev/shm/run && cp ./*.yml ./*.py /dev/shm/run/ && cd /dev/shm/run || exit 1
    : > results.txt
    for name in "$@"; do
        cp -p ./* "$dir/" 2> /dev/null
        case $name in compositor-tablet) tablet_case "$name"; continue ;; compositor-vt) vt_case "$name"; continue ;; compositor-*) compositor_case "$name"; continue ;; esac
        # mouse-libseat: the same recording, devices opened through libseat (its builtin
        # seatd backend, as root in the VM) instead of open(2).
        recording=${name%-libseat}.yml
        access=""
        [ "$name" = mouse-libseat ] && access=--libseat
        # Tapping on, as LibinputSource's default configuration has it.
        stdbuf -oL libinput debug-events --show-keycodes --enable-tap > "$name.expected" 2> "$name.libinput-log" &
        debug_pid=$!
        $trace $access --record "$name.live.yml" --expect-clean > "$name.actual" 2> "$name.trace-log" &
        trace_pid=$!
        READERS="$name.expected $name.actual"
        sleep 3  # both have enumerated the seat
        if [ "$name" = unplug ]; then
            /usr/bin/python3 ./vm-unplug.py 8 > "$name.replay" 2>&1
            sleep 3  # the removal reaches both
        else
            # libinput-replay creates the device, then waits for Enter: Enter goes in 3 s
            # after the prompt, once both readers have opened the new device. It prompts
            # again after replaying; closing its stdin then ends it and its device goes
            # away (DEVICE_REMOVED).
            replay_start 3 "$name" "$recording"
            replay_play 3 "$name"  # and the removal reaches both
        fi
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
    cp -p ./* "$dir/" 2> /dev/null
}

host() {
    here=$(cd "$(dirname "$0")/.." && pwd)
    exec 9> /tmp/inputrouter-vm.lock
    flock -n 9 || { echo "another vm-libinput-test.sh is running"; exit 1; }
    missing=""
    # seatd and kbd (chvt): compositor-vt's session switch.
    for p in qemu-system-x86 linux-image-amd64 python3-libevdev libinput-tools busybox-static wev seatd kbd; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        echo "installing:$missing"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing > /dev/null || exit 1
    fi
    # virtme-ng is not packaged in Debian 12: pip, which there refuses the system Python
    # (PEP 668) unless told otherwise.
    if ! command -v vng > /dev/null; then
        command -v pip3 > /dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip > /dev/null || exit 1
        pip3 install -q virtme-ng 2> /dev/null || pip3 install -q --break-system-packages virtme-ng || exit 1
    fi
    kernel=$(ls /boot/vmlinuz-* 2> /dev/null | sort -V | tail -n 1)
    [ -n "$kernel" ] || { echo "no kernel in /boot (apt-get install linux-image-amd64)"; exit 1; }
    # Release: under emulation a debug build can fall behind the kernel's event buffer.
    for product in libinput-trace ir-compositor wl-probe; do
        (cd "$here" && swift build -c release --product $product) || exit 1
    done
    rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
    for f in .build/release/libinput-trace .build/release/ir-compositor .build/release/wl-probe \
        tools/vm-unplug.py tools/vm-client-check.py tools/vm-mouse-path.py tools/vm-gtk-entry.py \
        tools/tablet-fixture-devices.py tools/vm-tablet-check.py tools/vm-vt-keyboard.py tools/vm-vt-check.py \
        tools/vm-libinput-test.sh; do
        cp "$here/$f" "$WORK/" || exit 1
    done
    # IR_COMPOSITOR=PATH: the compositor cases run that build instead (an older one, to
    # see them fail on it).
    if [ -n "${IR_COMPOSITOR:-}" ]; then cp "$IR_COMPOSITOR" "$WORK/ir-compositor" || exit 1; fi
    # IR_TABLET_GROUP=0: compositor-tablet's pen and pad without the udev rule that makes
    # them one libinput device group (each its own, as libevdev makes them): it must FAIL.
    if [ "${IR_TABLET_GROUP:-1}" = 0 ]; then : > "$WORK/no-tablet-group"; fi
    for name in $RECORDINGS; do cp "$here/Tests/RecordingTests/Fixtures/$name.yml" "$WORK/" || exit 1; done
    echo "booting $kernel (no KVM: this takes a few minutes)"
    # An hour at most: the full run took 41 min on a host with load 25 to 31 (cut at 40).
    timeout 3600 vng -r "$kernel" --disable-kvm --cpus 2 --rwdir /tmp --exec "$WORK/vm-libinput-test.sh --guest $WORK $cases" \
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
    cases=${*:-$RECORDINGS mouse-libseat unplug compositor-probe compositor-wev compositor-outputs compositor-seats compositor-gtk compositor-tablet compositor-vt}
    host
fi
