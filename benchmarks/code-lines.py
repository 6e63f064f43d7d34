#!/usr/bin/env python3
"""The code one wayland-bench event kind runs in steady state, in 64-byte cache lines.

Where the time ratio of a kind exceeds its instruction ratio (make bench prints both, and
cachegrind's level-1 instruction-cache misses), this says why: how many distinct lines of
code the server's thread runs per event, routed and raw, against the 512 lines (32 KiB) of
this CPU's level-1 instruction cache, and which functions hold them. A line counts when it
runs at least once per ten events more in a run of 6N events than in one of N, so setup
cancels out. Usage (after `make bench`, which builds the release wayland-bench):

    benchmarks/code-lines.py click [N] [TOP]     (motion, click, key, touch; N 400, TOP 30)

It runs callgrind four times (routed and raw at two lengths), each a few seconds.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

kind = sys.argv[1] if len(sys.argv) > 1 else 'click'
n1 = int(sys.argv[2]) if len(sys.argv) > 2 else 400
top = int(sys.argv[3]) if len(sys.argv) > 3 else 30
n2 = 6 * n1
work = tempfile.mkdtemp()
binary = os.path.join(work, 'wayland-bench')
# valgrind 3.19 cannot read Swift 6's debug info: a stripped copy.
subprocess.run(['strip', '--strip-debug', '-o', binary, '.build/release/wayland-bench'], check=True)
env = dict(os.environ, XDG_RUNTIME_DIR=tempfile.mkdtemp())


def profile(way, n):
    """Instructions executed per code address on the server's thread (callgrind's first thread)."""
    out = os.path.join(work, f'{way}-{n}.out')
    subprocess.run(['valgrind', '--tool=callgrind', '--separate-threads=yes', '--dump-instr=yes',
                    '--compress-pos=no', f'--callgrind-out-file={out}', binary, '--only', kind, way, str(n)],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    counts, function_of, names = collections.Counter(), {}, {}
    function, address, after_call = None, 0, False
    for line in open(out + '-01', errors='replace'):
        named = re.match(r'c?fn=\((\d+)\)(?: (.*))?', line)
        if named:
            if named.group(2):
                names[named.group(1)] = named.group(2).strip()
            if line.startswith('fn='):
                function, after_call = names.get(named.group(1), named.group(1)), False
            continue
        if line.startswith('calls='):
            after_call = True  # the next cost line is the call's inclusive cost
            continue
        fields = line.split()
        if not fields or not re.match(r'0x[0-9a-f]+$', fields[0]):
            continue
        if after_call:
            after_call = False
            continue
        address = int(fields[0], 16)
        counts[address] += int(fields[-1])
        function_of[address] = function
    return counts, function_of


def lines(way):
    short, _ = profile(way, n1)
    long, function_of = profile(way, n2)
    by_function = collections.defaultdict(set)
    for address, count in long.items():
        if count - short.get(address, 0) >= (n2 - n1) // 10:
            by_function[function_of[address]].add(address >> 6)
    return by_function


routed, raw = lines('routed'), lines('raw')
total = lambda by_function: len(set().union(*by_function.values())) if by_function else 0
print(f'{kind}: code lines the server thread runs per event in steady state: routed {total(routed)}, '
      f'raw {total(raw)} (level-1 instruction cache: 512)\n')
rows = sorted(((len(v), len(raw.get(k, ())), k) for k, v in routed.items()), reverse=True)[:top]
demangled = subprocess.run(['swift-demangle', '--simplified'], input='\n'.join(k for _, _, k in rows),
                           capture_output=True, text=True).stdout.split('\n')
print('| routed | raw | function |\n|---:|---:|---|')
for (lines_routed, lines_raw, _), name in zip(rows, demangled):
    print(f'| {lines_routed} | {lines_raw or ""} | `{name[:120]}` |')
